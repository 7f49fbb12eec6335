"""Shards (``--shard K/N``) and ``draughts-conformance merge``: a sharded run merged equals the unsharded one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conformance.cli.main import main
from conformance.cli.merge import MergeError, merge_reports
from conformance.core.shards import Shard
from conformance.engines.adapters.specs import EngineRecipe
from conformance.report import Report, read_report
from conformance.verify.generate import VerifyOptions
from conformance.verify.run import verify

TIMINGS = ("duration_ms", "duration_s", "started", "finished")


def comparable(report: Report) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The results and the footer (certificate and counts) without timings."""
    results = [{k: v for k, v in r.to_json().items() if k not in TIMINGS} for r in report.results]
    footer = {k: v for k, v in report.footer.items() if k not in TIMINGS}
    return results, footer


# -- shards ---------------------------------------------------------------------------------------


def test_a_shard_takes_every_nth_item_from_k_minus_one() -> None:
    shard = Shard.parse("2/3")
    assert (shard.index, shard.count, str(shard)) == (2, 3, "2/3")
    assert shard.select("abcdefgh") == ["b", "e", "h"]
    assert list(shard.indices(8)) == [1, 4, 7]
    assert [i for i in range(8) if shard.owns(i)] == [1, 4, 7]
    every = sorted(i for k in (1, 2, 3) for i in Shard(k, 3).indices(100))
    assert every == list(range(100))


@pytest.mark.parametrize("text", ["0/3", "4/3", "a/b", "3", "1/0", "-1/2"])
def test_a_bad_shard_is_refused_with_the_form_it_needs(text: str) -> None:
    with pytest.raises(ValueError, match="K/N"):
        Shard.parse(text)


def test_the_command_line_refuses_a_bad_shard(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "oracle", "--shard", "5/4"])
    assert exit_info.value.code == 2
    assert "K must be from 1 to N" in capsys.readouterr().err


# -- run: shards merged = the unsharded run -------------------------------------------------------


def _run(tmp: Path, name: str, *args: str) -> Path:
    path = tmp / f"{name}.jsonl"
    main(["run", *args, "--report", str(path), "--no-progress", "-o", str(tmp / f"{name}.txt")])
    return path


@pytest.mark.parametrize("engine", ["oracle", "mutant:short-kings"])
def test_a_sharded_corpus_run_merged_equals_the_unsharded_run(tmp_path: Path, engine: str) -> None:
    whole = read_report(_run(tmp_path, "whole", engine))
    shards = [
        _run(tmp_path, f"shard{k}", engine, "--shard", f"{k}/3", *(["--workers", "2"] if k == 2 else []))
        for k in (3, 1, 2)
    ]
    parts = [read_report(path) for path in shards]
    assert sum(len(part.results) for part in parts) == len(whole.results)
    assert all(part.header["shard"]["count"] == 3 for part in parts)
    merged = merge_reports(parts)
    assert comparable(merged) == comparable(whole)
    assert merged.certificate() == whole.certificate()
    assert merged.header["questions"] == whole.header["questions"]
    assert merged.header["selected_cases"] == whole.header["selected_cases"]
    assert "shard" not in merged.header
    assert merged.header["merged_shards"] == 3
    if engine != "oracle":  # failures charged and blocked across shards are recomputed over all results
        assert merged.certificate().problems > 0
        assert merged.footer["exit_status"] == 1


def test_merge_writes_the_report_and_exits_with_its_certificate(tmp_path: Path) -> None:
    shards = [
        str(_run(tmp_path, f"s{k}", "mutant:short-kings", "--article", "3.9", "--shard", f"{k}/2"))
        for k in (1, 2)
    ]
    out = tmp_path / "merged.jsonl"
    assert main(["merge", *shards, "--report", str(out), "-o", str(tmp_path / "merged.txt")]) == 1
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [lines[0]["type"], lines[-1]["type"]] == ["header", "footer"]
    assert lines[-1]["counts"]["fail"] > 0
    assert read_report(out).certificate().to_json() == lines[-1]["certificate"]


# -- merge refuses what is not one run ------------------------------------------------------------


def _refused(capsys: pytest.CaptureFixture[str], *paths: Path) -> str:
    assert main(["merge", *map(str, paths)]) == 2
    return capsys.readouterr().err


def test_merge_refuses_shards_of_different_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = _run(tmp_path, "one", "oracle", "--article", "3.4", "--shard", "1/2")
    two = _run(tmp_path, "two", "oracle", "--article", "3.4", "--shard", "2/2")
    other_engine = _run(tmp_path, "other", "mutant:short-kings", "--article", "3.4", "--shard", "2/2")
    other_filter = _run(tmp_path, "filter", "oracle", "--article", "3.9", "--shard", "2/2")
    assert "engine.name ('oracle' vs 'short-kings')" in _refused(capsys, one, other_engine)
    assert "filters.articles" in _refused(capsys, one, other_filter)
    assert "missing shard(s) 2/2" in _refused(capsys, one)
    assert "shard 1/2 given twice" in _refused(capsys, one, one, two)
    three = _run(tmp_path, "three", "oracle", "--article", "3.4", "--shard", "1/3")
    assert "the same N" in _refused(capsys, one, three)
    unfinished = tmp_path / "unfinished.jsonl"
    unfinished.write_text("".join(two.read_text().splitlines(keepends=True)[:-1]))
    assert "did not finish" in _refused(capsys, one, unfinished)
    assert main(["merge", str(one), str(two)]) == 0


def test_merge_refuses_verify_shards_of_another_seed() -> None:
    recipe = EngineRecipe("oracle")
    one = verify(recipe, VerifyOptions(examples=6, seed=1, z3=False, shard=Shard(1, 2))).report
    two = verify(recipe, VerifyOptions(examples=6, seed=2, z3=False, shard=Shard(2, 2))).report
    with pytest.raises(MergeError, match=r"seed \(1 vs 2\)"):
        merge_reports([one, two])


# -- verify: shards merged = the unsharded run ----------------------------------------------------


def test_a_sharded_verify_run_merged_equals_the_unsharded_run() -> None:
    recipe = EngineRecipe("mutant:king-counts-two")
    options = VerifyOptions(examples=45, seed=8, z3_examples=20, shrink=2)
    whole = verify(recipe, options)
    parts = [
        verify(recipe, VerifyOptions(examples=45, seed=8, z3_examples=20, shrink=2, shard=Shard(k, 4))).report
        for k in (2, 4, 1, 3)
    ]
    merged = merge_reports(parts)
    assert comparable(merged) == comparable(whole.report)
    assert merged.certificate() == whole.report.certificate()
    assert merged.footer["positions"] == whole.positions == 45
    assert merged.footer["first_failure"] == whole.first_failure is not None
    assert whole.exit_status == 1
