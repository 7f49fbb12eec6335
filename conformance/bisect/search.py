"""The search of ``bisect``: the shortest line after which an engine's legal moves differ from the oracle's.

Chess authors compare their perft *divide* with a trusted engine's and walk down the subtree whose
count differs (perftree). :func:`bisect` does that for draughts, against the oracle:

* with the ``perft`` capability, it compares the legal moves of the start position, then asks
  ``perft(FEN, d)`` for d = 2, 3, ... (iterative deepening) and, at the first depth whose count
  differs, descends: the divide of a position is the engine's perft of each child at depth - 1
  (the harness plays each legal move with the oracle and asks the engine about the child's FEN);
  it follows the first child whose count differs, comparing the legal moves of every position on
  the way, down to one whose legal moves differ. Counts of different positions can cancel out, so
  the line found is then checked breadth-first: no position fewer plies from the start differs.
  When every child's count agrees but their sum does not, the engine's own moves lead elsewhere:
  its ``play`` of each legal move is compared with the rules';
* without ``perft`` (or when the engine declines it or times out at some depth: the mutants count
  only to depth 3), it compares the legal-move sets breadth-first, every position reachable in
  0, 1, 2 ... plies in turn (each once), which finds a shortest line by construction;
* when no line within the depth differs, it can play random games from the start and compare
  every position on the way (:mod:`conformance.bisect.playouts`): kings take too many plies to
  appear for an exhaustive search to meet them.

Without ``legal_moves`` only counts are compared (``move_count``, else ``perft`` at depth 1); the
engine's ``play``, when it has it, then tells which legal moves it refuses.

The positions come from the oracle's ``play`` (every question carries its FEN). A line of ``d``
plies shows in perft at depth ``d + 1``: a search to ``depth`` N covers lines of up to N - 1 plies.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from conformance.bisect.playouts import DEFAULT_PLIES, playouts
from conformance.core.errors import EngineFailure, EngineRefusal, ErrorKind, UsageError
from conformance.core.protocol import (
    Capability,
    Engine,
    EngineDeclined,
    EngineError,
    MoveRefused,
    MoveSpec,
    PositionRefused,
)
from conformance.report.hints import BISECT_DEPTH
from oracle.moves import Move, legal_moves, play
from oracle.notation import pdn_text
from oracle.perft import perft
from oracle.position import Color, Position
from oracle.rules import INTERNATIONAL, Rules

DEFAULT_DEPTH: Final = BISECT_DEPTH


class BisectError(UsageError, ValueError):
    """The question cannot be asked: a bad FEN or depth, an engine without the capabilities."""


class EngineProblem(EngineFailure):
    """The engine broke (crash, protocol error, exception) while bisect asked it something."""


def spec_of(move: Move) -> MoveSpec:
    return MoveSpec(move.from_square, move.to_square, move.captured)


def move_order(spec: MoveSpec) -> tuple[int, ...]:
    return (spec.from_square, spec.to_square, *sorted(spec.captured))


def _sorted(specs: Iterable[MoveSpec]) -> tuple[MoveSpec, ...]:
    return tuple(sorted(specs, key=move_order))


@dataclasses.dataclass(frozen=True)
class Difference:
    """The first position (after ``line`` from ``root``) where the engine and the oracle disagree."""

    root: Position
    line: tuple[Move, ...]
    position: Position
    missing: tuple[MoveSpec, ...] = ()
    """Legal moves the engine does not list (or, counting only, refuses to play)."""
    extra: tuple[MoveSpec, ...] = ()
    """Moves the engine lists that are not legal."""
    twice: tuple[MoveSpec, ...] = ()
    """Legal moves the engine lists more than once."""
    engine_count: int | None = None
    """The engine's count of legal moves, when only counts could be compared."""
    oracle_count: int | None = None
    compared: str = "legal_moves"
    """How the position was compared: ``legal_moves``, ``move_count``, ``perft(1)`` or ``play``."""
    played: Move | None = None
    """With ``compared == "play"``: the legal move whose result differs (or that was refused)."""
    engine_after: str | None = None
    """The engine's FEN after ``played`` (None when it refused the move)."""
    rules: Rules = INTERNATIONAL
    """The game the line is played in."""

    @property
    def plies(self) -> int:
        return len(self.line)

    @property
    def pdn(self) -> tuple[str, ...]:
        """The line as PDN move texts, each from the position it is played in."""
        texts, position = [], self.root
        for move in self.line:
            texts.append(pdn_text(position, move, self.rules))
            position = play(position, move, self.rules)
        return tuple(texts)

    def line_text(self) -> str:
        """``1. 32-28 19-23 2. 28x19``, or ``1... 19-23`` from a position with Black to move."""
        return numbered(self.root, self.pdn) or "(the position itself)"


def numbered(root: Position, texts: Sequence[str]) -> str:
    parts, number, turn = [], 1, root.turn
    for index, text in enumerate(texts):
        if turn is Color.WHITE:
            parts.append(f"{number}.")
        elif index == 0:
            parts.append(f"{number}...")
        parts.append(text)
        if turn is Color.BLACK:
            number += 1
        turn = turn.opponent
    return " ".join(parts)


@dataclasses.dataclass(frozen=True)
class Bisection:
    """What bisect found: the difference (None if none within ``depth``) and how it looked."""

    root: Position
    depth: int
    difference: Difference | None
    perft: tuple[tuple[int, int, int], ...]
    """(depth, engine's count, oracle's count) for each perft asked of the start position."""
    method: str
    positions: int
    """Positions whose legal moves were compared."""
    notes: tuple[str, ...]
    seconds: float
    games: int = 0
    """Random games played after the exhaustive search (:mod:`conformance.bisect.playouts`)."""

    @property
    def perft_differs(self) -> bool:
        return any(engine != oracle for _, engine, oracle in self.perft)

    @property
    def found(self) -> bool:
        return self.difference is not None or self.perft_differs


class _Declined(EngineRefusal):
    """The engine declined (or timed out on) a perft: fall back to the legal-move sets."""


@dataclasses.dataclass
class _Asker:
    """Asks the engine, the oracle alongside; remembers which positions were compared."""

    engine: Engine
    rules: Rules = INTERNATIONAL
    notes: list[str] = dataclasses.field(default_factory=list)
    compared: dict[Position, Difference | None] = dataclasses.field(default_factory=dict)

    @property
    def capabilities(self) -> frozenset[Capability]:
        return self.engine.info.capabilities

    def _call(self, what: str, position: Position, method: Callable[..., Any], *args: Any) -> Any:
        """``method(position's FEN, *args)``; the engine's breakage as :class:`EngineProblem`."""
        try:
            return method(position.fen(), *args)
        except (EngineDeclined, MoveRefused):
            raise
        except PositionRefused as refused:
            raise EngineProblem(
                f"{what}: the engine refused the position {position.fen()}, reached by legal moves: {refused}"
            ) from None
        except EngineError as error:
            if error.kind == ErrorKind.TIMEOUT:
                raise
            stderr = f"\nengine stderr:\n{error.stderr[-2000:]}" if error.stderr else ""
            raise EngineProblem(f"{what} on {position.fen()}: {error.kind}: {error}{stderr}") from None
        except Exception as error:  # an in-process engine's own bug: reported, never a traceback
            raise EngineProblem(f"{what} on {position.fen()}: {type(error).__name__}: {error}") from None

    def perft(self, position: Position, depth: int) -> int:
        """The engine's perft; :class:`_Declined` when it declines or times out."""
        try:
            answer = self._call(f"perft({depth})", position, self.engine.perft, depth)
        except EngineDeclined as declined:
            raise _Declined(f"the engine declined perft at depth {depth} ({declined})") from None
        except EngineError:
            raise _Declined(f"the engine timed out on perft at depth {depth}") from None
        if not isinstance(answer, int) or isinstance(answer, bool):
            raise EngineProblem(f"perft({depth}) on {position.fen()}: expected an integer, got {answer!r}")
        return answer

    def compare(self, root: Position, line: tuple[Move, ...], position: Position) -> Difference | None:
        """The legal moves of ``position`` (reached by ``line``), the engine's against the oracle's."""
        if position in self.compared:
            found = self.compared[position]
            return dataclasses.replace(found, line=line) if found else None
        oracle = legal_moves(position, self.rules)
        if Capability.LEGAL_MOVES in self.capabilities:
            found = self._compare_sets(root, line, position, oracle)
        else:
            found = self._compare_counts(root, line, position, oracle)
        self.compared[position] = found
        return found

    def _compare_sets(
        self, root: Position, line: tuple[Move, ...], position: Position, oracle: list[Move]
    ) -> Difference | None:
        try:
            answer = list(self._call("legal_moves", position, self.engine.legal_moves))
        except (EngineDeclined, EngineError) as declined:
            raise EngineProblem(
                f"legal_moves on {position.fen()}: the engine did not answer ({declined})"
            ) from None
        if not all(isinstance(move, MoveSpec) for move in answer):
            raise EngineProblem(f"legal_moves on {position.fen()}: expected moves, got {answer!r}")
        legal = {spec_of(move) for move in oracle}
        got = Counter(answer)
        missing, extra = legal - set(got), set(got) - legal
        twice = {move for move, times in got.items() if times > 1}
        if not (missing or extra or twice):
            return None
        return Difference(
            root, line, position, _sorted(missing), _sorted(extra), _sorted(twice), rules=self.rules
        )

    def _compare_counts(
        self, root: Position, line: tuple[Move, ...], position: Position, oracle: list[Move]
    ) -> Difference | None:
        fen = position.fen()
        try:
            if Capability.MOVE_COUNT in self.capabilities:
                how, count = (
                    "move_count",
                    self._call("move_count", position, self.engine.move_count),
                )
            else:
                how, count = "perft(1)", self._call("perft(1)", position, self.engine.perft, 1)
        except (EngineDeclined, EngineError) as declined:
            raise EngineProblem(
                f"counting the legal moves of {fen}: the engine did not answer ({declined})"
            ) from None
        if not isinstance(count, int) or isinstance(count, bool):
            raise EngineProblem(f"{how} on {fen}: expected an integer, got {count!r}")
        if count == len(oracle):
            return None
        return Difference(
            root,
            line,
            position,
            missing=self._refused(position, oracle),
            engine_count=count,
            oracle_count=len(oracle),
            compared=how,
            rules=self.rules,
        )

    def wrong_play(self, root: Position, line: tuple[Move, ...], position: Position) -> Difference | None:
        """The first legal move of ``position`` the engine's ``play`` gets wrong (refuses, or ends
        in another position than the rules'), or None (also without ``play``)."""
        if Capability.PLAY not in self.capabilities:
            return None
        for move, child in _children(position, self.rules):
            text = pdn_text(position, move, self.rules)
            try:
                answer = self._call("play", position, self.engine.play, [text])
            except MoveRefused:
                return Difference(root, line, position, compared="play", played=move, rules=self.rules)
            except (EngineDeclined, EngineError):
                return None
            try:
                same = Position.from_fen(str(answer), self.rules) == child
            except ValueError:
                same = False
            if not same:
                return Difference(
                    root,
                    line,
                    position,
                    compared="play",
                    played=move,
                    engine_after=str(answer),
                    rules=self.rules,
                )
        return None

    def _refused(self, position: Position, oracle: list[Move]) -> tuple[MoveSpec, ...]:
        """The legal moves the engine's ``play`` refuses (none known without ``play``)."""
        if Capability.PLAY not in self.capabilities:
            return ()
        refused = []
        for move in oracle:
            try:
                self._call("play", position, self.engine.play, [pdn_text(position, move, self.rules)])
            except MoveRefused:
                refused.append(spec_of(move))
            except (EngineDeclined, EngineError):
                return ()
        return _sorted(refused)


def _children(position: Position, rules: Rules = INTERNATIONAL) -> list[tuple[Move, Position]]:
    moves = sorted(legal_moves(position, rules), key=lambda m: move_order(spec_of(m)))
    return [(move, play(position, move, rules)) for move in moves]


def bisect(
    engine: Engine,
    fen: str | None = None,
    depth: int = DEFAULT_DEPTH,
    *,
    games: int = 0,
    plies: int = DEFAULT_PLIES,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
    rules: Rules = INTERNATIONAL,
) -> Bisection:
    """Find the shortest line from ``fen`` (the start position by default) after which the
    engine's legal moves differ from the oracle's, searching lines of up to ``depth - 1`` plies;
    when none differs, play up to ``games`` random games of up to ``plies`` plies (seed ``seed``)
    and report the shortest differing line met; every position and move is of the game ``rules``.

    Raises :class:`BisectError` for a question that cannot be asked and :class:`EngineProblem`
    when the engine breaks.
    """
    if depth < 1:
        raise BisectError(f"--depth must be at least 1, not {depth}")
    if games < 0 or plies < 1:
        raise BisectError(f"--playouts must be 0 or more and --plies at least 1, not {games} and {plies}")
    try:
        root = Position.initial(rules) if fen is None else Position.from_fen(fen, rules)
    except ValueError as error:
        raise BisectError(f"--fen {fen!r}: {error}") from None
    capabilities = engine.info.capabilities
    if not capabilities & {Capability.LEGAL_MOVES, Capability.MOVE_COUNT, Capability.PERFT}:
        declared = ", ".join(sorted(c.value for c in capabilities)) or "nothing"
        raise BisectError(
            f"bisect compares legal moves: the engine must answer legal_moves, move_count or perft "
            f"(it declares {declared})"
        )
    say = progress or (lambda text: None)
    started = time.perf_counter()
    asker = _Asker(engine, rules)
    counts: list[tuple[int, int, int]] = []
    difference: Difference | None = None
    method = "legal-move sets, breadth-first"
    searched = False
    if Capability.PERFT in capabilities:
        method = "perft divide"
        try:
            difference, searched = _by_perft(asker, root, depth, counts, say)
        except _Declined as declined:
            asker.notes.append(f"{declined}: legal-move sets compared breadth-first instead")
            method = f"perft divide to depth {len(counts) + 1}, then legal-move sets breadth-first"
        if difference is not None and difference.plies > 1:
            # Counts of different subtrees can cancel out: no shorter line may hide behind them.
            say(f"checking that no line shorter than {difference.plies} plies differs")
            shorter = _breadth_first(asker, root, difference.plies, say)
            if shorter is not None:
                asker.notes.append(
                    f"perft at depth {shorter.plies + 1} agreed, yet the legal moves differ after "
                    f"{shorter.plies} plies (the counts of different positions cancelled out); the "
                    f"perft divide led to a line of {difference.plies} plies"
                )
                difference = shorter
            method += ", shortest line checked breadth-first"
    if not searched:
        difference = _breadth_first(asker, root, depth, say)
    played = 0
    if difference is None and not any(e != o for _, e, o in counts) and games:
        say(f"no line of up to {depth - 1} plies differs: random games of up to {plies} plies")
        difference, played = playouts(asker, root, games, plies, seed, say, rules)
        method += f", then {played} random game(s) (seed {seed})"
        if difference is not None:
            asker.notes.append(
                f"no line of up to {depth - 1} plies differs; this line comes from random games: every "
                f"position before its last agrees, but a shorter line may exist"
            )
    return Bisection(
        root=root,
        depth=depth,
        difference=difference,
        perft=tuple(counts),
        method=method,
        positions=len(asker.compared),
        notes=tuple(asker.notes),
        seconds=time.perf_counter() - started,
        games=played,
    )


def _by_perft(
    asker: _Asker,
    root: Position,
    depth: int,
    counts: list[tuple[int, int, int]],
    say: Callable[[str], None],
) -> tuple[Difference | None, bool]:
    """Iterative deepening on the start position's perft, then down the differing subtree.

    Returns the difference and whether the search is complete (False: fall back to the sets).
    """
    found = asker.compare(root, (), root)
    if found is not None:
        return found, True
    for d in range(2, depth + 1):
        engine_count = asker.perft(root, d)
        oracle_count = perft(root, d, asker.rules)
        counts.append((d, engine_count, oracle_count))
        say(f"perft({d}): engine {engine_count}, oracle {oracle_count}")
        if engine_count != oracle_count:
            return _descend(asker, root, (), root, d, say), True
    return None, True


def _descend(
    asker: _Asker,
    root: Position,
    line: tuple[Move, ...],
    position: Position,
    depth: int,
    say: Callable[[str], None],
) -> Difference | None:
    """Down the divide of ``position``, whose perft at ``depth`` (2 or more) differs."""
    while True:
        found = asker.compare(root, line, position)
        if found is not None:
            return found
        for move, child in _children(position, asker.rules):
            engine_count = asker.perft(child, depth - 1)
            if engine_count != perft(child, depth - 1, asker.rules):
                line, position, depth = (*line, move), child, depth - 1
                say(
                    f"divide: {numbered(root, Difference(root, line, position, rules=asker.rules).pdn)} differs"
                )
                break
        else:
            # Same legal moves, same count below each: the engine's perft here is not the sum of
            # its own perft of the children, so it does not reach the same children: its play?
            wrong = asker.wrong_play(root, line, position)
            if wrong is not None:
                return wrong
            asker.notes.append(
                f"the engine's perft({depth}) of {position.fen()} is not the sum of its perft({depth - 1}) "
                "of the positions after each legal move: its perft does not count its own moves"
            )
            raise _Declined("the engine's perft contradicts itself")
        if depth == 1:
            found = asker.compare(root, line, position)
            if found is None:
                asker.notes.append(
                    f"the engine's perft(1) of {position.fen()} is not the number of legal moves it lists"
                )
                raise _Declined("the engine's perft contradicts its legal moves")
            return found


def _breadth_first(
    asker: _Asker, root: Position, depth: int, say: Callable[[str], None]
) -> Difference | None:
    """Every position 0, 1, ... depth - 1 plies from ``root``, each once, in move order."""
    frontier: list[tuple[tuple[Move, ...], Position]] = [((), root)]
    seen = {root}
    for ply in range(depth):
        say(f"{len(frontier)} position(s) {ply} plies from the start")
        for line, position in frontier:
            found = asker.compare(root, line, position)
            if found is not None:
                return found
        if ply == depth - 1:
            break
        following = []
        for line, position in frontier:
            for move, child in _children(position, asker.rules):
                if child not in seen:
                    seen.add(child)
                    following.append(((*line, move), child))
        frontier = following
    return None
