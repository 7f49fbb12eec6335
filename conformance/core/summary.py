"""A large report read summarised: what the views of a whole report keep of a campaign's positions.

``render --format html`` and ``docs`` show every count, every defect and every wrong answer's
words, but draw at most :data:`KEEP` generated positions per list (the JSON report has every
result). Reading a campaign of 10**6 results into memory in full took 1.35 GB for them; read
summarised (:func:`conformance.core.reading.read_report` with ``summarise``), a report keeps:

* every result of a corpus case, in full;
* every result of a campaign's position (``exhaustive-12``, ``verify-7-12``: the results of one
  position come together in the stream) in full when the position is one of the first :data:`KEEP`,
  one of the first :data:`KEEP` with a wrong answer (fail or error), or has the first wrong answer
  of a defect (its rule and its words: the example a page draws);
* of every other position: its passes and unsupported questions counted by kind
  (:attr:`Summary.folded`, as ``tally`` lines count them, so that every count and the certificate
  stay those of the whole report), its failures, errors and skips kept without the position, the
  answers and the engine's stderr (their rule, defect and message stay: lists name them), and the
  position itself counted in :attr:`Summary.unlisted` by the articles it cites and whether it got
  a wrong answer, so that the pages count it among the cases they do not list.

What memory stays is one small record per failure beyond those, and the counts.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Final

from conformance.core.results import ErrorInfo, Result, Status
from conformance.core.tallies import AGGREGATED, Tallied, position_index

KEEP: Final = 1000
"""How many positions (and positions with a wrong answer) a summarised report keeps in full:
as many as a page lists (``conformance.site.model.MAX_EXTRA_CASES``)."""
WRONG: Final = (Status.FAIL, Status.ERROR)


@dataclasses.dataclass
class Summary:
    """What a summarised reading counted or cut, rather than kept."""

    folded: Counter[Tallied] = dataclasses.field(default_factory=Counter)
    """The passes and unsupported questions of the positions not kept, by kind."""
    unlisted: Counter[tuple[tuple[str, ...], bool]] = dataclasses.field(default_factory=Counter)
    """The positions not kept, by (the articles their first result cites, got a wrong answer)."""
    kept: set[str] = dataclasses.field(default_factory=set)
    """The names of the positions kept in full (at most a few thousand); the failures of the
    others are kept cut: no position, no answers."""

    def listed(self, case: str) -> bool:
        """Whether the results of ``case`` are all kept (a corpus case's always are)."""
        return case in self.kept or position_index(case) is None

    def positions(self, article: str | None = None, *, wrong: bool | None = None) -> int:
        """How many positions not kept cite ``article`` (any, for None), with a wrong answer or not."""
        return sum(
            count
            for (articles, bad), count in self.unlisted.items()
            if (article is None or article in articles) and (wrong is None or bad == wrong)
        )


def _cut(result: Result) -> Result:
    """``result`` without what only a drawing of its position needs."""
    error = ErrorInfo(result.error.kind, result.error.message) if result.error is not None else None
    return dataclasses.replace(result, position="", expected=None, got=None, error=error, duration_ms=0.0)


class Summariser:
    """Takes a report's results in order and appends what is kept to ``results``; :meth:`close`
    gives the :class:`Summary` of the rest."""

    def __init__(self, results: list[Result], keep: int = KEEP) -> None:
        self.results = results
        self.keep = keep
        self.summary = Summary()
        self._kept = 0
        self._kept_wrong = 0
        self._defects: set[tuple[str, str]] = set()
        self._case: str | None = None
        self._group: list[Result] = []

    def add(self, result: Result) -> None:
        if position_index(result.case) is None:  # a corpus case: always in full
            self.results.append(result)
            return
        if result.case != self._case:
            self._flush()
            self._case = result.case
        self._group.append(result)

    def close(self) -> Summary:
        self._flush()
        return self.summary

    def _flush(self) -> None:
        group, self._group = self._group, []
        if not group:
            return
        wrong = any(result.status in WRONG for result in group)
        defects = {(r.charged, r.defect_name) for r in group if r.status in WRONG}
        if self._kept < self.keep or (wrong and self._kept_wrong < self.keep) or defects - self._defects:
            self._kept += 1
            self._kept_wrong += wrong
            self._defects |= defects
            self.results.extend(group)
            self.summary.kept.add(group[0].case)
            return
        summary = self.summary
        for result in group:
            if result.status in AGGREGATED:
                summary.folded[Tallied.of(result)] += 1
            else:
                self.results.append(_cut(result))
        summary.unlisted[group[0].articles, wrong] += 1
