"""A chunk of a run's positions checked: the positions to list in full, the passes counted.

Whoever checks positions -- the run's own process, a worker process, a Dask worker -- hands back
a chunk as :data:`Checked`: in position order, each position whose results are listed in the report
(one with a failure, an error or a skip, one a baseline names, every position with
``all_results``) with its rows, and between them :class:`Passed` runs of positions whose every
result is counted (:mod:`conformance.core.tallies`). No result object travels for a counted pass, and
the exhaustive campaign's fast path (:mod:`conformance.verify.sweep`, which also holds :func:`~conformance.verify.sweep.check_positions`) makes none at all.

A chunk never spans two ``tally`` spans (:func:`spans_cut`), so each :class:`Passed` belongs to one.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator

from conformance.core.tallies import AGGREGATED, Tallied
from conformance.verify.draw_phases import Cell
from conformance.verify.driver import Row
from conformance.verify.generate import Generated, VerifyOptions


@dataclasses.dataclass
class Passed:
    """Consecutive positions (of the run's shard) whose every result is counted, and the counts."""

    first: int
    last: int
    positions: int
    counts: Counter[Tallied]
    cells: list[Cell] = dataclasses.field(default_factory=list)
    """The draw-rule timings the steered games of its ``draws`` positions asked, for the run's
    table (:func:`~conformance.verify.generate.draw_timings`): the process that takes the chunk
    back need not search the games again."""


Listed = tuple[Generated, list[Row]]
"""A position whose results are listed in full, with its rows."""

Checked = list[Passed | Listed]
"""A chunk's positions, in order: runs of counted passes and positions listed in full."""


def listed_in_full(options: VerifyOptions, generated: Generated, rows: list[Row]) -> bool:
    """Whether the position's results go into the report one by one."""
    return (
        options.all_results
        or generated.index in options.keep
        or any(row.result.status not in AGGREGATED for row in rows)
    )


class Collect:
    """Builds a :data:`Checked`: positions counted or listed, in order."""

    def __init__(self, step: int) -> None:
        self.step = step
        self.items: Checked = []
        self.run: Passed | None = None

    def counted(
        self, index: int, kinds: Counter[Tallied] | tuple[Tallied, ...], cells: tuple[Cell, ...] = ()
    ) -> None:
        """Position ``index``, every result of it counted (kinds: one per result; ``cells``: the
        timings its steered game asked, if it is a ``draws`` position)."""
        run = self.run
        if run is None:
            run = self.run = Passed(index, index, 0, Counter())
        run.last = index
        run.positions += 1
        run.cells += cells
        if isinstance(kinds, Counter):
            run.counts.update(kinds)
        else:
            counts = run.counts
            for kind in kinds:
                counts[kind] += 1

    def listed(self, generated: Generated, rows: list[Row]) -> None:
        if self.run is not None:
            self.items.append(self.run)
            self.run = None
        self.items.append((generated, rows))

    def done(self) -> Checked:
        if self.run is not None:
            self.items.append(self.run)
            self.run = None
        return self.items


def spans_cut(indices: range, size: int, span: int) -> Iterator[range]:
    """``indices`` (a shard's, step N) in consecutive pieces of at most ``size`` positions, cut where a
    span of ``span`` indices of the whole run ends: no piece holds positions of two spans."""
    start = 0
    while start < len(indices):
        first = indices[start]
        span_end = (first // span + 1) * span  # the first index of the next span
        in_span = len(range(first, span_end, indices.step))
        stop = min(len(indices), start + min(size, in_span))
        yield indices[start:stop]
        start = stop
