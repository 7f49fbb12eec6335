"""The game templates of the draw campaigns: a count, the events placed in it at phases, its end.

A :class:`Template` names a count (6.2, 6.3 or 6.4) and places events in it, each at a phase:

* 6.2 -- resets (a man move, a capture, a promotion), each at a phase of the count it resets,
  then an end: the draw, a repetition (6.1) or a win (7.2) at a phase of the last count;
* 6.3 / 6.4 -- how the ending arises (present at the setup, or a lone man crowned at a phase of the
  count a lone man would have), changes inside the group (a man move, a promotion, for 6.4 a
  capture), then an end: the draw, a repetition, a win, or (6.3) the capture taking the game into
  6.4, whose count then runs out; or the lone king alone on the long diagonal from a phase on.

:data:`TEMPLATES` covers every cell of :data:`~conformance.verify.draw_phases.GRID`, a test checks
it; :func:`conformance.verify.draw_plans.plan` turns one into an abstract game.
"""

from __future__ import annotations

import dataclasses
from typing import Final

__all__ = ["DRAW", "TEMPLATES", "Step", "Template"]

DRAW: Final = "draw"
"""The end of a template that lets the count run out."""

Step = tuple[str, str]
"""An event and its phase."""


@dataclasses.dataclass(frozen=True)
class Template:
    """A game to steer: the count, how its ending arises, the events inside it, and its end."""

    name: str
    rule: str
    """The count the events fall in: 6.2, 6.3 or 6.4."""
    article: str
    """The rule a game is filed under when the engine agrees: an article or a reading."""
    steps: tuple[Step, ...] = ()
    end: Step = (DRAW, "boundary")
    lone_man: str | None = None
    """6.3/6.4: the ending arises when a lone man is crowned, at this phase (else at the setup)."""
    by_capture: bool = False
    """6.3/6.4: the ending arises when the strong side takes the weak side's second king, at ply
    2-6 (else at the setup): a capture on the count's first ply can then be had without a capture
    at the setup, which the control games could not avoid (captures are compulsory)."""
    flying: bool = False
    """The game needs long king moves (an occurrence with the other side to move in between)."""
    short_moves: bool = True
    """A game of one-square king moves is sought half of the time (for engines whose kings do not
    fly). Off where the campaign's budget (almost) never finds one, so that a game does not spend
    it first: captures by kings moving one square, each compulsory, after quiet moves free of any
    capture a flying king could make. Measured (plans tried with one-square king moves, 4-8
    games of each template): 6.4-capture-win found none in 30 plans of 12 and of 40 starts (2 in
    20 plans of 300 starts of 5,000 nodes each, 2.4 s a plan); 6.3-inside-change and
    6.4-inside-win-boundary none in 24 plans within :data:`~conformance.verify.draw_campaigns.TOTAL_NODES`
    (1 or 2 in 28 plans of 40 starts before)."""


def _steps(text: str) -> tuple[Step, ...]:
    """``"man move@first, promotion@early"`` as steps."""
    return tuple((event, phase) for event, phase in (item.split("@") for item in text.split(", ") if item))


_SPEC: Final = (
    # name, count, article filed under when right, steps, end, options
    # 6.2: resets at each phase; a repetition and a win at each phase of the count after them
    ("6.2-promo-cap-rep", "6.2", "draw-precedence", "promotion@first, capture@middle", "repetition@boundary"),
    ("6.2-man-win-early", "6.2", "6.2", "man move@first", "win@early"),
    ("6.2-cap-man-rep-early", "6.2", "6.1", "capture@early, man move@late", "repetition@early", "flying"),
    ("6.2-man-win-first", "6.2", "6.2", "man move@early", "win@first"),
    ("6.2-cap-promo-rep-mid", "6.2", "6.1", "capture@first, promotion@middle", "repetition@middle"),
    ("6.2-win-middle", "6.2", "6.2", "", "win@middle"),
    ("6.2-man-promo-rep-late", "6.2", "6.1", "man move@middle, promotion@early", "repetition@late"),
    ("6.2-win-late", "6.2", "6.2", "", "win@late"),
    ("6.2-cap-promo-late", "6.2", "6.2", "capture@late, promotion@late", "draw@boundary"),
    ("6.2-win-boundary", "6.2", "win-beats-draw", "", "win@boundary"),
    ("6.2-man-cap-boundary", "6.2", "6.2", "man move@boundary, capture@boundary", "draw@boundary"),
    ("6.2-promo-boundary", "6.2", "6.2", "promotion@boundary", "draw@boundary"),
    # 6.3: man moves and promotions inside, every end at each phase, a lone man crowned, the diagonal
    ("6.3-inside-rep", "6.3", "endgame-no-restart", "man move@first, promotion@early", "repetition@middle"),
    ("6.3-inside-win", "6.3", "endgame-no-restart", "man move@early, promotion@middle", "win@late"),
    (
        "6.3-inside-change",
        "6.3",
        "endgame-group-change",
        "man move@middle, promotion@late",
        "group change@boundary",
        "long moves",
    ),
    ("6.3-inside-draw", "6.3", "endgame-no-restart", "man move@late, promotion@boundary", "draw@boundary"),
    ("6.3-man-on-boundary", "6.3", "endgame-no-restart", "man move@boundary", "draw@boundary"),
    ("6.3-promo-rep", "6.3", "endgame-no-restart", "promotion@first, man move@middle", "repetition@late"),
    ("6.3-change-first", "6.3", "endgame-group-change", "", "group change@first", "by capture"),
    ("6.3-man-change", "6.3", "endgame-group-change", "man move@first", "group change@early"),
    ("6.3-promo-change", "6.3", "endgame-group-change", "promotion@early", "group change@middle"),
    ("6.3-change-late", "6.3", "endgame-group-change", "", "group change@late"),
    ("6.3-rep-boundary", "6.3", "draw-precedence", "", "repetition@boundary"),
    ("6.3-rep-early", "6.3", "6.1", "", "repetition@early"),
    ("6.3-win-first", "6.3", "6.3", "", "win@first"),
    ("6.3-lone-man-win", "6.3", "endgame-lone-king-only", "", "win@early", "lone man@early"),
    ("6.3-lone-man-win-mid", "6.3", "endgame-lone-king-only", "", "win@middle", "lone man@middle"),
    ("6.3-win-boundary", "6.3", "win-beats-draw", "", "win@boundary"),
    ("6.3-diagonal-early", "6.3", "long-diagonal-not-applied", "", "long diagonal@early"),
    ("6.3-diagonal-middle", "6.3", "long-diagonal-not-applied", "", "long diagonal@middle"),
    # 6.4: a man move, a promotion and a capture inside at each phase, every end, a lone man crowned
    (
        "6.4-inside-win",
        "6.4",
        "endgame-no-restart",
        "man move@first, promotion@early, capture@middle",
        "win@late",
    ),
    (
        "6.4-inside-win-boundary",
        "6.4",
        "win-beats-draw",
        "man move@early, promotion@middle, capture@late",
        "win@boundary",
        "long moves",
    ),
    (
        "6.4-inside-capture-boundary",
        "6.4",
        "endgame-no-restart",
        "man move@middle, promotion@late, capture@boundary",
        "draw@boundary",
    ),
    (
        "6.4-inside-promo-boundary",
        "6.4",
        "endgame-no-restart",
        "man move@late, promotion@boundary",
        "draw@boundary",
    ),
    ("6.4-man-boundary", "6.4", "endgame-no-restart", "man move@boundary", "draw@boundary"),
    ("6.4-promo-win", "6.4", "endgame-no-restart", "promotion@first, capture@early", "win@middle"),
    (
        "6.4-capture-win",
        "6.4",
        "endgame-no-restart",
        "capture@first",
        "win@early",
        "by capture",
        "long moves",
    ),
    ("6.4-win-first", "6.4", "6.4", "", "win@first"),
    ("6.4-rep-late", "6.4", "6.1", "", "repetition@late"),
    ("6.4-rep-boundary", "6.4", "draw-precedence", "", "repetition@boundary"),
    ("6.4-lone-man-early", "6.4", "endgame-lone-king-only", "", "draw@boundary", "lone man@early"),
    ("6.4-lone-man-middle", "6.4", "endgame-lone-king-only", "", "draw@boundary", "lone man@middle"),
    ("6.4-lone-man-late", "6.4", "endgame-lone-king-only", "", "draw@boundary", "lone man@late"),
    ("6.4-lone-man-boundary", "6.4", "endgame-lone-king-only", "", "draw@boundary", "lone man@boundary"),
    ("6.3-diagonal-late", "6.3", "long-diagonal-not-applied", "", "long diagonal@late"),
)


def _template(name: str, rule: str, article: str, steps: str, end: str, *options: str) -> Template:
    lone = next((option.split("@")[1] for option in options if option.startswith("lone man@")), None)
    (end_step,) = _steps(end)
    return Template(
        name,
        rule,
        article,
        _steps(steps),
        end_step,
        lone_man=lone,
        flying="flying" in options,
        short_moves="long moves" not in options,
        by_capture="by capture" in options,
    )


TEMPLATES: Final[tuple[Template, ...]] = tuple(_template(*spec) for spec in _SPEC)
"""The game templates, in the order the ``draws`` positions of a run take them (round ``r``:
``TEMPLATES[r % len(TEMPLATES)]``)."""
