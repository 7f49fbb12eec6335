"""``verify --workers N`` and ``--scheduler``: the same positions, findings, results and report whatever N."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from conformance.core.protocol import Engine
from conformance.engines.adapters.specs import EngineRecipe
from conformance.engines.oracle_engine import OracleEngine
from conformance.verify.generate import VerifyOptions
from conformance.verify.pool import WorkerError, check_chunk, chunks, in_order
from conformance.verify.run import VerifyRun, verify

ROOT = Path(__file__).resolve().parents[2]
TIMINGS = ("duration_ms", "duration_s", "started", "finished")


def same_run(run: VerifyRun) -> tuple[Any, ...]:
    """Everything a run reports but its timings: results, footer (certificate), disagreements."""
    results = [{k: v for k, v in r.to_json().items() if k not in TIMINGS} for r in run.results]
    footer = {k: v for k, v in run.footer.items() if k not in TIMINGS}
    tallies = [line.to_json() for line in run.tallies]  # the passes, counted span by span
    return results, tallies, footer, [d.text() for d in run.disagreements], run.positions, run.first_failure


def test_two_workers_give_the_same_report_findings_and_shrinking() -> None:
    recipe = EngineRecipe("mutant:king-counts-two")
    options = VerifyOptions(examples=50, seed=13, z3_examples=25, shrink=3)
    one = verify(recipe, options)
    two = verify(recipe, options, workers=2)
    assert one.exit_status == 1
    assert len(one.disagreements) >= 2
    assert same_run(two) == same_run(one)


def test_workers_stop_where_one_process_stops() -> None:
    recipe = EngineRecipe("mutant:short-kings")
    options = VerifyOptions(examples=200, seed=5, z3=False, max_fail=4, shrink=1)
    one = verify(recipe, options)
    assert one.summary.stopped_early
    assert one.positions < 200
    assert same_run(verify(recipe, options, workers=2)) == same_run(one)


def test_a_factory_that_cannot_be_pickled_is_refused() -> None:
    with pytest.raises(ValueError, match="can be pickled"):
        verify(lambda: OracleEngine(), VerifyOptions(examples=2), workers=2)


class _NoEngine:
    def __call__(self) -> Engine:
        raise OSError("no such engine here")


def test_an_engine_that_does_not_start_in_a_worker_stops_the_run() -> None:
    with pytest.raises(WorkerError, match="did not start in a worker: OSError: no such engine here"):
        check_chunk(_NoEngine(), VerifyOptions(examples=3), range(3))


def test_chunks_come_back_in_order_whatever_order_they_finish_in() -> None:
    pieces = chunks(range(3, 40, 2), workers=2, size=3, span=10)
    assert [i for piece in pieces for i in piece] == list(range(3, 40, 2))
    assert all(piece[0] // 10 == piece[-1] // 10 for piece in pieces)  # never across a tally span
    assert [list(piece) for piece in list(pieces)[:5]] == [[3, 5], [7, 9], [11, 13], [15, 17], [19]]
    futures: list[Future[Any]] = []

    def submit(piece: range) -> Future[Any]:
        future: Future[Any] = Future()
        futures.append(future)
        return future

    def first_done(pending: set[Future[Any]]) -> set[Future[Any]]:
        # finish the newest pending one first: the reverse of the submission order
        newest = max(pending, key=futures.index)
        newest.set_result([(futures.index(newest), [])])
        return {newest}

    handed = [chunk[0][0] for chunk in in_order(pieces, submit, first_done, ahead=3)]
    assert handed == list(range(len(list(pieces))))


def test_verify_command_runs_an_exhaustive_shard_on_two_workers(tmp_path: Path) -> None:
    report = tmp_path / "e.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance",
            "verify",
            "--engine",
            "oracle",
            "--exhaustive",
            "--pieces",
            "3",
            "--shard",
            "7/2000",
            "--workers",
            "2",
            "--report",
            str(report),
            "--format",
            "json",
            "-o",
            str(tmp_path / "summary.json"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "1,630,290 positions with at most 3 pieces, 816 in shard 7/2000" in done.stderr
    header = report.read_text().splitlines()[0]
    assert '"shard": {"index": 7, "count": 2000}' in header
    assert '"pieces": 3' in header


def test_exhaustive_needs_pieces(capsys: pytest.CaptureFixture[str]) -> None:
    from conformance.cli.main import main

    assert main(["verify", "--engine", "oracle", "--exhaustive"]) == 2
    assert "--exhaustive and --pieces K go together" in capsys.readouterr().err


def test_a_z3_finding_reads_the_same_whatever_the_process_solved_before() -> None:
    """z3's models (the witness routes) depend on what its context solved before -- here, the
    shrinking of earlier disagreements: a failing check is described in a context of its own."""
    recipe = EngineRecipe("mutant:king-counts-two")
    quiet = verify(recipe, VerifyOptions(examples=40, seed=13, z3_examples=15, shrink=0))
    shrinking = verify(recipe, VerifyOptions(examples=40, seed=13, z3_examples=15, shrink=2))
    assert len(shrinking.disagreements) == 2
    failing = [(r.case, r.message) for r in quiet.results if r.question == "legal_moves[z3]" and r.message]
    assert len(failing) >= 3
    assert [
        (r.case, r.message) for r in shrinking.results if r.question == "legal_moves[z3]" and r.message
    ] == failing
