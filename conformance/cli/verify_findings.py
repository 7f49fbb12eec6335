"""What ``verify`` prints: the summary of a run, then what it found, each once.

The summary comes first, in ``--format`` (:func:`print_summary`); then (:func:`print_findings`) the
draw-rule timings the run asked, each disagreement found, shrunk (FEN, board, expected vs got, a
case for ``cases/`` with a TODO expectation), once per shrunk position and kind of finding
(:func:`distinct`), and last each kind of engine error once, shrunk while the engine fails the same
way (:func:`error_heading`), where a log ends. The command itself is :mod:`conformance.cli.verify`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from conformance.cli.campaign import proof_note
from conformance.report.output import print_report
from conformance.report.text import verify_scope, z3_use
from oracle.position import Position

if TYPE_CHECKING:  # the driver needs z3 and Hypothesis: it is imported when verify runs
    from conformance.verify.casefile import Disagreement
    from conformance.verify.findings import FindingKind
    from conformance.verify.run import VerifyRun


def print_summary(run: VerifyRun, fmt: str, output: Path | None, show: int | None = None) -> None:
    """The summary of the run in ``fmt`` (to ``output``, or stdout), its last line saying what was run."""
    from conformance.verify.casefile import article_summaries

    settings = run.header.get("verify", {})
    epilogue = (
        f"verify: seed {run.header.get('seed')}, {run.positions} of {run.header.get('examples')} "
        f"positions ({verify_scope(run.header)}), z3 {z3_use(settings)}, "
        f"oracle {'on' if settings.get('differential') else 'off'}; "
        f"{len(run.disagreements)} disagreement(s) shrunk"
        + (f", {len(run.errors)} engine error(s) shrunk" if run.errors else "")
        + proof_note(run.header)
    )
    print_report(run.report, fmt, output, articles=article_summaries(), epilogue=epilogue, show=show)


def print_findings(
    run: VerifyRun, shrunk: Sequence[Disagreement], timings: Sequence[str], found: IO[str]
) -> None:
    """What follows the summary: the draw-rule timings asked, each shrunk disagreement once
    (:func:`distinct`), then each kind of engine error once (its heading: :func:`error_heading`)."""
    if timings:
        print(file=found)
        print("== draw-rule timings asked: games per (rule, event, phase of its count) ==", file=found)
        print("\n".join(timings), file=found, flush=True)
    if shrunk:
        print(file=found)
        print(
            f"== {len(shrunk)} disagreement(s), each shrunk to a minimal position "
            "(work out each expectation by hand before pasting a case) ==",
            file=found,
        )
        for disagreement in shrunk:
            print(file=found)
            print(disagreement.text(), file=found, flush=True)
    if run.errors:  # last: the engine's errors, each kind once, shrunk as the disagreements are
        print(file=found)
        print(error_heading([erring.fault.kind for erring in run.errors]), file=found)
        for erring in run.errors:
            print(file=found)
            print(erring.text(), file=found, flush=True)


def error_heading(kinds: Sequence[str]) -> str:
    """The line above the shrunk engine errors: how many, of which kinds (an error is printed for each
    request and message that failed, so one kind may come several times)."""
    counts = Counter(kinds)
    if len(counts) == len(kinds):
        return (
            f"== {len(kinds)} engine error(s), each kind once, shrunk while the engine failed the same way =="
        )
    parts = ", ".join(f"{count} {kind}" for kind, count in counts.most_common())
    return (
        f"== {len(kinds)} engine errors ({parts}), one for each request and message that failed, each "
        "shrunk while the engine failed the same way =="
    )


def distinct(disagreements: Iterable[Disagreement]) -> list[Disagreement]:
    """Each finding once: the first disagreement of each (shrunk position, kind of finding) --
    the same defect found by two checks (``[invariants]`` and ``[oracle]``) shrinks alike."""
    seen: set[tuple[Position, FindingKind]] = set()
    kept = []
    for disagreement in disagreements:
        key = (disagreement.position, disagreement.kind)
        if key not in seen:
            seen.add(key)
            kept.append(disagreement)
    return kept
