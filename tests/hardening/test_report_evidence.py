"""Reports as evidence (issue 23): duplicates, forgeries and truncation detected on read; a forged
footer never copied; a full disk, a failing renderer or an output naming an input loses nothing."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hardening_support import ROOT, cli

from conformance.cli import main
from conformance.core.chain import UNCHAINED_NOTE
from conformance.core.files import LineFile, atomic_text
from conformance.core.reading import REWRITTEN_NOTE
from conformance.report import ReportError, read_report

ENVIRONMENT = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
"""A child's environment (with a file size limit it must not write a cut .pyc)."""
MUTANT = ["run", "mutant:short-kings", "--article", "4.13", "--no-progress"]


@pytest.fixture(scope="module")
def mutant_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real run's report: the mutant fails some of its questions (exit 1)."""
    path = tmp_path_factory.mktemp("evidence") / "mutant.jsonl"
    assert (
        main([*MUTANT, "--report", str(path), "--format", "badge", "-o", str(path.with_suffix(".svg"))]) == 1
    )
    return path


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _unchained(records: list[dict[str, Any]]) -> str:
    """The records as an older (format 1) report: no counter, no chain, no report_format."""
    drop = ("n", "chain", "report_format")
    return "".join(json.dumps({k: v for k, v in r.items() if k not in drop}) + "\n" for r in records)


def _refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one-line error of a command refused as a usage error (exit 2)."""
    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_copies_of_a_pass_in_place_of_the_failures_are_refused(
    mutant_report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The forgery of the issue (a green badge through render and merge), without a chain to break."""
    records = _records(mutant_report)
    passing = next(r for r in records if r.get("status") == "pass")
    failing = [r for r in records if r.get("status") in ("fail", "error")]
    assert failing
    forged = tmp_path / "forged.jsonl"
    forged.write_text(
        _unchained([passing if r.get("status") in ("fail", "error") else r for r in records]),
        encoding="utf-8",
    )
    for command in (["render", str(forged), "--format", "badge"], ["merge", str(forged)]):
        err = _refused(capsys, *command)
        assert f"two results for {passing['case']} [{passing['question']}]" in err, err
    # a line copied within a chained report breaks its counter
    lines = mutant_report.read_text(encoding="utf-8").splitlines()
    copied = tmp_path / "copied.jsonl"
    copied.write_text("\n".join([*lines[:3], lines[2], *lines[3:]]) + "\n", encoding="utf-8")
    assert "copied.jsonl:4: the line's counter is 2 where 3 follows" in _refused(
        capsys, "render", str(copied)
    )


@pytest.mark.parametrize(
    ("forge", "expected"),
    [
        (lambda lines: _edit(lines, '"status": "fail"', '"status": "pass"'), "the digest chain breaks here"),
        (lambda lines: lines[:5] + lines[6:], ":6: the line's counter is 6 where 5 follows"),
        (
            lambda lines: [lines[0], lines[2], lines[1], *lines[3:]],
            ":2: the line's counter is 2 where 1 follows",
        ),
        (lambda lines: [*lines[:-1], json.dumps({"type": "footer"})], "carries no digest chain"),
        (
            lambda lines: (
                _unchained([json.loads(line) for line in lines])
                .replace('"type": "header"', '"type": "header", "report_format": 2')
                .splitlines()
            ),
            "it was taken off",
        ),
    ],
    ids=["edited", "removed", "moved", "footer-by-hand", "chain-taken-off"],
)
def test_a_chained_report_changed_after_it_was_written_is_refused_naming_the_line(
    mutant_report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], forge: Any, expected: str
) -> None:
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(forge(mutant_report.read_text(encoding="utf-8").splitlines())) + "\n")
    for command in (
        ["render", str(forged)],
        ["merge", str(forged)],
        ["diff", str(mutant_report), str(forged)],
    ):
        assert expected in _refused(capsys, *command)


def _edit(lines: list[str], old: str, new: str) -> list[str]:
    index = next(i for i, line in enumerate(lines) if old in line)
    return [*lines[:index], lines[index].replace(old, new), *lines[index + 1 :]]


def test_render_json_recomputes_a_forged_footer_and_says_the_report_was_unchained(
    mutant_report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = _records(mutant_report)
    records[-1]["exit_status"] = 0
    records[-1]["counts"] = {"pass": len(records) - 2}
    records[-1]["certificate"]["verdict"] = "CERTIFIED"
    forged = tmp_path / "footer.jsonl"
    forged.write_text(_unchained(records), encoding="utf-8")
    rewritten = tmp_path / "rewritten.jsonl"
    assert main(["render", str(forged), "--format", "json", "-o", str(rewritten)]) == 0
    footer = _records(rewritten)[-1]
    assert footer["exit_status"] == 1
    assert footer["certificate"]["verdict"] == "FAILED"
    assert footer["counts"]["fail"] == sum(r.get("status") == "fail" for r in records)
    assert read_report(forged).notes[0] == UNCHAINED_NOTE
    assert read_report(rewritten).notes[0] == REWRITTEN_NOTE  # the new chain vouches for nothing before it
    main(["render", str(rewritten)])
    assert f"note: this report is {REWRITTEN_NOTE}" in " ".join(capsys.readouterr().out.split())


def test_a_last_line_cut_in_the_middle_is_dropped_and_the_report_reads_as_partial(
    mutant_report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = mutant_report.read_text(encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[: len(text) - len(text.splitlines()[-1]) - 40], encoding="utf-8")
    report = read_report(cut)
    assert len(report.results) == len(_records(mutant_report)) - 3
    assert any("is cut before its end: dropped" in note for note in report.notes)
    assert not report.certificate().complete
    old = tmp_path / "old.jsonl"
    old.write_text(text, encoding="utf-8")
    assert main(["diff", str(old), str(cut)]) == 3  # never "no regression"
    assert "NO VERDICT" in capsys.readouterr().out


def _limited(size: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))  # a disk that fills after size bytes


@pytest.mark.parametrize(
    "command",
    [
        ["run", "oracle", "--article", "4.13", "--no-progress", "--format", "badge"],
        # 12 positions fill the 6,000 bytes as 60 do (at the same line), at a third of the cost
        ["verify", "--engine", "oracle", "--examples", "12", "--no-progress", "--format", "json"],
    ],
    ids=["run", "verify"],
)
def test_a_full_disk_keeps_every_whole_line_written_and_says_so_once(
    tmp_path: Path, command: list[str]
) -> None:
    report = tmp_path / "full.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "conformance", *command, "--report", str(report)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=lambda: _limited(6000),
        env=ENVIRONMENT,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if "cannot write the report" in line]
    assert len(errors) == 1, done.stderr
    assert "says it is partial" in errors[0]
    read = read_report(report)  # every whole line before the failure, readable
    assert read.results
    assert f"the {len(read.results)} result(s) written before" in errors[0]
    assert not read.certificate().complete
    assert not list(tmp_path.glob("*.partial"))


def test_the_partial_marker_is_written_when_the_cut_makes_room(tmp_path: Path) -> None:
    """A write failing in the middle of a long line: the line is cut back, the marker takes its place."""
    from conformance.report import ReportWriter

    path = tmp_path / "r.jsonl"
    writer = ReportWriter.to_path(path)
    assert writer.write({"type": "header", "questions": 2})
    assert writer.file is not None
    writer.file.failure = OSError(28, "No space left on device")  # as write_line records one
    assert not writer.write({"type": "footer"})
    assert writer.finish() is not None
    report = read_report(path)
    assert report.notes == (
        "the report was cut short: writing the report failed: [Errno 28] No space left on device",
    )
    assert report.footer.get("interrupted") is True


def test_the_trace_to_a_full_disk_is_an_error_stated_once(tmp_path: Path) -> None:
    run = ["run", "oracle", "--article", "4.13", "--no-progress", "--report", "r.jsonl", "--format", "badge"]
    done = cli(*run, "--trace", "/dev/full", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("cannot write the trace /dev/full") == 1, done.stderr
    assert read_report(tmp_path / "r.jsonl").certificate().complete  # the run itself went on
    smoke = cli("smoke", "oracle", "--trace", "/dev/full", cwd=tmp_path)
    assert smoke.returncode == 2
    assert "the exchange is in /dev/full" not in smoke.stdout
    assert smoke.stderr.count("cannot write the trace /dev/full") == 1


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["render", "{r}", "-o", "{r}"], "-o {r} is also the report"),
        (["render", "{r}", "--format", "html", "-o", "{link}"], "-o {link} is also the report"),
        (["diff", "{r}", "{k}", "-o", "{k}"], "is also the new report"),
        (["merge", "{r}", "-o", "{r}"], "is also shard {r}"),
        (["merge", "{r}", "--report", "{r}"], "is also shard {r}"),
        ([*MUTANT, "--baseline", "{k}", "--report", "{k}"], "--report {k} is also --baseline"),
        ([*MUTANT, "--report", "{k}", "--write-baseline", "{k}"], "--report and --write-baseline are both"),
        (["verify", "--engine", "oracle", "--baseline", "{k}", "--report", "{k}"], "is also --baseline"),
    ],
)
def test_an_output_naming_an_input_is_refused_and_the_input_kept(
    mutant_report: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    expected: str,
) -> None:
    report = tmp_path / "r.jsonl"
    report.write_bytes(mutant_report.read_bytes())
    known = tmp_path / "known.yaml"
    assert main([*MUTANT, "--write-baseline", str(known), "--format", "badge"]) == 1
    (tmp_path / "link.jsonl").symlink_to(report)
    names = {"r": str(report), "k": str(known), "link": str(tmp_path / "link.jsonl")}
    capsys.readouterr()
    before = {path: path.read_bytes() for path in (report, known)}
    err = _refused(capsys, *(argument.format(**names) for argument in arguments))
    assert expected.format(**names) in err, err
    assert {path: path.read_bytes() for path in (report, known)} == before


def test_regenerating_the_baseline_it_read_is_allowed(tmp_path: Path) -> None:
    known = tmp_path / "known.yaml"
    assert main([*MUTANT, "--write-baseline", str(known), "--format", "badge"]) == 1
    assert (
        main(
            [
                *MUTANT,
                "--baseline",
                str(known),
                "--force-baseline",
                "--write-baseline",
                str(known),
                "--format",
                "badge",
            ]
        )
        == 1
    )
    assert "short-kings" in known.read_text(encoding="utf-8")


def test_a_render_that_fails_leaves_its_output_as_it_was(mutant_report: Path, tmp_path: Path) -> None:
    from conformance.core.stream import Report
    from conformance.report.formats import Rendering, report_format, unregister

    def out_of_memory(report: Report, out: Rendering) -> None:
        out.stream.write("the start of a page")
        raise MemoryError

    out = tmp_path / "report.html"
    out.write_text("the report of yesterday", encoding="utf-8")
    report_format("exhausting", order=99)(out_of_memory)
    try:
        with pytest.raises(MemoryError):
            main(["render", str(mutant_report), "--format", "exhausting", "-o", str(out)])
    finally:
        unregister("exhausting")
    assert out.read_text(encoding="utf-8") == "the report of yesterday"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_a_line_file_keeps_whole_lines_only(tmp_path: Path) -> None:
    path = tmp_path / "lines.txt"
    lines = LineFile(path)
    assert lines.write_line("one")
    assert not path.exists()  # it takes its name when closed
    assert lines.close() is None
    assert path.read_text(encoding="utf-8") == "one\n"

    def half_written() -> None:
        with atomic_text(path) as stream:
            stream.write("half")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        half_written()
    assert path.read_text(encoding="utf-8") == "one\n"


def test_a_report_that_is_not_utf8_or_has_two_footers_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"type": "header"}\n{"type": "footer"}\n{"type": "footer"}\n')
    with pytest.raises(ReportError, match=r"bad\.jsonl:3: a line after the report's last line"):
        read_report(bad)
    bad.write_bytes(b'{"type": "header"}\n\xff\n')
    with pytest.raises(ReportError, match=r"bad\.jsonl:2: not UTF-8"):
        read_report(bad)
