"""Draw-rule campaigns of ``verify`` (``--kind draws``): games steered to each rule of Art. 6 and 7.2,
with every event that starts, resets, changes or ends a count placed at every phase of the count.

Random play almost never reaches a draw of Art. 6.1, 6.2 or 6.3 (a capture comes long before), so
each ``draws`` position of a run is the setup of a game *steered* by a template of
:mod:`conformance.verify.draw_templates` (its game: :mod:`conformance.verify.draw_plans`): resets of the 6.2 count, changes inside a group of 6.3/6.4, a
capture taking 6.3 into 6.4, a lone man crowned, a repetition or a win, each at a phase of its count
(:mod:`conformance.verify.draw_phases`: the first ply, early, middle, the last few plies, the
boundary), the phases taken in turn so that the first rounds of a run ask every (rule, event,
phase) cell; :func:`asked_cells` and :func:`~conformance.verify.draw_phases.phase_table` say which
a run asked.

A template writes the game as abstract events of the verifier's draw model
(:mod:`conformance.core.draw_events`) and :func:`~conformance.verify.draw_realise.realise` finds
a concrete game for them; the outcome is then asked after the prefixes around every boundary of the
game -- where each count expires or would expire under another reading, two plies short, one short,
at it, one after -- so that a count off by one or two, a count that does not reset, a repetition
counted wrongly, each disagrees on some asked prefix. Before the game, its *controls* are asked:
games from the same setup that pin the counts a reading read the other way could be confused with
(:mod:`conformance.core.filing.outcomes` files a disagreement under a reading only when the reading
also gives every answer the engine got right before it in the row).

Half of the games (all but those needing a long king move, and the three whose short-move games the
budget almost never finds: :attr:`~conformance.verify.draw_templates.Template.short_moves`) are
played with one-square king steps and man moves only (``steps_only``): legal, and blocked or not,
alike with and without flying kings, so that an engine with short kings is judged on its draw
rules too. Every game starts from
its setup with default counters; the engine is given the moves.

The game of position ``index`` of seed ``S`` depends on ``S``, ``index`` and its round (which
draws position of the run it is) only: the same whatever ``--workers`` or ``--shard``.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Iterable, Sequence
from typing import Final

from conformance.core.draw_events import Side
from conformance.core.errors import IncompleteError
from conformance.verify.draw_phases import Cell
from conformance.verify.draw_plans import Plan, plan
from conformance.verify.draw_realise import realise, realise_from
from conformance.verify.draw_setups import back_chain, blocked_position, placement
from conformance.verify.draw_templates import TEMPLATES, Template
from oracle.errors import GameOverError
from oracle.game import Game
from oracle.moves import Move
from oracle.position import Color, Position


@dataclasses.dataclass(frozen=True)
class AskedGame:
    """Moves from the setup and the prefixes whose outcome is asked."""

    moves: tuple[str, ...]
    asked: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class DrawGame:
    """A steered game: its setup, its moves (PDN), the prefixes asked, its controls and cells."""

    scenario: str
    """The template it was steered by."""
    article: str
    """The rule the game is steered to (an article, or the reading its expectation rests on)."""
    position: Position
    moves: tuple[str, ...]
    asked: tuple[int, ...]
    steps_only: bool
    controls: tuple[AskedGame, ...] = ()
    cells: tuple[Cell, ...] = ()
    """The timings of :data:`~conformance.verify.draw_phases.GRID` the game asks."""

    def questions(self) -> list[tuple[str, ...]]:
        """The move sequences asked, in order: the controls' prefixes, then the game's."""
        asked = [control.moves[:n] for control in self.controls for n in control.asked]
        return asked + [self.moves[:n] for n in self.asked]


ATTEMPTS: Final = 12
"""Plans tried (each with its own random start positions) before a template gives up."""

STARTS: Final = 40
"""Random start positions tried per plan (:func:`~conformance.verify.draw_realise.realise`)."""

STEPS_STARTS: Final = 12
"""The same for a game of one-square king moves: where one is rare, a failed plan costs less and
the search turns to long moves sooner (half of the games are still of short moves)."""

TOTAL_NODES: Final = {False: 20_000, True: 8_000}
"""Moves tried in all per plan, with long moves and with one-square king moves: a plan that
found a game within the starts' budgets had tried at most 20,608 and 16,604 (95% of them: 5,389
and 7,953; 4 games of each template), one that found none 54,711 and 2,447 (medians): past this,
another plan is likelier to give a game."""

FIRST_NODES: Final = 1_000
"""Moves tried in all by a template's first plan; each next plan may try twice as many, up to
:data:`TOTAL_NODES`. Most games are found within a few thousand moves while a plan that finds none
spends its whole budget, so cheap plans first find the easy games sooner, and the later plans
still have the full budget. Measured on the first 270 games (:func:`draw_game`) of seeds 7 and
11: 22-31% less CPU than every plan at :data:`TOTAL_NODES`, every game of its own template."""


def _plan_budget(steps: bool, attempt: int) -> int:
    """Moves the plan number ``attempt`` may try (see :data:`FIRST_NODES`)."""
    return min(TOTAL_NODES[steps], FIRST_NODES << attempt)


class CampaignError(IncompleteError, RuntimeError):
    """No game was found for any template within its attempts (a bug of the templates)."""


def asked_plies(boundaries: Sequence[int], length: int) -> tuple[int, ...]:
    """The prefixes asked: around each boundary ``b``, ``b - 2`` to ``b + 1``, within the game."""
    return tuple(sorted({b + d for b in boundaries for d in (-2, -1, 0, 1) if 1 <= b + d <= length}))


def _texts(position: Position, moves: Sequence[Move]) -> tuple[str, ...] | None:
    """The moves as PDN text, or None if the game ends before its last move (then it is no use)."""
    game = Game(position)
    try:
        for move in moves:
            game.play(move)
    except GameOverError:
        return None
    return tuple(game.move_texts())


def _taken_back(
    plan: Plan, rng: random.Random, steps: bool, tries: int = 300
) -> tuple[Position, tuple[Move, ...]] | None:
    """A game for a plan of king and man moves ending in a blocked position, found by taking the
    moves back from a blocked position (the forward search rarely walks into one)."""
    start, events = plan.start, plan.events
    final_turn = start.turn if len(events) % 2 == 0 else start.turn.opponent
    m = start.material
    for _ in range(tries):
        position = blocked_position(
            Color.WHITE if final_turn is Side.WHITE else Color.BLACK,
            (m.white_kings, m.white_men, m.black_kings, m.black_men),
            rng,
        )
        if position is None:
            continue
        chain = back_chain(position, [e.kind for e in events], rng, steps, {placement(position)}, [400])
        if chain is None:
            continue
        setup, hint = chain
        moves = realise_from(
            setup, events, steps_only=steps, seed=rng.randrange(1 << 32), nodes=400, hint=hint
        )
        if moves is not None:
            return setup, moves
    return None


@functools.lru_cache(maxsize=4096)
def draw_game(seed: int, index: int, round_: int) -> DrawGame:
    """The steered game of ``draws`` position ``index`` of seed ``seed`` (its ``round_``-th such):
    template ``round_`` (cyclically), else, if none of its plans can be played, the next one.

    Remembered (the search costs tens of milliseconds; a game is immutable): runs of several
    engines over one seed in a process search each game once."""
    rng = random.Random(f"draughts-conformance verify draws {seed} {index}")
    for turn in range(len(TEMPLATES)):
        template = TEMPLATES[(round_ + turn) % len(TEMPLATES)]
        game = _steered(template, rng)
        if game is not None:
            return game
    raise CampaignError(f"no game found for any draw template (seed {seed}, index {index})")


def _steered(template: Template, rng: random.Random) -> DrawGame | None:
    """A game for ``template`` within :data:`ATTEMPTS` plans, or None."""
    chose_steps = not template.flying and template.short_moves and rng.random() < 0.5
    for attempt in range(ATTEMPTS):
        steps = chose_steps and attempt < ATTEMPTS // 2  # then with long moves, rather than none
        planned = plan(template, rng)
        if planned.events[-1].blocked:
            found = _taken_back(planned, rng, steps)
        else:
            realised = realise(
                planned.start,
                planned.events,
                check_diagonal=planned.diagonal,
                steps_only=steps,
                seed=rng.randrange(1 << 32),
                starts=STEPS_STARTS if steps else STARTS,
                pivots=True,
                total=_plan_budget(steps, attempt),
                nodes=3000,
            )
            found = None if realised is None else (realised.position, realised.moves)
        if found is None:
            continue
        position = found[0]
        moves = _texts(position, found[1])
        controls: list[AskedGame] = []
        for events, boundaries in planned.controls:
            played = realise_from(position, events, steps_only=steps, seed=rng.randrange(1 << 32))
            texts = None if played is None else _texts(position, played)
            if texts is None:
                break
            controls.append(AskedGame(texts, asked_plies(boundaries, len(texts))))
        if moves is None or len(controls) < len(planned.controls):
            continue
        return DrawGame(
            template.name,
            template.article,
            position,
            moves,
            asked_plies(planned.boundaries, len(moves)),
            steps,
            tuple(controls),
            planned.cells,
        )
    return None


def asked_cells(games: Iterable[DrawGame]) -> list[Cell]:
    """The timings the games ask, each game's cells once (for
    :func:`~conformance.verify.draw_phases.phase_table`)."""
    return [cell for game in games for cell in game.cells]
