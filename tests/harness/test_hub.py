"""The Hub adapter: its text formats, the oracle as a Hub engine, and misbehaving Hub engines.

Expected answers come from the corpus (the legal-move sets of its cases) and from the Hub
protocol text (Scan's ``protocol.txt``, version 2), never from running the oracle.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from support import assert_error, certify, is_running, legal_moves_cases

from conformance.core.corpus import Case, LegalMovesQuestion, MoveSpec
from conformance.core.protocol import EngineError
from conformance.core.results import Result, Status
from conformance.engines.adapters.hub import (
    HubEngine,
    HubSyntaxError,
    hub_position,
    hub_value,
    parse_hub_line,
    parse_hub_move,
)
from conformance.engines.adapters.specs import engine_factory
from conformance.harness.evaluate import ask
from conformance.servers.oracle_hub import position_from_hub
from oracle.position import Position

REPO = Path(__file__).resolve().parents[2]
FAKES = Path(__file__).parent / "fakes"
ORACLE_HUB = [sys.executable, "-m", "conformance.servers.oracle_hub"]
ENV = {"PYTHONPATH": str(REPO)}

# Scan's protocol.txt: the start position, and its example position with kings.
START_HUB = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
EXAMPLE_HUB = "BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee"
EXAMPLE_FEN = "B:WK4,K5,25,35,36:BK38,K48"  # read square by square from EXAMPLE_HUB

# A white man on 28 next to a black man on 33: the man captures backward (Art. 4.1) and capture is
# compulsory (4.2), so 28x39 taking 33 is the only legal move.
FORCED = "W:W28:B33"
FORCED_MOVES = frozenset({MoveSpec(28, 39, frozenset({33}))})
# White to move without any white piece: no legal move (Art. 7.2).
NO_MOVE = "W:W:B1,2"


def hub_of(fen: str) -> str:
    return hub_position(Position.from_fen(fen))


def fake(name: str, *args: str, answers: dict[str, str] | None = None, **options: object) -> HubEngine:
    answer_args = [f"--answer={hub_of(fen)}={move}" for fen, move in (answers or {}).items()]
    return HubEngine([sys.executable, str(FAKES / f"{name}.py"), *answer_args, *args], **options)  # type: ignore[arg-type]


def case(position: str, moves: frozenset[MoveSpec], case_id: str = "hub-fake") -> Case:
    return Case(
        id=case_id,
        article="4.1",
        description="a position for a Hub engine",
        source="constructed",
        position=position,
        questions=(LegalMovesQuestion(moves),),
        file="test_hub.py",
        line=1,
        topic="hub",
    )


def question(engine: HubEngine, position: str = FORCED, moves: frozenset[MoveSpec] = FORCED_MOVES) -> Result:
    asked = case(position, moves)
    return ask(engine, asked, "legal_moves", asked.questions[0])


# -- formats ---------------------------------------------------------------------------------------------


def test_position_encoding_follows_the_protocol_examples() -> None:
    assert hub_position(Position.initial()) == START_HUB
    assert hub_of(EXAMPLE_FEN) == EXAMPLE_HUB
    assert hub_of("B:WK1:BK50") == "BW" + "e" * 48 + "B"
    assert hub_of(FORCED) == "W" + "e" * 27 + "w" + "e" * 4 + "b" + "e" * 17


def test_the_server_reads_positions_back() -> None:
    assert position_from_hub(START_HUB) == Position.initial()
    assert position_from_hub(EXAMPLE_HUB) == Position.from_fen(EXAMPLE_FEN)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("32-28", MoveSpec(32, 28)),
        ("28x19x23", MoveSpec(28, 19, frozenset({23}))),
        ("47x36x42x14x31x29", MoveSpec(47, 36, frozenset({14, 29, 31, 42}))),  # captured in any order
        ("38x38x18x19x32x33", MoveSpec(38, 38, frozenset({18, 19, 32, 33}))),  # a king's loop
    ],
)
def test_hub_moves_are_read_by_identity(text: str, move: MoveSpec) -> None:
    assert parse_hub_move(text) == move


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("28x19", "without captured squares"),
        ("32-28-23", "not a Hub move"),
        ("32x28x51", "outside 1-50"),
        ("0-5", "outside 1-50"),
        ("28x19x23x23", "twice"),
        ("", "not a Hub move"),
        ("e3-d4", "not a Hub move"),
    ],
)
def test_bad_hub_moves_are_rejected_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_hub_move(text)


def test_hub_lines_are_split_into_command_and_arguments() -> None:
    line = parse_hub_line('id name=dame version=0.2.0 author="Markus Bilz" flag')
    assert line.command == "id"
    assert dict(line.args) == {"name": "dame", "version": "0.2.0", "author": "Markus Bilz", "flag": ""}
    assert dict(parse_hub_line('param name=book-file value="" type=string').args)["value"] == ""
    assert parse_hub_line("done").args == {}
    assert dict(parse_hub_line("done move=32-28 ponder=17-22").args) == {"move": "32-28", "ponder": "17-22"}
    assert dict(parse_hub_line('info pv="32-28 17-22" depth=3').args)["pv"] == "32-28 17-22"


@pytest.mark.parametrize(
    "text",
    [
        "Best move: 32-28",
        '{"type": "done"}',
        'error message="not closed',
        'done move=a"b',
        "done=3",
        "Done move=32-28",
    ],
)
def test_lines_that_are_not_hub_are_rejected(text: str) -> None:
    with pytest.raises(HubSyntaxError):
        parse_hub_line(text)


def test_values_are_quoted_when_needed() -> None:
    assert hub_value("dame") == "dame"
    assert hub_value("") == '""'
    assert hub_value("Markus Bilz") == '"Markus Bilz"'
    assert hub_value("a=b") == '"a=b"'


# -- the oracle as a Hub engine ------------------------------------------------------------------------------


def test_the_oracle_hub_engine_passes_every_legal_moves_case_of_the_corpus() -> None:
    cases = legal_moves_cases()
    assert len(cases) > 50
    results = certify(lambda: HubEngine(ORACLE_HUB, cwd=REPO, env=ENV), cases)
    chosen = [r for r in results if r.question == "legal_moves"]
    others = [r for r in results if r.question != "legal_moves"]
    assert len(chosen) == len(cases)
    assert [r for r in chosen if r.status is not Status.PASS] == []
    assert {r.status for r in others} <= {Status.UNSUPPORTED}


def test_the_oracle_hub_engine_choosing_at_random_passes_too() -> None:
    cases = legal_moves_cases()
    results = certify(
        lambda: HubEngine([*ORACLE_HUB, "--choice", "random", "--seed", "5"], cwd=REPO, env=ENV), cases
    )
    counts = Counter(r.status for r in results if r.question == "legal_moves")
    assert counts == Counter({Status.PASS: len(cases)})


def test_the_engine_spec_names_the_level_and_the_adapter() -> None:
    engine = engine_factory("hub:" + " ".join(ORACLE_HUB))()
    try:
        assert engine.info.level == "move-choice"
        assert engine.info.adapter == "hub:" + " ".join(ORACLE_HUB)
        assert engine.info.name == "oracle"
        assert {c.value for c in engine.info.capabilities} == {"choose_move"}
        assert engine.choose_move(FORCED) == MoveSpec(28, 39, frozenset({33}))
        assert engine.choose_move(NO_MOVE) is None
    finally:
        engine.close()


def test_the_oracle_hub_server_refuses_a_bad_position_and_plays_moves_from_pos(tmp_path: Path) -> None:
    lines = [
        "hub",
        "init",
        "pos pos=Xeee",
        "go think",
        f'pos pos={START_HUB} moves="32-28 19-23"',  # 28x19 taking 23 is then forced (Art. 4.2)
        "go think",
        "ping",
        "quit",
    ]
    output = subprocess.run(
        ORACLE_HUB,
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **ENV},
        timeout=30,
    ).stdout.splitlines()
    assert output[0].startswith("id name=oracle ")
    assert output[1:3] == ["wait", "ready"]
    assert output[3].startswith('error message="a Hub position is 51 characters')
    assert output[4:] == ['error message="go without a valid position"', "done", "done move=28x19x23", "pong"]


# -- misbehaving Hub engines ---------------------------------------------------------------------------------


def test_an_illegal_move_is_a_fail_and_the_engine_goes_on() -> None:
    with fake("hub_illegal", "--move", "28-22") as engine:
        result = question(engine)
        assert result.status is Status.FAIL, result
        assert result.got == "28-22"
        assert "not legal here" in result.message
        assert "(the only legal move)" in result.message
        assert question(engine).status is Status.FAIL
        assert engine.restarts == 0


def test_a_wrong_captured_set_is_a_fail() -> None:
    with fake("hub_illegal", "--move", "28x39x34") as engine:
        result = question(engine)
        assert result.status is Status.FAIL, result
        assert result.got == "28x39 {34}"


def test_a_move_where_there_is_none_is_a_fail_and_a_bare_done_where_there_is_one_too() -> None:
    with fake("hub_illegal", "--move", "28-22", answers={FORCED: "-"}) as engine:
        played = question(engine, NO_MOVE, frozenset())
        assert played.status is Status.FAIL, played
        assert "without a legal move" in played.message
        none = question(engine)
        assert none.status is Status.FAIL, none
        assert "found no move" in none.message


def test_a_bare_done_without_a_legal_move_passes() -> None:
    with fake("hub_illegal", answers={NO_MOVE: "-"}) as engine:
        assert question(engine, NO_MOVE, frozenset()).status is Status.PASS


def test_garbage_is_a_protocol_error_and_the_engine_is_restarted() -> None:
    with fake("hub_garbage", answers={FORCED: "28x39x33"}) as engine:
        result = question(engine, "W:W31-50:B1-20", frozenset({MoveSpec(31, 26)}))
        assert_error(result, "protocol", "not Hub", "Best move: 32-28")
        assert result.error is not None
        assert "printing garbage" in result.error.stderr
        assert question(engine).status is Status.PASS  # restarted
        assert engine.restarts == 1


def test_a_done_whose_move_is_not_a_move_is_a_protocol_error() -> None:
    with fake("hub_garbage", "--kind", "move", answers={FORCED: "28x39x33"}) as engine:
        assert_error(
            question(engine, "W:W31-50:B1-20", frozenset()), "protocol", "'32to28' is not a Hub move"
        )
        assert question(engine).status is Status.PASS
        assert engine.restarts == 0  # the stream stayed in step


def test_garbage_at_the_handshake_is_a_start_error() -> None:
    with pytest.raises(EngineError, match="not Hub") as raised:
        fake("hub_garbage", "--at-start")
    assert raised.value.kind == "start"


def test_a_refused_valid_position_is_a_fail_of_article_2_not_a_stale_answer() -> None:
    with fake("hub_error", answers={FORCED: "28x39x33"}) as engine:
        result = question(engine, "W:W31-50:B1-20", frozenset({MoveSpec(31, 26)}))
        assert result.status is Status.FAIL, result
        assert result.charged_to == "2"
        assert "refused a valid position" in result.message
        assert "invalid position" in result.message
        assert question(engine).status is Status.PASS
        assert engine.restarts == 0


def test_a_refused_position_where_a_side_has_no_pieces_is_a_skip() -> None:
    with fake("hub_error", answers={FORCED: "28x39x33"}) as engine:
        result = question(engine, "W:WK28", frozenset({MoveSpec(28, 22)}))
        assert result.status is Status.SKIP, result
        assert "a side has no pieces" in result.message
        assert question(engine).status is Status.PASS


def test_a_crash_is_an_error_with_stderr_and_the_run_goes_on() -> None:
    cases = [
        case(FORCED, FORCED_MOVES, "before"),
        case("W:W31-50:B1-20", frozenset({MoveSpec(31, 26)}), "crashes"),
        case(NO_MOVE, frozenset(), "after"),
    ]
    answers = {FORCED: "28x39x33", NO_MOVE: "-"}
    results = certify(lambda: fake("hub_crash", answers=answers), cases)
    assert [r.status for r in results] == [Status.PASS, Status.ERROR, Status.PASS]
    crashed = results[1]
    assert_error(crashed, "crash", "exited while answering", "exit status 3")
    assert crashed.error is not None
    assert "cannot cope with" in crashed.error.stderr
    assert "exit status 3]" in crashed.error.stderr


def test_a_hang_times_out_kills_the_process_group_and_the_engine_restarts() -> None:
    with fake("hub_hang", "--child", answers={FORCED: "28x39x33"}, timeout=1.0) as engine:
        started = time.monotonic()
        result = question(engine, "W:W31-50:B1-20", frozenset({MoveSpec(31, 26)}))
        elapsed = time.monotonic() - started
        assert_error(result, "timeout", "no 'done' (after 'go think') within 1 s", "process group was killed")
        assert 1.0 <= elapsed < 5.0
        assert result.error is not None
        assert "thinking forever" in result.error.stderr
        child = int(result.error.stderr.split("child pid ")[1].split()[0])
        deadline = time.monotonic() + 5
        while is_running(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not is_running(child), "the engine's child survived the timeout"
        assert question(engine).status is Status.PASS
        assert engine.restarts == 1


def test_an_engine_that_never_answers_ping_times_out_before_go() -> None:
    with fake("hub_hang", "--at", "ping", timeout=0.5) as engine:
        assert_error(question(engine), "timeout", "no 'pong' (after 'pos', 'level' and 'ping') within 0.5 s")


def test_the_restart_budget_is_honoured() -> None:
    with fake("hub_crash", restart_budget=1) as engine:
        assert_error(question(engine), "crash", "exit status 3")
        assert_error(question(engine), "crash", "exit status 3")
        assert_error(question(engine), "crash", "restart budget exhausted")
        assert engine.restarts == 1


def test_a_hang_at_the_handshake_is_a_start_error() -> None:
    started = time.monotonic()
    with pytest.raises(EngineError, match=r"no 'wait' within 0\.5 s") as raised:
        fake("hub_hang", "--at", "hub", start_timeout=0.5)
    assert raised.value.kind == "start"
    assert "thinking forever" in raised.value.stderr
    assert time.monotonic() - started < 5


def test_a_command_that_does_not_exist_is_a_start_error(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="cannot run the engine command") as raised:
        HubEngine([str(tmp_path / "no-such-engine"), "hub"])
    assert raised.value.kind == "start"


def test_close_sends_quit_and_the_process_is_gone() -> None:
    engine = HubEngine(ORACLE_HUB, cwd=REPO, env=ENV)
    process = engine._process
    assert process is not None
    engine.close()
    assert process.popen.returncode == 0  # it quit by itself, before the kill
    with pytest.raises(EngineError, match="closed"):
        engine.choose_move(FORCED)
