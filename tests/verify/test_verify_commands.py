"""The ``verify`` command in a CI log: progress lines on stderr when it is not a terminal, the summary
first, then each shrunk finding once, last (not under the unshrunk failure panels)."""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import verify_progress as progress
from conformance.cli.campaign import time_left
from conformance.cli.commands import build_parser
from conformance.cli.verify_findings import distinct, error_heading
from conformance.cli.verify_progress import ProgressLines
from conformance.engines.mutants import mutant


def _parser() -> argparse.ArgumentParser:
    parser = build_parser()
    return parser


def _run(monkeypatch: pytest.MonkeyPatch, name: str, *argv: str) -> int:
    args = _parser().parse_args(["verify", "--engine", f"mutant:{name}", *argv])
    return int(args.handler(args))


def test_shrunk_findings_come_last_after_the_summary_and_no_unshrunk_panel(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(monkeypatch, "captures-not-compulsory", "-n", "30", "--seed", "1", "--no-progress") == 1
    out = capsys.readouterr().out
    summary = out.index("captures-not-compulsory 0.1.0: FAILED")
    first = out.index("== disagreement:")
    assert summary < first
    assert "disagreement(s), each shrunk to a minimal position" in out[summary:first]
    assert "more failure(s) not shown (--show N" in out[:first]
    assert "╭─ FAIL" not in out  # the unshrunk panels stay out by default...
    assert out.rstrip().endswith("legal_moves: " + out.rstrip().rsplit("legal_moves: ", 1)[1])


def test_show_brings_the_unshrunk_panels_back(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(monkeypatch, "captures-not-compulsory", "-n", "30", "--seed", "1", "--no-progress", "--show", "2")
    out = capsys.readouterr().out
    assert out.count("╭─ FAIL") == 2
    assert out.index("╭─ FAIL") < out.index("== disagreement:")


def test_a_finding_two_checks_shrink_alike_is_printed_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A defect seen by the invariants and by the oracle shrinks to the same position: once."""
    from conformance.verify import run as driver

    real = driver.verify

    def twice(*args: Any, **kwargs: Any) -> driver.VerifyRun:
        found = real(*args, **kwargs)
        found.disagreements = [
            copy
            for d in found.disagreements
            for copy in (d, dataclasses.replace(d, check="legal_moves[oracle]"))
        ]
        return found

    monkeypatch.setattr(driver, "verify", twice)
    _run(monkeypatch, "duplicate-routes", "-n", "30", "--seed", "2", "--no-progress")
    out = capsys.readouterr().out
    headers = [line for line in out.splitlines() if line.startswith("== disagreement:")]
    assert headers
    fens = [line for line in out.splitlines() if line.startswith("FEN ")]
    assert len(fens) == len(set(fens)) == len(headers)


def test_distinct_keeps_the_first_of_each_position_and_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance.verify import run as driver
    from conformance.verify.generate import VerifyOptions

    found = driver.verify(lambda: mutant("duplicate-routes"), VerifyOptions(examples=30, seed=2))
    assert found.disagreements
    first = found.disagreements[0]
    other = dataclasses.replace(first, check="legal_moves[oracle]")
    kept = distinct([first, other, *found.disagreements])
    assert kept[0] is first
    assert all(d is not other for d in kept)
    keys = [(d.position, d.kind) for d in kept]
    assert len(keys) == len(set(keys)) == len({(d.position, d.kind) for d in found.disagreements})


def test_progress_lines_when_stderr_is_not_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "PROGRESS_SECONDS", 0.0)  # a line per position
    assert _run(monkeypatch, "captures-not-compulsory", "-n", "12", "--seed", "1") == 1
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("verify: ")]
    statuses = [line for line in lines if " positions, " in line]
    assert statuses[0].startswith("verify: 1/12 positions, ")
    done = [int(line.removeprefix("verify: done:").split("/")[0].split()[-1]) for line in statuses]
    # A line per failing position (listed on its own) and per run of passing ones (counted together),
    # in order, and the last: fewer than one per position, since some positions pass.
    assert done == sorted(done)
    assert done[-1] == 12
    assert 5 < len(statuses) <= 13
    assert "left" in statuses[1]  # an estimate of the time left, once the rate is known
    assert any(line.startswith("verify: position verify-1-") and "shrunk to" in line for line in lines)
    assert lines[-1].startswith("verify: done: 12/12 positions, ")
    assert " failing, " in lines[-1]


def test_no_progress_lines_with_no_progress(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "PROGRESS_SECONDS", 0.0)
    _run(monkeypatch, "captures-not-compulsory", "-n", "5", "--seed", "1", "--no-progress")
    assert "verify: " not in capsys.readouterr().err


def test_a_progress_line_waits_for_its_interval() -> None:
    now = [100.0]
    stream = io.StringIO()
    lines = ProgressLines(5000, stream=stream, clock=lambda: now[0])
    lines.advance(100)
    assert stream.getvalue() == ""
    now[0] += progress.PROGRESS_SECONDS
    lines.advance(1200)
    # 1,200 positions in 10 s: the 3,800 left take about 32 s more.
    assert stream.getvalue() == "verify: 1200/5000 positions, 0 failing, 0 shrunk, 10 s, about 32 s left\n"
    lines.advance(1300)
    assert stream.getvalue().count("\n") == 1


def test_a_resumed_run_estimates_its_time_left_from_the_positions_it_checked_itself() -> None:
    now = [0.0]
    stream = io.StringIO()
    lines = ProgressLines(100_000, stream=stream, clock=lambda: now[0], resumed=40_000)
    now[0] += 3600.0
    lines.advance(70_000)  # 30,000 checked in an hour by this run (not 70,000): 30,000 left take an hour
    assert stream.getvalue().endswith(", 3600 s, about 1 h 00 min left\n")
    assert time_left(10, 0, 5.0) == ""
    assert time_left(0, 10, 5.0) == ""
    assert time_left(60, 450, 60.0) == "about 7 min 30 s"


def test_the_heading_of_the_engine_errors_says_each_kind_once_only_when_it_is_so() -> None:
    assert "each kind once" in error_heading(["crash", "timeout"])
    heading = error_heading(["crash"] * 5)
    assert "each kind once" not in heading
    assert heading.startswith("== 5 engine errors (5 crash), one for each request and message that failed")
    assert "(3 crash, 1 timeout)" in error_heading(["crash", "timeout", "crash", "crash"])


def test_an_engine_error_is_filed_by_what_went_wrong_not_by_the_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """verify's defect table says 'error: crash' for a crashing engine (as a corpus run does), not the
    name of the question it crashed on."""
    from conformance.cli.main import main

    crashy = Path(__file__).parents[1] / "harness" / "fakes" / "crashy.py"
    spec = "jsonl:" + shlex.join([sys.executable, str(crashy), "--every", "4"])
    report = tmp_path / "verify.jsonl"
    argv = ["verify", "--engine", spec, "-n", "4", "--seed", "1", "--no-z3", "--no-progress"]
    assert main([*argv, "--shrink", "0", "--report", str(report)]) == 1
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    errors = [line for line in lines if line.get("status") == "error"]
    assert errors
    assert {line["defect"] for line in errors} == {"error: crash"}
    out = capsys.readouterr().out
    assert "│ error: crash" in out
    assert "│ legal_moves " not in out


def test_kind_takes_several_kinds_separated_by_commas(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--kind chains,draws`` (or ``--kind chains --kind draws``) draws those kinds in turn, in that
    order, each once; ``all`` and ``readings`` go alone; an unknown kind is a usage error naming it.
    A repeated ``--kind`` once silently kept the last one."""
    from conformance.cli.verify import options_from

    def kinds(*given: str) -> tuple[str, ...]:
        flags = [part for text in given for part in ("--kind", text)]
        return options_from(_parser().parse_args(["verify", "--engine", "oracle", *flags])).kinds

    assert kinds("endgames,random,endgames") == ("endgames", "random")
    assert kinds("chains", "draws") == ("chains", "draws")
    assert kinds("draws") == ("draws",)
    every = ("random", "captures", "chains", "endgames", "playouts", "draws")
    assert kinds("all") == kinds() == every
    for wrong, said in (
        (["random,nope"], "'nope' is no kind of position"),
        (["all,draws"], "all goes alone"),
        (["random", "readings"], "readings goes alone"),
    ):
        with pytest.raises(SystemExit):
            _parser().parse_args(["verify", *(part for text in wrong for part in ("--kind", text))])
        assert said in capsys.readouterr().err
    report = tmp_path / "r.jsonl"
    args = _parser().parse_args(
        ["verify", "--engine", "oracle", "--kind", "endgames,random", "-n", "4", "--no-z3", "--no-progress"]
        + ["--report", str(report)]
    )
    assert args.handler(args) == 0
    header = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
    assert header["verify"]["kinds"] == ["endgames", "random"]
