"""Real questions over the JSON-lines protocol: the reference server and the Node.js example.

The reference server must give exactly the in-process oracle's results on the whole corpus, and
pass a small case file whose answers are worked out by hand below. The Node.js example engine
must pass every legal-moves question it is asked.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.core.corpus import CORPUS_ROOT, Capability, Case, Corpus, load_corpus
from conformance.core.protocol import Engine, PerftReached
from conformance.core.results import Result, Status
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.evaluate import ask, question_keys

REPO = Path(__file__).resolve().parents[2]
NODE_ENGINE = REPO / "examples" / "node-engine" / "engine.js"
SERVER = [sys.executable, "-m", "conformance.servers.oracle_jsonl"]

# Hand-worked answers (rules.md; geometry: in an even row, 1-5, 11-15, ..., square s has NW s-5,
# NE s-4, SW s+5, SE s+6; in an odd row, 6-10, 16-20, ..., NW s-6, NE s-5, SW s+4, SE s+5).
CASES = """\
topic: Hand-worked questions for the JSON-lines protocol tests
article: "3.4"
cases:
  - id: jsonl-initial-position
    article: "2.8"
    description: The initial position; White's front men 31-35 step to 26-30
    source: "constructed; perft numbers as published (docs/rules.md, perft)"
    position: "W:W31-50:B1-20"
    # 31 (even row): NW 26, NE 27; 32: 27, 28; 33: 28, 29; 34: 29, 30; 35 (right edge): NW 30.
    # After 32-28 19-23 Black's man stands on 23 and White's on 28.
    expect:
      fen: {valid: true, position: "W:W31-50:B1-20"}
      legal_moves: ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
      move_count: 9
      perft: [9, 81, 658]
      after:
        - moves: ["32-28", "19-23"]
          position: "W:W28,31,33-50:B1-18,20,23"
      outcome: {moves: [], result: ongoing}
  - id: jsonl-man-captures-backward
    article: "4.1"
    description: A white man captures a black man behind it; capture is compulsory
    source: constructed
    position: "W:W28:B33"
    # 28 (odd row): SE 33, and behind 33 (even row) to the SE is 39. The steps 28-22 and 28-23
    # are not legal because capture is compulsory. After 28x39 Black has no piece left.
    expect:
      legal_moves: ["28x39 {33}"]
      move_texts:
        - {text: "28x39", notation: pdn, verdict: legal, move: "28x39 {33}"}
        - {text: "28x39x33", notation: hub, verdict: legal, move: "28x39 {33}"}
        - {text: "28-22", notation: pdn, verdict: illegal}
        - {text: "28--39", notation: pdn, verdict: malformed}
      notation:
        - {move: "28x39 {33}", pdn: "28x39", hub: "28x39x33"}
      outcome: {moves: ["28x39"], result: white_wins, rule: "7.2.2", ply: 1}
  - id: jsonl-most-pieces
    article: "4.13"
    description: Taking two pieces beats taking one
    source: constructed
    position: "W:W32:B17,27,28"
    # 32 (even row) x 27 lands on 21, then 21 (even row): NE 17, behind it 12: 32x12 takes 17 and
    # 27. 32 x 28 lands on 23, from where nothing more can be taken: one piece only.
    expect:
      legal_moves: ["32x12 {17,27}"]
  - id: jsonl-king-lands-anywhere-behind
    article: "4.3"
    description: A king captures at a distance and may land on any empty square behind the piece
    source: constructed
    position: "W:WK46:B23"
    # The long diagonal 46-41-37-32-28-23-19-14-10-5: the king flies to 23, jumps it and lands
    # on 19, 14, 10 or 5.
    expect:
      legal_moves: ["46x19 {23}", "46x14 {23}", "46x10 {23}", "46x5 {23}"]
  - id: jsonl-blocked
    article: "7.2.3"
    description: A white man on the edge blocked by a black man has no move
    source: constructed
    position: "W:W6:B1"
    # 6 (odd row, left edge): NE 1 only, occupied; behind 1 is off the board: no capture.
    expect:
      legal_moves: []
  - id: jsonl-invalid-fen
    article: "2"
    description: A white man cannot stand on White's promotion row
    source: constructed
    position: "W:W3"
    expect:
      fen: {valid: false, reason: a white man on square 3}
"""


@pytest.fixture(scope="module")
def hand_corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    root = tmp_path_factory.mktemp("corpus")
    for name in ("articles.yaml", "schema.json"):
        shutil.copy(CORPUS_ROOT / name, root / name)
    (root / "jsonl.yaml").write_text(CASES, encoding="utf-8")
    return load_corpus(root)


@pytest.fixture(scope="module")
def corpus_cases() -> list[Case]:
    """The corpus's cases of the default run."""
    return [case for case in load_corpus().cases if "slow" not in case.tags]


@pytest.fixture(scope="module")
def server() -> Iterator[JsonlEngine]:
    with JsonlEngine(SERVER, cwd=REPO) as engine:
        yield engine


def results(engine: Engine, cases: list[Case] | tuple[Case, ...]) -> list[Result]:
    return [ask(engine, case, key, question) for case in cases for key, question in question_keys(case)]


def comparable(result: Result) -> tuple[object, ...]:
    """A result without what depends on the way the engine is reached (timing, where stderr comes from)."""
    error = (result.error.kind, result.error.message) if result.error else None
    return (result.case, result.question, result.status, result.message, result.got, error)


# -- the reference server ----------------------------------------------------------------------------


def test_the_server_announces_the_oracle(server: JsonlEngine) -> None:
    info = server.info
    assert info.name == "oracle"
    assert info.capabilities == OracleEngine().info.capabilities
    assert info.adapter == "jsonl:" + " ".join(SERVER)
    assert info.level == "rules"


def test_the_server_passes_the_hand_worked_cases(server: JsonlEngine, hand_corpus: Corpus) -> None:
    answered = results(server, hand_corpus.cases)
    assert {r.question.split("[")[0] for r in answered} >= {
        "fen", "legal_moves", "move_count", "perft", "after", "move_text", "notation", "outcome"
    }  # fmt: skip
    assert [r for r in answered if r.status is not Status.PASS] == []


def test_the_server_answers_the_corpus_exactly_as_the_oracle_in_process(
    server: JsonlEngine, corpus_cases: list[Case]
) -> None:
    cases = corpus_cases
    over_jsonl = results(server, cases)
    in_process = results(OracleEngine(), cases)
    assert len(over_jsonl) == len(in_process) > 0
    assert [comparable(r) for r in over_jsonl] == [comparable(r) for r in in_process]
    assert server.restarts == 0


def test_a_served_move_choice_engine_is_judged_at_the_move_choice_level(
    tmp_path: Path, corpus_cases: list[Case]
) -> None:
    script = tmp_path / "chooser.py"
    script.write_text(
        "import dataclasses, sys\n"
        "from conformance.core.corpus import Capability\n"
        "from conformance.engines.oracle_engine import OracleEngine\n"
        "from conformance.servers.oracle_jsonl import serve\n"
        "class Chooser(OracleEngine):\n"
        "    @property\n"
        "    def info(self):\n"
        "        return dataclasses.replace(super().info, capabilities=frozenset({Capability.CHOOSE_MOVE}))\n"
        "sys.exit(serve(Chooser(), sys.stdin.buffer, sys.stdout.buffer, sys.stderr))\n",
        encoding="utf-8",
    )
    with JsonlEngine([sys.executable, str(script)], env={"PYTHONPATH": str(REPO)}) as engine:
        assert engine.info.level == "move-choice"
        assert engine.choose_move("W:W6:B1") is None
        legal = [case for case in corpus_cases if any(q.kind == "legal_moves" for q in case.questions)][:10]
        answered = [r for r in results(engine, legal) if r.question == "legal_moves"]
    assert answered
    assert all(r.status is Status.PASS for r in answered), [
        r for r in answered if r.status is not Status.PASS
    ]


# -- the Node.js example -------------------------------------------------------------------------------

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture(scope="module")
def node_engine() -> Iterator[JsonlEngine]:
    node = shutil.which("node")
    assert node is not None
    with JsonlEngine([node, str(NODE_ENGINE)]) as engine:
        yield engine


@needs_node
def test_the_node_example_declares_what_it_answers(node_engine: JsonlEngine) -> None:
    assert node_engine.info.name == "node-example"
    assert node_engine.info.capabilities == {
        Capability.FEN,
        Capability.LEGAL_MOVES,
        Capability.MOVE_COUNT,
        Capability.PERFT,
    }


@needs_node
def test_the_node_example_passes_the_hand_worked_cases(node_engine: JsonlEngine, hand_corpus: Corpus) -> None:
    answered = results(node_engine, hand_corpus.cases)
    by_status = {status: [r for r in answered if r.status is status] for status in Status}
    assert by_status[Status.FAIL] == []
    assert by_status[Status.ERROR] == []
    assert {r.question.split("[")[0] for r in by_status[Status.PASS]} == {
        "fen",
        "legal_moves",
        "move_count",
        "perft",
    }
    assert {r.question.split("[")[0] for r in by_status[Status.UNSUPPORTED]} == {
        "after", "move_text", "notation", "outcome"
    }  # fmt: skip


@needs_node
def test_the_node_example_passes_every_legal_moves_question_of_the_corpus(
    node_engine: JsonlEngine, corpus_cases: list[Case]
) -> None:
    answered = [r for r in results(node_engine, corpus_cases) if r.question in ("legal_moves", "move_count")]
    assert len(answered) > 10
    assert [r for r in answered if r.status is not Status.PASS] == []


# Published perft of the initial position (docs/rules.md, section perft), depths 1-11.
INITIAL_PERFT = (9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763, 1665861398)


@needs_node
def test_the_node_example_answers_the_depths_it_reached_within_half_the_timeout() -> None:
    """Protocol 1.1: the timeout announced in 'start' bounds the work; depth 11 is out of reach in
    one second, so the engine answers the counts of the depths it reached, each right."""
    node = shutil.which("node")
    assert node is not None
    with JsonlEngine([node, str(NODE_ENGINE)], timeout=2.0) as engine:
        assert engine.minor == 1
        with pytest.raises(PerftReached) as reached:
            engine.perft("W:W31-50:B1-20", 11)
        counts = reached.value.counts
        assert 1 <= len(counts) < 11
        assert counts == INITIAL_PERFT[: len(counts)]
        assert engine.restarts == 0
