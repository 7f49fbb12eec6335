"""``draughts-conformance diff OLD NEW``: regressions, fixes, changed answers, status changes, added and
removed questions, certificate standings; exit 1 on a regression; a Markdown form safe for a PR."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support import chained

from conformance.cli.main import main
from conformance.core.certificate import Standing
from conformance.core.results import Result, Status
from conformance.report import Report, ReportWriter, read_report
from conformance.report.diff import diff_reports, render_markdown, render_terminal

HOSTILE = "<script>alert(1)</script> | **bold** [link](http://x) `code` @octocat \x1b[31mred\n"


def result(case: str, status: Status, *, got: Any = None, article: str = "4.13", **extra: Any) -> Result:
    message = {Status.FAIL: "wrong", Status.ERROR: "broke", Status.SKIP: "declined"}.get(status, "")
    return Result(
        case, "legal_moves", article, status, position="W:W32:B28", got=got, message=message, **extra
    )


def write(path: Path, results: list[Result], name: str = "engine") -> Path:
    with path.open("w", encoding="utf-8") as handle:
        writer = ReportWriter(handle)
        writer.write(
            {
                "type": "header",
                "engine": {"name": name, "version": "1", "adapter": "in-process", "level": "rules"},
                "questions": len(results),
                "corpus_digest": "same",
            }
        )
        for item in results:
            writer.result(item)
        writer.write({"type": "footer", "counts": {}})
    return path


def reports(tmp_path: Path, old: list[Result], new: list[Result]) -> tuple[Report, Report]:
    return (
        read_report(write(tmp_path / "old.jsonl", old)),
        read_report(write(tmp_path / "new.jsonl", new)),
    )


def outside_code_blocks(markdown: str) -> str:
    """The Markdown without its fenced code blocks (shown verbatim, never interpreted)."""
    kept, fence = [], ""
    for line in markdown.splitlines():
        if fence:
            fence = "" if line == fence else fence
        elif re.fullmatch(r"`{3,}", line):
            fence = line
        else:
            kept.append(line)
    assert not fence, "a code block is left open"
    return "\n".join(kept)


def keys(changes: tuple[Any, ...]) -> list[str]:
    return [change.case for change in changes]


def test_each_kind_of_change_is_sorted_out(tmp_path: Path) -> None:
    old = [
        result("a-breaks", Status.PASS),
        result("b-fixed", Status.FAIL, got=["1-2"]),
        result("c-still-wrong", Status.FAIL, got=["1-2"]),
        result("d-now-declined", Status.PASS, article="3.4"),
        result("e-removed", Status.PASS, article="3.9"),
        result("f-known-then-new", Status.FAIL, got=["x"], baselined=True),
        result("g-newly-known", Status.PASS, article="4.1"),
        result("h-same", Status.FAIL, got=["1-2"]),
    ]
    new = [
        result("a-breaks", Status.FAIL, got=["9-9"]),
        result("b-fixed", Status.PASS),
        result("c-still-wrong", Status.FAIL, got=["3-4"]),
        result("d-now-declined", Status.SKIP, article="3.4"),
        result("f-known-then-new", Status.FAIL, got=["x"]),
        result("g-newly-known", Status.FAIL, got=["y"], article="4.1", baselined=True),
        result("h-same", Status.FAIL, got=["1-2"]),
        result("i-added", Status.FAIL, got=["z"], article="4.2"),
    ]
    found = diff_reports(*reports(tmp_path, old, new))
    assert keys(found.regressions) == ["a-breaks", "f-known-then-new"]
    assert keys(found.fixes) == ["b-fixed"]
    assert keys(found.changed) == ["c-still-wrong"]
    assert keys(found.moved) == ["d-now-declined", "g-newly-known"]
    assert keys(found.added) == ["i-added"]
    assert keys(found.removed) == ["e-removed"]
    standings = {change.rule: (change.old, change.new) for change in found.standings}
    assert standings["3.4"] == (Standing.CERTIFIED, Standing.NOT_COVERED)
    assert [change.rule for change in found.lost] == ["3.4", "4.1"]
    assert found.exit_status == 1


def test_a_rule_that_stops_being_certified_is_a_regression_without_a_new_failure(tmp_path: Path) -> None:
    found = diff_reports(*reports(tmp_path, [result("a", Status.PASS)], [result("a", Status.SKIP)]))
    assert found.regressions == ()
    assert [change.rule for change in found.lost] == ["4.13"]
    assert found.regressed


def test_fixes_and_changed_answers_alone_exit_0(tmp_path: Path) -> None:
    old = [result("a", Status.FAIL, got=["1"]), result("b", Status.FAIL, got=["1"])]
    new = [result("a", Status.PASS), result("b", Status.FAIL, got=["2"])]
    found = diff_reports(*reports(tmp_path, old, new))
    assert (keys(found.fixes), keys(found.changed), found.exit_status) == (["a"], ["b"], 0)
    assert found.summary().startswith("no regression")


def test_identical_reports_change_nothing(tmp_path: Path) -> None:
    same = [result("a", Status.PASS), result("b", Status.FAIL, got=["1"])]
    found = diff_reports(*reports(tmp_path, same, same))
    assert found.summary() == "no regression: nothing changed"
    assert found.exit_status == 0


def test_the_command_exits_1_on_a_regression_and_writes_markdown(tmp_path: Path) -> None:
    old = write(tmp_path / "old.jsonl", [result("a", Status.PASS)])
    new = write(tmp_path / "new.jsonl", [result("a", Status.FAIL, got=["1-2"])])
    out = tmp_path / "comment.md"
    assert main(["diff", str(old), str(new), "--format", "markdown", "-o", str(out)]) == 1
    text = out.read_text(encoding="utf-8")
    assert text.startswith("## FMJD conformance:")
    assert "### Regressions (1)" in text
    assert main(["diff", str(new), str(old)]) == 0


def test_an_unreadable_report_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path / "good.jsonl", [result("a", Status.PASS)])
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    assert main(["diff", str(good), str(bad)]) == 2
    assert "bad.jsonl:1: not a report line" in capsys.readouterr().err
    assert main(["diff", str(good), str(tmp_path / "missing.jsonl")]) == 2


def test_engine_text_is_escaped_in_markdown(tmp_path: Path) -> None:
    old = [result("a", Status.PASS), result("b", Status.FAIL, got=[HOSTILE])]
    new = [
        Result("a", "legal_moves", "4.13", Status.FAIL, position="W:W32:B28", got=[HOSTILE], message=HOSTILE),
        result("b", Status.FAIL, got=[HOSTILE + "!"]),
    ]
    markdown = render_markdown(diff_reports(*reports(tmp_path, old, new)))
    text = outside_code_blocks(markdown)
    assert "<script>" not in text
    assert "@octocat" not in text  # no mention: a zero-width space follows the @
    assert "**bold**" not in text
    assert "[link](http://x)" not in text
    for line in text.splitlines():
        if line.startswith("| `a`"):
            # Every | of the engine's text is escaped: the row keeps its six cells.
            assert line.replace("\\|", "").count("|") == 7, line


def test_engine_text_cannot_drive_the_terminal(tmp_path: Path) -> None:
    old = [result("a", Status.PASS)]
    new = [Result("a", "legal_moves", "4.13", Status.FAIL, got=[HOSTILE], message=HOSTILE)]
    text = render_terminal(diff_reports(*reports(tmp_path, old, new)))
    assert "\x1b" not in text
    assert "\\x1b[31mred" in text


def test_a_long_section_is_cut_in_markdown(tmp_path: Path) -> None:
    old = [result(f"case-{i:03}", Status.PASS) for i in range(70)]
    new = [result(f"case-{i:03}", Status.FAIL, got=["1"]) for i in range(70)]
    text = render_markdown(diff_reports(*reports(tmp_path, old, new)))
    assert "... and 20 more" in text
    assert "case-069" not in text


def test_two_real_runs(tmp_path: Path) -> None:
    """The oracle, then a mutant: every failure of the mutant's run is a regression."""
    old, new = tmp_path / "oracle.jsonl", tmp_path / "mutant.jsonl"
    main(
        [
            "run",
            "oracle",
            "--article",
            "4.1",
            "--report",
            str(old),
            "--format",
            "badge",
            "-o",
            str(tmp_path / "b"),
        ]
    )
    main(
        [
            "run",
            "mutant:men-capture-forward-only",
            "--article",
            "4.1",
            "--report",
            str(new),
            "--format",
            "badge",
            "-o",
            str(tmp_path / "b"),
        ]
    )
    found = diff_reports(read_report(old), read_report(new))
    failing = {  # the probes a run of some cases adds are new questions, not regressions
        (r.case, r.question)
        for r in read_report(new).results
        if r.status in (Status.FAIL, Status.ERROR) and not r.probe
    }
    assert failing
    assert {(c.case, c.question) for c in found.regressions} == failing
    assert "4.1" in {change.rule for change in found.lost}


def _partial_reports(path: Path, lines: list[str]) -> dict[str, Path]:
    """The new report of a run cut short in each way: header only, interrupted (no footer), stopped
    early by --max-fail, and a footer with questions missing."""
    head, *results, footer = [json.loads(line) for line in lines]
    made = {
        "header-only": [head],
        "interrupted": [head, *results[: len(results) // 2]],
        "stopped early": [head, *results[:3], {**footer, "stopped_early": True}],
        "questions missing": [head, *results[:-2], footer],
    }
    out = {}
    for name, kept in made.items():
        out[name] = path / f"{name.replace(' ', '-')}.jsonl"
        out[name].write_text(chained(kept), encoding="utf-8")
    return out


def test_a_partial_new_report_is_never_no_regression(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "main.jsonl"
    assert main(["run", "oracle", "--article", "4.13", "--no-progress", "--report", str(old)]) == 0
    capsys.readouterr()
    lines = old.read_text(encoding="utf-8").splitlines()
    for name, new in _partial_reports(tmp_path, lines).items():
        status = main(["diff", str(old), str(new)])
        out = capsys.readouterr().out
        assert status == 3, (name, out)
        summary = out.strip().splitlines()[-1]
        assert summary.startswith("NO VERDICT: "), (name, summary)
        assert "no regression" not in out
        assert "the new report is partial (" in summary
        assert "QUESTIONS REMOVED" not in out  # a question the partial report lacks was not removed
        markdown = render_markdown(diff_reports(read_report(old), read_report(new)))
        assert ":white_check_mark:" not in markdown
        assert "NO VERDICT" in markdown
    # the other way round: a partial OLD report hides what the new one fails, so no verdict either
    assert main(["diff", str(_partial_reports(tmp_path, lines)["interrupted"]), str(old)]) == 3
    assert "the old report is partial" in capsys.readouterr().out
    # a regression is one, whatever else is missing
    broken = tmp_path / "broken.jsonl"
    main(
        [
            "run",
            "mutant:free-capture-choice",
            "--article",
            "4.13",
            "--no-progress",
            "--report",
            str(broken),
            "--max-fail",
            "1",
        ]
    )
    capsys.readouterr()
    assert main(["diff", str(old), str(broken)]) == 1
