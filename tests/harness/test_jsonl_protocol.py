"""The JSON-lines protocol itself: its schemas, what the adapter sends, what the server accepts.

The adapter checks responses with plain code for speed (``response_is_valid``); these tests hold
that check to the JSON Schemas, which are the specification (docs/protocol.md).
"""

from __future__ import annotations

import copy
import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.core.protocol import (
    OPERATIONS,
    PROTOCOL_MINOR,
    BaseEngine,
    Capability,
    EngineDeclined,
    EngineInfo,
    MoveRefused,
    MoveSpec,
    PerftReached,
    PositionRefused,
)
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.adapters.jsonl_messages import (
    SCHEMA_DIR,
    SCHEMA_FILES,
    message_validator,
    response_is_valid,
    schema_registry,
)
from conformance.servers.oracle_jsonl import answer, oracle_engine, serve

FAKES = Path(__file__).parent / "fakes"
OPERATION_NAMES = sorted(capability.value for capability in OPERATIONS)
DEFINITIONS = [
    "declined",
    "error",
    "illegal-move",
    "illegal-position",
    *(f"{op}-answer" for op in OPERATION_NAMES),
]


def schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / f"jsonl-{name}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


# -- the schemas -------------------------------------------------------------------------------------


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    for name in SCHEMA_FILES:
        jsonschema.Draft202012Validator.check_schema(schema(name))
        assert schema(name)["$id"] in schema_registry()
    assert sorted(p.name for p in SCHEMA_DIR.glob("jsonl-*.json")) == sorted(
        f"jsonl-{n}.json" for n in SCHEMA_FILES
    )


@pytest.mark.parametrize("name", ["start", "started", "request", "response", "stop"])
def test_the_examples_of_each_message_schema_are_valid(name: str) -> None:
    examples = schema(name)["examples"]
    assert examples
    validator = message_validator(name)
    for example in examples:
        assert validator.is_valid(example), example


def test_the_request_examples_cover_every_operation() -> None:
    assert {example["op"] for example in schema("request")["examples"]} == set(OPERATION_NAMES)


def test_the_schemas_know_every_capability_and_ask_only_operations() -> None:
    common = schema("common")["$defs"]
    assert set(common["capability"]["enum"]) == {capability.value for capability in Capability}
    assert set(common["operation"]["enum"]) == set(OPERATION_NAMES)
    assert "counters" not in common["operation"]["enum"]
    request = {"type": "request", "seq": 1, "op": "counters", "fen": "W:W31:B1"}
    assert not message_validator("request").is_valid(request)


def test_every_response_definition_has_a_schema_example() -> None:
    """Each answer, and each 1.1 answer (``illegal`` about a move or a position, perft ``counts``)."""
    examples = schema("response")["examples"]
    for definition in DEFINITIONS:
        validator = message_validator("response", definition)
        assert any(validator.is_valid(example) for example in examples), definition
    perft = message_validator("response", "perft-answer")
    assert any(perft.is_valid(example) and "counts" in example for example in examples)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("start", {"type": "start", "protocol": 2}),
        ("start", {"type": "start", "protocol": 1, "minor": -1}),
        ("start", {"type": "start", "protocol": 1, "minor": 1, "timeout": 0}),
        ("start", {"type": "start", "protocol": 1, "minor": 1, "timeout": "10"}),
        (
            "started",
            {
                "type": "started",
                "protocol": 1,
                "minor": "1",
                "engine": {"name": "x", "version": "1"},
                "capabilities": [],
            },
        ),
        (
            "started",
            {
                "type": "started",
                "protocol": 1,
                "engine": {"name": "x", "version": "1"},
                "capabilities": ["draws"],
            },
        ),
        ("request", {"type": "request", "seq": 1, "op": "counters", "fen": "W:W31"}),
        ("started", {"type": "started", "protocol": 1, "engine": {"name": "x", "version": "1"}}),
        (
            "started",
            {"type": "started", "protocol": 1, "engine": {"name": "", "version": "1"}, "capabilities": []},
        ),
        ("request", {"type": "request", "seq": 0, "op": "fen", "fen": "W:W31"}),
        ("request", {"type": "request", "seq": 1, "op": "fen"}),
        ("request", {"type": "request", "seq": 1, "op": "perft", "fen": "W:W31", "depth": 0}),
        ("request", {"type": "request", "seq": 1, "op": "hub", "fen": "W:W31"}),
        ("request", {"type": "request", "seq": 1, "op": "fen", "fen": "W:W31", "expected": True}),
        ("response", {"type": "response", "seq": 1}),
        ("response", {"type": "response", "seq": 1, "moves": [{"from": 51, "to": 1, "captured": []}]}),
        ("response", {"type": "response", "seq": 1, "verdict": "legal"}),
        ("response", {"type": "response", "seq": 1, "declined": "no", "error": "no"}),
        ("response", {"type": "response", "seq": 1, "illegal": {"move": "46-5"}}),
        ("response", {"type": "response", "seq": 1, "illegal": {"move": "46-5", "ply": 0}}),
        ("response", {"type": "response", "seq": 1, "illegal": {"move": "", "ply": 1}}),
        ("response", {"type": "response", "seq": 1, "illegal": {"move": "46-5", "ply": 1, "reason": None}}),
        ("response", {"type": "response", "seq": 1, "illegal": {"reason": "no"}}),
        (
            "response",
            {"type": "response", "seq": 1, "illegal": {"position": "W:W28", "move": "28-22", "ply": 1}},
        ),
        ("response", {"type": "response", "seq": 1, "counts": []}),
        ("response", {"type": "response", "seq": 1, "count": 9, "counts": [9]}),
        ("stop", {"type": "stop", "now": True}),
    ],
)
def test_malformed_messages_are_refused(name: str, message: dict[str, Any]) -> None:
    assert not message_validator(name).is_valid(message)


# -- the fast check of responses equals the schema ----------------------------------------------------

# Valid answers (boundary values included), then at most one near-miss change at one spot.
squares = st.integers(1, 50) | st.sampled_from([1, 50, 1.0, 50.0])
moves = st.fixed_dictionaries(
    {"from": squares, "to": squares, "captured": st.lists(st.integers(1, 50), unique=True, max_size=20)}
)
texts = st.text(max_size=4)
counts = st.integers(0, 10**12) | st.sampled_from([0, 0.0, 5.0])
answer_values: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "declined": st.fixed_dictionaries({"declined": texts}),
    "error": st.fixed_dictionaries({"error": texts}),
    "illegal-move": st.fixed_dictionaries(
        {
            "illegal": st.fixed_dictionaries(
                {"move": texts, "ply": st.integers(1, 40) | st.just(1.0)}, optional={"reason": texts}
            )
        }
    ),
    "illegal-position": st.fixed_dictionaries(
        {"illegal": st.fixed_dictionaries({"position": texts}, optional={"reason": texts})}
    ),
    "fen-answer": st.fixed_dictionaries({"valid": st.booleans()}, optional={"position": st.none() | texts}),
    "legal_moves-answer": st.fixed_dictionaries({"moves": st.lists(moves, max_size=4)}),
    "move_count-answer": st.fixed_dictionaries({"count": counts}),
    "perft-answer": st.fixed_dictionaries({"count": counts})
    | st.fixed_dictionaries({"counts": st.lists(counts, min_size=1, max_size=4)}),
    "play-answer": st.fixed_dictionaries({"position": texts}),
    "parse_move-answer": st.fixed_dictionaries({"verdict": st.just("legal"), "move": moves})
    | st.fixed_dictionaries(
        {"verdict": st.sampled_from(["illegal", "ambiguous", "malformed"])}, optional={"move": st.none()}
    ),
    "format_move-answer": st.fixed_dictionaries({"text": texts}),
    "outcome-answer": st.fixed_dictionaries(
        {"result": st.sampled_from(["ongoing", "white_wins", "black_wins", "draw"])},
        optional={"rule": st.none() | texts, "ply": st.none() | counts},
    ),
    "initial_position-answer": st.fixed_dictionaries({"position": texts}),
    "choose_move-answer": st.fixed_dictionaries({"move": st.none() | moves}),
}
NEAR_MISSES: list[Any] = [
    0,
    -1,
    51,
    1,
    50,
    28.5,
    3.0,
    True,
    False,
    None,
    "",
    "28",
    "legal",
    "draw",
    [],
    {},
    [1, 1],
    float("nan"),
]


def spots(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value, as paths of keys and indices."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += spots(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += spots(item, (*path, index))
    return found


@st.composite
def responses(draw: st.DrawFn) -> tuple[str, Any]:
    definition = draw(st.sampled_from(DEFINITIONS))
    message: Any = {"type": "response", "seq": draw(st.integers(1, 10**6)), **draw(answer_values[definition])}
    if draw(st.integers(0, 4)) == 0:
        return definition, message  # unchanged: valid
    path = draw(st.sampled_from(spots(message)))
    parent = message
    for step in path[:-1]:
        parent = parent[step]
    target = parent[path[-1]] if path else message
    change = draw(st.sampled_from(["replace", "replace", "drop", "add", "repeat"]))
    if change == "replace" or (not path and change == "drop"):
        value = draw(st.sampled_from(NEAR_MISSES))
        if path:
            parent[path[-1]] = value
        else:
            message = value
    elif change == "drop" and isinstance(parent, dict):
        del parent[path[-1]]
    elif change == "drop":
        parent.pop(path[-1])
    elif change == "add" and isinstance(target, dict):
        target[
            draw(
                st.sampled_from(
                    [
                        "extra",
                        "move",
                        "moves",
                        "valid",
                        "error",
                        "declined",
                        "count",
                        "counts",
                        "illegal",
                        "ply",
                        "position",
                        "reason",
                        "route",
                    ]
                )
            )
        ] = draw(st.sampled_from(NEAR_MISSES))
    elif change == "add" and isinstance(target, list):
        target.append(draw(st.sampled_from([*NEAR_MISSES, 28])))
    elif change == "repeat" and isinstance(target, list) and target:
        target.append(copy.deepcopy(target[0]))
    return definition, message


def agrees_with_the_schema(drawn: tuple[str, Any]) -> None:
    definition, message = drawn
    expected = message_validator("response", definition).is_valid(message)
    assert response_is_valid(definition, copy.deepcopy(message)) is expected


@settings(max_examples=300, deadline=None)
@given(responses())
def test_the_fast_response_check_accepts_exactly_what_the_schema_accepts(drawn: tuple[str, Any]) -> None:
    agrees_with_the_schema(drawn)


@pytest.mark.slow
@settings(max_examples=30_000, deadline=None)
@given(responses())
def test_the_fast_response_check_agrees_with_the_schema_deeply(drawn: tuple[str, Any]) -> None:
    agrees_with_the_schema(drawn)


MOVE = {"from": 28, "to": 39, "captured": [33, 1.0]}
BASES: dict[str, list[dict[str, Any]]] = {
    "declined": [{"declined": "no"}],
    "error": [{"error": "boom"}],
    "illegal-move": [
        {"illegal": {"move": "46-5", "ply": 1, "reason": "kings step one square"}},
        {"illegal": {"move": "28x39 {33}", "ply": 3.0}},
    ],
    "illegal-position": [
        {"illegal": {"position": "W:W28", "reason": "no black piece"}},
        {"illegal": {"position": ""}},
    ],
    "fen-answer": [{"valid": True, "position": "W:W28"}, {"valid": False}],
    "legal_moves-answer": [{"moves": [MOVE, {"from": 1, "to": 50.0, "captured": []}]}, {"moves": []}],
    "move_count-answer": [{"count": 9}],
    "perft-answer": [{"count": 0}, {"counts": [9, 81.0, 658]}, {"counts": [0]}],
    "play-answer": [{"position": "W:W28"}],
    "parse_move-answer": [
        {"verdict": "legal", "move": MOVE},
        {"verdict": "illegal"},
        {"verdict": "malformed", "move": None},
    ],
    "format_move-answer": [{"text": "28x39"}],
    "outcome-answer": [{"result": "draw", "rule": "6.1", "ply": 3}, {"result": "ongoing"}],
    "initial_position-answer": [{"position": "W:W31-50:B1-20"}],
    "choose_move-answer": [{"move": MOVE}, {"move": None}],
}
EXTRA_KEYS = [
    "extra", "move", "moves", "valid", "error", "declined", "illegal", "count", "counts", "rule", "ply",
    "position", "reason", "route",
]  # fmt: skip


def changed(message: Any, path: tuple[Any, ...], key: Any, value: Any = None, *, drop: bool = False) -> Any:
    """A deep copy of ``message`` where the container at ``path`` has ``key`` set to ``value``
    (appended when ``key`` is None), or removed when ``drop``."""
    copied = copy.deepcopy(message)
    inner = copied
    for step in path:
        inner = inner[step]
    if drop:
        inner.pop(key)
    elif key is None:
        inner.append(copy.deepcopy(value))
    else:
        inner[key] = value
    return copied


def single_changes(message: dict[str, Any]) -> list[Any]:
    """Every message one change away: each spot replaced by each near miss or dropped, each object
    given each extra key, each list given each near miss or its first item once more."""
    variants: list[Any] = []
    for path in spots(message):
        target: Any = message
        for step in path:
            target = target[step]
        if not path:
            variants += NEAR_MISSES
        else:
            variants += [changed(message, path[:-1], path[-1], value) for value in NEAR_MISSES]
            variants.append(changed(message, path[:-1], path[-1], drop=True))
        if isinstance(target, dict):
            variants += [
                changed(message, path, extra, value) for extra in EXTRA_KEYS for value in (None, 28, "x")
            ]
        if isinstance(target, list):
            variants += [changed(message, path, None, value) for value in [*NEAR_MISSES, 28, *target[:1]]]
    return variants


@pytest.mark.parametrize("definition", DEFINITIONS)
def test_the_fast_check_agrees_with_the_schema_on_every_single_change(definition: str) -> None:
    validator = message_validator("response", definition)
    for base in BASES[definition]:
        message = {"type": "response", "seq": 7, **base}
        assert validator.is_valid(message), message
        assert response_is_valid(definition, message), message
        for changed in single_changes(message):
            assert response_is_valid(definition, changed) is validator.is_valid(changed), changed


@pytest.mark.parametrize("definition", DEFINITIONS)
def test_the_fast_check_accepts_the_schema_examples_of_its_definition(definition: str) -> None:
    validator = message_validator("response", definition)
    examples = [example for example in schema("response")["examples"] if validator.is_valid(example)]
    assert examples, f"no example of {definition}"
    assert all(response_is_valid(definition, example) for example in examples)


# -- what the adapter sends -------------------------------------------------------------------------


def test_every_message_the_adapter_sends_is_valid(tmp_path: Path) -> None:
    log = tmp_path / "received.jsonl"
    engine = JsonlEngine([sys.executable, str(FAKES / "recorder.py"), "--log", str(log)])
    calls: list[Callable[[], object]] = [
        lambda: engine.fen("W:W31-50:B1-20"),
        lambda: engine.legal_moves("W:W28:B33"),
        lambda: engine.move_count("W:W28:B33"),
        lambda: engine.perft("W:W31-50:B1-20", 3),
        lambda: engine.play("W:W31-50:B1-20", ["32-28", "19-23"]),
        lambda: engine.parse_move("W:W28:B33", "28x39", "pdn"),
        lambda: engine.format_move("W:W28:B33", MoveSpec(28, 39, frozenset({33})), "hub"),
        lambda: engine.outcome("W:W28:B33", {"occurrences": 2}, ["28x39"]),
        lambda: engine.initial_position(),
        lambda: engine.choose_move("W:W28:B33"),
    ]
    for call in calls:
        with pytest.raises(EngineDeclined, match="recording only"):
            call()
    engine.close()
    received = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [m["type"] for m in received] == ["start", *["request"] * len(calls), "stop"]
    assert message_validator("start").is_valid(received[0])
    assert received[0] == {"type": "start", "protocol": 1, "minor": PROTOCOL_MINOR, "timeout": 10.0}
    assert message_validator("stop").is_valid(received[-1])
    requests = received[1:-1]
    assert [m["op"] for m in requests] == [c.value for c in Capability if c.is_operation]
    assert [m["seq"] for m in requests] == list(range(1, len(calls) + 1))
    for request in requests:
        assert message_validator("request").is_valid(request), request
    assert requests[6]["move"] == {"from": 28, "to": 39, "captured": [33]}
    assert requests[7]["counters"] == {"occurrences": 2}


def test_a_command_given_as_a_list_is_shown_shell_quoted(tmp_path: Path) -> None:
    log = tmp_path / "with space.jsonl"
    with JsonlEngine([sys.executable, str(FAKES / "recorder.py"), "--log", str(log)]) as engine:
        assert engine.info.adapter.startswith("jsonl:")
        assert f"'{log}'" in engine.info.adapter
        assert engine.info.name == "recorder"
        # a protocol 1.0 engine (no minor stated) that answers 'outcome' takes counters, as 1.0 had it
        assert engine.minor == 0
        assert engine.info.capabilities == frozenset(Capability)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"timeout": 0}, "timeout must be a positive"),
        ({"start_timeout": -1}, "start_timeout must be a positive"),
        ({"restart_budget": -1}, "restart_budget"),
    ],
)
def test_bad_adapter_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        JsonlEngine("true", **options)


def test_an_empty_command_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        JsonlEngine("  ")


# -- what the reference server accepts ---------------------------------------------------------------


@pytest.fixture(scope="module")
def oracle() -> Any:
    return oracle_engine()


@pytest.mark.parametrize(
    ("request_", "fragment"),
    [
        ({"type": "request", "seq": 4, "op": "fen"}, "'fen' is a required property"),
        ({"type": "request", "seq": 4, "op": "hub", "fen": "W:W31"}, "op: 'hub' is not one of"),
        (
            {"type": "request", "seq": 4, "op": "perft", "fen": "W:W31", "depth": "2"},
            "depth: '2' is not of type",
        ),
    ],
)
def test_the_server_answers_an_invalid_request_with_an_error(
    oracle: Any, request_: dict[str, Any], fragment: str
) -> None:
    response = answer(oracle, request_)
    assert response["seq"] == 4
    assert response["error"].startswith("invalid request: ")
    assert fragment in response["error"]


def test_the_server_turns_an_oracle_exception_into_an_error_response(oracle: Any) -> None:
    request = {"type": "request", "seq": 2, "op": "play", "fen": "W:W31-50:B1-20", "moves": ["32-27x"]}
    response = answer(oracle, request)
    assert set(response) == {"type", "seq", "error"}
    assert response["error"].startswith("MoveSyntaxError: ")


def test_the_server_answers_illegal_where_the_oracle_refuses_a_move(oracle: Any) -> None:
    request = {
        "type": "request",
        "seq": 3,
        "op": "play",
        "fen": "W:W31-50:B1-20",
        "moves": ["32-28", "28-22"],
    }
    response = answer(oracle, request)
    assert set(response) == {"type", "seq", "illegal"}
    assert response["illegal"]["move"] == "28-22"
    assert response["illegal"]["ply"] == 2  # Black's move: 28-22 is not one of Black's
    assert message_validator("response", "play-response").is_valid(response)
    request = {
        "type": "request",
        "seq": 4,
        "op": "format_move",
        "fen": "W:W28:B33",
        "move": {"from": 28, "to": 22, "captured": []},  # capture is compulsory (Art. 4.2)
        "notation": "pdn",
    }
    response = answer(oracle, request)
    assert response["illegal"]["move"] == "28-22"
    assert response["illegal"]["ply"] == 1
    assert message_validator("response", "format_move-response").is_valid(response)


class _Refusing(BaseEngine):
    """Says the other things an engine may say instead of an answer."""

    @property
    def info(self) -> EngineInfo:
        return EngineInfo("refusing", "0", frozenset(OPERATIONS), "in-process")

    def legal_moves(self, fen: str) -> list[MoveSpec]:
        raise PositionRefused("white has no pieces")

    def move_count(self, fen: str) -> int:
        raise MoveRefused("28-22", 1)

    def perft(self, fen: str, depth: int) -> int:
        raise PerftReached([9, 81], "out of time")

    def outcome(self, fen: str, counters: Any, moves: Any) -> Any:
        raise MoveRefused("1-7")

    def play(self, fen: str, moves: Any) -> str:
        raise MoveRefused(None, 2, "too far")


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        (
            {"op": "legal_moves", "fen": "W:B1"},
            {"illegal": {"position": "W:B1", "reason": "white has no pieces"}},
        ),
        ({"op": "perft", "fen": "W:W31-50:B1-20", "depth": 5}, {"counts": [9, 81]}),
        (
            {"op": "outcome", "fen": "W:WK46:B1", "counters": {}, "moves": ["46-28", "1-7"]},
            {"illegal": {"move": "1-7", "ply": 2}},
        ),
        (
            {"op": "play", "fen": "W:WK46:B1", "moves": ["46-28", "1-7"]},
            {"illegal": {"move": "1-7", "ply": 2, "reason": "too far"}},
        ),
        (
            {"op": "play", "fen": "W:WK46:B1", "moves": ["46-28"]},
            {
                "error": "the engine refused a move the request does not have: ply 2: a move is illegal (too far)"
            },
        ),
        (
            {"op": "move_count", "fen": "W:W28:B33"},
            {"error": "move_count cannot refuse a move, but the engine did: ply 1: '28-22' is illegal"},
        ),
    ],
)
def test_the_server_answers_what_a_served_engine_raises_as_protocol_1_1_says(
    request_: dict[str, Any], expected: dict[str, Any]
) -> None:
    response = answer(_Refusing(), {"type": "request", "seq": 9, **request_})
    assert response == {"type": "response", "seq": 9, **expected}
    assert message_validator("response", f"{request_['op']}-response").is_valid(response)


def test_the_server_session_start_requests_stop(oracle: Any) -> None:
    lines = [
        {"type": "start", "protocol": 1},
        {"type": "request", "seq": 1, "op": "legal_moves", "fen": "W:W28:B33"},
        {"type": "stop"},
        {"type": "request", "seq": 2, "op": "fen", "fen": "W:W28:B33"},  # after stop: never read
    ]
    reader = io.BytesIO("".join(json.dumps(line) + "\n" for line in lines).encode())
    writer, log = io.BytesIO(), io.StringIO()
    assert serve(oracle, reader, writer, log) == 0
    started, response = (json.loads(line) for line in writer.getvalue().decode().splitlines())
    assert message_validator("started").is_valid(started)
    assert started["capabilities"] == sorted(c.value for c in oracle.info.capabilities)
    assert started["minor"] == PROTOCOL_MINOR
    assert "counters" in started["capabilities"]
    assert response == {"type": "response", "seq": 1, "moves": [{"from": 28, "to": 39, "captured": [33]}]}
    assert log.getvalue() == ""


@pytest.mark.parametrize(
    "first_line",
    [b"hello\n", b'{"type": "request", "seq": 1, "op": "fen", "fen": "W:W31"}\n'],
)
def test_the_server_stops_when_the_first_line_is_not_start(oracle: Any, first_line: bytes) -> None:
    writer, log = io.BytesIO(), io.StringIO()
    assert serve(oracle, io.BytesIO(first_line), writer, log) == 2
    assert writer.getvalue() == b""
    assert "expected a 'start' message" in log.getvalue()


def test_the_server_stops_on_a_line_that_is_not_json(oracle: Any) -> None:
    reader = io.BytesIO(b'{"type": "start", "protocol": 1}\nnot json\n')
    writer, log = io.BytesIO(), io.StringIO()
    assert serve(oracle, reader, writer, log) == 2
    assert "not a JSON object" in log.getvalue()


def test_jsonschema_explains_what_the_fast_check_refuses() -> None:
    message = {"type": "response", "seq": 1, "moves": [{"from": 28, "to": 39, "captures": [33]}]}
    assert not response_is_valid("legal_moves-answer", message)
    errors = list(message_validator("response", "legal_moves-answer").iter_errors(message))
    assert errors
    assert any(isinstance(error, jsonschema.ValidationError) for error in errors)


# -- the documentation's examples ---------------------------------------------------------------------


def documented_messages() -> list[dict[str, Any]]:
    """Every protocol message written out in docs/protocol.md, in order."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    found: list[dict[str, Any]] = []
    for block in text.split("```")[1::2]:
        _, _, body = block.partition("\n")
        try:
            whole = json.loads(body)
        except ValueError:
            lines = [line[line.index("{") :] for line in body.splitlines() if '{"type"' in line]
            found += [json.loads(line) for line in lines]
        else:
            found += [whole] if isinstance(whole, dict) and "type" in whole else []
    return found


def test_every_message_in_the_documentation_is_valid() -> None:
    messages = documented_messages()
    assert len(messages) > 20
    ops: dict[int, str] = {}
    for message in messages:
        if message["type"] == "request":
            assert message_validator("request").is_valid(message), message
            ops[message["seq"]] = message["op"]
        elif message["type"] == "response":
            validator = message_validator("response", f"{ops[message['seq']]}-response")
            assert validator.is_valid(message), message
        else:
            assert message_validator(message["type"]).is_valid(message), message
    assert set(ops.values()) == set(OPERATION_NAMES)
