"""What a ``verify`` run does (:class:`VerifyOptions`) and the positions it draws: position ``i``
of seed ``S`` is the same on every machine (:func:`generate`); with ``pieces``, position ``i`` of
the exhaustive campaign (:mod:`conformance.verify.exhaustive`). :func:`positions` walks any range
of indices, which is how shards and workers split a run."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet
from conformance.core.shards import WHOLE, Shard
from conformance.verify import KINDS, exhaustive
from conformance.verify import strategies as gen
from conformance.verify.capture_formula import DEFAULT_TIMEOUT_MS
from conformance.verify.choices import Chooser, RandomChooser
from conformance.verify.draw_campaigns import DrawGame, asked_cells, draw_game
from conformance.verify.draw_phases import Cell, phase_table
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules

OUTCOME_KINDS: Final = frozenset({"endgames"})
"""The kinds whose positions also get a random game and the outcome question."""

DRAWS: Final = "draws"
"""The kind of the setups of steered draw-rule games (:mod:`conformance.verify.draw_campaigns`)."""

PLAYOUTS: Final = "playouts"
"""The kind of the positions reached by random play from the start position; a run with it also
checks, once, the engine's own start position (Art. 2.8)."""

EXHAUSTIVE: Final = "exhaustive"
"""The kind of the positions of an exhaustive campaign (``pieces``)."""

TALLY_EVERY: Final = {EXHAUSTIVE: 100_000, "generated": 1_000}
"""Positions of a run (of its shard) per ``tally`` line by default (:mod:`conformance.core.tallies`): a
few seconds of a run on two cores each, which is also how much an interrupted campaign checks again
when resumed. A span is a stretch of indices of the whole run, so by default a shard ``K/N`` has
spans ``N`` times as long (each holding this many of its positions): the shards of one run share
their spans, and a shard never cuts its work into chunks of a few positions. The unsharded run
then has shorter spans than the merged shards: give both the same ``--tally-every`` to compare
them line for line (their certificates are the same either way)."""


_GENERATORS: Final[Mapping[str, Callable[[Chooser, Rules], Position]]] = {
    "random": lambda chooser, rules: gen.random_position(chooser, rules=rules),
    # One in four is a man capturing onto its far row (4.15), which the others rarely give.
    "captures": lambda chooser, rules: (
        gen.far_row_capture_position(chooser, rules)
        if chooser.integer(0, 3) == 0
        else gen.capture_rich_position(chooser, rules)
    ),
    "chains": lambda chooser, rules: gen.long_chain_position(chooser, 3, 12, rules),
    "endgames": gen.endgame_position,
    PLAYOUTS: lambda chooser, rules: gen.playout(chooser, 80, rules),
}
"""The generators of the kinds but ``draws`` (whose positions come with a game: :func:`generate`),
each placing its pieces on the rule set's board."""


def unasked_checks(rule_set: RuleSet) -> dict[str, str]:
    """The checks a run of ``rule_set`` does not ask, each with why: ``outcome[oracle]`` where a
    draw switch is unsettled (null: the oracle refuses to judge where it could decide)."""
    unsettled = sorted(rule_set.rules.unsettled)
    if not unsettled:
        return {}
    return {
        "outcome[oracle]": f"{rule_set.name}'s draw switches {', '.join(unsettled)} are unsettled (null in its "
        "rules file): the oracle judges no game that could reach them"
    }


def unplayed_kinds(rule_set: RuleSet) -> dict[str, str]:
    """The kinds of position a run of ``rule_set`` cannot draw, each with why (none for international).

    ``draws``: the steered games of the draw model (:mod:`conformance.verify.draw_campaigns`) are
    games of FMJD 6.1-6.4 on the 10x10 board, played by the international oracle; a game whose
    switches differ is not modelled (its draw settings, or its captures, would be judged by the
    wrong rules).
    """
    if rule_set.rules == INTERNATIONAL:
        return {}
    rules = rule_set.rules
    settings = ", ".join(
        f"{name} {'unsettled' if name in rules.unsettled else value}"
        for name, value in (
            ("repetitionDraw", rules.repetition_draw),
            ("kingsOnlyDraw", rules.no_progress_moves),
            (
                "endgameCounts",
                "[" + ", ".join(f"{c.article}: {c.moves_each}" for c in rules.endgame_counts) + "]",
            ),
        )
    )
    return {
        DRAWS: f"the draw model plays FMJD 6.1-6.4 on 10x10 under the international rules only; "
        f"{rule_set.name} ({rules.board_size}x{rules.board_size}; {settings}) is not modelled"
    }


@dataclasses.dataclass(frozen=True)
class VerifyOptions:
    """What a ``verify`` run does. The defaults are the command line's."""

    examples: int = 100
    """How many positions to generate."""
    seed: int = 0
    kinds: tuple[str, ...] = KINDS
    z3: bool = True
    """Check the legal moves with z3 (``legal_moves[z3]``)."""
    z3_examples: int | None = None
    """With z3: only the first this many positions (None: all of them)."""
    differential: bool = True
    """Compare with the oracle (``legal_moves[oracle]``, ``after[oracle]``, ``outcome[oracle]``)."""
    z3_timeout_ms: int = DEFAULT_TIMEOUT_MS
    engine_timeout: float | None = 10.0
    """Seconds per request of an in-process engine (an alarm); None: no limit."""
    plays: int = 2
    """How many of a position's moves are played to check the position after them."""
    outcome_plies: int = 40
    """The longest random game whose outcome is asked (from the endgame positions)."""
    shrink: int = 5
    """How many disagreements are shrunk and described (one per check and finding kind)."""
    max_fail: int | None = None
    """Stop once this many positions failed or errored."""
    pieces: int | None = None
    """Exhaustive: every position with at most this many pieces instead of ``examples`` drawn ones."""
    shard: Shard = WHOLE
    """The share of the positions this run checks (every ``N``-th from ``K - 1``)."""
    prove: bool = False
    """Exhaustive: z3 on every position with a capture (``--prove``), not only where the engine and
    the oracle disagree."""
    all_results: bool = False
    """Every result in the report; by default the passes are counted per span (``tally`` lines)."""
    tally_every: int | None = None
    """Positions per span of ``tally`` lines (None: :data:`TALLY_EVERY` of the run's mode)."""
    keep: frozenset[int] = frozenset()
    """Positions whose every result is listed even when passes are counted (those a baseline
    names, so that a pass of a known failure is seen); not part of the report's header."""
    rule_set: RuleSet = INTERNATIONAL_SET
    """The game played: where pieces are placed, which oracle and which z3 rules judge. Recorded
    in the header's ``rules`` (none for international), not in ``verify``."""

    @property
    def rules(self) -> Rules:
        return self.rule_set.rules

    def __post_init__(self) -> None:
        unknown = [kind for kind in self.kinds if kind not in KINDS]
        if unknown or not self.kinds:
            raise ValueError(
                f"unknown position kinds {unknown or '(none)'}; expected some of {', '.join(KINDS)}"
            )
        if self.examples < 0 or self.plays < 0 or self.outcome_plies < 0 or self.shrink < 0:
            raise ValueError("examples, plays, outcome_plies and shrink must be 0 or more")
        if self.z3_timeout_ms <= 0:
            raise ValueError(f"z3_timeout_ms must be positive, not {self.z3_timeout_ms}")
        if self.pieces is not None:
            exhaustive.count(self.pieces, self.rules)  # a clear error for a bad number
        if self.tally_every is not None and self.tally_every < 1:
            raise ValueError(f"tally_every must be 1 or more, not {self.tally_every}")
        if self.prove and self.pieces is None:
            raise ValueError("prove is for exhaustive campaigns (pieces); generated positions always get z3")
        if self.prove and not self.z3:
            raise ValueError("prove needs z3")
        unplayed = unplayed_kinds(self.rule_set)
        asked = [kind for kind in self.kinds if kind in unplayed]
        if asked:
            raise ValueError(f"{asked[0]} positions under --rules {self.rule_set.name}: {unplayed[asked[0]]}")
        if self.prove and not self.rule_set.is_default:
            raise ValueError(
                f"--prove under --rules {self.rule_set.name}: the oracle's proof records "
                "(conformance/proofs/) are of international draughts"
            )

    @property
    def checks_start(self) -> bool:
        """Whether this run checks the engine's start position: with the playouts (which begin
        there), not in an exhaustive campaign, in the first shard only (once per whole run)."""
        return PLAYOUTS in self.kinds and self.pieces is None and self.shard.index == 1

    @property
    def total(self) -> int:
        """How many positions the whole (unsharded) run has: ``examples``, or the exhaustive count."""
        return exhaustive.count(self.pieces, self.rules) if self.pieces is not None else self.examples

    def indices(self) -> range:
        """The indices of the positions this run (its shard) checks, in order."""
        return self.shard.indices(self.total)

    @property
    def span(self) -> int:
        """Indices of the whole run per span of ``tally`` lines (:data:`TALLY_EVERY`)."""
        if self.tally_every is not None:
            return self.tally_every
        return TALLY_EVERY[EXHAUSTIVE if self.pieces is not None else "generated"] * self.shard.count

    def to_json(self) -> dict[str, Any]:
        return {
            "kinds": list(self.kinds),
            "z3": self.z3,
            "z3_examples": self.z3_examples,
            "differential": self.differential,
            "z3_timeout_ms": self.z3_timeout_ms,
            "engine_timeout": self.engine_timeout,
            "plays": self.plays,
            "outcome_plies": self.outcome_plies,
            "max_fail": self.max_fail,
            "pieces": self.pieces,
            "prove": self.prove,
            "all_results": self.all_results,
            "tally_every": self.span,
        }


@dataclasses.dataclass(frozen=True)
class Generated:
    """Position ``index`` of a run: its kind and the position (and, for ``draws``, its game)."""

    seed: int
    index: int
    kind: str
    position: Position
    game: DrawGame | None = None
    """A ``draws`` position's steered game: the moves and the prefixes whose outcome is asked."""
    rules: Rules = INTERNATIONAL
    """The rule set of the run: the game the position is of."""

    @property
    def case(self) -> str:
        """Its name in reports: ``verify-<seed>-<index>``, or ``exhaustive-<index>`` (no seed: none is drawn)."""
        if self.kind == EXHAUSTIVE:
            return f"{EXHAUSTIVE}-{self.index}"
        return f"verify-{self.seed}-{self.index}"

    def rng(self, purpose: str) -> random.Random:
        """A random source of its own for one later choice (which moves to play, which game)."""
        return random.Random(f"draughts-conformance verify {self.seed} {self.index} {purpose}")


def generate(seed: int, index: int, kinds: Sequence[str] = KINDS, rules: Rules = INTERNATIONAL) -> Generated:
    """Position ``index`` of the run with ``seed`` over ``kinds`` on the rule set's board: the same
    on every machine."""
    kind = kinds[index % len(kinds)]
    if kind == DRAWS:  # the round: which draws position of the run this is (templates take turns)
        game = draw_game(seed, index, index // len(kinds))
        return Generated(seed, index, kind, game.position, game)
    chooser = RandomChooser(random.Random(f"draughts-conformance verify {seed} {index} {kind}"))
    return Generated(seed, index, kind, _GENERATORS[kind](chooser, rules), rules=rules)


def positions(options: VerifyOptions, indices: range) -> Iterator[Generated]:
    """The positions ``indices`` of the run ``options`` describes, in order."""
    if options.pieces is None:
        for index in indices:
            yield generate(options.seed, index, options.kinds, options.rules)
        return
    walk = exhaustive.positions(options.pieces, indices.start, indices.stop, indices.step, options.rules)
    for index, position in zip(indices, walk, strict=True):
        yield Generated(options.seed, index, EXHAUSTIVE, position, rules=options.rules)


def draw_timings(
    options: VerifyOptions, done: int, cells: Sequence[Cell] | None = None, taken_from: int = 0
) -> list[str]:
    """The table of the draw-rule timings the run's steered games asked (its first ``done``
    positions), or nothing when it had no ``draws`` position (:mod:`conformance.verify.draw_phases`).

    ``cells``: the timings the run's checks of its positions from ``taken_from`` on handed back
    (:attr:`conformance.verify.run.VerifyRun.draw_cells`); the games of the positions before it (a
    resumed run's), or all of them when ``cells`` is None, are searched again here."""
    if DRAWS not in options.kinds or options.pieces is not None:
        return []
    indices = list(options.indices())[:done]
    again = indices if cells is None else indices[:taken_from]
    games = [
        game
        for index in again
        if options.kinds[index % len(options.kinds)] == DRAWS
        and (game := generate(options.seed, index, options.kinds).game) is not None
    ]
    if not any(options.kinds[index % len(options.kinds)] == DRAWS for index in indices):
        return []
    return phase_table([*asked_cells(games), *(cells or ())])
