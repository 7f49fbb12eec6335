"""The draughts-conformance command line and the renderers of a saved report."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.report import read_report
from conformance.report.badge import render_badge
from conformance.report.junit import render_junit
from conformance.report.markdown import render_markdown

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conformance", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def broken_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real run of a mutant (men never capture backward) over a few articles."""
    path = tmp_path_factory.mktemp("reports") / "forward-only.jsonl"
    done = cli(
        "run",
        "mutant:men-capture-forward-only",
        "--article",
        "4.1",
        "--article",
        "4.15",
        *("--article", "4.5"),  # 4.1-forward-then-backward is filed under 4.5 (a multiple capture)
        "--report",
        str(path),
    )
    assert done.returncode == 1, done.stderr
    return path


def test_the_main_job_certifies_the_oracle_on_the_whole_corpus() -> None:
    done = cli("run", "oracle", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert "Certificate by rule" in done.stdout
    for article in ("4.13", "6.3", "PDN"):
        assert f"│ {article} " in done.stdout
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("oracle ")
    assert ": CERTIFIED at rules level: rules " in last
    for standing in ("failed", "partly covered", "not covered"):
        assert standing not in last


def test_failures_give_exit_status_1_and_are_shown_with_their_board(broken_report: Path) -> None:
    done = cli("render", str(broken_report), "--show", "100")
    assert done.returncode == 0
    assert "FAIL 4.1-man-captures-backward-or-forward-two-men [legal_moves]" in done.stdout
    assert "missing: 35x44 {40}" in done.stdout
    assert "FEN W:W35:B30,40" in done.stdout
    assert "white to move" in done.stdout  # the text board
    # 4.1-forward-then-backward (a 4.5 case): its capture stops where going on needs a backward jump,
    # a defect of 4.1 found in a question of 4.5
    assert (
        "FAIL 4.1-forward-then-backward [legal_moves]  art. 4.1 (found in a question of 4.5)" in done.stdout
    )
    # a 4.15 case relying on 4.1, which the engine fails directly: blocked, shown after the defects
    blocked = (
        "FAIL 4.15-man-passes-far-row-stays-man [legal_moves]  art. 4.15  (blocked by 4.1, failed directly)"
    )
    assert blocked in done.stdout
    assert done.stdout.index("4.1-man-captures-backward-or-forward-two-men") < done.stdout.index(blocked)
    assert "are blocked" in done.stdout


def test_junit_has_one_testcase_per_question_filed_under_the_rule_it_breaks(broken_report: Path) -> None:
    report = read_report(broken_report)
    root = ET.fromstring(render_junit(report))
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert "Art. 4.1" in suites
    failures_41 = sum(1 for r in report.results if r.charged == "4.1" and r.status.value == "fail")
    assert int(suites["Art. 4.1"].get("failures") or 0) == failures_41 > 0
    assert len(suites["Art. 4.1"].findall("testcase/failure")) == failures_41
    cases = [case for suite in suites.values() for case in suite.findall("testcase")]
    assert len(cases) == len(report.results) == int(root.get("tests") or 0)
    names = [(case.get("classname"), case.get("name")) for case in cases]
    assert len(set(names)) == len(names)
    assert all("." not in str(case.get("classname")) for case in cases)  # Jenkins splits on dots
    first = report.results[0]
    case = next(c for c in cases if c.get("name", "").startswith(first.case))
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert properties["article"] == first.article


def test_markdown_and_badge(broken_report: Path) -> None:
    report = read_report(broken_report)
    markdown = render_markdown(report)
    assert markdown.startswith("## FMJD conformance: men-capture-forward-only")
    assert "| 4.1 |" in markdown
    assert "<summary><b>fail</b> <code>4.1-man-captures-backward-or-forward-two-men</code>" in markdown
    badge = json.loads(render_badge(report))
    assert badge["schemaVersion"] == 1
    assert badge["color"] == "red"
    passed = sum(1 for r in report.results if r.status.value == "pass")
    assert f"{passed}/{len(report.results)} pass" in badge["message"]


@pytest.mark.parametrize("fmt", ["junit", "markdown", "badge", "json", "html"])
def test_render_writes_every_format_to_a_file(broken_report: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"out.{fmt}"
    assert main(["render", str(broken_report), "--format", fmt, "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "4.1-man-captures-backward-or-forward-two-men" in text or fmt == "badge"
    if fmt != "json":
        assert "failed" in text.lower()


def test_the_json_format_is_the_canonical_stream_again(broken_report: Path, tmp_path: Path) -> None:
    out = tmp_path / "again.jsonl"
    assert main(["render", str(broken_report), "--format", "json", "-o", str(out)]) == 0
    assert read_report(out).results == read_report(broken_report).results


def test_a_baseline_written_by_one_run_makes_the_next_pass_only_when_its_known_failures_are_accepted(
    tmp_path: Path,
) -> None:
    baseline = tmp_path / "known.yaml"
    first = cli(
        "run",
        "mutant:king-counts-two",
        "--article",
        "4",  # all of Art. 4: rules the mutant gets right are certified
        "--write-baseline",
        str(baseline),
        "--format",
        "badge",
    )
    assert first.returncode == 1
    again = cli(
        "run", "mutant:king-counts-two", "--article", "4", "--baseline", str(baseline), "--format", "badge"
    )
    assert again.returncode == 1, again.stdout + again.stderr  # known failures still fail their rules
    badge = json.loads(again.stdout)
    assert re.fullmatch(r"\d+ rule\(s\) failed, \d+ known · \d+/\d+ pass", badge["message"])
    assert badge["color"] == "red"
    accepted = cli(
        "run", "mutant:king-counts-two", "--article", "4", "--baseline", str(baseline), "--accept-known",
        "--format", "markdown",
    )  # fmt: skip
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert re.search(
        r"\*\*king-counts-two 0\.1\.0: FAILED, \d+ known \(accepted\), at rules level", accepted.stdout
    )
    assert "CERTIFIED" not in accepted.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "nonsense-engine"], "unknown engine spec"),
        (["run", "python:no_such_module:Engine"], "cannot import"),
        (["run", "oracle", "--case", "no-such-case"], "no case matches"),
        (["run", "jsonl:/no/such/program"], "did not start"),
        (["show", "4.13-no-such"], "no case '4.13-no-such'"),
        (["render", "/no/such/report.jsonl"], "cannot read the report"),
        (["run", "oracle", "--baseline", "/no/such.yaml"], "cannot read the baseline"),
        (["run", "oracle", "--corpus", "/no/such/dir"], "no such corpus directory"),
        (["bogus"], "invalid choice"),
    ],
)
def test_usage_errors_give_exit_status_2_and_one_clear_line(args: list[str], message: str) -> None:
    done = cli(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_a_malformed_corpus_is_a_usage_error_naming_file_and_case(tmp_path: Path) -> None:
    corpus = tmp_path / "cases"
    corpus.mkdir()
    for name in ("schema.json", "articles.yaml"):
        (corpus / name).write_text((ROOT / "cases" / name).read_text(encoding="utf-8"), encoding="utf-8")
    (corpus / "bad.yaml").write_text(
        'topic: Bad\narticle: "3.4"\ncases:\n  - id: 3.4-bad\n    description: x\n', encoding="utf-8"
    )
    done = cli("run", "oracle", "--corpus", str(corpus))
    assert done.returncode == 2
    assert "bad.yaml:" in done.stderr
    assert "3.4-bad" in done.stderr


def test_list_and_show() -> None:
    listed = cli("list", "--article", "4.14")
    assert listed.returncode == 0
    assert "4.14-no-preference-for-taking-a-king" in listed.stdout
    shown = cli("show", "4.11-turkish-strike")
    assert shown.returncode == 0
    assert "B:W27,28,38,39,42:BK25" in shown.stdout
    assert 'legal_moves: ["25x33 {27,28,39,42}"]' in shown.stdout


def test_list_columns_line_up_whatever_the_length_of_the_ids() -> None:
    """Each column starts where the longest entry of the one before it ends (ids reach 60 characters)."""
    listed = cli("list").stdout.splitlines()
    ids = [line.split()[0] for line in listed]
    assert max(map(len, ids)) > 45  # longer than the old fixed column
    rule_column = max(map(len, ids)) + 2
    for line, case_id in zip(listed, ids, strict=True):
        assert line[len(case_id) : rule_column] == " " * (rule_column - len(case_id)), line
        assert line[rule_column] != " ", line


def test_a_python_engine_spec_runs_in_process(tmp_path: Path) -> None:
    module = tmp_path / "my_engine.py"
    module.write_text(
        "from conformance.engines.oracle_engine import OracleEngine\n"
        "class Engine(OracleEngine):\n"
        "    def legal_moves(self, fen):\n"
        "        return [(m.from_square, m.to_square, tuple(m.captured)) for m in super().legal_moves(fen)]\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance",
            "run",
            "python:my_engine:Engine",
            "--article",
            "4.13",
            "--format",
            "badge",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "PYTHONPATH": f"{tmp_path}:{ROOT}"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    badge = json.loads(done.stdout)
    assert badge["message"].startswith("certified · ")
    assert "filtered" in badge["message"]  # only 4.13 was asked: not a certificate of the whole corpus
    assert badge["color"] == "blue"


def test_show_gives_the_rule_and_the_reading_as_this_project_reads_them() -> None:
    from conformance.core import rulebook
    from conformance.core.corpus import load_corpus

    case = next(c for c in load_corpus().cases if c.reading)
    done = cli("show", case.id)
    assert done.returncode == 0, done.stderr
    assert rulebook.section(case.article).body.strip()[:80] in done.stdout
    assert rulebook.reading(str(case.reading)).body.strip()[:80] in done.stdout


def test_no_help_text_shows_restructuredtext_markup() -> None:
    """--help of the command and of every subcommand is plain text: no ``literal`` quotes, no roles."""
    from conformance.cli.main import build_parser

    parser = build_parser()
    (commands,) = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    helps = [parser.format_help(), *(sub.format_help() for sub in commands.choices.values())]
    assert len(helps) > 10
    for text in helps:
        assert "``" not in text, text[:300]
        assert not re.search(r":(mod|func|class|data|meth):`", text), text[:300]
