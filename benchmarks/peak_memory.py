"""Peak memory of a large campaign, its render and its site (issue 23). Figures, never a verdict.

    python benchmarks/peak_memory.py [--seconds 30] [--results 1000000] [--only campaign|render|docs]

Each command runs as a child process; its memory is the resident set of the whole process tree
(the command, its worker processes, their engines), sampled every 0.2 s from ``/proc`` (Linux),
and the figure is the highest sum seen. Three measurements, each with the load average:

* **campaign** -- ``verify --engine oracle --examples 10**9 --workers 2``, stopped (SIGINT)
  after ``--seconds``: the positions checked and the peak of all its processes. The issue's
  target: under 400 MB (the chunk list alone passed 3.5 GB in 5 s before chunks were made lazily);
* **render** -- ``render --format html`` of a report of ``--results`` results (written first from
  a real campaign's results, see :func:`write_report`): wall time and peak, and ``render --format
  json`` (which reads and rewrites every line);
* **docs** -- ``docs`` (the site) of that report.

The issue's target for render and docs on a 10**6-result report: under 500 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.core.chain import ChainWriter

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


def write_report(path: Path, count: int, work: Path) -> None:
    """A chained report of ``count`` results, as a long campaign writes it: the results of a real
    one (``verify --engine mutant:short-kings --exhaustive --pieces 2 --no-z3``: 17,690 positions,
    about a quarter of its 35,000 results failing) repeated under new case names until there are
    ``count`` (the positions repeat every 17,690 cases; the case names do not)."""
    template = work / "template.jsonl"
    command = [sys.executable, "-m", "conformance", "verify", "--engine", "mutant:short-kings"]
    command += ["--exhaustive", "--pieces", "2", "--no-z3", "--no-progress", "--report", str(template)]
    subprocess.run([*command, "--format", "json"], cwd=ROOT, capture_output=True, check=False)
    records = [json.loads(line) for line in template.read_text(encoding="utf-8").splitlines()]
    head, results, footer = records[0], records[1:-1], records[-1]
    chain = ChainWriter()
    drop = ("n", "chain", "report_format")
    positions = 1 + max(int(r["case"].rsplit("-", 1)[1]) for r in results)
    head = {k: v for k, v in head.items() if k not in drop}
    head["questions"] = count  # every result answered: a complete campaign
    with path.open("w", encoding="utf-8") as stream:
        stream.write(chain.line(head) + "\n")
        for index in range(count):
            result = {k: v for k, v in results[index % len(results)].items() if k not in drop}
            number = int(result["case"].rsplit("-", 1)[1]) + positions * (index // len(results))
            result["case"] = f"exhaustive-{number}"
            stream.write(chain.line(result) + "\n")
        footer = {k: v for k, v in footer.items() if k not in drop}
        stream.write(chain.line(footer) + "\n")


def _mb(size: int) -> str:
    return f"{size / 1e6:,.0f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--only", choices=["campaign", "render", "docs"])
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
            report = work / "big.jsonl"
            started = time.monotonic()
            write_report(report, args.results, work)
            size = report.stat().st_size
            print(
                f"report    {args.results:,} results, {_mb(size)} ({time.monotonic() - started:.0f} s to write)"
            )
        if args.only in (None, "render"):
            for fmt in ("json", "html"):
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
