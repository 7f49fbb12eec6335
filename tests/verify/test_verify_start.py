"""``verify`` checks the engine's start position once per run (Art. 2.8), from the article's words:
once, with the playouts, in the first shard only, under 2.8 alone; a wrong one is described by
squares; an engine without ``initial_position`` is ``unsupported``, one that breaks an ``error``."""

from __future__ import annotations

import dataclasses

import pytest

from conformance.core.corpus import Capability
from conformance.core.protocol import BaseEngine, EngineInfo
from conformance.core.results import Result, Status
from conformance.core.shards import Shard
from conformance.engines.mutants import mutant
from conformance.engines.oracle_engine import OracleEngine
from conformance.verify.after import PlacementError
from conformance.verify.findings import FindingKind
from conformance.verify.generate import VerifyOptions
from conformance.verify.run import verify
from conformance.verify.start import START, START_FEN, check_start
from oracle.position import Color, Kind, Position

QUICK = VerifyOptions(examples=6, seed=3, z3=False, plays=0)


class _Start(BaseEngine):
    """An engine whose only answer is its start position (or a failure to give one)."""

    def __init__(self, answer: object, capabilities: frozenset[Capability] | None = None) -> None:
        self.answer = answer
        self._info = EngineInfo(
            "start", "0", capabilities or frozenset({Capability.INITIAL_POSITION}), "in-process"
        )

    @property
    def info(self) -> EngineInfo:
        return self._info

    def initial_position(self) -> str:
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer  # type: ignore[return-value]


def _start_results(engine: BaseEngine, options: VerifyOptions = QUICK) -> list[Result]:
    run = verify(lambda: engine, options)
    return [result for result in run.results if result.question == "initial_position"]


def test_the_article_s_words_are_the_rules_start_position() -> None:
    assert Position.from_fen(START_FEN).squares(Color.BLACK, Kind.MAN) == list(range(1, 21))
    assert sorted(START) == [*range(1, 21), *range(31, 51)]
    assert check_start(START_FEN) == []
    assert check_start("W:B1-20:W31-50") == [], "the order of the sections does not matter"
    assert check_start(Position.initial().fen()) == []


@pytest.mark.parametrize(
    ("fen", "words"),
    [
        ("W:W36-50:B1-15", "16-20: empty instead of black man; 31-35: empty instead of white man"),
        ("B:W31-50:B1-20", "black to move instead of white"),
        ("W:W31-49,K50:B1-20", "50: white king instead of white man"),
        ("W:W1-20:B31-50", "1-20: white man instead of black man; 31-50: black man instead of white man"),
        ("W:W31-50:B1-20,22", "22: black man instead of empty"),
    ],
)
def test_a_wrong_start_position_is_described_by_squares(fen: str, words: str) -> None:
    (finding,) = check_start(fen)
    assert finding.kind is FindingKind.START_POSITION
    assert finding.articles == ("2.8",)
    assert finding.message.endswith(words), finding.message


def test_text_that_is_not_a_fen_is_refused_by_name() -> None:
    with pytest.raises(PlacementError, match="side to move"):
        check_start("start")


def test_the_oracle_passes_once_and_the_mutant_fails_under_2_8_alone() -> None:
    (passing,) = _start_results(OracleEngine())
    assert passing.status is Status.PASS
    assert passing.case == "verify-3-start"
    assert passing.articles == ("2.8",)
    run = verify(lambda: mutant("three-rows-of-men"), dataclasses.replace(QUICK, examples=30))
    wrong = [result for result in run.results if result.status in (Status.FAIL, Status.ERROR)]
    assert [result.question for result in wrong] == ["initial_position"]
    assert wrong[0].articles == ("2.8",)
    assert wrong[0].defect == "wrong start position"
    assert (
        wrong[0].got == "W:W36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
    )
    assert run.exit_status == 1


def test_only_runs_with_playouts_and_only_the_first_shard_ask_it() -> None:
    assert not _start_results(OracleEngine(), dataclasses.replace(QUICK, kinds=("captures",)))
    assert len(_start_results(OracleEngine(), dataclasses.replace(QUICK, shard=Shard(1, 2)))) == 1
    assert not _start_results(OracleEngine(), dataclasses.replace(QUICK, shard=Shard(2, 2)))
    assert not _start_results(OracleEngine(), VerifyOptions(pieces=2, plays=0, shard=Shard(1, 500)))


def test_an_engine_without_it_is_unsupported_and_one_that_breaks_an_error() -> None:
    (lacking,) = _start_results(_Start(START_FEN, frozenset({Capability.LEGAL_MOVES})))
    assert lacking.status is Status.UNSUPPORTED
    (raising,) = _start_results(_Start(RuntimeError("no board yet")))
    assert raising.status is Status.ERROR
    assert "RuntimeError: no board yet" in raising.message
    (garbage,) = _start_results(_Start("hello"))
    assert garbage.status is Status.ERROR
    assert "not a FEN" in garbage.message
    (number,) = _start_results(_Start(42))
    assert number.status is Status.ERROR
    assert "expected a FEN string" in number.message
