"""Progress of a ``verify`` run for logs, and the report writer that counts its failing positions."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING

from conformance.cli.campaign import time_left
from conformance.core.results import Result, Status
from conformance.core.stream import ReportWriter

if TYPE_CHECKING:  # the driver needs z3 and Hypothesis: it is imported when verify runs
    from conformance.verify.casefile import Disagreement
    from conformance.verify.shrink_errors import ShrunkError


class CountingWriter(ReportWriter):
    """The report writer, counting the positions (cases) with a failing or erring check."""

    def __init__(self, output: IO[str] | None) -> None:
        super().__init__(output)
        self.failing: set[str] = set()

    def result(self, result: Result) -> None:
        if result.status in (Status.FAIL, Status.ERROR):
            self.failing.add(result.case)
        super().result(result)


PROGRESS_SECONDS = 10.0
"""Seconds between two progress lines when standard error is not a terminal."""


class ProgressLines:
    """Progress for logs: ``verify: 1200/5000 positions, 2 failing, 1 shrunk, 35 s`` on stderr
    every :data:`PROGRESS_SECONDS`, a line for each disagreement as it is found, one at the end."""

    def __init__(
        self,
        total: int,
        writer: CountingWriter | None = None,
        *,
        stream: IO[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        resumed: int = 0,
    ) -> None:
        self.total = total
        self.writer = writer
        self.stream = stream
        self.clock = clock
        self.started = self.last = clock()
        self.done = 0
        self.shrunk = 0
        self.resumed = resumed
        """Positions a resumed run had checked before (not counted in its rate)."""

    def _say(self, text: str) -> None:
        print(f"verify: {text}", file=self.stream or sys.stderr, flush=True)

    def status(self) -> str:
        failing = len(self.writer.failing) if self.writer is not None else 0
        elapsed = self.clock() - self.started
        text = f"{self.done}/{self.total} positions, {failing} failing, {self.shrunk} shrunk, {elapsed:.0f} s"
        left = time_left(self.done - self.resumed, self.total - self.done, elapsed)
        return f"{text}, {left} left" if left and self.done < self.total else text

    def advance(self, done: int) -> None:
        self.done = done
        if self.clock() - self.last >= PROGRESS_SECONDS:
            self.last = self.clock()
            self._say(self.status())

    def found(self, disagreement: Disagreement) -> None:
        self.shrunk += 1
        self._say(
            f"position {disagreement.case}: {disagreement.check}: {disagreement.kind.value}, shrunk to "
            f"{disagreement.position.fen()} (in full at the end)"
        )

    def erred(self, error: ShrunkError) -> None:
        self.shrunk += 1
        self._say(
            f"position {error.case}: {error.check}: the engine {error.fault.describe()}, shrunk to "
            f"{error.position.fen()} (in full at the end)"
        )

    def finish(self, done: int) -> None:
        self.done = done
        self._say(f"done: {self.status()}")
