"""Hostile engine text in every report format, and malformed saved reports (issue 12, points 5, 8):
every format stays well-formed and inert; a report that is not one is a clear error."""

from __future__ import annotations

import copy
import dataclasses
import functools
import importlib
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from conformance.cli.main import main
from conformance.core.corpus import load_corpus
from conformance.core.protocol import EngineError, MoveSpec
from conformance.core.results import Result
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.runner import RunOptions, header, run, select_cases
from conformance.report import Report, ReportError, ReportWriter, read_report
from conformance.report.badge import render_badge
from conformance.report.junit import render_junit
from conformance.report.markdown import render_markdown
from conformance.report.terminal import render_terminal
from conformance.site.build import render_html

HOSTILE = (
    "\x1b[2J\x1b]0;pwned\x07\x1b[31mred\x1b[0m <h1>PASS 100%</h1> ``` </code></details> <script>x</script>"
    " & \x00\x0b\x0c\ud800 | *bold* [link](javascript:alert(1))"
)


class Hostile(OracleEngine):
    """Wrong on purpose, with hostile text in every field it controls."""

    def __init__(self) -> None:
        super().__init__(name=f"evil{HOSTILE}")

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        raise EngineError("exception", HOSTILE, stderr=HOSTILE * 3)

    def play(self, fen: str, moves: Sequence[str]) -> str:
        return HOSTILE

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]):  # type: ignore[no-untyped-def]
        return {"result": HOSTILE}


@pytest.fixture(scope="module")
def report() -> Report:
    corpus = load_corpus()
    cases = select_cases(corpus, RunOptions(articles=["4.13", "6.2"]))
    results: list[Result] = []
    summary = run(cases, Hostile, RunOptions(), results.append)
    return Report(header(corpus, Hostile().info, RunOptions(), cases), results, summary.to_json())


def test_the_terminal_shows_no_escape_sequence(report: Report) -> None:
    console = Console(record=True, width=140, force_terminal=True, color_system=None)
    render_terminal(report, console, max_failures=100)
    text = console.export_text(styles=False)
    assert "\x1b" not in text
    assert "\x07" not in text
    assert "\\x1b[2J" in text  # shown, as text


def test_junit_is_well_formed_xml(report: Report) -> None:
    root = ET.fromstring(render_junit(report))
    assert root.iter("testcase")
    assert "\\x1b" in render_junit(report)


def test_markdown_carries_no_markup_of_the_engine(report: Report) -> None:
    markdown = render_markdown(report, max_failures=100)
    assert "\x1b" not in markdown
    outside, fence = [], ""
    for line in markdown.splitlines():  # text inside a code fence is shown as is, never markup
        if line.startswith("```") and line.strip("`") == "" and (not fence or line == fence):
            fence = "" if fence else line
        elif not fence:
            outside.append(line)
    assert not fence, "a fence left open"
    assert "<h1>" not in "\n".join(outside)
    assert "<script>" not in "\n".join(outside)


def test_html_is_well_formed_and_inert(report: Report) -> None:
    page = render_html(report, load_corpus())
    assert "<script>" not in page
    assert "<h1>PASS" not in page
    assert "\x1b" not in page
    ET.fromstring(page.split("\n", 1)[1] if page.startswith("<!DOCTYPE") else page)


def test_the_badge_is_json(report: Report) -> None:
    assert json.loads(render_badge(report))["color"] == "red"


# -- malformed saved reports ------------------------------------------------------------------------


def _records(report: Report) -> list[dict[str, Any]]:
    return [report.header, *(r.to_json() for r in report.results[:20]), report.footer]


WRONG_VALUES = [None, 3, -1, 1.5, True, "x", [], ["a", 1], {}, {"a": 1}]


@pytest.fixture(scope="module")
def corpus_read_once() -> Iterator[None]:
    """``render`` reads the corpus of the report's rule set on each call (a user renders once); the tests
    below render six formats of each variant, the same corpus every time (a read one costs as much as the
    render itself): read once per folder and rule set, the rest of ``render`` as it is."""
    with pytest.MonkeyPatch.context() as patch:
        cli = importlib.import_module("conformance.cli.main")  # the module: its package exports the function
        patch.setattr(cli, "load_corpus", functools.cache(load_corpus))
        yield


@pytest.mark.usefixtures("corpus_read_once")
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_report_with_a_wrong_field_renders_or_is_a_report_error(
    report: Report, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    _render_a_variant(report, tmp_path_factory, data)


@pytest.mark.slow
@pytest.mark.usefixtures("corpus_read_once")
@settings(max_examples=1000, deadline=None)
@given(data=st.data())
def test_many_reports_with_a_wrong_field_render_or_are_report_errors(
    report: Report, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    _render_a_variant(report, tmp_path_factory, data)


def _render_a_variant(report: Report, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    records = copy.deepcopy(_records(report))
    record = data.draw(st.sampled_from(records))
    keys = sorted(record)
    key = data.draw(st.sampled_from(keys))
    record[key] = data.draw(st.sampled_from(WRONG_VALUES))
    if data.draw(st.booleans()) and isinstance(record.get("engine"), dict):
        record["engine"]["name"] = data.draw(st.sampled_from(WRONG_VALUES))
    path = tmp_path_factory.mktemp("bad") / "bad.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    for fmt in ("terminal", "json", "junit", "markdown", "badge", "html"):
        out = path.with_suffix(f".{fmt}")
        status = main(["render", str(path), "--format", fmt, "-o", str(out)])
        assert status in (0, 2), (key, record[key], fmt)


@pytest.mark.parametrize(
    "text",
    [
        "[1, 2]\n",
        '{"type": "header", "engine": 3}\n',
        '{"type": "header"}\n{"type": "result", "case": 1}\n',
        '{"type": "header"}\n' + "[" * 100_000 + "]" * 100_000 + "\n",
        '{"type": "header"}\n{"type": "footer", "unexpected_passes": "x"}\n',
    ],
)
def test_a_malformed_report_is_a_clear_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReportError):
        read_report(path)


def test_a_report_written_and_read_back_is_the_same(tmp_path: Path, report: Report) -> None:
    path = tmp_path / "r.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        writer = ReportWriter(handle)
        for record in _records(report):
            writer.write(record)
    assert read_report(path).results == [Result.from_json(r.to_json()) for r in report.results[:20]]


def test_articles_whose_names_slug_alike_get_pages_of_their_own(tmp_path: Path, report: Report) -> None:
    from conformance.site.build import write_site

    results = [
        dataclasses.replace(report.results[0], article="4.13/", case="a"),
        dataclasses.replace(report.results[0], article="4.13 ", case="b"),
    ]
    written = write_site(tmp_path / "site", None, [Report(report.header, results, report.footer)])
    pages = {path.name for path in written if path.name.startswith("art-4.13")}
    assert len(pages) == 2


def test_a_failed_build_leaves_the_previous_site_untouched(
    tmp_path: Path, report: Report, monkeypatch: pytest.MonkeyPatch
) -> None:
    from conformance.site import build

    out = tmp_path / "site"
    build.write_site(out, None, [report])
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    original = Path.write_text
    calls = 0

    def failing(self: Path, *args: Any, **kwargs: Any) -> int:
        nonlocal calls
        calls += 1
        if calls > 3:
            raise OSError("disk full")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", failing)
    with pytest.raises(OSError, match="disk full"):
        build.write_site(out, None, [report, report])
    monkeypatch.undo()
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before
