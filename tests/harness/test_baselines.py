"""Honest baselines: a known failure is known by its signature (defect and answer), a baselined run
says "FAILED, N known" and exits 0 only when the user accepts the known failures, a baseline that
hides more than a quarter of a run is refused unless forced, and every view says how much it hides."""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from support import run_cli

from conformance.core.baseline import MAX_HIDDEN_SHARE, Baseline, BaselineError, answer_digest
from conformance.core.certificate import ExitStatus
from conformance.core.corpus import load_corpus
from conformance.core.results import Result, Status
from conformance.harness.evaluate import question_keys
from conformance.harness.runner import RunOptions, select_cases
from conformance.report import read_report


def headline(done: subprocess.CompletedProcess[str]) -> str:
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def short_kings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The baseline ``run mutant:short-kings --write-baseline`` writes."""
    path = tmp_path_factory.mktemp("baselines") / "short-kings.yaml"
    done = run_cli(
        "run", "mutant:short-kings", "--no-progress", "--write-baseline", str(path), "--format", "badge"
    )
    assert done.returncode == ExitStatus.FAILED, done.stderr
    return path


def test_an_entry_holds_the_failures_signature(short_kings: Path) -> None:
    data = yaml.safe_load(short_kings.read_text(encoding="utf-8"))
    assert data["format"] == 2
    entry = data["known"][0]
    assert set(entry) == {"case", "question", "status", "defect", "answer", "note"}
    assert entry["status"] in ("fail", "error")
    assert entry["defect"]
    assert len(entry["answer"]) == 16
    assert answer_digest(["1-6", "1-7"]) == answer_digest(["1-6", "1-7"]) != answer_digest(["1-7", "1-6"])


def test_a_changed_failure_is_new() -> None:
    baseline = Baseline(
        frozenset({("c", "legal_moves")}),
        {("c", "legal_moves"): frozenset({("fail", "misses long king moves", answer_digest(["28-22"]))})},
        "known.yaml",
    )
    same = Result("c", "legal_moves", "3.9", Status.FAIL, defect="misses long king moves", got=["28-22"])
    other = Result("c", "legal_moves", "3.9", Status.FAIL, defect="misses long king moves", got=["28-23"])
    assert baseline.apply(same).baselined
    changed = baseline.apply(other)
    assert not changed.baselined
    assert (
        "a new failure: the baseline lists another one for this question: fail: misses long king moves"
        in (changed.message)
    )
    assert baseline.legacy == 0
    assert baseline.deprecation() == ""


def test_a_baseline_of_one_engine_does_not_pass_another(short_kings: Path) -> None:
    """kings-step-one-square fails only questions short-kings fails too: matched by case and question
    (the old format), the short-kings baseline would have passed it."""
    done = run_cli(
        "run", "mutant:kings-step-one-square", "--no-progress", "--baseline", str(short_kings),
        "--force-baseline", "--accept-known",
    )  # fmt: skip
    assert done.returncode == ExitStatus.FAILED, headline(done)
    counts = re.match(
        r"kings-step-one-square 0\.1\.0: FAILED \((\d+) new, (\d+) known\), at rules level", headline(done)
    )
    assert counts, headline(done)
    assert int(counts[1]) > 0, "its own failures are new: they differ from short-kings' answers"
    assert "CERTIFIED" not in headline(done).replace("NOT CERTIFIED", "")


def test_a_baseline_hiding_most_of_the_run_is_refused_unless_forced(tmp_path: Path) -> None:
    """Issue 23: a baseline listing every case turned short-kings into exit 0, "CERTIFIED (111 known)"."""
    every_case = tmp_path / "every-case.yaml"
    cases = select_cases(load_corpus(), RunOptions())  # the default run: slow cases left out
    every_case.write_text("known:\n" + "".join(f"  - case: {case.id}\n" for case in cases), encoding="utf-8")
    questions = sum(1 for case in cases for _ in question_keys(case))
    refused = run_cli("run", "mutant:short-kings", "--no-progress", "--baseline", str(every_case))
    assert refused.returncode == ExitStatus.USAGE
    assert (
        f"the baseline lists {questions} of the {questions} questions of this run (100%), more than the 25%"
        in refused.stderr
    )
    assert "--force-baseline" in refused.stderr
    forced = run_cli(
        "run", "mutant:short-kings", "--no-progress", "--baseline", str(every_case), "--force-baseline"
    )
    assert forced.returncode == ExitStatus.FAILED
    line = headline(forced)
    known = re.match(r"short-kings 0\.1\.0: FAILED, (\d+) known, at rules level", line)
    assert known, line
    share = round(100 * int(known[1]) / questions)
    assert line.endswith(f"the baseline hides {known[1]} of {questions} questions ({share}%)")
    assert share > 25, "short-kings fails more than a quarter of the corpus: the share limit is tested"
    assert "old baseline format" in forced.stderr
    assert "deprecated" in forced.stderr
    assert MAX_HIDDEN_SHARE == 0.25


def test_the_share_counts_the_questions_listed() -> None:
    baseline = Baseline(frozenset({("a", None), ("b", "fen")}), {}, "k.yaml")
    keys = [(case.id, key) for case in load_corpus().cases[:2] for key, _ in question_keys(case)]
    assert baseline.hidden([("a", "fen"), ("a", "perft"), ("b", "fen"), ("b", "perft"), ("c", "fen")]) == 3
    baseline.check_share(1, 4)
    with pytest.raises(BaselineError, match="lists 2 of the 4 questions of this run \\(50%\\)"):
        baseline.check_share(2, 4)
    baseline.check_share(2, 4, force=True)
    assert baseline.hidden(keys) == 0


def test_every_view_shows_known_failures_as_failures(tmp_path: Path) -> None:
    known = tmp_path / "known.yaml"
    written = run_cli(
        "run", "mutant:king-counts-two", "--article", "4", "--no-progress", "--write-baseline", str(known)
    )
    assert written.returncode == ExitStatus.FAILED
    report = tmp_path / "run.jsonl"
    done = run_cli(
        "run", "mutant:king-counts-two", "--article", "4", "--no-progress", "--baseline", str(known),
        "--report", str(report),
    )  # fmt: skip
    assert done.returncode == ExitStatus.FAILED
    certificate = read_report(report).certificate()
    assert certificate.known > 0
    assert certificate.problems == 0
    root = ET.fromstring(run_cli("render", str(report), "--format", "junit").stdout)
    assert int(root.get("failures", "0")) >= certificate.known  # never failures="0" beside known failures
    assert root.findall(".//failure[@type='known']")
    markdown = run_cli("render", str(report), "--format", "markdown").stdout
    assert f"FAILED, {certificate.known} known, at rules level" in markdown
    assert f"the baseline hides {certificate.known} of {certificate.questions} questions" in markdown
    footer = json.loads(run_cli("render", str(report), "--format", "json").stdout.splitlines()[-1])
    assert footer["certificate"]["verdict"] == f"FAILED, {certificate.known} known"
    badge = json.loads(run_cli("render", str(report), "--format", "badge").stdout)
    assert badge["color"] == "red"
    assert f"{certificate.known} known" in badge["message"]


def test_accept_known_needs_a_baseline() -> None:
    done = run_cli("run", "oracle", "--accept-known", "--article", "4.13")
    assert done.returncode == ExitStatus.USAGE
    assert "--accept-known needs --baseline FILE" in done.stderr


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("{case: a, question: fen, status: fail}", "needs 'question', and 'status', 'defect' and 'answer'"),
        ("{case: a, status: fail, defect: x, answer: y}", "needs 'question'"),
        ("{case: a, question: fen, status: fail, defect: 3, answer: y}", "as text"),
    ],
)
def test_a_malformed_signed_entry_is_a_clear_error(tmp_path: Path, entry: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"known:\n  - {entry}\n", encoding="utf-8")
    with pytest.raises(BaselineError, match=message):
        Baseline.load(path)


def test_verify_takes_and_writes_a_baseline_and_says_the_same_words(tmp_path: Path) -> None:
    known = tmp_path / "verify-known.yaml"
    args = [
        "verify",
        "--engine",
        "mutant:king-counts-two",
        "-n",
        "40",
        "--seed",
        "5",
        "--kind",
        "chains",  # where the mutant fails; a quarter of the cost of every kind (draw games, endgames)
        "--no-z3",
        "--no-progress",
    ]
    first = run_cli(*args, "--write-baseline", str(known), "--format", "markdown", "--force-baseline")
    assert first.returncode == ExitStatus.FAILED, first.stdout[-1000:] + first.stderr
    listed = yaml.safe_load(known.read_text(encoding="utf-8"))["known"]
    assert listed
    assert all(entry["case"].startswith("verify-5-") for entry in listed)
    again = run_cli(*args, "--baseline", str(known), "--format", "markdown", "--force-baseline")
    assert again.returncode == ExitStatus.FAILED, again.stdout[-1000:]
    assert f"FAILED, {len(listed)} known, at rules level" in again.stdout
    accepted = run_cli(
        *args, "--baseline", str(known), "--accept-known", "--format", "markdown", "--force-baseline"
    )
    assert accepted.returncode == ExitStatus.CERTIFIED, accepted.stdout[-1000:]
    assert f"FAILED, {len(listed)} known (accepted), at rules level" in accepted.stdout
    other = run_cli(
        "verify", "--engine", "mutant:captures-not-compulsory", "-n", "40", "--seed", "5", "--kind", "chains",
        "--no-z3", "--no-progress",
        "--baseline", str(known), "--accept-known", "--force-baseline",
    )  # fmt: skip
    assert other.returncode == ExitStatus.FAILED  # another engine's failures are new
    assert "(accepted)" not in other.stdout


def test_verify_refuses_a_baseline_naming_most_positions(tmp_path: Path) -> None:
    known = tmp_path / "k.yaml"
    known.write_text("known:\n" + "".join(f"  - case: verify-5-{i}\n" for i in range(20)), encoding="utf-8")
    done = run_cli("verify", "--engine", "oracle", "-n", "40", "--seed", "5", "--baseline", str(known))
    assert done.returncode == ExitStatus.USAGE
    assert "lists 20 of the 40 positions of this run (50%)" in done.stderr
