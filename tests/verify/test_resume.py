"""``verify --resume REPORT``: a campaign killed mid-way goes on where its report stops, and ends with
the report a run that never stopped writes -- and the one its merged shards give."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main
from conformance.report import read_report
from conformance.verify.generate import VerifyOptions
from conformance.verify.resume import ResumeError, read_resumable

TIMINGS = {"started", "duration_s", "duration_ms", "finished", "chain"}
"""Fields that differ between two runs of one campaign: times, and the digest chain that covers them."""
CAMPAIGNS = [
    # king-lands-right-behind fails in every span of 500 (1,121 of the 17,690 positions): there are failures
    # and shrunk disagreements before the kill and after it, at half the cost of short-kings (~9,000 failing
    # lines to write, read back and compare).
    pytest.param(
        ["--engine", "mutant:king-lands-right-behind", "--pieces", "2", "--no-z3", "--tally-every", "500"],
        id="2",
    ),
    pytest.param(
        ["--engine", "oracle", "--pieces", "3", "--tally-every", "20000"],
        id="3",
        marks=pytest.mark.slow,
    ),
]


def _command(campaign: list[str], *more: str) -> list[str]:
    return ["verify", "--exhaustive", "--plays", "0", "--no-progress", *campaign, *more]


def _lines(path: Path) -> list[dict[str, Any]]:
    """The report's lines without their timings (and a merged header's shard count)."""
    lines = []
    for text in path.read_text(encoding="utf-8").splitlines():
        line = {key: value for key, value in json.loads(text).items() if key not in TIMINGS}
        line.pop("merged_shards", None)
        lines.append(line)
    return lines


def _partial(report: Path) -> Path | None:
    """The file a campaign writing ``report`` writes until it ends (``REPORT.PID.partial``)."""
    found = list(report.parent.glob(f"{report.name}.*.partial"))
    return found[0] if found else None


def _killed_mid_way(campaign: list[str], report: Path) -> int:
    """Start the campaign in a process of its own and kill it (SIGKILL: no footer, perhaps a line cut
    short, and the report never renamed: its lines stay in REPORT.PID.partial) once it holds two tally
    lines; the tally lines it had."""
    command = [sys.executable, "-c", "import sys; from conformance.cli import main; sys.exit(main())"]
    process = subprocess.Popen(
        [*command, *_command(campaign, "--report", str(report), "--format", "json", "-o", os.devnull)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and process.poll() is None:
            partial = _partial(report)
            if partial is not None and partial.read_bytes().count(b'"type": "tally"') >= 2:
                break
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    assert process.returncode == -signal.SIGKILL, "the campaign ended before it could be killed"
    assert not report.exists()
    partial = _partial(report)
    assert partial is not None
    return partial.read_bytes().count(b'"type": "tally"')


@pytest.mark.parametrize("campaign", CAMPAIGNS)
def test_a_killed_campaign_resumed_gives_the_one_shot_and_the_merged_report(
    campaign: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one_shot = tmp_path / "one-shot.jsonl"
    status = main(_command(campaign, "--report", str(one_shot)))
    shown = capsys.readouterr().out

    resumed = tmp_path / "resumed.jsonl"
    tallies = _killed_mid_way(campaign, resumed)
    assert 2 <= tallies < sum(line["type"] == "tally" for line in _lines(one_shot))
    assert main(_command(campaign, "--resume", str(resumed))) == status
    out, err = capsys.readouterr()
    assert "resume: " in err
    assert " to go" in err
    assert _lines(resumed) == _lines(one_shot)
    assert _partial(resumed) is None  # the killed run's lines went into the report, and only there
    assert read_report(resumed).certificate().to_json() == read_report(one_shot).certificate().to_json()
    # The disagreements shrunk before the kill are shrunk again: what the run prints is the same.
    assert out.replace(str(resumed), "R") == shown.replace(str(one_shot), "R")

    shards = [tmp_path / f"shard-{k}.jsonl" for k in (1, 2)]
    for k, shard in enumerate(shards, start=1):
        main(_command(campaign, "--shard", f"{k}/2", "--report", str(shard)))
    merged = tmp_path / "merged.jsonl"
    assert main(["merge", *map(str, shards), "--report", str(merged), "--format", "json"]) == status
    capsys.readouterr()
    assert _lines(merged) == _lines(one_shot)

    # A campaign stopped (its report renamed, without a footer) resumes in place: the kept lines come
    # out byte for byte, chain and all, and the rest is the one-shot run's.
    stopped = tmp_path / "stopped.jsonl"
    lines = one_shot.read_bytes().splitlines(keepends=True)
    third = [n for n, line in enumerate(lines) if b'"type": "tally"' in line][2]
    stopped.write_bytes(b"".join(lines[: third + 3]))
    assert main(_command(campaign, "--resume", str(stopped))) == status
    capsys.readouterr()
    assert stopped.read_bytes().startswith(b"".join(lines[: third + 1]))
    assert _lines(stopped) == _lines(one_shot)


def _report(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "r.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_what_cannot_be_resumed_is_refused_with_the_reason(tmp_path: Path) -> None:
    options = VerifyOptions(pieces=2, plays=0, z3=False, tally_every=500)
    header = {"type": "header", "kind": "verify", "seed": 0, "started": "now"}
    tally = {"type": "tally", "span": 0, "first": 0, "last": 499, "positions": 500, "counts": []}
    finished = _report(tmp_path, [json.dumps(header), json.dumps(tally), json.dumps({"type": "footer"})])
    with pytest.raises(ResumeError, match="the run finished"):
        read_resumable(finished, header, options)
    other = _report(tmp_path, [json.dumps(header | {"seed": 7})])
    with pytest.raises(ResumeError, match=r"another run: seed \(7 in the report, 0 now\)"):
        read_resumable(other, header, options)
    gap = _report(tmp_path, [json.dumps(header), json.dumps(tally | {"span": 1, "first": 500, "last": 999})])
    with pytest.raises(ResumeError, match="do not cover the run's positions in order"):
        read_resumable(gap, header, options)
    damaged = _report(tmp_path, [json.dumps(header), "not json", json.dumps(tally)])
    with pytest.raises(ResumeError, match=":2: not a report line"):
        read_resumable(damaged, header, options)


def test_a_line_cut_short_and_an_unfinished_span_are_dropped(tmp_path: Path) -> None:
    options = VerifyOptions(pieces=2, plays=0, z3=False, tally_every=500)
    header = {"type": "header", "kind": "verify", "seed": 0, "started": "then"}
    tally = {"type": "tally", "span": 0, "first": 0, "last": 499, "positions": 500, "counts": []}
    result = {"type": "result", "case": "exhaustive-600", "question": "legal_moves[oracle]"}
    result |= {"article": "3.9", "status": "fail", "message": "wrong"}
    kept = [json.dumps(header), json.dumps(tally)]
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([*kept, json.dumps(result)]) + '\n{"type": "res', encoding="utf-8")
    resumable = read_resumable(path, header | {"started": "now"}, options)
    assert resumable.positions == 500
    assert resumable.dropped == 2  # the unfinished span's result, the line cut short
    assert resumable.offset == len("\n".join(kept)) + 1
    assert resumable.report.results == []
