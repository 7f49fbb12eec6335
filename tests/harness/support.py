"""Helpers the harness tests share (imported by name: ``tests/harness`` is on ``sys.path``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conformance.core.chain import ChainWriter
from conformance.core.corpus import Case, LegalMovesQuestion, load_corpus
from conformance.core.results import Result, Status
from conformance.harness.runner import RunOptions, run

REPO = Path(__file__).resolve().parents[2]


def chained(records: list[dict[str, object]]) -> str:
    """The text of a report made of ``records`` (their own ``n`` and ``chain`` dropped), each line
    counted and chained anew: how a test writes a report cut or changed in a way a run could
    leave it (a forgery the reader must refuse is written by hand instead)."""
    writer = ChainWriter()
    lines = [writer.line({k: v for k, v in record.items() if k not in ("n", "chain")}) for record in records]
    return "".join(line + "\n" for line in lines)


def assert_error(result: Result, kind: str, *fragments: str) -> None:
    """``result`` is an ``error`` of ``kind`` whose message holds every fragment."""
    assert result.status is Status.ERROR, result
    assert result.error is not None
    assert result.error.kind == kind, result.error
    for fragment in fragments:
        assert fragment in result.message, (fragment, result.message)


def legal_moves_cases() -> list[Case]:
    """The corpus cases with a ``legal_moves`` question (what a move-choice engine is checked on)."""
    corpus = load_corpus()
    return [c for c in corpus.select() if any(isinstance(q, LegalMovesQuestion) for q in c.questions)]


def certify(factory: object, cases: list[Case]) -> list[Result]:
    """The results of running ``cases`` on engines from ``factory`` (no tag excluded)."""
    results: list[Result] = []
    run(cases, factory, RunOptions(exclude_tags=()), results.append)  # type: ignore[arg-type]
    return results


def is_running(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def pydraughts_python() -> str | None:
    """A Python with pydraughts: ``$DRAUGHTS_PYDRAUGHTS_PYTHON``, else the repository's
    ``.engines/pydraughts`` venv; ``None`` when neither is there."""
    configured = os.environ.get("DRAUGHTS_PYDRAUGHTS_PYTHON", "").strip()
    if configured:
        return configured
    default = REPO / ".engines" / "pydraughts" / "bin" / "python"
    return str(default) if default.is_file() else None


def default_cases() -> list[Case]:
    """The cases of a default run (``slow`` ones left out)."""
    return load_corpus().select(exclude_tags=("slow",))


def assert_only_lone_side_skips(results: list[Result]) -> list[Result]:
    """A strict engine's results: every question answered and passing, except those about a
    position where a side has no pieces, which it may refuse (skip); those skips are returned."""
    from conformance.harness.evaluate import has_both_colours

    others = [r for r in results if r.status not in (Status.PASS, Status.SKIP)]
    assert others == [], "a strict but correct engine gets no fail, error or unsupported"
    skips = [r for r in results if r.status is Status.SKIP]
    assert [r for r in skips if has_both_colours(r.position)] == [], "skips only where a side has no pieces"
    return skips


def run_cli(*args: str, cwd: Path = REPO, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m conformance ARGS`` of this checkout, in ``cwd``, with ``path`` importable too."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in (path, REPO) if p)}
    return subprocess.run(
        [sys.executable, "-m", "conformance", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
