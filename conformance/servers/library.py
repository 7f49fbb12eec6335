"""What the servers of the Python libraries share: the Engine interface over a rules library.

The servers of ``dame-rs``, ``py-draughts`` and ``pydraughts`` (``conformance.servers.*_jsonl``) run
inside each engine's own virtual environment (:mod:`conformance.engines.thirdparty`). Each subclasses
:class:`LibraryEngine`, giving the library's own ways to read a position, list and write moves,
count perft and play a game, and hands itself to :func:`serve_main`, which speaks the JSON-lines
protocol (``docs/protocol.md``) on stdin/stdout.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from conformance.core.protocol import (
    PROTOCOL_MINOR,
    PROTOCOL_VERSION,
    BaseEngine,
    Capability,
    Engine,
    EngineError,
    EngineInfo,
    MoveRefused,
    MoveSpec,
    OutcomeAnswer,
    PerftReached,
)
from conformance.engines.thirdparty import lookup
from conformance.servers.oracle_jsonl import serve
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Ending, Rules
from oracle.ruleset import rules_from_data

SERVED_CAPABILITIES: Final = (
    "fen",
    "initial_position",
    "legal_moves",
    "move_count",
    "perft",
    "play",
    "parse_move",
    "format_move",
    "outcome",
)
"""What the three servers answer: every rules question (not ``choose_move``, the move-choice level).
``counters`` is declared besides by the servers whose library takes the draw-rule counters of a
setup position (:class:`LibraryEngine`)."""


def served_capabilities(*, counters: bool = False) -> frozenset[Capability]:
    """:data:`SERVED_CAPABILITIES` as capabilities (those the installed protocol version has),
    with ``counters`` when the library takes setup counters."""
    known = {capability.value: capability for capability in Capability}
    names = (*SERVED_CAPABILITIES, *(("counters",) if counters else ()))
    return frozenset(known[name] for name in names if name in known)


def canonical_fen(fen: str, rules: Rules = INTERNATIONAL) -> str:
    """The position of a valid FEN, written the one way every library reads: side, then the ``W``
    section, then the ``B`` section (both present, possibly empty), no ranges, kings as ``K``;
    on the board of ``rules`` (numbered squares; :meth:`Position.pdn_fen` for a game's own PDN).

    The servers hand this to their library for every question but ``fen``: those questions are
    about moves and games, not about FEN dialects (``fen`` gets the raw text)."""
    return Position.from_fen(fen, rules).fen()


def default_counters(counters: Mapping[str, int]) -> bool:
    """Whether the draw-rule counters are the defaults (a setup position seen once, counts at 0)."""
    return (
        counters.get("occurrences", 1) == 1
        and counters.get("no_progress_plies", 0) == 0
        and counters.get("endgame_plies", 0) == 0
    )


def loss_rule(pieces_left: int, rules: Rules = INTERNATIONAL) -> str:
    """Art. 7.2: the side to move has lost with no piece left (7.2.2) or all blocked (7.2.3) --
    named as the game of ``rules`` names them (``fmjd:7.2.2`` in another game than international)."""
    return rules.articles.no_pieces if pieces_left == 0 else rules.articles.blocked


def lowest_article(articles: Sequence[str]) -> str:
    """Of several draw rules a library reports at once, the one the protocol names: the lowest
    article (docs/protocol.md, oracle.game), since the libraries do not rank their draw flags;
    another game's ``source:number`` by its number (Q10 of rulesets/README.md)."""

    def number(article: str) -> tuple[int, ...]:
        digits = article.rpartition(":")[2].split(".")
        return tuple(int(part) if part.isdigit() else 1 << 30 for part in digits)

    return min(articles, key=number)


def unwrap_fen_tag(text: str) -> str:
    """``[FEN "W:W28:B33"]`` (a PDN tag, as py-draughts writes its FEN) -> ``W:W28:B33``."""
    match = re.fullmatch(r'\s*\[FEN\s+"([^"]*)"\]\s*', text)
    return match.group(1) if match else text


def perft_by_moves(board: Any, moves: Callable[[Any], Sequence[Any]], depth: int) -> int:
    """Perft by a library's own moves (``moves(board)``) and its ``push``/``pop``: the leaves of the
    move tree at ``depth`` (>= 1), each entry the library lists counted."""

    def count(depth: int) -> int:
        listed = moves(board)
        if depth == 1:
            return len(listed)
        total = 0
        for move in listed:
            board.push(move)
            total += count(depth - 1)
            board.pop()
        return total

    return count(depth)


class PerftGuard:
    """A library's perft behind a cache and a budget: depth ``d`` is not counted when
    ``perft(d-1)**2 / perft(d-2)`` -- the leaves the tree would have if it kept branching as it
    did -- exceeds ``max_leaves``; the answer is then the counts of depths 1..d-1
    (:class:`PerftReached`, a perft ``counts`` answer of protocol 1.1). The estimate uses only
    counts, so where perft stops does not depend on the machine; ``max_leaves`` is set per library
    to about two seconds of its work."""

    def __init__(self, count: Callable[[str, int], int], max_leaves: int, library: str) -> None:
        self._count = count
        self.max_leaves = max_leaves
        self.library = library
        self._cache: dict[tuple[str, int], int] = {}

    def __call__(self, fen: str, depth: int) -> int:
        key = (fen, depth)
        if key in self._cache:
            return self._cache[key]
        if depth >= 3:
            previous, before = self(fen, depth - 1), self(fen, depth - 2)
            estimate = previous * previous // before if before else 0
            if estimate > self.max_leaves:
                raise PerftReached(
                    [self._cache[fen, reached] for reached in range(1, depth)],
                    f"perft({depth}) would count about {estimate} leaves; {self.library} is certified to "
                    f"{self.max_leaves} (about two seconds of its perft)",
                )
        count = self._count(fen, depth)
        self._cache[key] = count
        return count


class LibraryEngine(BaseEngine):
    """A rules library behind the Engine interface: what the three servers answer alike.

    A subclass loads its library, then calls ``super().__init__(name, version, max_perft_leaves,
    counters=...)`` (``counters``: whether :meth:`_setup` takes the draw-rule counters of a setup
    position; an engine that does not declare them is only asked outcomes from default counters);
    it answers ``fen``, ``initial_position`` and ``parse_move`` itself, and gives the library's
    own ways to: read a position (:meth:`_board`, from the canonical FEN), list its legal moves
    (:meth:`_moves`), read one as a :class:`MoveSpec` (:meth:`_spec`) or as text (:meth:`_write`),
    count perft (:meth:`_count`, behind a :class:`PerftGuard`), play one move text
    (:meth:`_push`), write the board's FEN (:meth:`_board_fen`), set up the position and the
    draw-rule counters of an ``outcome`` question (:meth:`_setup`) and tell whether the game
    has ended (:meth:`_ended`, Art. 6 and 7).

    A move of a sequence the library refuses is answered ``illegal`` with its ply
    (:class:`MoveRefused`, protocol 1.1): the harness judges it a ``fail`` of that move's rule when
    the move is legal. So is a move ``format_move`` is given that the library does not list.
    """

    def __init__(
        self,
        name: str,
        version: str,
        max_perft_leaves: int,
        *,
        counters: bool,
        variants: Mapping[str, str] | None = None,
    ) -> None:
        self.library = name
        self.variants: Mapping[str, str] = variants or {"international": ""}
        """The games the library plays: rule-set name -> the library's own name of the game."""
        self.rules: Rules = INTERNATIONAL
        """The rule set played (international until ``use_rules``)."""
        self.variant = self.variants["international"]
        self._info = EngineInfo(
            name=name,
            version=version,
            capabilities=served_capabilities(counters=counters),
            adapter="in-process",
            rule_sets=frozenset(self.variants),
        )
        self._perft = PerftGuard(self._count, max_perft_leaves, name)

    @property
    def info(self) -> EngineInfo:
        return self._info

    @property
    def international(self) -> bool:
        """Playing international draughts (every answer exactly as before rule sets)."""
        return self.rules is INTERNATIONAL

    def use_rules(self, rules: Mapping[str, Any]) -> None:
        """Play the rule set of ``start`` (protocol 1.2): the library's game of that name."""
        name = str(rules.get("name"))
        if name not in self.variants:
            raise ValueError(f"{self.library} plays {', '.join(sorted(self.variants))}, not {name}")
        self.rules = rules_from_data(rules, f"the rule set {name!r}")
        self.variant = self.variants[name]
        self._select(self.variant)

    def _select(self, variant: str) -> None:
        """Switch the library to its game ``variant`` (a name of :attr:`variants`)."""
        raise NotImplementedError

    def canonical(self, fen: str) -> str:
        """:func:`canonical_fen` on the board of the game played."""
        return canonical_fen(fen, self.rules)

    def draw_article(self, kind: str, ending: Ending | None = None) -> str:
        """How the game played names a draw the library reports: ``repetition``, ``kings_only``
        or the ending count of ``ending`` (6.1, 6.2, 6.3/6.4 in international draughts)."""
        if kind == "repetition":
            return self.rules.articles.repetition
        if kind == "kings_only":
            return self.rules.articles.kings_only
        count = self.rules.endgame_count_for(ending) if ending is not None else None
        if count is None:
            raise EngineError("exception", f"{self.library}: a draw of an ending the rule set does not count")
        return count.article

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        return [self._spec(move) for move in self._moves(self._board(fen))]

    def move_count(self, fen: str) -> int:
        return len(self._moves(self._board(fen)))

    def perft(self, fen: str, depth: int) -> int:
        return self._perft(fen, depth)

    def play(self, fen: str, moves: Sequence[str]) -> str:
        board = self._board(fen)
        for ply, text in enumerate(moves, start=1):
            self._push(board, ply, text)
        return self._board_fen(board)

    def format_move(self, fen: str, move: MoveSpec, notation: str) -> str:
        for candidate in self._moves(self._board(fen)):
            if self._spec(candidate) == move:
                return self._write(candidate, notation)
        raise MoveRefused(str(move), 1, f"{self.library} does not list it among its legal moves")

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        board = self._setup(fen, counters)
        for ply, text in enumerate(moves):
            ended = self._ended(board, ply)
            if ended is not None:
                return ended
            self._push(board, ply + 1, text)
        return self._ended(board, len(moves)) or OutcomeAnswer("ongoing")

    # -- the library's own ways ------------------------------------------------------------------

    def _board(self, fen: str) -> Any:
        """The library's board for ``fen`` (valid), read from :func:`canonical_fen`."""
        raise NotImplementedError

    def _moves(self, board: Any) -> Sequence[Any]:
        """The library's legal moves, as it lists them."""
        raise NotImplementedError

    def _spec(self, move: Any) -> MoveSpec:
        raise NotImplementedError

    def _write(self, move: Any, notation: str) -> str:
        """The library's text for one of its moves (``notation``: ``pdn`` or ``hub``)."""
        raise NotImplementedError

    def _count(self, fen: str, depth: int) -> int:
        raise NotImplementedError

    def _push(self, board: Any, ply: int, text: str) -> None:
        """Play move text ``text``, the ``ply``-th (from 1); :class:`MoveRefused` (``text``, ``ply``
        and the library's words) if the library refuses it."""
        raise NotImplementedError

    def _board_fen(self, board: Any) -> str:
        raise NotImplementedError

    def _setup(self, fen: str, counters: Mapping[str, int]) -> Any:
        """The board of an ``outcome`` question; ``EngineDeclined`` for counters it cannot take
        (for any counters but the defaults when the engine does not declare ``counters``)."""
        raise NotImplementedError

    def _ended(self, board: Any, ply: int) -> OutcomeAnswer | None:
        """The result once the game has ended, ``ply`` plies after the setup, or ``None`` while it goes on."""
        raise NotImplementedError


def serve_main(make: Callable[[], Engine], name: str, argv: Sequence[str] | None = None) -> int:
    """The ``main`` of a server module: serve ``make()`` over JSON-lines on stdin/stdout."""
    engine = lookup(name)
    parser = argparse.ArgumentParser(
        prog=f"python -m {engine.server}",
        description=f"Serve {engine.requirement} (module {engine.module}) over the JSON-lines engine "
        f"protocol (version {PROTOCOL_VERSION}.{PROTOCOL_MINOR}, docs/protocol.md) on stdin/stdout. Run it with the Python "
        f"of the engine's venv: draughts-conformance engines install {name}.",
    )
    parser.parse_args(argv)
    writer = sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever the library prints must not enter the protocol stream
    return serve(make(), sys.stdin.buffer, writer, sys.stderr)
