"""``--trace FILE``: every line exchanged with the engines, with the time and the direction.

One :class:`Trace` serves every engine of a run (each worker's, each restart); the adapters
record into it as they write and read (:mod:`conformance.engines.adapters.process` for the JSON-lines and
Hub pipes and the engine's stderr, :mod:`conformance.engines.adapters.dxp_connection` for DXP messages). A line::

    14:02:07.118204 jsonl 4242 > {"type":"request","seq":1,"op":"fen","fen":"W:W31-50:B1-20"}

is the time of day (microseconds), the engine (its protocol and process id, or the address it
was reached at), what was being asked when ``run`` asks a question (``[4.13-two-kings legal_moves]``:
the case and question; ``sent ahead`` for the requests a pipelining engine is sent before the
question is asked; nothing for the lines of the engine's stderr, read by a thread of its own, nor
for the answers of an engine that pipelines, whose ``seq`` names their request), the direction -- ``>`` sent to the engine, ``<`` received from it, ``!`` its
stderr (or, for a DXP engine the harness started, its stdout and stderr), ``*`` what the harness
did (started, killed, the exit status) -- and the text. Control characters of the engine's output
are written as escapes (``\\x1b``): the file stays plain text. A trace may also keep its records in
memory (``keep=True``; ``draughts-conformance smoke`` reads them to explain what went wrong).

Several processes may write one file (``verify --workers N``: the parent creates it, each worker
process opens it with ``append=True``): a file is written through an ``O_APPEND`` descriptor, one
``write`` call per whole line, so the lines of different processes interleave but never mix, and
each names its engine by process id as above.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Final, Protocol, Self

from conformance.core.safe_text import printable

SENT: Final = ">"
RECEIVED: Final = "<"
DIAGNOSTIC: Final = "!"
EVENT: Final = "*"


@dataclasses.dataclass(frozen=True)
class TraceRecord:
    """One traced line: when (``time.time()``), which engine, which direction, what."""

    time: float
    engine: str
    direction: str
    text: str
    about: str | None = None
    """The case and question being asked when it was recorded (:func:`asking`), if any."""

    def __str__(self) -> str:
        stamp = datetime.datetime.fromtimestamp(self.time).strftime("%H:%M:%S.%f")
        about = f" [{self.about}]" if self.about else ""
        return f"{stamp} {self.engine}{about} {self.direction} {self.text}"


_asking = threading.local()


def asked() -> str | None:
    """What this thread is asking now (:func:`asking`), if anything."""
    what: str | None = getattr(_asking, "what", None)
    return what


@contextlib.contextmanager
def asking(what: str) -> Iterator[None]:
    """The lines this thread traces meanwhile carry ``what`` (a case id and question)."""
    before = getattr(_asking, "what", None)
    _asking.what = printable(what)
    try:
        yield
    finally:
        _asking.what = before


class _Sink(Protocol):
    def write(self, text: str, /) -> object: ...

    def close(self) -> None: ...


class _LineFile:
    """A file open for appending whole lines: one ``os.write`` per line on an ``O_APPEND``
    descriptor, so that other processes appending to the same file never split a line."""

    def __init__(self, path: Path, *, truncate: bool) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if truncate else 0)
        self.fd = os.open(path, flags, 0o666)
        self.empty = os.fstat(self.fd).st_size == 0

    def write(self, text: str) -> int:
        data = text.encode("utf-8", errors="replace")
        written = os.write(self.fd, data)
        while written < len(data):  # a regular file takes it in one call; a pipe or a full disk may not
            written += os.write(self.fd, data[written:])
        return written

    def close(self) -> None:
        os.close(self.fd)


class Trace:
    """Where traced lines go: a text stream (``--trace FILE``), a list in memory (``keep``), or both.

    Thread-safe: the workers of a run share one trace. :meth:`open` writes a file (flushed line by
    line, so a trace survives an interrupted run); ``append=True`` adds to it (several processes).
    """

    def __init__(self, stream: _Sink | None = None, *, keep: bool = False) -> None:
        self._stream = stream
        self._owned = False
        self.path: Path | None = None
        """The file written, when opened with :meth:`open` (worker processes open it again)."""
        self.records: list[TraceRecord] | None = [] if keep else None
        self._lock = threading.Lock()
        self.lines = 0
        """Lines written to the file."""
        self.failure: OSError | ValueError | None = None
        """The write that failed (nothing is written after it: the run goes on), or None."""

    @classmethod
    def open(cls, path: str | Path, *, append: bool = False, keep: bool = False) -> Trace:
        """A trace written to ``path``, emptied first unless ``append`` (``OSError`` if it cannot be
        opened). The first line, when the file was empty, says how to read it."""
        stream = _LineFile(Path(path), truncate=not append)
        trace = cls(stream, keep=keep)
        trace._owned = True
        trace.path = Path(path)
        if stream.empty:
            started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
            trace._write(
                f"# draughts-conformance trace, started {started}: > to the engine, < from the engine, "
                "! its stderr, * what the harness did\n"
            )
        return trace

    def record(self, engine: str, direction: str, text: str, about: str | None = None) -> None:
        """One line (or several, split at newlines) exchanged with ``engine``, about what this thread
        is asking (:func:`asking`), or about ``about`` (``""``: nothing in particular)."""
        lines = text.split("\n") if "\n" in text else [text]
        about = (asked() if about is None else about) or None
        with self._lock:  # the time is read under the lock, so a file's times go in its order
            now = datetime.datetime.now().timestamp()
            for line in lines:
                item = TraceRecord(now, engine, direction, printable(line), about)
                if self.records is not None:
                    self.records.append(item)
                if self._stream is not None:
                    self._write(f"{item}\n")

    def _write(self, text: str) -> None:
        if self._stream is None:
            return
        try:
            self._stream.write(text)
        except (OSError, ValueError) as error:  # a full disk or a closed file must not stop the run
            self._stream = None
            self.failure = error
            return
        self.lines += 1

    def problem(self) -> str | None:
        """The one line that says the trace file could not be written (None when it was, or when
        there is no file): the command states it once, at its end."""
        if self.failure is None:
            return None
        reason = getattr(self.failure, "strerror", None) or str(self.failure)
        kept = f"; it stops after its first {self.lines} line(s)" if self.lines else "; nothing was written"
        return f"cannot write the trace {self.path or 'file'}: {reason}{kept}"

    def close(self) -> None:
        with self._lock:
            stream, self._stream = self._stream, None
            if stream is not None and self._owned:
                stream.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class LineSplitter:
    """Cuts a stream of bytes into the lines a trace records (a partial line waits for its end)."""

    def __init__(self, trace: Trace, engine: str, direction: str, separator: bytes = b"\n") -> None:
        self.trace = trace
        self.engine = engine
        self.direction = direction
        self.separator = separator
        self._partial = bytearray()
        self.labelled = True
        """Whether the lines carry what the reading thread is asking (not for an engine answering
        requests sent ahead: its answers carry the ``seq`` of their labelled request instead)."""

    def feed(self, chunk: bytes) -> None:
        self._partial += chunk
        if self.separator not in chunk:
            if len(self._partial) > 64 * 1024:  # a flood without newline: record it in pieces
                self.flush(" [no newline yet]")
            return
        *lines, rest = bytes(self._partial).split(self.separator)
        self._partial = bytearray(rest)
        for line in lines:
            self.trace.record(self.engine, self.direction, _text(line), None if self.labelled else "")

    def flush(self, note: str = " [no newline]") -> None:
        """Record what is left of a line that never ended (at the end of the stream)."""
        if self._partial:
            about = None if self.labelled else ""
            self.trace.record(self.engine, self.direction, _text(bytes(self._partial)) + note, about)
            self._partial.clear()


def _text(line: bytes) -> str:
    return line.removesuffix(b"\r").decode("utf-8", errors="replace")
