"""Campaign reports that count their passes (``tally`` lines) say exactly what the report with every
line says: the same certificate, counts, formats and verdicts, merged or not; only failures, errors
and skips keep lines of their own."""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conformance.cli.merge import MergeError, merge_reports
from conformance.core.chain import ChainReader
from conformance.core.results import Result, Status
from conformance.core.shards import Shard
from conformance.core.tallies import Tallied, TallyLine, merged, total
from conformance.core.tallies import counted as counted_by_kind
from conformance.engines.mutants import mutant
from conformance.report import Report, ReportError, ReportWriter, read_report
from conformance.report.diff import diff_reports
from conformance.report.formats import write_canonical
from conformance.report.junit import render_junit
from conformance.report.markdown import render_markdown
from conformance.verify.generate import VerifyOptions
from conformance.verify.run import VerifyRun, verify

OPTIONS = VerifyOptions(pieces=2, plays=0, z3=False, shrink=1, tally_every=700, shard=Shard(1, 3))
"""A third of the 2-piece campaign (5,897 of 17,690 positions), spans of 700 indices: 26 tally lines."""


@cache
def _run(engine: str, all_results: bool = False, shard: Shard | None = None) -> VerifyRun:
    options = dataclasses.replace(OPTIONS, all_results=all_results, shard=shard or OPTIONS.shard)
    return verify(lambda: mutant(engine), options)


def _bare(results: list[Result]) -> list[Result]:
    """``results`` without their timings."""
    return [dataclasses.replace(result, duration_ms=0.0) for result in results]


def _stream(report: Report) -> str:
    out = io.StringIO()
    write_canonical(report, ReportWriter(out))
    return out.getvalue()


def _read(tmp_path: Path, report: Report, name: str) -> Report:
    path = tmp_path / name
    path.write_text(_stream(report), encoding="utf-8")
    return read_report(path)


def test_a_counted_report_certifies_exactly_what_the_full_one_does() -> None:
    counted, full = _run("short-kings"), _run("short-kings", all_results=True)
    assert counted.exit_status == full.exit_status == 1
    assert counted.positions == full.positions == len(OPTIONS.indices())
    # Only the failures are listed; the passes are counted, span by span.
    assert {r.status for r in counted.results} == {Status.FAIL}
    assert _bare(counted.results) == _bare([r for r in full.results if r.status is not Status.PASS])
    assert total(counted.tallies) == counted_by_kind(r for r in full.results if r.status is Status.PASS)
    assert [(t.span, t.first) for t in counted.tallies][:2] == [(0, 0), (1, 702)]
    assert sum(t.positions for t in counted.tallies) == counted.positions
    assert counted.summary.certificate.to_json() == full.summary.certificate.to_json()
    assert counted.report.counts() == full.report.counts()
    assert counted.report.by_question() == full.report.by_question()
    timings = ("duration_s", "finished")
    footer = {k: v for k, v in counted.footer.items() if k not in timings}
    assert footer == {k: v for k, v in full.footer.items() if k not in timings}


def test_every_format_renders_a_counted_report_as_the_full_one(tmp_path: Path) -> None:
    counted = _read(tmp_path, _run("short-kings").report, "counted.jsonl")
    full = _read(tmp_path, _run("short-kings", all_results=True).report, "full.jsonl")
    assert len(counted.tallies) == 26
    # With every result listed, the tally lines count nothing: they only mark where a span ends (a
    # resumed run goes on from there).
    assert [line.counts for line in full.tallies] == [()] * 26
    assert counted.certificate().to_json() == full.certificate().to_json()
    assert render_markdown(counted) == render_markdown(full)
    junit = [render_junit(report) for report in (counted, full)]
    totals = [text.split("\n")[1] for text in junit]  # <testsuites ... tests= failures= ...>
    assert totals[0] == totals[1]
    assert 'name="legal_moves[oracle]: ' in junit[0]
    assert " positions passed (counted)" in junit[0]
    # The canonical stream reads back to itself: results, then each span's tally line.
    assert _stream(counted) == (tmp_path / "counted.jsonl").read_text(encoding="utf-8")


def test_a_diff_does_not_take_a_counted_pass_for_a_removed_question(tmp_path: Path) -> None:
    broken = _read(tmp_path, _run("short-kings").report, "broken.jsonl")
    fixed = _read(tmp_path, _run("captures-not-compulsory").report, "other.jsonl")
    changes = diff_reports(broken, fixed)
    assert not changes.removed
    assert not changes.added
    # Quiet king moves the one gets wrong and the other right are fixes, not questions gone.
    assert changes.fixes
    assert {c.new.status for c in changes.fixes if c.new is not None} == {Status.PASS}


def test_merged_shards_of_a_counted_campaign_are_the_unsharded_report() -> None:
    whole = _run("short-kings", shard=Shard(1, 1))
    shards = [_run("short-kings", shard=Shard(k, 2)) for k in (1, 2)]
    merged_report = merge_reports([run.report for run in reversed(shards)])
    assert _bare(merged_report.results) == _bare(whole.results)
    assert [t.to_json() for t in merged_report.tallies] == [t.to_json() for t in whole.tallies]
    assert merged_report.certificate().to_json() == whole.report.certificate().to_json()
    assert merged_report.counts() == whole.report.counts()


def test_tally_lines_refuse_what_they_cannot_count() -> None:
    line = _run("short-kings").tallies[0]
    data = line.to_json()
    assert TallyLine.from_json(json.loads(json.dumps(data))) == line
    assert merged([line]) == [dataclasses.replace(line, shard=None)]
    assert line.covers(line.first)
    assert not line.covers(line.first + 1)
    bad = json.loads(json.dumps(data))
    bad["counts"][0]["status"] = "fail"
    with pytest.raises(ValueError, match="not 'fail'"):
        TallyLine.from_json(bad)
    bad["counts"][0] |= {"status": "pass", "count": 0}
    with pytest.raises(ValueError, match="positive integer"):
        TallyLine.from_json(bad)
    with pytest.raises(ValueError, match="reported in full"):
        Tallied.of(_run("short-kings").results[0])


def _forged(tmp_path: Path, report: Report, change: Callable[[list[dict[str, Any]]], None]) -> Path:
    """``report`` written with its tally lines changed by ``change`` and chained anew (so that the chain
    vouches for them: what refuses them is what they say)."""
    out = io.StringIO()
    write_canonical(report, ReportWriter(out))
    chain = ChainReader("forged")
    records = [chain.record(n, text) for n, text in enumerate(out.getvalue().splitlines(), start=1)]
    tallies = [record for record in records if record["type"] == "tally"]
    change(tallies)
    kept = [record for record in records if record["type"] != "tally"]
    footer = kept.pop()
    path = tmp_path / "forged.jsonl"
    writer = ReportWriter.to_path(path)
    for record in [*kept, *tallies, footer]:
        writer.write(record)
    assert writer.close() is None
    return path


def test_tally_lines_that_cannot_all_be_true_are_refused(tmp_path: Path) -> None:
    report = _run("short-kings").report  # shard 1/3, spans of 700 indices
    assert read_report(_forged(tmp_path, report, lambda lines: None)).counts() == report.counts()

    def copied(lines: list[dict[str, Any]]) -> None:
        lines.insert(1, lines[0])

    def more_positions(lines: list[dict[str, Any]]) -> None:
        lines[0]["positions"] = lines[0]["last"] - lines[0]["first"] + 1  # the span's, not the shard's

    def more_passes(lines: list[dict[str, Any]]) -> None:
        lines[0]["counts"][0]["count"] = lines[0]["positions"] + 1

    def other_shard(lines: list[dict[str, Any]]) -> None:
        lines[0]["shard"] = {"index": 2, "count": 3}

    def other_span(lines: list[dict[str, Any]]) -> None:
        lines[0]["last"] = 700  # span 0 of 700 indices ends at 699

    for change, reason in [
        (copied, "repeats or overlaps span 0"),
        (more_positions, "claims 700 positions where 0-699 holds 234"),
        (more_passes, "results of legal_moves"),
        (other_shard, "is of shard 2/3, in the report of shard 1/3"),
        (other_span, "are not in span 0 of 700"),
    ]:
        with pytest.raises(ReportError, match=reason):
            read_report(_forged(tmp_path, report, change))


def test_merge_refuses_shards_whose_tally_lines_count_a_position_twice() -> None:
    shards = [_run("short-kings", shard=Shard(k, 2)) for k in (1, 2)]
    doubled = dataclasses.replace(shards[0].report, tallies=[shards[0].tallies[0], *shards[0].tallies])
    with pytest.raises(MergeError, match="tally lines do not add up"):
        merge_reports([doubled, shards[1].report])


def test_the_html_page_of_a_counted_report_counts_its_passes(tmp_path: Path) -> None:
    from conformance.site.build import render_html

    counted = _read(tmp_path, _run("short-kings").report, "counted.jsonl")
    full = _read(tmp_path, _run("short-kings", all_results=True).report, "full.jsonl")
    passes, failures = full.counts()["pass"], full.counts()["fail"]
    assert passes > 1000
    pages = [render_html(report) for report in (counted, full)]
    for page in pages:
        assert f"{passes} pass, {failures} fail" in page
