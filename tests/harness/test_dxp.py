"""The DXP adapter: its message formats, the oracle as a DXP follower, and misbehaving followers.

Expected answers come from the corpus (legal-move sets) and from the DamExchange specification
(its example messages), never from running the oracle.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from support import assert_error, certify, legal_moves_cases

from conformance.core.corpus import Case, LegalMovesQuestion, MoveSpec
from conformance.core.protocol import EngineError
from conformance.core.results import Result, Status
from conformance.engines.adapters.dxp import DxpEngine, parse_address
from conformance.engines.adapters.dxp_messages import (
    BackRequest,
    Chat,
    DxpProtocolError,
    GameAccept,
    GameEnd,
    MoveMessage,
    Other,
    dxp_board,
    game_request,
    parse_message,
)
from conformance.engines.adapters.specs import SpecError, engine_factory
from conformance.harness.evaluate import ask
from conformance.harness.runner import RunOptions, run
from conformance.servers.oracle_dxp import FollowerSession, position_from_dxp
from oracle.position import Color, Position

REPO = Path(__file__).resolve().parents[2]
FAKES = Path(__file__).parent / "fakes"
ORACLE_DXP = [sys.executable, "-m", "conformance.servers.oracle_dxp"]
ENV = {"PYTHONPATH": str(REPO)}

START_BOARD = "z" * 20 + "e" * 10 + "w" * 20  # the DXP specification's initial position
# A white man on 28 next to a black man on 33: 28x39 taking 33 is the only legal move (Art. 4.1, 4.2).
FORCED = "W:W28:B33"
FORCED_MOVES = frozenset({MoveSpec(28, 39, frozenset({33}))})
FORCED_REPLY = "M0000283901" + "33"
NO_MOVE = "W:W:B1,2"  # White has no piece: no legal move (Art. 7.2)
OPENING = "W:W31-50:B1-20"
OPENING_MOVES = frozenset(
    {MoveSpec(31, 26), MoveSpec(31, 27), MoveSpec(32, 27), MoveSpec(32, 28), MoveSpec(33, 28)}
    | {MoveSpec(33, 29), MoveSpec(34, 29), MoveSpec(34, 30), MoveSpec(35, 30)}
)  # Art. 3: the nine forward steps of White's front row


def key_of(fen: str) -> str:
    position = Position.from_fen(fen)
    return ("W" if position.turn is Color.WHITE else "Z") + dxp_board(position)


def fake(name: str, *args: str, answers: dict[str, str] | None = None, **options: object) -> DxpEngine:
    answer_args = [f"--answer={key_of(fen)}={reply}" for fen, reply in (answers or {}).items()]
    command = [sys.executable, str(FAKES / f"{name}.py"), *answer_args, *args]
    return DxpEngine(command=command, **options)  # type: ignore[arg-type]


def case(position: str, moves: frozenset[MoveSpec], case_id: str = "dxp-fake") -> Case:
    return Case(
        id=case_id,
        article="4.1",
        description="a position for a DXP engine",
        source="constructed",
        position=position,
        questions=(LegalMovesQuestion(moves),),
        file="test_dxp.py",
        line=1,
        topic="dxp",
    )


def question(engine: DxpEngine, position: str = FORCED, moves: frozenset[MoveSpec] = FORCED_MOVES) -> Result:
    asked = case(position, moves)
    return ask(engine, asked, "legal_moves", asked.questions[0])


# -- formats ---------------------------------------------------------------------------------------------


def test_game_requests_follow_the_specification() -> None:
    # The specification's example: "R01Tornado voor Windows 4.0        W060065A".
    tornado = game_request(None, follower=Color.WHITE, minutes=60, moves=65, name="Tornado voor Windows 4.0")
    assert tornado == "R01Tornado voor Windows 4.0        W060065A"
    assert len(game_request(None, follower=Color.BLACK, minutes=1, moves=999)) == 43
    request = game_request(Position.from_fen("B:WK1:B41"), follower=Color.BLACK, minutes=1, moves=999)
    assert request == "R01draughts-conformance" + " " * 12 + "Z001999BZ" + "W" + "e" * 39 + "z" + "e" * 9
    assert len(request) == 94
    assert dxp_board(Position.initial()) == START_BOARD


def test_bad_game_request_fields_are_refused() -> None:
    with pytest.raises(ValueError, match="0-999"):
        game_request(None, follower=Color.WHITE, minutes=1000, moves=0)
    with pytest.raises(ValueError, match="blank"):
        game_request(None, follower=Color.WHITE, minutes=1, moves=0, name=" leading blank")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("M0012061100", MoveMessage(12, MoveSpec(6, 11))),
        ("M001205250422122320", MoveMessage(12, MoveSpec(5, 25, frozenset({12, 20, 22, 23})))),
        ("M000047360419293142", MoveMessage(0, MoveSpec(47, 36, frozenset({19, 29, 31, 42})))),
        ("ATornado voor Windows 4.0        0", GameAccept("Tornado voor Windows 4.0", "0")),
        ("E00", GameEnd("0", "0")),
        ("E11", GameEnd("1", "1")),
        ("B005Z", BackRequest(5, "Z")),
        ("CWhat do you think about move 35?", Chat("What do you think about move 35?")),
        ("K1", Other("K", "K1")),
    ],
)
def test_messages_of_the_specification_are_read(text: str, message: object) -> None:
    assert parse_message(text) == message


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "1-127 characters"),
        ("C" + "x" * 127, "1-127 characters"),
        ("X12", "unknown DXP message type"),
        ("M00120611", "2 digits"),
        ("M001206110012", "characters"),
        ("M0012061101", "characters"),
        ("M00120611xx", "2 digits"),
        ("M0012065100", "outside 1-50"),
        ("M00120525021212", "twice"),
        ("ATornado 0", "34 characters"),
        ("E4", "GAMEEND"),
        ("E02", "GAMEEND"),
        ("B05Z", "BACKREQ"),
        ("M0012\x01611", "printable ASCII"),
    ],
)
def test_malformed_messages_are_rejected_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(DxpProtocolError, match=reason):
        parse_message(text)


def test_addresses_and_commands_are_told_apart() -> None:
    assert parse_address("127.0.0.1:27531") == ("127.0.0.1", 27531)
    assert parse_address("localhost:9") == ("localhost", 9)
    assert parse_address("[::1]:27531") == ("::1", 27531)
    assert parse_address("scan dxp") is None
    assert parse_address("./engine --port {port}") is None
    with pytest.raises(ValueError, match="port 70000 is outside 1-65535"):
        parse_address("host:70000")


def test_a_port_out_of_range_is_a_usage_error_not_a_command() -> None:
    with pytest.raises(SpecError, match="port 99999 is outside 1-65535"):
        engine_factory("dxp:localhost:99999")


def test_the_server_reads_positions_as_the_specification_writes_them() -> None:
    assert position_from_dxp("W", START_BOARD) == Position.initial()
    # pydraughts' GAMEREQ, captured on the wire (notes): a white king on 47, black men around it.
    board = "eezeeeeeeeeeezeeeezeeeeeeeeezezeeeeeeeeeezeeeeWeee"
    assert position_from_dxp("W", board) == Position.from_fen("W:WK47:B3,14,19,29,31,42")


# -- the oracle follower, message by message --------------------------------------------------------------


def request(colour_to_move: str, board: str, follower: str, version: str = "01") -> str:
    return f"R{version}{'tester'.ljust(32)}{follower}001999B{colour_to_move}{board}"


def test_the_follower_accepts_moves_and_confirms_the_end() -> None:
    session = FollowerSession(lambda moves: moves[0])
    forced = "e" * 27 + "w" + "e" * 4 + "z" + "e" * 17  # FORCED, White to move
    replies = session.handle(request("W", forced, follower="W"))
    assert replies[0] == "A" + "oracle (draughts-conformance)".ljust(32) + "0"
    assert replies[1:] == [FORCED_REPLY]
    assert session.handle("CHello") == []
    assert session.handle("B001W") == ["K1"]
    assert session.handle("E00") == ["E00"]
    assert session.handle("E00") == []  # after the game: not answered
    assert not session.stop
    assert session.handle("E01") == []
    assert session.stop


def test_the_follower_without_a_move_ends_the_game_it_loses() -> None:
    session = FollowerSession(lambda moves: moves[0])
    replies = session.handle(request("W", "zz" + "e" * 48, follower="W"))
    assert replies[1:] == ["E10"]


def test_the_follower_refuses_what_it_cannot_play() -> None:
    session = FollowerSession(lambda moves: moves[0])
    assert session.handle(request("W", START_BOARD, follower="Z", version="02"))[0].endswith("1")
    # a white man on square 1, White's promotion row: not a position (Art. 2)
    assert session.handle(request("W", "w" + "e" * 48 + "z", follower="Z"))[0].endswith("2")
    assert session.handle(request("W", "x" * 50, follower="Z"))[0].endswith("2")


def test_the_follower_answers_a_legal_move_and_ends_the_game_on_an_illegal_one() -> None:
    session = FollowerSession(lambda moves: moves[0])
    assert session.handle(f"R01{'tester'.ljust(32)}Z001999A") == [
        "A" + "oracle (draughts-conformance)".ljust(32) + "0"
    ]
    reply = session.handle("M0000322800")  # White's 32-28, a legal opening move (Art. 3)
    assert len(reply) == 1
    assert reply[0].startswith("M0000")
    chat, end = session.handle("M0000101500")  # not White's man, not a legal move
    assert chat.startswith("Cillegal move")
    assert end == "E00"


# -- the oracle over DXP -----------------------------------------------------------------------------------


def test_the_oracle_dxp_follower_passes_every_legal_moves_case_of_the_corpus(oracle_dxp_server: str) -> None:
    host, _, port = oracle_dxp_server.rpartition(":")
    cases = legal_moves_cases()
    assert len(cases) > 50
    results = certify(lambda: DxpEngine((host, int(port))), cases)
    chosen = [r for r in results if r.question == "legal_moves"]
    assert len(chosen) == len(cases)
    assert [r for r in chosen if r.status is not Status.PASS] == []
    assert {r.status for r in results if r.question != "legal_moves"} <= {Status.UNSUPPORTED}


def test_the_oracle_dxp_follower_started_by_the_harness_passes_too_with_two_workers() -> None:
    command = " ".join([*ORACLE_DXP, "--port", "{port}", "--single", "--choice", "random", "--seed", "3"])
    factory = engine_factory(f"dxp:{command}")
    cases = legal_moves_cases()
    results: list[Result] = []
    run(cases, factory, RunOptions(exclude_tags=(), workers=2), results.append)
    counts = Counter(r.status for r in results if r.question == "legal_moves")
    assert counts == Counter({Status.PASS: len(cases)})


def test_the_engine_spec_connects_to_host_port_and_names_the_level(oracle_dxp_server: str) -> None:
    engine = engine_factory(f"dxp:{oracle_dxp_server}")()
    try:
        assert engine.info.level == "move-choice"
        assert engine.info.adapter == f"dxp:{oracle_dxp_server}"
        assert engine.info.name == "oracle (draughts-conformance)"
        assert {c.value for c in engine.info.capabilities} == {"choose_move"}
        assert engine.choose_move(FORCED) == MoveSpec(28, 39, frozenset({33}))
        assert engine.choose_move(NO_MOVE) is None
        assert isinstance(engine, DxpEngine)
        assert engine.last_game_end == GameEnd("1", "0")  # "I lose", more games welcome
        assert engine.choose_move(OPENING) in OPENING_MOVES
    finally:
        engine.close()


def test_a_command_engine_gets_its_port_and_is_stopped_on_close() -> None:
    engine = DxpEngine(command=[*ORACLE_DXP, "--single"], env=ENV, cwd=REPO)  # port from $DXP_PORT
    process = engine._process
    assert process is not None
    assert engine.port is not None
    assert engine.choose_move(FORCED) == MoveSpec(28, 39, frozenset({33}))
    engine.close()
    assert process.popen.returncode == 0  # E01 made it stop by itself, before the kill
    with pytest.raises(EngineError, match="closed"):
        engine.choose_move(FORCED)


def test_nothing_listening_is_a_start_error() -> None:
    with pytest.raises(EngineError, match="cannot connect") as raised:
        DxpEngine(("127.0.0.1", 9), start_timeout=1.0)  # the discard port: nobody listens
    assert raised.value.kind == "start"


def test_a_command_that_exits_without_listening_is_a_start_error() -> None:
    with pytest.raises(EngineError, match="exited before listening") as raised:
        DxpEngine(command=[sys.executable, "-c", "import sys; print('no socket for me'); sys.exit(4)"])
    assert raised.value.kind == "start"
    assert "no socket for me" in raised.value.stderr
    assert "exit status 4" in raised.value.stderr


# -- misbehaving followers -----------------------------------------------------------------------------------


def test_an_illegal_move_is_a_fail_and_the_engine_goes_on() -> None:
    with fake("dxp_illegal", "--move", "M0000282200") as engine:
        result = question(engine)
        assert result.status is Status.FAIL, result
        assert result.got == "28-22"
        assert "(the only legal move)" in result.message
        assert question(engine).status is Status.FAIL
        assert engine.restarts == 0


def test_a_wrong_captured_set_is_a_fail() -> None:
    with fake("dxp_illegal", "--move", "M000028390134") as engine:
        result = question(engine)
        assert result.status is Status.FAIL, result
        assert result.got == "28x39 {34}"


def test_a_game_end_instead_of_a_move_is_a_fail_where_there_is_a_move() -> None:
    with fake("dxp_illegal", answers={FORCED: "E", NO_MOVE: "E"}) as engine:
        assert question(engine, NO_MOVE, frozenset()).status is Status.PASS
        result = question(engine)
        assert result.status is Status.FAIL, result
        assert "found no move" in result.message


@pytest.mark.parametrize(
    ("kind", "fragment"),
    [("unknown", "unknown DXP message type 'X'"), ("move", "2 digits"), ("flood", "without a NUL")],
)
def test_garbage_is_a_protocol_error_and_the_engine_is_restarted(kind: str, fragment: str) -> None:
    with fake("dxp_garbage", "--kind", kind, answers={FORCED: FORCED_REPLY}) as engine:
        result = question(engine, OPENING, OPENING_MOVES)
        assert_error(result, "protocol", fragment)
        assert result.error is not None
        assert "garbage for" in result.error.stderr
        assert question(engine).status is Status.PASS
        assert engine.restarts == 1


def test_a_game_refused_with_code_2_is_a_refused_position_and_the_engine_goes_on() -> None:
    with fake("dxp_refuse") as engine:
        result = question(engine)  # both sides have pieces: a fail of Art. 2
        assert result.status is Status.FAIL, result
        assert result.charged_to == "2"
        assert "GAMEACC code 2" in result.message
        assert "not this game" in result.message
        lone = question(engine, NO_MOVE, frozenset())  # White has no pieces: a skip
        assert lone.status is Status.SKIP, lone
        assert engine.restarts == 0


def test_a_game_refused_with_another_code_is_a_protocol_error() -> None:
    with fake("dxp_refuse", "--code", "3") as engine:
        assert_error(question(engine), "protocol", "refused", "code 3", "no games at all")
        assert engine.restarts == 0


def test_refusing_every_game_is_a_start_error() -> None:
    with pytest.raises(EngineError, match="refused the probe game") as raised:
        fake("dxp_refuse", "--all", "--code", "3")
    assert raised.value.kind == "start"
    assert "no games at all" in raised.value.message


def test_a_crash_is_an_error_with_its_output_and_the_run_goes_on() -> None:
    cases = [
        case(FORCED, FORCED_MOVES, "before"),
        case(OPENING, OPENING_MOVES, "crashes"),
        case(NO_MOVE, frozenset(), "after"),
    ]
    answers = {FORCED: FORCED_REPLY, NO_MOVE: "E"}
    results = certify(lambda: fake("dxp_crash", answers=answers), cases)
    assert [r.status for r in results] == [Status.PASS, Status.ERROR, Status.PASS]
    crashed = results[1]
    assert_error(crashed, "crash", "the engine exited", "exit status 3")
    assert crashed.error is not None
    assert "cannot cope with" in crashed.error.stderr


def test_a_hang_times_out_kills_the_engine_and_it_restarts() -> None:
    with fake("dxp_hang", answers={FORCED: FORCED_REPLY}, timeout=1.0) as engine:
        first = engine._process
        started = time.monotonic()
        result = question(engine, OPENING, OPENING_MOVES)
        assert 1.0 <= time.monotonic() - started < 5.0
        assert_error(result, "timeout", "within 1 s", "process group was killed")
        assert result.error is not None
        assert "thinking forever" in result.error.stderr
        assert first is not None
        assert first.popen.returncode is not None
        assert question(engine).status is Status.PASS
        assert engine.restarts == 1


def test_a_hang_of_a_follower_at_an_address_closes_the_connection_and_reconnects() -> None:
    # a follower that takes the probe game, then never answers
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def silent() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(200)  # the probe GAMEREQ
            connection.sendall(b"A" + b"silent".ljust(32) + b"0\0")
            connection.recv(10)  # E00
            connection.sendall(b"E00\0")
            while connection.recv(200):
                pass

    threading.Thread(target=silent, daemon=True).start()
    engine = DxpEngine(("127.0.0.1", port), timeout=0.5, restart_budget=1)
    try:
        assert engine.info.name == "silent"
        assert_error(question(engine), "timeout", "within 0.5 s", "connection was closed")
        listener.close()
        assert_error(question(engine), "start", "restart 1 of 1 failed", "cannot connect")
        assert_error(question(engine), "crash", "restart budget exhausted")
    finally:
        engine.close()
        listener.close()


def test_chat_and_a_late_game_end_between_games_are_harmless() -> None:
    # a follower that chats, and confirms even the E00 that confirms its own GAMEEND
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    name = b"A" + b"chatty".ljust(32) + b"0\0"

    def chatty() -> None:
        connection, _ = listener.accept()
        with connection, contextlib.suppress(OSError):
            buffer = b""
            while True:
                chunk = connection.recv(200)
                if not chunk:
                    return
                buffer += chunk
                while b"\0" in buffer:
                    message, buffer = buffer.split(b"\0", 1)
                    if message.startswith(b"R") and message[42:43] == b"A":
                        connection.sendall(name)
                    elif message.startswith(b"R"):
                        connection.sendall(name + b"Chmm, let me see\0E10\0Cgood game\0")
                    elif message.startswith(b"E"):
                        connection.sendall(b"E00\0B001W\0")

    threading.Thread(target=chatty, daemon=True).start()
    engine = DxpEngine(("127.0.0.1", port), timeout=2.0)
    try:
        for _ in range(3):
            assert question(engine, NO_MOVE, frozenset()).status is Status.PASS
            time.sleep(0.05)  # let the late messages arrive between games
        assert engine.restarts == 0
    finally:
        engine.close()
        listener.close()
