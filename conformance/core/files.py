"""Writing outputs so that nothing half-written takes an output's name, and nothing is lost.

* :class:`LineFile` -- the canonical report as it streams: lines go to a file beside the output
  (``NAME.PID.partial``), each in whole (``os.write``), and the file takes the output's name when
  it is closed. A write that fails (a full disk) is cut back to the last whole line, and no other
  line is written; :meth:`LineFile.close` then tries a last line of its own (the *partial marker*,
  which the cut usually makes room for) and renames the file all the same: the output holds every
  whole line written before the failure, readable, and says it is partial. A process killed in
  the middle leaves its ``.partial`` file, every whole line in it.
* :func:`atomic_text` -- any other output (a rendered report, a merged one, a baseline, a diff):
  written beside it and renamed once complete; a failure leaves the output as it was (no 0-byte
  file where a report used to be).

An output that is not a regular file (a terminal, ``/dev/null``, ``/dev/full``, a pipe) is written
in place: there is nothing to rename, and nothing to keep.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO


def _in_place(path: Path) -> bool:
    """Whether ``path`` is something other than a regular file (or a folder): written in place."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _beside(path: Path) -> Path:
    """Where ``path`` is written before it takes its name (through a link: beside its target)."""
    target = Path(os.path.realpath(path))
    return target.with_name(f"{target.name}.{os.getpid()}.partial")


class LineFile:
    """An output written line by line, renamed to ``path`` when closed (see the module's docstring).

    ``OSError`` from the constructor when the file cannot be created; after that no write raises:
    the first failure is kept in :attr:`failure` and later lines are dropped."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.in_place = _in_place(self.path)
        self.temporary = self.path if self.in_place else _beside(self.path)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | (0 if self.in_place else os.O_EXCL)
        if not self.in_place:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.temporary)  # one of this process id's, left by an earlier run
        self._fd: int | None = os.open(self.temporary, flags, 0o666)
        self.lines = 0
        """Whole lines written."""
        self.size = 0
        """Bytes of those lines."""
        self.failure: OSError | None = None
        """The first write that failed (nothing is written after it), or None."""

    def write_line(self, text: str) -> bool:
        """Write ``text`` and a newline in whole; False (and nothing written) once a write failed."""
        if self.failure is not None or self._fd is None:
            return False
        data = (text + "\n").encode("utf-8", "surrogatepass")
        try:
            written = 0
            while written < len(data):
                written += os.write(self._fd, data[written:])
        except OSError as error:
            self.failure = error
            self._cut()
            return False
        self.lines += 1
        self.size += len(data)
        return True

    def _cut(self) -> None:
        """Cut the file back to its last whole line (a regular file: the prefix stays readable)."""
        if self._fd is not None and not self.in_place:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self.size)
                os.lseek(self._fd, self.size, os.SEEK_SET)

    def close(self, last_line: str | None = None) -> OSError | None:
        """Close the file and give it its name. After a failure ``last_line`` (the partial marker)
        is tried once more. Returns the failure (None when every line was written)."""
        if self._fd is None:
            return self.failure
        if self.failure is not None and last_line is not None:
            failure, self.failure = self.failure, None
            if not self.write_line(last_line):
                self._cut()
            self.failure = failure
        fd, self._fd = self._fd, None
        try:
            os.close(fd)
        except OSError as error:
            self.failure = self.failure or error
        if not self.in_place:
            try:
                os.replace(self.temporary, os.path.realpath(self.path))
            except OSError as error:
                self.failure = self.failure or error
        return self.failure

    def discard(self) -> None:
        """Close and remove the file (nothing was worth keeping: the engine did not start)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
        if not self.in_place:
            with contextlib.suppress(OSError):
                os.unlink(self.temporary)


@contextlib.contextmanager
def atomic_text(path: Path | str) -> Iterator[IO[str]]:
    """A text file to write ``path`` with: renamed to ``path`` when the block ends without an
    exception, removed when it raises (``path`` is then as it was)."""
    path = Path(path)
    if _in_place(path):
        with path.open("w", encoding="utf-8") as stream:
            yield stream
        return
    temporary = _beside(path)
    try:
        with temporary.open("w", encoding="utf-8") as stream:
            yield stream
        os.replace(temporary, os.path.realpath(path))
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
