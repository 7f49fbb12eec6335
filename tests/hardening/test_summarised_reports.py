"""``render --format html`` and ``docs`` read a report summarised (issue 23: 1.35 GB for a report
of 10**6 results): a campaign's positions beyond those a page lists are counted, not kept, and
every check of reading still holds."""

from __future__ import annotations

import gc
import json
import tracemalloc
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.core.chain import ChainWriter
from conformance.core.reading import read_report
from conformance.core.results import Result, Status
from conformance.core.stream import ReportError, ReportWriter, write_lines
from conformance.core.summary import KEEP
from conformance.site import build


def _campaign(path: Path, positions: int, fail_every: int = 50) -> Path:
    """A chained report of a campaign with every result listed: two questions per position, the
    second wrong at every ``fail_every``-th position."""
    writer = ReportWriter.to_path(path)
    engine = {"name": "short-kings", "version": "0.1.0", "adapter": "in-process", "level": "rules"}
    writer.write({"type": "header", "kind": "verify", "questions": 2 * positions, "engine": engine})
    for position in range(positions):
        case, fen = f"exhaustive-{position}", f"W:WK{1 + position % 45}:B50"
        writer.result(Result(case, "legal_moves[invariants]", "8", Status.PASS, position=fen))
        if position % fail_every:
            writer.result(Result(case, "legal_moves[oracle]", "3.4", Status.PASS, position=fen))
        else:
            writer.result(
                Result(
                    case,
                    "legal_moves[oracle]",
                    "3.9",
                    Status.FAIL,
                    defect="wrong moves without a capture",
                    position=fen,
                    message=f"the moves differ from the oracle's at position {position}",
                    expected=["1-6", "1-7", "1-12"],
                    got=["1-6"],
                )
            )
    writer.write({"type": "footer", "counts": {}})
    assert writer.finish() is None
    return path


def _render_peak(report: Path, out: Path) -> int:
    """The peak of traced memory of ``render --format html`` (without a corpus: the report's alone)."""
    gc.collect()
    tracemalloc.start()
    try:
        command = [
            "render",
            str(report),
            "--format",
            "html",
            "-o",
            str(out),
            "--corpus",
            str(out.parent / "none"),
        ]
        assert main(command) == 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_html_report_keeps_memory_flat_as_the_campaign_grows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """4x the results, about the same peak: the passes beyond the first positions are counted, not
    kept (keeping every result, the peak grew with each); and the page counts every result."""
    kept: list[int] = []
    render = build.render_html

    def counting(report, corpus=None):  # type: ignore[no-untyped-def]
        kept.append(len(report.results))
        return render(report, corpus)

    monkeypatch.setattr(build, "render_html", counting)
    small = _campaign(tmp_path / "small.jsonl", 1_500)
    large = _campaign(tmp_path / "large.jsonl", 6_000)
    _render_peak(_campaign(tmp_path / "warm.jsonl", 10), tmp_path / "warm.html")  # what it imports
    peaks = [_render_peak(small, tmp_path / "small.html"), _render_peak(large, tmp_path / "large.html")]
    added = 2 * (6_000 - 1_500)
    assert peaks[1] - peaks[0] < 150 * added, peaks  # every result kept: 900 bytes more per result
    assert kept[-1] == 2 * (KEEP + 6_000 // 50 - KEEP // 50), kept  # the first positions, the wrong ones
    page = (tmp_path / "large.html").read_text(encoding="utf-8")
    assert "11880 pass, 120 fail" in page  # every result counted
    assert "5,000 more case(s) of the reports are not listed here (0 of them with a wrong answer)" in page


def test_the_site_of_a_campaign_counts_the_positions_it_does_not_keep(tmp_path: Path) -> None:
    """Half the positions wrong: the first 1,000 kept, and the first 1,000 wrong ones; the rest counted
    (its failures kept without their drawing), and every count the same as the full reading's."""
    report = _campaign(tmp_path / "c.jsonl", 3_000, fail_every=2)
    full = read_report(report)
    summarised = read_report(report, summarise=True)
    assert summarised.certificate() == full.certificate()
    assert summarised.counts() == full.counts() == {"pass": 4_500, "fail": 1_500}
    assert len(summarised.results) == 2 * 1_500 + 500  # positions 0-1,999 whole, the later failures
    assert main(["docs", "--out", str(tmp_path / "site"), "--report", str(report)]) == 0
    corpus = main(["docs", "--out", str(tmp_path / "alone")]) == 0  # the corpus's cases alone
    assert corpus
    alone = (tmp_path / "alone" / "index.html").read_text(encoding="utf-8")
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    cases = int(alone.split(" cases, ")[0].rsplit(" ", 1)[1])
    assert f" {cases + 3_000} cases, 1 engine(s)" in index  # every position counted
    article = (tmp_path / "site" / "art-8.html").read_text(encoding="utf-8")  # where the positions are filed
    assert (
        "2,000 more case(s) of the reports are not listed here (500 of them with a wrong answer)" in article
    )


def _forge_duplicate(source: Path, target: Path) -> None:
    """``source`` with its last result line copied in place of its first: chained anew."""
    records = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    records = [{k: v for k, v in r.items() if k not in ("n", "chain", "report_format")} for r in records]
    records[1] = dict(records[-2])
    chain = ChainWriter()
    target.write_text("".join(chain.line(record) + "\n" for record in records), encoding="utf-8")


def test_a_duplicate_is_found_in_a_summarised_reading(tmp_path: Path) -> None:
    """The copy of a pass put in place of a failure, chain recomputed: refused, summarised or not,
    naming the two lines, though the summarised reading kept neither result."""
    forged = tmp_path / "forged.jsonl"
    _forge_duplicate(_campaign(tmp_path / "c.jsonl", 3_000), forged)
    for summarise in (False, True):
        with pytest.raises(ReportError, match=r"two results for exhaustive-2999 \[legal_moves\[oracle\]\] "):
            read_report(forged, summarise=summarise)
    assert main(["render", str(forged), "--format", "html", "-o", str(tmp_path / "f.html")]) != 0


def test_a_summarised_report_is_never_written_back(tmp_path: Path) -> None:
    report = read_report(_campaign(tmp_path / "c.jsonl", 1_500), summarise=True)
    assert report.summary is not None
    assert report.summary.positions() == 1_500 - KEEP - 500 // 50  # the wrong ones kept too
    with pytest.raises(ValueError, match="cannot be written back"):
        write_lines(report, ReportWriter(None))
