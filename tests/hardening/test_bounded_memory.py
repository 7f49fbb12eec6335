"""Bounded everything (issue 23): what an engine prints is kept capped per result, handshakes are
capped, a campaign's chunks are made as they are needed and its workers capped, header fields are
checked before anything is built from them."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import socket
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from hardening_support import HOSTILE, cli

from conformance.cli import main
from conformance.core.arguments import WORKERS_PER_CORE, capped_workers
from conformance.core.chain import ChainWriter
from conformance.core.protocol import EngineError
from conformance.core.results import MAX_STDERR, MAX_TEXT, ErrorInfo, Result, Status, cut_text
from conformance.engines.adapters.hub import MAX_HANDSHAKE_BYTES, MAX_HANDSHAKE_LINES, HubEngine
from conformance.verify.pool import chunks


def test_an_engine_printing_megabytes_gets_a_capped_text_in_each_result(tmp_path: Path) -> None:
    """1 MiB declined, error, stderr and answer texts: each result keeps at most a few kilobytes,
    saying how much was cut (the issue: a 1.63 GB report)."""
    report = tmp_path / "verbose.jsonl"
    engine = f"jsonl:{sys.executable} {HOSTILE / 'verbose.py'}"
    done = cli("run", engine, "--article", "4.13", "--no-progress", "--report", str(report), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = report.read_text(encoding="utf-8").splitlines()
    results = [json.loads(line) for line in lines if '"type": "result"' in line]
    statuses = {r["status"] for r in results}
    assert {"skip", "error", "fail"} <= statuses, statuses
    assert max(map(len, lines)) < 2 * MAX_TEXT + MAX_STDERR + 2000
    declined = next(r for r in results if r["status"] == "skip")
    assert declined["message"].startswith("the engine declined: blah blah")
    assert declined["message"].endswith("characters in all]")
    erring = next(r for r in results if r["status"] == "error")
    assert erring["error"]["stderr"].startswith("[... ")  # its end kept (the adapter's own cut)
    assert len(erring["error"]["stderr"]) <= MAX_STDERR
    assert report.stat().st_size < 2_000_000


def test_cutting_keeps_the_limit_and_is_idempotent() -> None:
    text = "x" * (MAX_TEXT * 3)
    once = cut_text(text)
    assert len(once) <= MAX_TEXT
    assert once.endswith(f"[... cut, {len(text):,} characters in all]")
    assert cut_text(once) == once
    end = cut_text("a" + "y" * MAX_STDERR, MAX_STDERR, keep_end=True)
    assert len(end) <= MAX_STDERR
    assert end.endswith("y" * 100)
    assert not end.endswith("a")
    result = Result(
        "c", "q", "4.1", Status.ERROR, message=text, got={"moves": [text]}, error=ErrorInfo("k", text)
    )
    assert len(result.message) <= MAX_TEXT
    assert len(result.got["moves"][0]) <= MAX_TEXT
    assert result.error is not None
    assert len(result.error.message) <= MAX_TEXT
    assert Result.from_json(result.to_json()) == result  # a saved report reads back the same


@pytest.mark.parametrize("stage", ["hub", "init"])
def test_a_hub_engine_flooding_its_handshake_did_not_start(stage: str) -> None:
    command = [sys.executable, str(HOSTILE / "param_flood.py"), *(["--init"] if stage == "init" else [])]
    started = time.monotonic()
    with pytest.raises(EngineError) as raised:
        HubEngine(command, start_timeout=60)  # starts the engine
    assert raised.value.kind == "start"
    assert (
        f"more than {MAX_HANDSHAKE_LINES} lines or {MAX_HANDSHAKE_BYTES // 1024} KiB" in raised.value.message
    )
    assert time.monotonic() - started < 30  # refused at the cap, not at the start timeout


def test_the_chunks_of_a_huge_campaign_are_made_as_they_are_needed() -> None:
    """10**12 positions (the issue: 3.5 GB in 5 s for the chunk list of 10**9), cut at the end of
    each tally span (10**6 indices here) as they are taken."""
    indices = range(7, 7 + 10**12)
    tracemalloc.start()
    try:
        pieces = chunks(indices, workers=2, size=100, span=10**6)
        taken = iter(pieces)
        first = list(itertools.islice(taken, 5))
        skipped = sum(1 for _ in itertools.islice(taken, 9_994))  # the rest of span 0 but its last piece
        last_of_span, first_of_next = next(taken), next(taken)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100_000
    assert first[0] == range(7, 107)
    assert [p.start for p in first[3:5]] == [307, 407]
    assert skipped == 9_994
    assert last_of_span == range(999_907, 1_000_000)  # cut where span 0 ends
    assert first_of_next == range(1_000_000, 1_000_100)
    odd = chunks(range(3, 40, 2), workers=1, size=3, span=10**6)
    assert [i for piece in odd for i in piece] == list(range(3, 40, 2))


def test_workers_beyond_a_multiple_of_the_cores_are_capped_with_a_warning(tmp_path: Path) -> None:
    assert capped_workers(8, cores=2) == (8, None)
    most, warning = capped_workers(64, cores=2)
    assert most == 2 * WORKERS_PER_CORE
    assert warning is not None
    assert f"--workers 64 on 2 core(s): running {most}" in warning
    cores = os.cpu_count() or 1
    too_many = str(WORKERS_PER_CORE * cores + 1)
    done = cli("run", "oracle", "--article", "4.13", "--workers", too_many, "--format", "badge", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(f"warning: --workers {too_many} on {cores} core(s)") == 1


def _server(greeting: bytes) -> tuple[socket.socket, threading.Thread]:
    """A TCP server on a free port that sends ``greeting`` to each connection and holds it a while."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                peer, _ = server.accept()
                peer.sendall(greeting)
                threading.Timer(10, peer.close).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return server, thread


@pytest.mark.parametrize(
    ("greeting", "expected"),
    [
        (b"SSH-2.0-OpenSSH_8.9p1\r\n", "is not a Dask scheduler: it answered b'SSH-2.0-'"),
        (b"", "is not a Dask scheduler: it sent nothing within"),
    ],
)
def test_a_scheduler_that_is_not_dask_is_refused_before_dask_reads_it(greeting: bytes, expected: str) -> None:
    """The issue: a server sending a banner made Dask allocate its first 8 bytes as a length."""
    pytest.importorskip("distributed")
    from conformance.verify.cluster import ClusterError, connect

    server, _ = _server(greeting)
    try:
        with (
            pytest.raises(ClusterError, match=re.escape(expected)),
            connect(f"tcp://127.0.0.1:{server.getsockname()[1]}", 1),
        ):
            pass
    finally:
        server.close()


def test_a_real_dask_scheduler_passes_the_probe() -> None:
    distributed = pytest.importorskip("distributed")
    from conformance.verify.cluster import probe

    with distributed.LocalCluster(
        n_workers=0, processes=True, scheduler_kwargs={"host": "127.0.0.1"}, dashboard_address=None
    ) as cluster:
        probe(cluster.scheduler_address)  # no error


def _campaign(path: Path, template: list[dict[str, object]], copies: int) -> Path:
    """A chained report of ``copies`` repetitions of a campaign's results under new case names."""
    head, *lines_between, footer = template
    results = [line for line in lines_between if line["type"] == "result"]  # not a span's tally line
    writer = ChainWriter()
    lines = [writer.line({**head, "questions": len(results) * copies})]
    for copy in range(copies):
        lines += [writer.line({**result, "case": f"{result['case']}~{copy}"}) for result in results]
    lines.append(writer.line(footer))
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_html_report_and_the_site_of_a_campaign_do_not_grow_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue: render --format html of 233k positions ran out of memory, docs of 77k took 1.7 GB.
    Every list of a page stops at a bound and counts the rest: twice the campaign, the same pages
    (the bounds lowered here, so that a small campaign passes them)."""
    from conformance.site import blocks, engine_blocks, model

    monkeypatch.setattr(blocks, "MAX_LISTED", 20)
    monkeypatch.setattr(engine_blocks, "MAX_LISTED", 20)
    monkeypatch.setattr(model, "MAX_EXTRA_CASES", 30)
    small = tmp_path / "small.jsonl"
    verify = ["verify", "--engine", "mutant:short-kings", "--examples", "40", "--no-z3", "--no-progress"]
    assert main([*verify, "--all-results", "--report", str(small), "--format", "json"]) == 1
    drop = ("n", "chain", "report_format")
    template = [
        {k: v for k, v in json.loads(line).items() if k not in drop}
        for line in small.read_text(encoding="utf-8").splitlines()
    ]
    sizes = []
    for copies in (20, 40):  # every list reaches its bound at 20
        report = _campaign(tmp_path / f"c{copies}.jsonl", template, copies)
        html = tmp_path / f"c{copies}.html"
        assert main(["render", str(report), "--format", "html", "-o", str(html)]) == 0
        site = tmp_path / f"site{copies}"
        assert main(["docs", "--out", str(site), "--report", str(report)]) == 0
        assert "more case(s) of the reports are not listed here" in html.read_text(encoding="utf-8")
        pages = "".join(page.read_text(encoding="utf-8") for page in site.glob("*.html"))
        assert "more case(s) of the reports are not listed here" in pages
        assert "The first 20 of" in pages  # a list of wrong answers, cut
        sizes.append((html.stat().st_size, sum(page.stat().st_size for page in site.iterdir())))
    capsys.readouterr()
    (html_20, site_20), (html_40, site_40) = sizes
    assert html_40 < 1.02 * html_20
    assert site_40 < 1.02 * site_20


def test_a_report_keeps_an_engines_stderr_in_full_once(tmp_path: Path) -> None:
    """The same long stderr on many results (a crash on every position): the first result keeps it
    whole, the others its end and where the whole text is; a different text is kept whole too, and
    the report reads back with every check (issue 23: the full text once per defect)."""
    from conformance.core.reading import read_report
    from conformance.core.results import REPEATED_STDERR
    from conformance.core.stream import ReportWriter

    crash = (
        "Traceback (most recent call last):\n" + "  frame\n" * 1000 + "ZeroDivisionError: division by zero"
    )
    other = "Traceback (most recent call last):\n" + "  other\n" * 1000 + "KeyError: 7"
    path = tmp_path / "crashes.jsonl"
    writer = ReportWriter.to_path(path)
    writer.write({"type": "header", "engine": {"name": "crashy"}})
    for index, stderr in enumerate([crash, crash, other, crash, other]):
        error = ErrorInfo("crash", "the engine died", stderr)
        writer.result(Result(f"case-{index}", "legal_moves", "4.1", Status.ERROR, error=error))
    writer.write({"type": "footer", "exit_status": 1})
    assert writer.close() is None
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    kept = [line["error"]["stderr"] for line in lines if line.get("type") == "result"]
    assert kept[0] == crash
    assert kept[2] == other
    for index, first in ((1, "case-0"), (3, "case-0"), (4, "case-2")):
        assert f"as the stderr of {first} (legal_moves), kept there in full" in kept[index]
        assert len(kept[index]) < REPEATED_STDERR + 200
    assert kept[1].endswith(crash[-REPEATED_STDERR:])
    assert kept[4].endswith(other[-REPEATED_STDERR:])
    report = read_report(path)
    assert [result.status for result in report.results] == [Status.ERROR] * 5
