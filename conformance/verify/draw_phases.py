"""The timings the draw campaigns ask: every event that starts, resets, changes or ends a count,
placed at every phase of the count.

A draw-rule bug often shows only when an event falls at a particular time of a count: a man move
on the ply the 6.2 count would expire, a capture taking 6.3 into 6.4 just before 6.3's count runs
out, a repetition completing on a count's last ply, a promotion on the first ply of an ending...
So each event is placed at a *phase* of the count it falls in (:data:`PHASES`: the count's first
ply, early, middle, its last few plies, or the boundary -- the ply the count would expire), and the
grid of (rule, event, phase) cells (:data:`GRID`) lists every combination a game can have. The
campaigns' game templates (:mod:`conformance.verify.draw_campaigns`) place their events at phases
taken in turn, so that the first rounds of a run ask every cell; :func:`phase_table` prints which
cells a run asked, so that a gap shows.

The events, by count:

* 6.2 (50 plies of king moves): a man move, a capture or a promotion resets it; a repetition (6.1)
  or a win (7.2) ends the game inside it;
* 6.3 (32 plies) and 6.4 (10 plies): a man move or a promotion inside the group (the count goes on:
  reading ``endgame-no-restart``), for 6.4 also a capture inside the group; a capture by the lone
  king taking 6.3 into 6.4 (``endgame-group-change``); a repetition or a win; a lone man crowned,
  which makes the ending arise (``endgame-lone-king-only``: its phase is counted from the setup, as a
  count applied against the lone man would run); for 6.3, the lone king alone on the long diagonal
  (``long-diagonal-not-applied``).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable
from typing import Final

PHASES: Final = ("first", "early", "middle", "late", "boundary")
"""Where in a count an event falls: its first ply, the first third, the middle, the last three
plies before the boundary, and the boundary itself (the ply the count would expire)."""

COUNTS: Final = {"6.2": 50, "6.3": 32, "6.4": 10}
"""The counts in plies."""

MAN_MOVE: Final = "man move"
CAPTURE: Final = "capture"
PROMOTION: Final = "promotion"
REPETITION: Final = "repetition"
WIN: Final = "win"
GROUP_CHANGE: Final = "group change"
LONE_MAN_CROWNED: Final = "lone man crowned"
DIAGONAL: Final = "long diagonal"
"""The lone king alone on the long diagonal 46-5 from a ply of 6.3's count on (where the 2024
clause the project does not apply would end the count)."""

REPEAT_FROM: Final = 8
"""The earliest ply of a count on which a third occurrence can complete (two returns of four)."""

LONE_MAN_MOVES: Final = 8
"""The moves a lone man makes at most before it is crowned here (it starts on its second row)."""

LONE_MAN_FROM: Final = 3
"""The earliest ply a lone man is crowned at in the campaigns: before it, a count run against the
lone man from the setup expires a ply or two before the real one, which a count a ply or two short
does too (no control game can tell them apart: from one setup the man is crowned at one ply)."""

SHORTENED: Final = 10
"""The ply of 6.3's count the 2024 clause would end it on (five moves each), read one way."""


@dataclasses.dataclass(frozen=True, order=True)
class Cell:
    """One timing the campaigns must ask: an event of ``rule``'s count at a phase of it."""

    rule: str
    event: str
    phase: str

    def __str__(self) -> str:
        return f"{self.rule} {self.event} @{self.phase}"


def _row(rule: str, event: str, phases: Iterable[str] = PHASES) -> tuple[Cell, ...]:
    return tuple(Cell(rule, event, phase) for phase in phases)


_ENDS: Final = ("early", "middle", "late", "boundary")

GRID: Final[tuple[Cell, ...]] = (
    *_row("6.2", MAN_MOVE),
    *_row("6.2", CAPTURE),
    *_row("6.2", PROMOTION),
    *_row("6.2", REPETITION, _ENDS),
    *_row("6.2", WIN),
    *_row("6.3", MAN_MOVE),
    *_row("6.3", PROMOTION),
    *_row("6.3", GROUP_CHANGE),
    *_row("6.3", REPETITION, _ENDS),
    *_row("6.3", WIN),
    *_row("6.3", LONE_MAN_CROWNED, ("early", "middle")),
    *_row("6.3", DIAGONAL, ("early", "middle", "late")),
    *_row("6.4", MAN_MOVE),
    *_row("6.4", PROMOTION),
    *_row("6.4", CAPTURE),
    *_row("6.4", REPETITION, ("late", "boundary")),
    *_row("6.4", WIN),
    *_row("6.4", LONE_MAN_CROWNED, ("early", "middle", "late", "boundary")),
)
"""Every (rule, event, phase) a game can have and the campaigns can tell: a repetition needs eight
plies of its count; a lone man is crowned within its eight moves, so never late in 6.3's count,
and from the third ply on (:data:`LONE_MAN_FROM`); the lone king reaching the long diagonal before
the shortened count ran out is asked in the early phase, at its tenth ply."""


def phase_range(rule: str, phase: str, event: str = "") -> range:
    """The plies of ``rule``'s count that make ``phase`` (1 is the count's first ply)."""
    length = COUNTS[rule]
    third = length // 3
    ranges = {
        "first": range(1, 2),
        "early": range(2, third + 1),
        "middle": range(third + 1, length - 3),
        "late": range(length - 3, length),
        "boundary": range(length, length + 1),
    }
    found = ranges[phase]
    if event == REPETITION:
        found = range(max(found.start, REPEAT_FROM), found.stop)
    if event == LONE_MAN_CROWNED:
        found = range(max(found.start, LONE_MAN_FROM), min(found.stop, 2 * LONE_MAN_MOVES + 1))
    if event == DIAGONAL and phase == "early":
        found = range(SHORTENED, SHORTENED + 1)
    if not found:
        raise ValueError(f"no ply of {rule}'s count is {phase} for a {event or 'event'}")
    return found


def phase_of(rule: str, ply: int) -> str:
    """The phase of ``rule``'s count that its ``ply``-th ply is in."""
    for phase in PHASES:
        if ply in phase_range(rule, phase):
            return phase
    raise ValueError(f"ply {ply} is outside {rule}'s count of {COUNTS[rule]}")


def place(rule: str, phase: str, event: str, rng: random.Random, odd: bool | None = None) -> int:
    """A ply of ``rule``'s count in ``phase`` for ``event``: random within the phase, odd or even
    if asked (the side that plays the event), the nearest one of that parity otherwise."""
    plies = list(phase_range(rule, phase, event))
    fitting = [p for p in plies if odd is None or p % 2 == int(odd)]
    if fitting:
        return rng.choice(fitting)
    raise ValueError(f"no {'odd' if odd else 'even'} ply of {rule}'s count is {phase} for a {event}")


def phase_table(asked: Iterable[Cell]) -> list[str]:
    """The table of :data:`GRID`: how many games asked each (rule, event) at each phase ('-' where
    a game cannot have it, 0 a gap), and the gaps counted."""
    counts = Counter(asked)
    rows = sorted({(cell.rule, cell.event) for cell in GRID}, key=lambda r: (r[0], _order(r[1])))
    width = max(len(f"{rule} {event}") for rule, event in rows)
    lines = [f"{'':{width}}  " + " ".join(f"{phase:>8}" for phase in PHASES)]
    gaps = 0
    for rule, event in rows:
        cells = []
        for phase in PHASES:
            cell = Cell(rule, event, phase)
            if cell not in GRID:
                cells.append(f"{'-':>8}")
                continue
            gaps += not counts[cell]
            cells.append(f"{counts[cell]:>8}")
        lines.append(f"{rule + ' ' + event:{width}}  " + " ".join(cells))
    asked_cells = sum(1 for cell in GRID if counts[cell])
    lines.append(f"{asked_cells} of {len(GRID)} timings asked" + (f", {gaps} not asked" if gaps else ""))
    return lines


def _order(event: str) -> int:
    events = (MAN_MOVE, PROMOTION, CAPTURE, GROUP_CHANGE, LONE_MAN_CROWNED, DIAGONAL, REPETITION, WIN)
    return events.index(event)
