"""The runner, baselines and report stream: results kept apart, order stable, nothing lost."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from conformance.core.baseline import Baseline, BaselineError
from conformance.core.corpus import Capability, Case, Corpus, MoveSpec, load_corpus
from conformance.core.protocol import EngineDeclined, EngineError, OutcomeAnswer
from conformance.core.results import Result, Status
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.evaluate import question_keys
from conformance.harness.runner import RunOptions, RunSummary, header, run, select_cases
from conformance.report import ReportError, ReportWriter, read_report
from oracle.rules import INTERNATIONAL


def corpus() -> Corpus:
    return load_corpus()


def fast_cases(articles: Sequence[str]) -> list[Case]:
    """The cases of some articles, without the ones tagged slow."""
    return select_cases(corpus(), RunOptions(articles=articles))


def cases_of(*ids: str) -> list[Case]:
    by_id = corpus().by_id()
    return [by_id[case_id] for case_id in ids]


class Misbehaving(OracleEngine):
    """The oracle, except for the misbehaviours switched on."""

    def __init__(self, *, crash_on: str = "", raise_on: str = "", decline_outcome: bool = False) -> None:
        super().__init__(name="misbehaving")
        self.crash_on, self.raise_on, self.decline_outcome = crash_on, raise_on, decline_outcome
        self.closed = False

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        if fen == self.crash_on:
            raise EngineError("crash", "engine died", stderr="segmentation fault (core dumped)")
        if fen == self.raise_on:
            raise ZeroDivisionError("oops")
        return super().legal_moves(fen)

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        if self.decline_outcome:
            raise EngineDeclined("no draw rules here")
        return super().outcome(fen, counters, moves)

    def close(self) -> None:
        self.closed = True


def collect(cases: Sequence[Case], factory: object, options: RunOptions) -> tuple[list[Result], RunSummary]:
    results: list[Result] = []
    summary = run(cases, factory, options, results.append)  # type: ignore[arg-type]
    return results, summary


def test_every_question_of_every_case_gets_one_result_in_corpus_order() -> None:
    cases = fast_cases(articles=["4.13"])
    results, summary = collect(cases, OracleEngine, RunOptions())
    expected = [(case.id, key) for case in cases for key, _ in question_keys(case)]
    assert [(r.case, r.question) for r in results] == expected
    assert summary.counts["pass"] == len(expected)
    assert summary.exit_status == 0


def test_a_crash_an_exception_and_a_decline_are_kept_apart_and_the_run_goes_on() -> None:
    crash, boom, draw = cases_of(
        "4.11-turkish-strike", "4.13-three-men-beat-two-kings", "6.4-king-against-king-draw-at-ply-10"
    )
    engine = Misbehaving(crash_on=crash.position, raise_on=boom.position, decline_outcome=True)
    results, summary = collect([crash, boom, draw], lambda: engine, RunOptions())
    by_case = {r.case: r for r in results if r.question in ("legal_moves", "outcome")}
    assert by_case[crash.id].status is Status.ERROR
    assert by_case[crash.id].error is not None
    assert by_case[crash.id].error.kind == "crash"
    assert "segmentation fault" in by_case[crash.id].error.stderr
    assert by_case[boom.id].status is Status.ERROR
    assert by_case[boom.id].error is not None
    assert by_case[boom.id].error.kind == "exception"
    assert "ZeroDivisionError" in by_case[boom.id].error.stderr  # the traceback is kept
    assert by_case[draw.id].status is Status.SKIP
    assert summary.counts["error"] == 2
    assert summary.exit_status == 1
    assert engine.closed


def test_a_wrong_answer_is_a_fail_with_missing_and_extra_moves() -> None:
    forward_only = dataclasses.replace(INTERNATIONAL, men_capture_backward=False)
    (case,) = cases_of("4.1-forward-then-backward")
    results, _ = collect([case], lambda: OracleEngine(forward_only), RunOptions())
    (legal,) = [r for r in results if r.question == "legal_moves"]
    assert legal.status is Status.FAIL
    assert "missing: 37x39 {32,33}" in legal.message
    assert "extra: 37x28 {32}" in legal.message
    assert legal.expected == ["37x39 {32,33}"]
    assert legal.got == ["37x28 {32}"]


class OnlyLegalMoves(OracleEngine):
    """Declares one capability and records every question it is actually asked."""

    def __init__(self) -> None:
        super().__init__(name="only-legal-moves")
        self._info = dataclasses.replace(self._info, capabilities=frozenset({Capability.LEGAL_MOVES}))
        self.asked: list[str] = []

    def __getattribute__(self, name: str) -> object:
        if name in {c.value for c in Capability}:
            object.__getattribute__(self, "asked").append(name)
        return object.__getattribute__(self, name)


def test_unsupported_questions_are_never_asked_nor_scored() -> None:
    engine = OnlyLegalMoves()
    (case,) = cases_of("3.4-initial-position-white-steps")  # asks legal moves, count and two afters
    results, summary = collect([case], lambda: engine, RunOptions())
    assert {r.question: r.status for r in results}["legal_moves"] is Status.PASS
    assert {r.status for r in results if r.question != "legal_moves"} == {Status.UNSUPPORTED}
    assert set(engine.asked) == {"legal_moves"}
    assert summary.counts["unsupported"] == len(results) - 1
    (row,) = summary.certificate.rows  # every question of the case is filed under its article
    assert (row.key, row.passed, row.unsupported) == ("3.4", 1, 3)
    # an unsupported question never counts against the rule: 3.4 is certified for moves, games not covered
    assert row.standing.value == "certified"
    assert row.scope_text() == "certified for moves; not covered for games"
    assert summary.exit_status == 0


def test_max_fail_stops_the_run_early() -> None:
    broken = dataclasses.replace(INTERNATIONAL, flying_kings=False)
    cases = fast_cases(articles=["3.9", "4.3"])
    results, summary = collect(cases, lambda: OracleEngine(broken), RunOptions(max_fail=2))
    assert summary.stopped_early
    assert summary.counts["fail"] >= 2
    assert len(results) < sum(len(case.questions) for case in cases)


@pytest.mark.parametrize("workers", [2, 3])
def test_parallel_workers_give_the_same_results_in_the_same_order(workers: int) -> None:
    cases = fast_cases(articles=["4"])
    serial, _ = collect(cases, OracleEngine, RunOptions())
    parallel, summary = collect(cases, OracleEngine, RunOptions(workers=workers))
    assert [(r.case, r.question, r.status) for r in parallel] == [
        (r.case, r.question, r.status) for r in serial
    ]
    assert not summary.stopped_early


def test_parallel_workers_each_get_their_own_engine() -> None:
    engines: list[OracleEngine] = []
    lock = threading.Lock()

    def factory() -> OracleEngine:
        time.sleep(0.01)
        with lock:
            engines.append(OracleEngine())
            return engines[-1]

    collect(fast_cases(articles=["4.13"]), factory, RunOptions(workers=3))
    assert len({id(engine) for engine in engines}) == len(engines) >= 2


def test_a_worker_whose_engine_cannot_start_turns_its_cases_into_errors() -> None:
    def factory() -> OracleEngine:
        raise EngineError("start", "no such program", stderr="exec: not found")

    cases = fast_cases(articles=["4.14"])
    results, summary = collect(cases, factory, RunOptions(workers=2))
    assert results
    assert {r.status for r in results} == {Status.ERROR}
    assert all(r.error is not None and r.error.kind == "start" for r in results)
    assert summary.exit_status == 1


# -- baselines ------------------------------------------------------------------------------------


def test_a_baseline_marks_known_failures_accepted_only_on_request_and_reports_unexpected_passes(
    tmp_path: Path,
) -> None:
    broken = dataclasses.replace(INTERNATIONAL, men_capture_backward=False)
    cases = cases_of(
        "4.1-forward-then-backward", "4.1-black-man-captures-backward", "4.13-three-men-beat-two-kings"
    )
    first, summary = collect(cases, lambda: OracleEngine(broken), RunOptions())
    assert summary.exit_status == 1
    path = tmp_path / "known.yaml"
    path.write_text(Baseline.from_results(first, "forward-only"), encoding="utf-8")
    baseline = Baseline.load(path)

    again, summary = collect(cases, lambda: OracleEngine(broken), RunOptions(baseline=baseline))
    failing = [r for r in again if r.status in (Status.FAIL, Status.ERROR)]
    assert failing
    assert all(r.baselined for r in failing)
    assert summary.exit_status == 1  # known failures are still failures of their rules
    assert summary.certificate.verdict == f"FAILED, {len(failing)} known"
    assert summary.unexpected_passes == []
    _, summary = collect(
        cases, lambda: OracleEngine(broken), RunOptions(baseline=baseline, accept_known=True)
    )
    assert summary.exit_status == 0
    assert summary.certificate.verdict == f"FAILED, {len(failing)} known (accepted)"

    _, summary = collect(cases, OracleEngine, RunOptions(baseline=baseline))
    assert summary.exit_status == 0
    assert sorted(summary.unexpected_passes) == sorted(f"{r.case} {r.question}" for r in failing)


def test_an_old_format_entry_without_question_covers_the_whole_case(tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    path.write_text("known:\n  - case: 4.1-forward-then-backward\n", encoding="utf-8")
    baseline = Baseline.load(path)
    assert baseline.legacy == 1
    assert "old baseline format" in baseline.deprecation()
    assert "--write-baseline" in baseline.deprecation()
    broken = dataclasses.replace(INTERNATIONAL, men_capture_backward=False)
    accepting = RunOptions(baseline=baseline, accept_known=True)
    results, summary = collect(cases_of("4.1-forward-then-backward"), lambda: OracleEngine(broken), accepting)
    assert any(r.baselined for r in results)
    assert summary.certificate.problems == 0
    assert summary.exit_status == 3  # nothing failed outside the baseline, but nothing is certified
    with_a_pass = cases_of("4.1-forward-then-backward", "3.4-white-man-steps-forward-28")
    _, summary = collect(with_a_pass, lambda: OracleEngine(broken), accepting)
    assert summary.exit_status == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("known: 3", "'known' list"),
        ("- a\n- b", "'known' list"),
        ("known:\n  - question: x\n", "needs a 'case'"),
        ("known: [", "not valid YAML"),
    ],
)
def test_a_malformed_baseline_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BaselineError, match=message):
        Baseline.load(path)


# -- the report stream --------------------------------------------------------------------------


def write_report(path: Path, cases: list[Case], engine: OracleEngine, *, footer: bool = True) -> None:
    corpus_ = corpus()
    with path.open("w", encoding="utf-8") as handle:
        writer = ReportWriter(handle)
        writer.write(header(corpus_, engine.info, RunOptions(), cases))
        summary = run(cases, lambda: engine, RunOptions(), writer.result)
        if footer:
            writer.write(summary.to_json())


def test_the_stream_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    cases = fast_cases(articles=["4.15"])
    write_report(path, cases, OracleEngine(dataclasses.replace(INTERNATIONAL, men_capture_backward=False)))
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "header"
    assert lines[0]["corpus_digest"] == corpus().digest
    assert lines[-1]["type"] == "footer"
    report = read_report(path)
    assert len(report.results) == len(lines) - 2
    assert report.footer["counts"] == dict(report.counts()) | {
        s.value: report.counts()[s.value] for s in Status
    }
    assert [line["n"] for line in lines] == list(range(len(lines)))  # each line counted, and chained
    assert all(len(line["chain"]) == 64 for line in lines)
    written = [{k: v for k, v in line.items() if k not in ("n", "chain")} for line in lines[1:-1]]
    original = [Result.from_json(line) for line in written]
    assert report.results == original
    assert [r.to_json() for r in report.results] == written


def test_an_interrupted_report_still_reads_with_its_footer_recomputed(tmp_path: Path) -> None:
    path = tmp_path / "partial.jsonl"
    write_report(path, fast_cases(articles=["4.14"]), OracleEngine(), footer=False)
    report = read_report(path)
    assert report.footer["interrupted"] is True
    assert report.footer["counts"]["pass"] == len(report.results) > 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no header"),
        ('{"type": "result"}\n', "the first line is not a header"),
        ('{"type": "header"}\n{"type": "result"}\n', "not a report line"),
        ("not json\n", "not a report line"),
        ('{"type": "header"}\n{"type": "other"}\n', "unknown record type"),
        ('{"type": "header"}\n{"type": "header"}\n', "a second header"),
    ],
)
def test_a_file_that_is_not_a_report_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReportError, match=message):
        read_report(path)


def test_select_filters_by_article_prefix_id_prefix_and_tags() -> None:
    corpus_ = corpus()
    four = select_cases(corpus_, RunOptions(articles=["4"]))
    assert four
    assert all(any(a == "4" or a.startswith("4.") for a in c.articles) for c in four)
    four_one = select_cases(corpus_, RunOptions(articles=["4.1"]))
    assert four_one
    assert all("4.1" in c.articles for c in four_one)  # 4.1 does not select 4.13 or 4.14
    prefixed = select_cases(corpus_, RunOptions(ids=["6.3-*"]))
    assert prefixed
    assert all(c.id.startswith("6.3-") for c in prefixed)
    slow = select_cases(corpus_, RunOptions(exclude_tags=()))
    assert len(slow) > len(select_cases(corpus_, RunOptions()))
