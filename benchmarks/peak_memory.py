"""Peak memory of a large campaign, its render and its site (issue 23). Figures, never a verdict.

    python benchmarks/peak_memory.py [--seconds 30] [--results 1000000] [--only campaign|render|docs]
                                     [--formats json,html] [--report big.jsonl]

Each command runs as a child process; its memory is the resident set of the whole process tree
(the command, its worker processes, their engines), sampled every 0.2 s from ``/proc`` (Linux),
and the figure is the highest sum seen. Three measurements, each with the load average:

* **campaign** -- ``verify --engine oracle --examples 10**9 --workers 2``, stopped (SIGINT)
  after ``--seconds``: the positions checked and the peak of all its processes. The issue's
  target: under 400 MB (the chunk list alone passed 3.5 GB in 5 s before chunks were made lazily);
* **render** -- ``render --format html`` of a report of ``--results`` results (synthetic, every
  result listed, a quarter failing: :func:`write_report`; ``--report`` keeps it for another run):
  wall time and peak, and ``render --format json`` (which reads and rewrites every line);
* **docs** -- ``docs`` (the site) of that report.

The issue's target for render and docs on a 10**6-result report: under 500 MB.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.core.results import Result, Status
from conformance.core.stream import ReportWriter

ROOT = Path(__file__).resolve().parent.parent


def _load() -> str:
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and every process descending from it (0 once it is gone)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(entry), int(fields[1])
        children.setdefault(parent, []).append(pid)
        rss[pid] = int(fields[21]) * page
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def measure(command: list[str], *, stop_after: float | None = None) -> tuple[float, int, str]:
    """Run ``command`` (SIGINT after ``stop_after`` seconds); wall seconds, peak tree RSS, stderr tail."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=errors)
        peak = 0
        stopped = False
        while process.poll() is None:
            peak = max(peak, _tree_rss(process.pid))
            if stop_after is not None and not stopped and time.monotonic() - started > stop_after:
                process.send_signal(signal.SIGINT)
                stopped = True
            time.sleep(0.2)
        errors.seek(0)
        tail = errors.read().decode("utf-8", "replace").strip().splitlines()[-1:]
    return time.monotonic() - started, peak, tail[0] if tail else ""


_TEMPLATE = [  # (question, article, passes): one position's results, as a campaign lists them
    ("legal_moves[invariants]", "8", True),
    ("legal_moves[oracle]", "3.9", False),
]


def write_report(path: Path, count: int, fail_every: int = 2) -> None:
    """A chained report of ``count`` results, written with the project's own
    :class:`~conformance.core.stream.ReportWriter` (so its chain, counters and footer are right):
    a ``verify`` campaign of ``mutant:short-kings`` against the exhaustive 2-piece positions with every
    result listed (``--all-results``), two questions per position; every ``fail_every``-th position
    gets a wrong answer (1 in 4 results failing by default, as the real campaign had), with the
    message, expected and engine's moves of a real failure. Case names are all distinct."""
    header = {
        "type": "header",
        "kind": "verify",
        "suite": "draughts-conformance",
        "protocol": "1.2",
        "seed": 0,
        "examples": count // len(_TEMPLATE),
        "questions": count,
        "verify": {"pieces": 2, "all_results": True, "z3": False, "tally_every": 100000},
        "engine": {
            "name": "short-kings",
            "version": "0.1.0",
            "adapter": "in-process",
            "level": "rules",
            "capabilities": ["fen", "legal_moves"],
            "spec": "mutant:short-kings",
        },
        "filters": {"require": [], "baseline": None, "accept_known": False},
    }
    expected = ["1-6", "1-7", "1-12", "1-18", "1-23", "1-29", "1-34", "1-40", "1-45"]
    failures = 0
    writer = ReportWriter.to_path(path)
    writer.write(header)
    for index in range(count):
        position, which = divmod(index, len(_TEMPLATE))
        question, article, passes = _TEMPLATE[which]
        passes = passes or position % fail_every != 0
        square = 1 + position % 45
        result = Result(
            case=f"exhaustive-{position}",
            question=question,
            article=article if not passes else "8" if question.endswith("[invariants]") else "3.4",
            status=Status.PASS if passes else Status.FAIL,
            defect="" if passes else "wrong moves without a capture",
            position=f"W:WK{square}:B{1 + (square + 7) % 50}",
            message=""
            if passes
            else "[quiet-moves, Art. 3.4, 3.9] no capture is possible and the moves differ from the "
            f"oracle's: missing {', '.join(expected[2:])} (position {position})",
            expected=None if passes else expected,
            got=None if passes else expected[:2],
            duration_ms=0.1,
        )
        writer.result(result)
        failures += not passes
    counts = {status.value: 0 for status in Status}
    counts.update({"pass": count - failures, "fail": failures})
    writer.write({"type": "footer", "counts": counts})  # every view recomputes it from the results
    if writer.finish():
        raise OSError(f"cannot write {path}")


def _mb(size: int) -> str:
    return f"{size / 1e6:,.0f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--only", choices=["campaign", "render", "docs"])
    parser.add_argument("--formats", default="json,html", help="the formats render is measured in")
    parser.add_argument("--report", type=Path, help="the report of --results results (reused if it exists)")
    args = parser.parse_args()
    cli = [sys.executable, "-m", "conformance"]
    print(f"peak memory (resident, whole process tree); {os.cpu_count()} cores; {_load()}")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        if args.only in (None, "campaign"):
            report = work / "campaign.jsonl"
            command = [*cli, "verify", "--engine", "oracle", "--examples", str(10**9), "--workers", "2"]
            command += ["--no-progress", "--report", str(report), "--format", "json"]
            seconds, peak, _ = measure(command, stop_after=args.seconds)
            lines = sum(1 for _ in report.open("rb")) if report.exists() else 0
            print(f"campaign  verify --examples 10**9 --workers 2, stopped after {seconds:.0f} s: ", end="")
            print(f"peak {_mb(peak)}; {lines - 1:,} report lines")
        if args.only in (None, "render", "docs"):
            report = args.report or work / "big.jsonl"
            started = time.monotonic()
            if not report.exists():
                write_report(report, args.results)
            size = report.stat().st_size
            print(
                f"report    {args.results:,} results, {_mb(size)} ({time.monotonic() - started:.0f} s to write)"
            )
        if args.only in (None, "render"):
            for fmt in args.formats.split(","):
                out = work / f"out.{fmt}"
                seconds, peak, tail = measure([*cli, "render", str(report), "--format", fmt, "-o", str(out)])
                made = _mb(out.stat().st_size) if out.exists() else f"not written ({tail})"
                print(f"render    --format {fmt}: peak {_mb(peak)}, {seconds:.0f} s, output {made}")
        if args.only in (None, "docs"):
            seconds, peak, tail = measure(
                [*cli, "docs", "--out", str(work / "site"), "--report", str(report)]
            )
            built = (work / "site").exists()
            print(f"docs      peak {_mb(peak)}, {seconds:.0f} s" + ("" if built else f"; failed: {tail}"))
    print(_load())


if __name__ == "__main__":
    main()
