"""Progress of ``run`` in a log (standard error not a terminal, as in CI): a line every few seconds.

    run: 212/400 cases, 530 questions: 498 pass, 12 fail, 0 error, 20 skip, 0 unsupported; at 4.13 (8 s)

A terminal gets the bar of :func:`conformance.report.output.progress_bar` instead.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import IO

from conformance.core.results import Result, Status

PROGRESS_SECONDS = 5.0
"""Seconds between two progress lines."""


class RunProgress:
    """Counts the results as they come (:meth:`record`) and says where the run is (:meth:`advance`,
    called with the number of cases done) every :data:`PROGRESS_SECONDS`; once more at the end
    (:meth:`finish`) if it said anything before."""

    def __init__(
        self,
        total: int,
        *,
        stream: IO[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        every: float | None = None,
    ) -> None:
        self.total = total
        self.stream = stream
        self.clock = clock
        self.every = PROGRESS_SECONDS if every is None else every
        self.started = self.last = clock()
        self.done = 0
        self.counts: Counter[Status] = Counter()
        self.rule = ""
        self.lines = 0

    def record(self, result: Result) -> None:
        self.counts[result.status] += 1
        self.rule = result.judged_under

    def status(self) -> str:
        counts = ", ".join(f"{self.counts[status]} {status.value}" for status in Status)
        elapsed = self.clock() - self.started
        return (
            f"{self.done}/{self.total} cases, {self.counts.total()} questions: {counts}; "
            f"at {self.rule or '-'} ({elapsed:.0f} s)"
        )

    def advance(self, done: int) -> None:
        self.done = done
        if self.clock() - self.last >= self.every:
            self.last = self.clock()
            self._say(self.status())

    def finish(self) -> None:
        if self.lines:
            self._say(f"done: {self.status()}")

    def _say(self, text: str) -> None:
        self.lines += 1
        print(f"run: {text}", file=self.stream or sys.stderr, flush=True)
