"""Forged reports that are not forgeries of results but of their names and header (issue 23):
escape sequences in rule, level, required and engine names never reach a terminal raw through
``render``, ``merge`` or ``diff``; header fields are checked before anything is built from them."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hardening_support import pytest_session

from conformance.cli import main
from conformance.core.chain import ChainWriter
from conformance.core.reading import MAX_SHARDS

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[31m"


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The records of a real run (a mutant: failures, defects, blocked questions)."""
    path = tmp_path_factory.mktemp("hostile") / "run.jsonl"
    main(
        [
            "run",
            "mutant:short-kings",
            "--article",
            "4.13",
            "--no-progress",
            "--report",
            str(path),
            "--format",
            "badge",
        ]
    )
    drop = ("n", "chain", "report_format")
    return [
        {k: v for k, v in json.loads(line).items() if k not in drop}
        for line in path.read_text(encoding="utf-8").splitlines()
    ]


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    """``records`` as a report with a valid chain: what the reader checks besides the chain is tested."""
    writer = ChainWriter()
    path.write_text("".join(writer.line(record) + "\n" for record in records), encoding="utf-8")
    return path


def _hostile(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    head, *results, footer = json.loads(json.dumps(records))
    head["engine"]["name"] += ESCAPES
    head["engine"]["level"] = f"rules{ESCAPES}"
    head["filters"]["baseline"] = f"known{ESCAPES}.yaml"
    for result in results:
        result["article"] += ESCAPES
        result["requires"] = [f"{rule}{ESCAPES}" for rule in result.get("requires", [])]
        if result.get("defect"):
            result["defect"] += ESCAPES
        result["message"] = result.get("message", "") + ESCAPES
    footer["unexpected_passes"] = [f"x{ESCAPES}"]
    return [head, *results, footer]


@pytest.mark.parametrize(
    "command",
    [
        ["render", "{h}"],
        ["render", "{h}", "--format", "markdown"],
        ["render", "{h}", "--format", "junit"],
        ["merge", "{h}"],
        ["diff", "{r}", "{h}"],
        ["diff", "{h}", "{r}", "--format", "markdown"],
    ],
)
def test_escape_sequences_in_a_report_never_reach_the_terminal(
    real: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    names = {
        "h": str(_write(tmp_path / "h.jsonl", _hostile(real))),
        "r": str(_write(tmp_path / "r.jsonl", real)),
    }
    status = main([part.format(**names) for part in command])
    out, err = capsys.readouterr()
    assert status != 2, err  # read and rendered (render exits 0, merge and diff by the verdict)
    assert "\x1b" not in out + err
    assert "\x07" not in out + err
    assert "\\x1b" in out  # shown, escaped
    if "junit" not in command:  # every human view says the report's names were escaped
        assert "control characters in the report" in " ".join(out.split())


@pytest.mark.parametrize("count", [10**9, 10**7])
def test_a_shard_header_claiming_too_many_shards_is_refused_at_once(
    real: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str], count: int
) -> None:
    """The issue: a MemoryError at 3.95 GB for 10**9 shards, a 179 MB error line for 10**7."""
    head, *rest = json.loads(json.dumps(real))
    head["shard"] = {"index": 1, "count": count}
    started = time.monotonic()
    assert main(["merge", str(_write(tmp_path / "s.jsonl", [head, *rest]))]) == 2
    err = capsys.readouterr().err
    assert f"'shard' says the run was split into {count} shards; at most {MAX_SHARDS} are read" in err
    assert time.monotonic() - started < 10


def test_a_shard_of_a_million_names_a_few_missing_ones(
    real: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head, *rest = json.loads(json.dumps(real))
    head["shard"] = {"index": 1, "count": MAX_SHARDS}
    assert main(["merge", str(_write(tmp_path / "s.jsonl", [head, *rest]))]) == 2
    err = capsys.readouterr().err
    assert "missing shard(s) 2/1000000, 3/1000000, 4/1000000, 5/1000000, 6/1000000 and 999,994 more" in err
    assert len(err) < 300


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("questions", "465", "'questions' must be an integer"),
        ("engine", ["x"], "'engine' must be an object of text fields"),
        ("filters", {"require": "4.13"}, "'filters.require' must be a list of text"),
        ("shard", {"index": 3, "count": 2}, "integers 1 <= index <= count"),
        ("merged_shards", 0, "'merged_shards' must be an integer from 1"),
    ],
)
def test_a_header_field_of_the_wrong_kind_is_refused(
    real: list[dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    field: str,
    value: object,
    expected: str,
) -> None:
    head, *rest = json.loads(json.dumps(real))
    head[field] = value
    path = _write(tmp_path / "bad.jsonl", [head, *rest])
    for command in (["render", str(path)], ["merge", str(path)], ["diff", str(path), str(path)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert expected in err, err
        assert "Traceback" not in err


def test_engine_names_of_hundreds_of_characters_get_file_names_of_their_own(
    real: list[dict[str, Any]], tmp_path: Path
) -> None:
    """The issue: one engine name of ~300 characters made ``docs`` fail for every engine."""
    reports = []
    for ending in ("a", "b"):
        head, *rest = json.loads(json.dumps(real))
        head["engine"]["name"] = "x" * 300 + ending
        reports += ["--report", str(_write(tmp_path / f"{ending}.jsonl", [head, *rest]))]
    assert main(["docs", "--out", str(tmp_path / "site"), *reports]) == 0
    pages = sorted(p.name for p in (tmp_path / "site").glob("eng-*.html"))
    assert len(pages) == 2
    assert all(len(name) <= 100 and name.startswith("eng-" + "x" * 50) for name in pages)


def test_the_pytest_plugin_prints_engine_text_escaped(tmp_path: Path) -> None:
    done = pytest_session(
        "--draughts-engine", "python:escaping:Engine", "--draughts-article", "4.13", "-rf", cwd=tmp_path
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no moves\\x1b]0;pwned\\x07" in done.stdout  # shown, escaped
    assert "\x1b" not in done.stdout + done.stderr
    assert "\x07" not in done.stdout + done.stderr
