"""Games that tell two readings of Art. 6 apart, synthesised with z3 and the move generator.

For every other reading of Art. 6 (:data:`~conformance.verify.draw_readings.READINGS`),
:func:`synthesise`:

1. asks z3 (:func:`~conformance.verify.draw_search.abstract_differences`: two
   :class:`~conformance.verify.draw_smt.DrawMachine` over one trace) for the shortest event
   sequence, from a game start with default counters, on which the project's reading and the other
   one give different outcomes while both games go on before its last ply; among those, the
   easiest to play (few pieces, no blocked position, no capture, ...); only when no such game can be
   played within the depth, setups with counters;
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
import time
from collections.abc import Generator, Sequence

import z3

from conformance.core.draw_events import Event
from conformance.core.errors import IncompleteError
from conformance.verify.draw_readings import READINGS, Reading
from conformance.verify.draw_realise import ConcreteGame, realise
from conformance.verify.draw_search import abstract_differences
from oracle.game import Game
from oracle.moves import play
from oracle.notation import pdn_text
from oracle.outcome import Outcome
from oracle.rules import INTERNATIONAL

__all__ = [
    "DistinguishingGame",
    "SynthesisError",
    "confirm",
    "outcome_text",
    "own_z3_context",
    "synthesise",
    "synthesise_all",
]


class SynthesisError(IncompleteError):
    """No distinguishing game was found, or its replay contradicts the model."""


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
