"""The fast path of an exhaustive campaign: every position's legal moves against the oracle's, cheaply.

An exhaustive campaign (``verify --exhaustive --pieces K``) checks each position with two rows,
``legal_moves[invariants]`` and ``legal_moves[oracle]`` (:mod:`conformance.verify.driver`, the lean
path). Nearly every position passes both, so :class:`Sweep` checks them without building what
the general path builds for a report line:

* positions are walked in index order (:func:`conformance.verify.exhaustive.positions`: by counting
  once per chunk, then stepping), and the FEN the engine gets is written from the bitboards;
* the engine is asked once (through the run's :class:`~conformance.verify.asking.Asker`: its
  timeout, its errors) and the oracle's moves are listed once (remembered for the general path);
  an engine that pipelines (a JSON-lines engine declaring ``pipeline``: ``send_ahead``) gets the
  requests of the next :data:`AHEAD` positions before their answers are read, so that a subprocess
  engine is not left waiting for the next request while this process compares the last answer;
* both answers become sets of *packed* moves, ``from | to << 6 | captured << 12`` (the captured
  squares as a bitboard), compared as sets; the invariants are bit tests on the same numbers:
  every square a number from 1 to 50, no move listed twice, each captured square an opposing
  piece (a captured set is a set: no square twice);
* a position that passes is counted (:class:`~conformance.verify.chunk.Collect`), with the kinds
  of the two passes -- question and rule, worked out from whether a move captures exactly as the
  general path files them -- and makes no object besides.

Anything else -- an answer that differs or breaks an invariant, an engine error or decline, a
move object of an unexpected shape, a position the run lists in full -- goes to the general path
(:meth:`~conformance.verify.driver.Driver.rows`, with the engine's answer remembered: never asked
twice), which judges, files, shrinks and puts z3 to the disagreement as for any position. So the
fast path decides nothing the general path would decide otherwise: it only skips the work where
both rows pass (the tests compare the two paths position by position).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final

from conformance.core.protocol import Capability
from conformance.core.tallies import Tallied
from conformance.verify import exhaustive
from conformance.verify.asking import EngineFailed
from conformance.verify.chunk import Checked, Collect, listed_in_full
from conformance.verify.driver import Driver
from conformance.verify.findings import FindingKind
from conformance.verify.generate import EXHAUSTIVE, Generated, VerifyOptions, positions
from conformance.verify.judgement import (
    CAPTURE_ARTICLES,
    INVARIANTS,
    ORACLE,
    QUIET_ARTICLES,
    articles_of,
    filed,
)
from oracle.board import BIT, SQUARES
from oracle.moves import Move
from oracle.position import Color, Position

AHEAD: Final = 64
"""Positions whose requests a pipelining engine is sent before the answer of the first is read."""

_BIT_SQUARE: Final = {BIT[square]: square for square in SQUARES}
_MAN: Final = {BIT[square]: str(square) for square in SQUARES}
_KING: Final = {BIT[square]: f"K{square}" for square in SQUARES}


def _section(men: int, kings: int) -> str:
    """A FEN section's squares, ascending (bit order is square order), kings marked ``K``."""
    pieces = men | kings
    texts = []
    while pieces:
        low = pieces & -pieces
        texts.append(_KING[low] if kings & low else _MAN[low])
        pieces ^= low
    return ",".join(texts)


def fen_of(position: Position) -> str:
    """``position.fen()``, written straight from the bitboards."""
    turn = "W" if position.turn is Color.WHITE else "B"
    white = _section(position.white_men, position.white_kings)
    black = _section(position.black_men, position.black_kings)
    return f"{turn}:W{white}:B{black}"


def _mask(squares: Iterable[int]) -> int:
    mask = 0
    for square in squares:
        mask |= BIT[square]
    return mask


def packed_oracle(moves: list[Move]) -> set[int]:
    """The oracle's moves as packed numbers."""
    return {m.from_square | m.to_square << 6 | _mask(m.captured) << 12 for m in moves}


def packed_answer(answer: Iterable[object], opponent: int) -> set[int] | None:
    """The engine's moves as packed numbers, or None when one breaks an invariant or has a shape
    the fast path does not read (the general path then judges the answer)."""
    packed: set[int] = set()
    listed = 0
    for move in answer:
        listed += 1
        from_square = getattr(move, "from_square", None)
        to_square = getattr(move, "to_square", None)
        captured = getattr(move, "captured", None)
        if type(from_square) is not int or type(to_square) is not int or type(captured) is not frozenset:
            return None
        if not (0 < from_square <= 50 and 0 < to_square <= 50):
            return None
        mask = 0
        for square in captured:
            if type(square) is not int or not 0 < square <= 50:
                return None
            mask |= BIT[square]
        if mask & ~opponent:  # a captured square without an opposing piece
            return None
        packed.add(from_square | to_square << 6 | mask << 12)
    return packed if len(packed) == listed else None  # else a move listed twice


class Sweep:
    """Checks chunks of an exhaustive campaign with one driver (see the module)."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.options = driver.options
        duplicate, captured = FindingKind.DUPLICATE, FindingKind.CAPTURED_SQUARES

        def kind(question: str, articles: tuple[str, ...]) -> Tallied:
            return Tallied(question, filed(articles)["article"], "pass")

        # The passing rows' kinds, as the general path files them: the invariants by whether the
        # answer has a capture, the oracle's comparison by whether the position has one.
        self.invariants = (
            kind(INVARIANTS, articles_of((duplicate,))),
            kind(INVARIANTS, articles_of((duplicate, captured))),
        )
        self.compared = (kind(ORACLE, QUIET_ARTICLES), kind(ORACLE, CAPTURE_ARTICLES))

    @classmethod
    def for_driver(cls, driver: Driver) -> Sweep | None:
        """A sweep for the driver's run, or None when its positions need the general path: not
        an exhaustive campaign, an engine that does not list moves, moves played, z3 on every
        position (``prove``), every result listed."""
        options = driver.options
        if (
            options.pieces is None
            or Capability.LEGAL_MOVES not in driver.capabilities
            or options.plays
            or options.prove
            or options.all_results
        ):
            return None
        return cls(driver)

    def check(self, indices: range) -> Checked:
        """The positions ``indices`` of the campaign, checked (see :mod:`conformance.verify.chunk`)."""
        options = self.options
        assert options.pieces is not None
        driver = self.driver
        checks, asker = driver.checks, driver.asker
        keep, differential = options.keep, options.differential
        quiet_invariants, capture_invariants = self.invariants
        quiet_compared, capture_compared = self.compared
        collect = Collect(indices.step)
        walk = exhaustive.positions(options.pieces, indices.start, indices.stop, indices.step)
        send_ahead = getattr(asker.engine, "send_ahead", None)
        for index, position in _ahead(zip(indices, walk, strict=True), send_ahead):
            checks.new_position()
            fast = index not in keep
            if fast:
                try:
                    answer = asker.legal_moves(fen_of(position))
                except EngineFailed:
                    fast = False  # remembered: the general path reports it without asking again
            if fast:
                white = position.turn is Color.WHITE
                opponent = (
                    position.black_men | position.black_kings
                    if white
                    else position.white_men | position.white_kings
                )
                got = packed_answer(answer, opponent)
                captures = got is not None and any(move >> 12 for move in got)
                if got is not None and not differential:
                    collect.counted(index, (capture_invariants if captures else quiet_invariants,))
                    continue
                if got is not None and got == packed_oracle(checks.oracle_moves(position)):
                    if captures:
                        collect.counted(index, (capture_invariants, capture_compared))
                    else:
                        collect.counted(index, (quiet_invariants, quiet_compared))
                    continue
            generated = Generated(options.seed, index, EXHAUSTIVE, position)
            rows = driver.rows(generated, asked=True)
            if listed_in_full(options, generated, rows):
                collect.listed(generated, rows)
            else:
                collect.counted(index, tuple(Tallied.of(row.result) for row in rows))
        return collect.done()


def settle_heap() -> None:
    """After a steered draw game: the young objects' cycles collected, then every object alive
    moved out of the collector's reach (:func:`gc.freeze`).

    The draw search remembers the positions it met (tens of thousands of objects, alive for the
    run), and every full collection walked them all again: a quarter to a third of a generated
    run's CPU (600 positions, every kind: 12.1 s of CPU, 9.0 s with this, 9.1 s with no collector
    at all). A frozen object is still freed when nothing refers to it any more; a cycle already
    old at the freeze waits for the end of the run (:func:`thawed_after`; a worker process ends)."""
    gc.collect(1)
    gc.freeze()


@contextlib.contextmanager
def thawed_after() -> Iterator[None]:
    """The heap :func:`settle_heap` froze thawed again at the end of a run checked in this process
    (unless it was frozen before, by the caller): what a cycle kept frozen is then freed. Thawing
    at the end of every chunk instead made a run slower than not freezing at all (the thawed
    objects were walked again at the next full collection)."""
    thaw = gc.get_freeze_count() == 0
    try:
        yield
    finally:
        if thaw:
            gc.unfreeze()


def check_positions(driver: Driver, options: VerifyOptions, indices: range) -> Checked:
    """Check the positions ``indices`` of the run ``options`` with ``driver``."""
    if options.pieces is not None and options.rule_set.is_default:  # the 10x10 campaign's fast path
        sweep = Sweep.for_driver(driver)
        if sweep is not None:
            return sweep.check(indices)
    collect = Collect(indices.step)
    for generated in positions(options, indices):
        rows = driver.rows(generated)
        if generated.game is not None:
            settle_heap()
        if listed_in_full(options, generated, rows):
            collect.listed(generated, rows)
        else:
            cells = generated.game.cells if generated.game is not None else ()
            collect.counted(generated.index, tuple(Tallied.of(row.result) for row in rows), cells)
    return collect.done()


def _ahead(
    walk: Iterator[tuple[int, Position]],
    send_ahead: Callable[[Iterable[tuple[str, Sequence[Any]]]], None] | None,
) -> Iterator[tuple[int, Position]]:
    """``walk``'s positions, each block of :data:`AHEAD` sent ahead to the engine (when it pipelines)
    while the block before is checked."""
    if send_ahead is None:
        yield from walk
        return

    def block() -> list[tuple[int, Position]]:
        taken = [item for _, item in zip(range(AHEAD), walk, strict=False)]
        send_ahead([("legal_moves", (fen_of(position),)) for _, position in taken])
        return taken

    current = block()
    while current:
        following = block()
        yield from current
        current = following
