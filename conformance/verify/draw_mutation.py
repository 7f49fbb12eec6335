"""The mutation score of the draw proofs: every piece of the machine broken in turn must fail a proof.

A proof that still holds when the machine is wrong proves nothing about the machine. Each
:class:`~conformance.verify.draw_machine_mutants.MachineMutant` is
:class:`~conformance.verify.draw_machine.DrawMachine` with one piece (:data:`DrawMachine.PIECES`: a
helper, a counter's update or reset, an expiry, the win against a draw, the tie-break, the
winner...) overridden by the kind of bug a programmer makes there; every piece has at least one
(:mod:`conformance.verify.draw_machine_mutants`). :func:`score` runs the properties of
:mod:`conformance.verify.draw_bmc` against each mutant and records which find a counterexample
(killed) and which still hold: every mutant must be killed by some property, and :func:`table`
prints the mutant x property table.

    python -m conformance.verify.draw_model mutate [--depth 17] [--full]
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence

from conformance.core.draw_events import DrawRules
from conformance.verify.draw_bmc import SMALL, Property, prove
from conformance.verify.draw_machine_mutants import MUTANTS, MachineMutant
from conformance.verify.draw_properties import PROPERTIES

__all__ = ["Cell", "Score", "score", "table"]


@dataclasses.dataclass(frozen=True)
class Cell:
    """One property against one mutant: the ply of its counterexample, or None (it held)."""

    killed_at: int | None
    seconds: float


@dataclasses.dataclass(frozen=True)
class Score:
    """The mutant x property table, and what it says."""

    depth: int
    properties: tuple[str, ...]
    cells: dict[str, dict[str, Cell]]
    """mutant -> property -> cell (a property not asked of a mutant is missing)."""

    def killers(self, mutant: str) -> list[str]:
        return [p for p, cell in self.cells[mutant].items() if cell.killed_at is not None]

    @property
    def survivors(self) -> list[str]:
        return [name for name in self.cells if not self.killers(name)]

    @property
    def killed(self) -> int:
        return len(self.cells) - len(self.survivors)


def score(
    depth: int = 17,
    rules: DrawRules = SMALL,
    *,
    mutants: Sequence[MachineMutant] = MUTANTS,
    properties: Sequence[Property] = PROPERTIES,
    full: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Score:
    """Each mutant against the properties, to ``depth`` plies under ``rules``. Without ``full``, a
    mutant meets its ``killer`` first, then the others in order, until one kills it (the rest of
    its row is not asked)."""
    cells: dict[str, dict[str, Cell]] = {}
    for mutant in mutants:
        row: dict[str, Cell] = {}
        ordered = sorted(properties, key=lambda p: (p.name != mutant.killer, properties.index(p)))
        for prop in properties if full else ordered:
            began = time.perf_counter()
            result = prove(prop, depth, rules, machine=mutant.machine, witnesses=False)
            killed = None if result.counterexample is None else result.counterexample.ply
            row[prop.name] = Cell(killed, time.perf_counter() - began)
            if killed is not None and not full:
                break
        cells[mutant.name] = row
        if progress is not None:
            progress(mutant.name)
    return Score(depth, tuple(p.name for p in properties), cells)


def table(found: Score) -> list[str]:
    """The mutant x property table: the ply of each counterexample, ``.`` where the property held
    to the depth, blank where it was not asked; the properties numbered in the header."""
    names = found.properties
    width = max(len(name) for name in found.cells)
    lines = [" " * width + " " + " ".join(f"{'p' + str(i):>4}" for i in range(1, len(names) + 1))]
    for mutant, row in found.cells.items():
        cells = []
        for name in names:
            cell = row.get(name)
            cells.append(
                f"{'':>4}" if cell is None else f"{'.' if cell.killed_at is None else cell.killed_at:>4}"
            )
        lines.append(f"{mutant:<{width}} {' '.join(cells)}")
    lines += [f"  p{i} = {name}" for i, name in enumerate(names, start=1)]
    lines.append(
        f"killed {found.killed} of {len(found.cells)} mutants (counterexample ply; '.' held to {found.depth} plies)"
    )
    return lines
