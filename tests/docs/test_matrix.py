"""The conformance matrix: the README's table is the one the stored reports give, the stored
reports are of today's corpus and engine releases, and the ``matrix`` command writes both.

Why the default run reruns no engine: the table is a pure function of the reports stored in
docs/matrix (each engine's canonical report, made reproducible). What can make it stale is
checked cheaply -- a README edited by hand or not rewritten (the table is recomputed here and
compared), a corpus that changed since the engines ran (its digest is in each report), an engine
release bumped (its version is in each report), an engine added to the built-in ones (its report
is missing). What only running the engines can tell -- the harness now judging an answer
differently -- is the slow test at the end, which runs every installed engine and compares.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from conformance.cli.commands import build_parser
from conformance.cli.matrix import run_engine, stored_reports, write_reproducible
from conformance.core.certificate import Standing, certify
from conformance.core.corpus import load_corpus
from conformance.core.results import Result, Status
from conformance.engines.thirdparty import BUILTIN_ENGINES, status
from conformance.harness.runner import RunOptions, select_cases
from conformance.report import Report, read_report
from conformance.report.matrix import (
    BEGIN,
    END,
    MatrixError,
    build_matrix,
    cell,
    matrix_markdown,
    read_block,
    replace_block,
)

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
STORED = REPO / "docs" / "matrix"
RERUN = "rerun `draughts-conformance matrix` (the engines) or `matrix --from-reports` (the table only)"


# -- the README is current ------------------------------------------------------------------------


def test_every_built_in_engine_has_a_stored_report_of_todays_corpus_and_release() -> None:
    corpus = load_corpus()
    questions = sum(len(case.questions) for case in select_cases(corpus, RunOptions()))
    reports = {report.engine_name: report for report in stored_reports(STORED)}
    assert sorted(reports) == sorted(BUILTIN_ENGINES), f"an engine has no stored report: {RERUN}"
    for name, engine in BUILTIN_ENGINES.items():
        report = reports[name]
        assert report.header["corpus_digest"] == corpus.digest, f"{name}: another corpus; {RERUN}"
        assert report.header["engine"]["version"] == engine.version, f"{name}: another release; {RERUN}"
        assert len(report.results) == report.header["questions"] == questions, f"{name}: {RERUN}"
        assert "started" not in report.header  # reproducible: rerunning changes it only where an answer does
        assert all(result.duration_ms == 0 for result in report.results)


def test_readme_shows_the_matrix_of_the_stored_reports() -> None:
    expected = matrix_markdown(build_matrix(stored_reports(STORED)))
    assert read_block(README.read_text(encoding="utf-8")) == expected, (
        f"the README's matrix is stale: {RERUN}"
    )


# -- what a cell says -----------------------------------------------------------------------------


def _result(case: str, status: Status, *, article: str = "4.13", **fields: object) -> Result:
    return Result(case=case, question="legal_moves", article=article, status=status, **fields)  # type: ignore[arg-type]


def test_cells_say_the_standing_and_the_passing_questions() -> None:
    rows = {
        row.key: row
        for row in certify(
            [
                _result("a", Status.PASS),
                _result("b", Status.FAIL),
                _result("c", Status.PASS, article="4.1"),
                _result("d", Status.SKIP, article="4.1"),
                _result("e", Status.SKIP, article="4.2"),
                _result("f", Status.PASS, article="3.9"),
                _result("g", Status.FAIL, article="6.1", charged_to="3.9"),
                _result("h", Status.PASS, article="6.1"),
            ]
        ).rows
    }
    assert cell(rows["4.13"]).markdown == "**failed** 1/2"
    assert cell(rows["4.1"]).markdown == "partly covered 1/2"
    assert cell(rows["4.1"]).notes == ("1 not answered",)
    assert cell(rows["4.2"]).markdown == "not covered 0/1"
    assert cell(rows["3.9"]).standing is Standing.FAILED
    assert cell(rows["3.9"]).notes == ("1 found in other rules' questions",)
    assert cell(rows["6.1"]).markdown == "partly covered 1/2"  # its wrong answer is 3.9's
    assert cell(rows["6.1"]).notes == ("1 blocked",)
    assert cell(None).markdown == "-"


def test_the_matrix_is_a_function_of_the_reports() -> None:
    def report(name: str, results: list[Result]) -> Report:
        engine = {"name": name, "version": "1", "adapter": "x", "level": "rules"}
        return Report({"engine": engine, "questions": len(results), "corpus_digest": "d" * 64}, results, {})

    good = report("good", [_result("a", Status.PASS), _result("x", Status.PASS, article="2")])
    bad = report("bad", [_result("a", Status.FAIL), _result("r", Status.PASS, reading="fen-whitespace")])
    matrix = build_matrix([good, bad])
    assert matrix.engines == ("good 1", "bad 1")
    assert matrix.rules == (("2", False), ("4.13", False), ("fen-whitespace", True))
    table = matrix_markdown(matrix)
    assert "| 4.13 | certified 1/1 | **failed** 0/1 |" in table
    assert "| 2 | certified 1/1 | - |" in table
    assert "| reading fen-whitespace | - | certified 1/1 |" in table
    assert "- **bad 1**: FAILED at rules level" in table
    assert matrix_markdown(build_matrix([good, bad])) == table


def test_the_block_between_the_markers() -> None:
    text = f"intro\n{BEGIN}\nold\n{END}\nrest\n"
    assert read_block(text) == "old\n"
    assert replace_block(text, "| new |\n") == f"intro\n{BEGIN}\n| new |\n{END}\nrest\n"
    for broken in ("no markers", f"{END}\n{BEGIN}", f"{BEGIN}\n{BEGIN}\n{END}"):
        with pytest.raises(MatrixError, match="no matrix block"):
            read_block(broken)


# -- the command ----------------------------------------------------------------------------------


def _command(*argv: str) -> int:
    parser = build_parser()
    args = parser.parse_args(["matrix", *argv])
    return int(args.handler(args))


def test_the_command_runs_the_engines_and_writes_readme_reports_and_site(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# engine\n\n{BEGIN}\nstale\n{END}\n\nafter\n", encoding="utf-8")
    reports, site = tmp_path / "reports", tmp_path / "site"
    engines = ["oracle", "mutant:short-kings"]
    argv = [*engines, "--reports", str(reports), "--readme", str(readme), "--site", str(site)]
    assert _command(*argv) == 0
    stored = stored_reports(reports, engines)
    assert [report.engine_name for report in stored] == ["oracle", "short-kings"]
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# engine\n")
    assert text.endswith("\nafter\n")
    assert read_block(text) == matrix_markdown(build_matrix(stored))
    assert "| 3.9 | certified 10/10 | **failed** " in text
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "short-kings" in index
    first = {path.name: path.read_bytes() for path in reports.iterdir()}
    assert _command(*argv) == 0  # a second run changes nothing: no clock in a stored report
    assert {path.name: path.read_bytes() for path in reports.iterdir()} == first
    assert _command(*engines, "--reports", str(reports), "--readme", str(readme), "--from-reports") == 0
    assert read_block(readme.read_text(encoding="utf-8")) == matrix_markdown(build_matrix(stored))


def test_the_command_refuses_a_readme_without_markers_before_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# no table here\n", encoding="utf-8")
    assert _command("oracle", "--reports", str(tmp_path / "r"), "--readme", str(readme)) == 2
    assert "no matrix block" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()  # nothing was run
    assert _command("oracle", "--reports", str(tmp_path / "none"), "--readme", "-", "--from-reports") == 2


def test_an_engine_that_does_not_start_is_reported_and_the_rest_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = tmp_path / "reports"
    status_ = _command("oracle", "jsonl:/nonexistent/engine", "--reports", str(reports), "--readme", "-")
    assert status_ == 1
    captured = capsys.readouterr()
    assert "jsonl:/nonexistent/engine: did not start" in captured.err
    assert "| oracle 0.1.0 |" in captured.out


# -- the engines still answer as stored (slow: runs them) --------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BUILTIN_ENGINES))
def test_stored_reports_are_what_the_engines_answer_today(name: str, tmp_path: Path) -> None:
    if not status(name).works:
        pytest.skip(f"{name} is not installed: draughts-conformance engines install {name}")
    path = tmp_path / f"{name}.jsonl"
    write_reproducible(run_engine(name, load_corpus()), path)
    assert path.read_text(encoding="utf-8") == (STORED / f"{name}.jsonl").read_text(encoding="utf-8"), RERUN
    assert (
        read_report(path).certificate().summary()
        == read_report(STORED / f"{name}.jsonl").certificate().summary()
    )


def test_a_stored_report_names_neither_this_machine_s_engines_nor_the_suite_s_folder(tmp_path: Path) -> None:
    from conformance.cli.matrix import REPOSITORY
    from conformance.engines.thirdparty import engines_dir

    server = REPOSITORY / "conformance" / "servers" / "draughts_js.js"
    adapter = f"jsonl:/usr/bin/node {server} {engines_dir()}/draughts-js"
    stored = read_report(STORED / "draughts-js.jsonl")
    report = dataclasses.replace(
        stored, header={**stored.header, "engine": {**stored.header["engine"], "adapter": adapter}}
    )
    path = tmp_path / "draughts-js.jsonl"
    write_reproducible(report, path)
    written = read_report(path).header["engine"]["adapter"]
    assert (
        written == "jsonl:/usr/bin/node <repository>/conformance/servers/draughts_js.js <engines>/draughts-js"
    )
    assert path.read_text(encoding="utf-8") == (STORED / "draughts-js.jsonl").read_text(encoding="utf-8")


def test_the_command_runs_another_game_and_the_site_draws_it_on_its_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``matrix --rules russian``: the reports go to REPORTS/russian/, the game's table is printed
    (the README's table is the international one), and ``--site`` puts the runs on Russian pages."""
    reports, site = tmp_path / "reports", tmp_path / "site"
    engines = ["oracle", "mutant:maximum-capture-choice"]
    argv = [*engines, "--rules", "russian", "--reports", str(reports), "--readme", "-", "--site", str(site)]
    assert _command(*argv) == 0
    assert sorted(path.name for path in (reports / "russian").iterdir()) == [
        "mutant-maximum-capture-choice.jsonl",
        "oracle.jsonl",
    ]
    assert not list(reports.glob("*.jsonl"))  # nothing stored as an international run
    table = capsys.readouterr().out
    assert "| fsr:1.5.14 | certified" in table
    assert "**failed**" in table
    russian = (site / "russian" / "index.html").read_text(encoding="utf-8")
    assert "maximum-capture-choice 0.1.0" in russian
    assert 'href="russian/index.html"' in (site / "index.html").read_text(encoding="utf-8")
    assert (
        "maximum-capture-choice"
        not in (site / "index.html").read_text(encoding="utf-8").split('id="games"')[0]
    )
