"""Games that tell two readings of Art. 6 apart, synthesised with z3 and the move generator.

For every switch of the rule configuration that concerns Art. 6 (:mod:`oracle.rules`, the mutants
of :mod:`conformance.engines.mutants`) and every reading of ``cases/articles.yaml`` about Art. 6, a
:class:`Reading` names the other way of reading the rules -- as the model's
:class:`~conformance.core.draw_events.DrawRules` and as the oracle's rules and
:class:`~oracle.game.Game` (a subclass for readings that are no switch). :func:`synthesise`:

1. asks z3 (two :class:`~conformance.verify.draw_smt.DrawMachine` over one trace) for the
   shortest event sequence, from a game start with default counters, on which the project's
   reading and the other one give different outcomes while both games go on before its last
   ply; among those, the easiest to play (few pieces, no blocked position, no capture, ...);
   only when no such game can be played within the depth, setups with counters;
2. realises it as a concrete game (:func:`~conformance.verify.draw_realise.realise`), with flying
   kings or, if asked, with one-square king steps and man moves only;
3. replays the game under both readings with the oracle and checks that the outcomes differ
   exactly as the model said (:class:`SynthesisError` otherwise: the model and the oracle disagree).

:func:`conformance.verify.readings.case_yaml` writes a proposed corpus case for the game, with the
outcome left to be worked out by hand (the oracle's answer is never an expectation).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import random
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Final

import z3

from conformance.core.draw_events import (
    DRAW_ARTICLES,
    GROUP_6_3,
    GROUP_6_4,
    PROJECT,
    DrawRules,
    Event,
    Material,
    Side,
    Start,
)
from conformance.core.draw_games import HighestArticleFirst, LonePieceEnding, draw_rules_of
from conformance.core.errors import IncompleteError
from conformance.engines.draw_mutants import (
    DRAW_READING_MUTANTS,
    CountCarriedIntoNewGroup,
    LongDiagonalApplied,
)
from conformance.engines.mutants import mutant
from conformance.verify.draw_bmc import ModelUnknownError
from conformance.verify.draw_machine import DrawMachine
from conformance.verify.draw_realise import ConcreteGame, blocked_position, realise
from conformance.verify.draw_smt import (
    CAPTURE,
    KINDS,
    LOGIC,
    MAN_MOVE,
    PROMOTION,
    EventTrace,
    ite,
)
from oracle.game import Counters, Game, Outcome
from oracle.moves import play
from oracle.notation import pdn_text
from oracle.position import Color, Position
from oracle.rules import ARTICLE_6_3, ARTICLE_6_4, INTERNATIONAL, Rules

GameFactory = Callable[[Position, Counters, Rules], Game]


class SynthesisError(IncompleteError):
    """No distinguishing game was found, or its replay contradicts the model."""


def _plain_game(position: Position, counters: Counters, rules: Rules) -> Game:
    return Game(position, counters, rules)


@dataclasses.dataclass(frozen=True)
class Reading:
    """Another reading of Art. 6: ``model`` for z3, ``rules`` and ``game`` for the oracle."""

    name: str
    concerns: str
    articles: tuple[str, ...]
    model: DrawRules
    rules: Rules = INTERNATIONAL
    game: GameFactory = _plain_game
    reading: str | None = None
    """The reading of ``cases/articles.yaml`` this one flips, if any."""

    def new_game(self, position: Position, counters: Counters) -> Game:
        return self.game(position, counters, self.rules)


def _switch(
    name: str, concerns: str, articles: tuple[str, ...], reading: str | None = None, **changes: object
) -> Reading:
    rules = dataclasses.replace(INTERNATIONAL, **changes)  # type: ignore[arg-type]
    return Reading(name, concerns, articles, draw_rules_of(rules), rules, reading=reading)


def _gallery(
    name: str, concerns: str, articles: tuple[str, ...], reading: str | None = None, **model: object
) -> Reading:
    """A draw-rule mutant of :mod:`conformance.engines.mutants`, with the model's reading of it."""
    engine = mutant(name)
    drawn = dataclasses.replace(draw_rules_of(engine.rules), **model)  # type: ignore[arg-type]
    return Reading(name, concerns, articles, drawn, engine.rules, engine.game_factory, reading)


def _read_otherwise(reading: str, article: str) -> dict[str, object]:
    """The fields of the model's rules that ``reading`` read the other way on ``article`` changes."""
    flipped = PROJECT.read_otherwise(reading, article)
    return {
        f.name: getattr(flipped, f.name)
        for f in dataclasses.fields(flipped)
        if getattr(flipped, f.name) != getattr(PROJECT, f.name)
    }


def _reading(name: str) -> Reading:
    """The gallery's mutant ``READING@ARTICLE``, with the model's reading of it."""
    reading, article = name.split("@")
    return _gallery(
        name,
        f"reading {reading} read otherwise on {article}",
        (article,),
        reading,
        **_read_otherwise(reading, article),
    )


def _subclass(
    name: str,
    concerns: str,
    articles: tuple[str, ...],
    reading: str | None,
    game: type[Game],
    **model: object,
) -> Reading:
    drawn = dataclasses.replace(PROJECT, **model)  # type: ignore[arg-type]
    return Reading(name, concerns, articles, drawn, INTERNATIONAL, game, reading)


NEVER: Final = 500
"""Moves each of a count that no game of the model reaches (1,000 plies: its numbers have
:data:`~conformance.verify.draw_smt.WIDTH` bits)."""

_RESTARTS_6_3 = dataclasses.replace(ARTICLE_6_3, restarts_on_change=True)
_RESTARTS_6_4 = dataclasses.replace(ARTICLE_6_4, restarts_on_change=True)

READINGS: Final[dict[str, Reading]] = {
    r.name: r
    for r in (
        # switches of the rule configuration (and the gallery's mutants of them)
        _gallery("repetition-on-second", "switch repetition_draw = 2", ("6.1",)),
        _gallery("repetition-on-fourth", "switch repetition_draw = 4", ("6.1",)),
        _switch("repetition-off", "switch repetition_draw = None", ("6.1",), repetition_draw=None),
        _gallery("no-progress-24-moves", "switch no_progress_moves = 24", ("6.2",)),
        _gallery("no-progress-26-moves", "switch no_progress_moves = 26", ("6.2",)),
        _switch("no-progress-off", "switch no_progress_moves = None", ("6.2",), no_progress_moves=None),
        _gallery("6.3-fifteen-moves", "switch 6.3 moves_each = 15", ("6.3",)),
        _gallery("6.3-seventeen-moves", "switch 6.3 moves_each = 17", ("6.3",)),
        _gallery("6.4-four-moves", "switch 6.4 moves_each = 4", ("6.4",)),
        _gallery("6.4-six-moves", "switch 6.4 moves_each = 6", ("6.4",)),
        _switch(
            "6.4-restarts-on-change",
            "switch 6.4 restarts_on_change",
            ("6.4",),
            "endgame-no-restart",
            endgame_counts=(ARTICLE_6_3, _RESTARTS_6_4),
        ),
        _switch(
            "endgame-restarts-on-change",
            "switch restarts_on_change of both groups",
            ("6.3", "6.4"),
            "endgame-no-restart",
            endgame_counts=(_RESTARTS_6_3, _RESTARTS_6_4),
        ),
        _gallery("6.4-missing-king-v-king", "switch 6.4 endings without K v K", ("6.4",)),
        _gallery("no-endgame-counts", "switch endgame_counts = ()", ("6.3", "6.4")),
        # the gallery's draw-rule bugs
        _gallery(
            "no-draw-rules",
            "mutant: Art. 6 left out",
            ("6.1", "6.2", "6.3", "6.4"),
            repetition_draw=None,
            no_progress_moves=None,
            # The engine keeps the counts of 6.3/6.4 (as the oracle's game does) but never draws.
            groups=tuple(dataclasses.replace(group, moves_each=NEVER) for group in (GROUP_6_3, GROUP_6_4)),
        ),
        _gallery(
            "repetition-ignores-side",
            "6.1: the side to move is part of the position",
            ("6.1",),
            repetition_has_turn=False,
        ),
        _gallery(
            "man-move-keeps-25-move-count",
            "6.2: a man move resets the count",
            ("6.2",),
            man_move_resets=False,
        ),
        *(
            _gallery(
                f"{article}-off-by{plies:+d}-ply",
                f"mutant: {article} {plies:+d} ply",
                (article,),
                limit_offsets=((article, plies),),
            )
            for article in ("6.2", "6.3", "6.4")
            for plies in (-1, 1)
        ),
        _gallery(
            "capture-keeps-25-move-count", "6.2: a capture resets the count", ("6.2",), capture_resets=False
        ),
        # readings of cases/articles.yaml, each read the other way on one article (the gallery's)
        *(_reading(name) for name in DRAW_READING_MUTANTS),
        # and on both groups at once, or under the names the synthesised cases cite
        _subclass(
            "endgame-count-carried",
            "reading endgame-group-change",
            ("6.4",),
            "endgame-group-change",
            CountCarriedIntoNewGroup,
            # a count carried into any group entered from another (only 6.3 -> 6.4 can happen)
            groups=tuple(dataclasses.replace(g, fresh_count_on_entry=False) for g in PROJECT.groups),
        ),
        _subclass(
            "endgame-lone-piece",
            "reading endgame-lone-king-only",
            ("6.4",),
            "endgame-lone-king-only",
            LonePieceEnding,
            groups=tuple(dataclasses.replace(g, lone_king_only=False) for g in PROJECT.groups),
        ),
        _subclass(
            "long-diagonal-applied",
            "reading long-diagonal-not-applied",
            ("6.3",),
            "long-diagonal-not-applied",
            LongDiagonalApplied,
            long_diagonal_moves=LongDiagonalApplied.SHORT_MOVES,
        ),
        _subclass(
            "highest-article-first",
            "reading draw-precedence",
            ("6.1", "6.2", "6.3", "6.4"),
            "draw-precedence",
            HighestArticleFirst,
            precedence=tuple(reversed(DRAW_ARTICLES)),
        ),
    )
}
"""Every other reading of Art. 6 (and of its meeting with 7.2) that a game can tell apart."""


# -- z3: the shortest event sequence that tells the readings apart --------------------------


class _Pair:
    """The project's machine and the other reading's over one trace, deepened ply by ply.

    Everything is added to the solver for good; what holds for one length only hangs on a
    literal (``differ{n}``, ``prefer{n}_{i}``) passed as an assumption."""

    def __init__(self, reading: Reading, default_counters: bool, timeout_ms: int, played: bool) -> None:
        self.solver = z3.SolverFor(LOGIC)
        self.solver.set("timeout", timeout_ms)
        self.trace = EventTrace(self.solver, default_counters=default_counters, played=played)
        self.ours = DrawMachine(self.trace, PROJECT, "a")
        self.theirs = DrawMachine(self.trace, reading.model, "b")
        self.reading = reading
        self.default_counters = default_counters
        self.diagonal = reading.model.long_diagonal_moves is not None
        self.nogoods: list[Callable[[int], z3.BoolRef]] = []
        if not default_counters:
            self.solver.add(self.ours.setup_valid(), self.theirs.setup_valid())
        self._ply_facts(0)

    def _ply_facts(self, t: int) -> None:
        if not self.diagonal:  # the attribute matters to neither reading: one value, no alternatives
            self.solver.add(z3.Not(self.trace.plies[t].diag))
        for nogood in self.nogoods:
            self.solver.add(nogood(t))

    def forbid(self, nogood: Callable[[int], z3.BoolRef]) -> None:
        """Rule something out at every ply, now and deeper."""
        self.nogoods.append(nogood)
        for t in range(self.trace.depth + 1):
            self.solver.add(nogood(t))

    def deepen(self) -> int:
        t = self.trace.depth
        self.solver.add(self.ours.ongoing(t), self.theirs.ongoing(t))
        self.trace.grow()
        self.ours.grow()
        self.theirs.grow()
        self._ply_facts(t + 1)
        return t + 1

    def check(self, *assumptions: z3.BoolRef) -> bool:
        answer = self.solver.check(*assumptions)
        if answer == z3.unknown:
            raise ModelUnknownError(f"z3 answered unknown ({self.solver.reason_unknown()})")
        return bool(answer == z3.sat)

    def preferences(self, n: int) -> list[list[z3.BoolRef]]:
        """What makes a game easy to play and to read, most important first; each entry lists
        ways to have it, best first (the first one that can be had is taken)."""
        trace = self.trace
        plies = range(1, n + 1)
        pieces = [trace.to_move(0, "pieces"), trace.just_moved(0, "pieces")]

        def at_most(kind: int, count: int) -> z3.BoolRef:
            return z3.Sum([ite(trace.kind_is(t, kind), 1, 0) for t in plies]) <= count

        wanted = [[z3.And([p <= 3 for p in pieces])]]
        if not self.default_counters:
            wanted += [[trace.occurrences0 == 1], [trace.endgame0 == 0], [trace.no_progress0 == 0]]
        wanted.append([z3.And([z3.Not(trace.plies[t].blocked) for t in range(n)])])
        if self.diagonal:
            wanted.append([z3.And([z3.Not(trace.plies[t].diag) for t in range(n)])])
        for kind in (CAPTURE, PROMOTION, MAN_MOVE):
            wanted.append([at_most(kind, count) for count in (0, 1, 2, 4)])
        wanted.append([z3.And([trace.plies[t].placement == t for t in plies])])
        wanted.append([z3.Not(trace.plies[n].blocked)])
        wanted.append([z3.And([p <= 2 for p in pieces])])
        return wanted

    def same_shape(self, start: Start, events: Sequence[Event]) -> z3.BoolRef:
        """The trace has the side to move, kinds, material and blocked plies of ``start``/``events``."""
        trace = self.trace
        facts = [trace.white_first == (start.turn is Side.WHITE)]
        for t, material in enumerate([start.material, *(e.material for e in events)]):
            facts += [
                trace.white(t, "kings") == material.white_kings,
                trace.white(t, "men") == material.white_men,
                trace.black(t, "kings") == material.black_kings,
                trace.black(t, "men") == material.black_men,
                trace.plies[t].blocked == (start.blocked if t == 0 else events[t - 1].blocked),
            ]
        for t, event in enumerate(events, start=1):
            facts += [trace.kind_is(t, KINDS.index(event.kind)), trace.plies[t].by_man == event.by_man]
        return z3.And(facts)

    def screen_blocked(self, start: Start, events: Sequence[Event]) -> bool:
        """Whether every blocked position the sequence asks for can exist at all; rules out, at
        every ply and depth, the materials for which none was found."""
        fine = True
        turn = start.turn
        for t, (material, blocked) in enumerate(
            [(start.material, start.blocked), *((e.material, e.blocked) for e in events)]
        ):
            side = turn if t % 2 == 0 else turn.opponent
            if blocked and not blocked_possible(material, side):
                fine = False
                self.forbid(functools.partial(self._blocked_with, material, side))
        return fine

    def _blocked_with(self, material: Material, side: Side, t: int) -> z3.BoolRef:
        trace = self.trace
        white = trace.white_to_move(t) if side is Side.WHITE else z3.Not(trace.white_to_move(t))
        return z3.Not(
            z3.And(
                trace.plies[t].blocked,
                white,
                trace.white(t, "kings") == material.white_kings,
                trace.white(t, "men") == material.white_men,
                trace.black(t, "kings") == material.black_kings,
                trace.black(t, "men") == material.black_men,
            )
        )


@functools.cache
def blocked_possible(material: Material, side: Side, tries: int = 400) -> bool:
    """Whether a position with ``material`` in which ``side`` (to move) is blocked was found."""
    rng = random.Random(0)
    color = Color.WHITE if side is Side.WHITE else Color.BLACK
    counts = (material.white_kings, material.white_men, material.black_kings, material.black_men)
    return any(blocked_position(color, counts, rng) is not None for _ in range(tries))


def abstract_differences(
    reading: Reading,
    *,
    default_counters: bool = True,
    max_depth: int = 64,
    alternatives: int = 4,
    extra_depth: int = 2,
    timeout_ms: int = 120_000,
) -> Iterator[tuple[Start, list[Event]]]:
    """Event sequences on which the project's reading and ``reading`` end differently, shortest
    first: up to ``alternatives`` at the shortest length and at each of ``extra_depth`` more. The
    shortest length is found on the plain abstraction, the sequences on the finer one of games
    played on the board (``EventTrace(played=True)``).
    Each later one differs from the earlier in side to move, kinds, material or blocked plies;
    a blocked position no search could build is not offered."""
    coarse = _Pair(reading, default_counters, timeout_ms, played=False)
    while coarse.trace.depth < max_depth:  # the shortest length, on the cheaper abstraction
        n = coarse.deepen()
        if coarse.check(z3.Not(coarse.ours.same_outcome(coarse.theirs, n))):
            break
    else:
        return
    pair = _Pair(reading, default_counters, timeout_ms, played=True)
    while pair.trace.depth < n - 1:
        pair.deepen()
    shortest = None
    while pair.trace.depth < max_depth:
        n = pair.deepen()
        if shortest is not None and n > shortest + extra_depth:
            return
        differ = z3.Bool(f"differ{n}")
        pair.solver.add(z3.Implies(differ, z3.Not(pair.ours.same_outcome(pair.theirs, n))))
        offered = 0
        while offered < alternatives and pair.check(differ):
            shortest = n if shortest is None else shortest
            accepted = [differ]
            for index, ways in enumerate(pair.preferences(n)):
                for way, preference in enumerate(ways):
                    literal = z3.Bool(f"prefer{n}_{offered}_{index}_{way}")
                    pair.solver.add(z3.Implies(literal, preference))
                    if pair.check(*accepted, literal):
                        accepted.append(literal)
                        break
            pair.check(*accepted)
            start, events = pair.trace.decode(pair.solver.model())
            pair.solver.add(z3.Implies(differ, z3.Not(pair.same_shape(start, events))))
            if pair.screen_blocked(start, events):
                offered += 1
                yield start, events


# -- the synthesis ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class DistinguishingGame:
    """A game on which the project's reading and another one give different outcomes."""

    reading: str
    fen: str
    counters: dict[str, int]
    moves: tuple[str, ...]
    ours: dict[str, str | int | None]
    theirs: dict[str, str | int | None]
    steps_only: bool
    seconds: float
    events: tuple[Event, ...]
    seed: int = 0

    @property
    def plies(self) -> int:
        return len(self.moves)

    def __str__(self) -> str:
        counters = f" counters {self.counters}" if self.counters else ""
        return (
            f"{self.reading}: {self.fen}{counters}, {self.plies} plies: {' '.join(self.moves)}\n"
            f"  project: {outcome_text(self.ours)}; {self.reading}: {outcome_text(self.theirs)}"
        )


def outcome_text(outcome: dict[str, str | int | None]) -> str:
    if outcome["result"] == "ongoing":
        return "ongoing"
    return f"{outcome['result']} ({outcome['rule']}) at ply {outcome['ply']}"


def _outcomes(game: Game, moves: Sequence[str]) -> list[Outcome]:
    found = [game.outcome()]
    for text in moves:
        game.play(text)
        found.append(game.outcome())
    return found


def confirm(reading: Reading, concrete: ConcreteGame) -> tuple[list[str], Outcome, Outcome]:
    """Replay a game under both readings with the oracle: PDN moves and the two final outcomes.

    Raises :class:`SynthesisError` unless both games go on until the last ply and end differently."""
    position, texts = concrete.position, []
    for move in concrete.moves:
        texts.append(pdn_text(position, move))
        position = play(position, move)
    ours = _outcomes(Game(concrete.position, concrete.counters, INTERNATIONAL), texts)
    theirs = _outcomes(reading.new_game(concrete.position, concrete.counters), texts)
    fen = concrete.position.fen()
    if any(o.is_over for o in ours[:-1] + theirs[:-1]):
        raise SynthesisError(f"{reading.name}: a game from {fen} ends before its last ply ({texts})")
    if ours[-1] == theirs[-1]:
        raise SynthesisError(f"{reading.name}: the oracle ends {fen} {texts} alike under both readings")
    return texts, ours[-1], theirs[-1]


@contextlib.contextmanager
def own_z3_context() -> Generator[None, None, None]:
    """Run the block on a fresh z3 main context, then put the previous one back.

    z3's search depends on the terms its context already holds, so the same query after other
    work can return another model; on a context of its own a synthesis gives the same game for
    the same reading, ``steps_only`` and seed whatever ran before it in the process -- what a
    case citing ``verify --kind readings NAME, seed S`` needs. (z3's Python API keeps the main
    context in ``z3.z3._main_ctx``; the model's modules create their terms on it.)"""
    module = z3.z3
    previous = module._main_ctx
    module._main_ctx = z3.Context()
    try:
        yield
    finally:
        module._main_ctx = previous


def synthesise(
    name: str,
    *,
    steps_only: bool = False,
    seed: int = 0,
    max_depth: int = 64,
    starts: int = 200,
    nodes: int = 2000,
) -> DistinguishingGame:
    """The shortest game found that tells the project's reading and reading ``name`` apart."""
    try:
        reading = READINGS[name]
    except KeyError:
        raise KeyError(f"no reading {name!r}; known: {', '.join(READINGS)}") from None
    with own_z3_context():
        return _synthesise(reading, steps_only, seed, max_depth, starts, nodes)


def _synthesise(
    reading: Reading, steps_only: bool, seed: int, max_depth: int, starts: int, nodes: int
) -> DistinguishingGame:
    name = reading.name
    began = time.perf_counter()
    for default_counters in (True, False):
        for start, events in abstract_differences(
            reading, default_counters=default_counters, max_depth=max_depth
        ):
            concrete = realise(
                start,
                events,
                check_diagonal=reading.model.long_diagonal_moves is not None,
                steps_only=steps_only,
                seed=seed,
                starts=starts,
                nodes=nodes,
            )
            if concrete is None:
                continue
            texts, ours, theirs = confirm(reading, concrete)
            return DistinguishingGame(
                name,
                concrete.position.fen(),
                {} if concrete.counters.is_default else concrete.counters.to_dict(),
                tuple(texts),
                ours.to_json(),
                theirs.to_json(),
                steps_only,
                time.perf_counter() - began,
                tuple(events),
                seed,
            )
    kind = "with one-square king steps" if steps_only else ""
    raise SynthesisError(
        f"{name}: no distinguishing game found {kind} within {max_depth} plies".replace("  ", " ")
    )


def synthesise_all(*, steps_only: bool = False, seed: int = 0) -> list[DistinguishingGame]:
    """A distinguishing game for every reading of :data:`READINGS`."""
    return [synthesise(name, steps_only=steps_only, seed=seed) for name in READINGS]
