"""Games: history, the draw rules of Art. 6 and the end of a game (Art. 7).

Read with rules.md ("Game end", "Draws"). A :class:`Game` starts from a position (the initial one
by default) and, for a position taken from the middle of a game, explicit
:class:`~oracle.counters.Counters`. It plays and undoes moves, keeps the history, and answers
:meth:`Game.outcome` (an :class:`~oracle.outcome.Outcome`).

Plies are counted from the start or setup position: the first move played is ply 1, and a game
already over at its setup position ends at ply 0.

The end of a game
-----------------
* **7.2.2 / 7.2.3** The side to move loses when it has no legal move: when it has no piece left
  (reported as rule ``"7.2.2"``) or when all its pieces are blocked (``"7.2.3"``).
* **6.1** The third occurrence of the same position -- placement *and* side to move -- is a draw,
  at the ply it occurs. The occurrences need not be consecutive; the start or setup position
  counts as the first (or as ``counters.occurrences``).
* **6.2** Fifty consecutive plies (25 moves each) in which only kings moved and nothing was
  captured are a draw. The count restarts at 0 on any man move (a promoting move is a man move)
  and on any capture.
* **6.3** Three pieces, at least one a king (3K, 2K+1M, 1K+2M), against a lone king: a draw
  32 plies (16 moves each) after the ply the ending arose. **6.4** Two kings, a king and a man,
  or a king (2K, 1K+1M, 1K) against a lone king: a draw 10 plies (5 moves each) after it arose.

The readings of rules.md that this module implements where the FMJD text leaves them open:

* The count of 6.3/6.4 does not restart while the game stays inside the same group of endings:
  a man move, a promotion (2K+1M becomes 3K) or a capture inside the group (2K v K becomes K v K)
  leaves it running. ``EndgameCount.restarts_on_change`` (off in :data:`INTERNATIONAL`) makes such
  a move -- a man move or a capture -- start the count again.
* Entering another group starts that group's own count: 3-v-1 becoming 2-v-1 by a capture starts
  6.4's ten plies at that capture, and 6.3's count no longer applies.
* 6.3/6.4 need the weak side to have exactly one piece, a king. Three men against a king, or
  anything against a lone man, fall under 6.1/6.2 only; a lone man that is crowned can make an
  ending arise, and the count then starts at that promotion. Which side is strong is a matter of
  material, not of whose turn it is.
* A win on a ply beats a draw rule expiring on the same ply. When two draw rules expire on the
  same ply the outcome names the lowest article (6.1 before 6.2 before 6.3 before 6.4).

**Not applied:** a 2024 annex to the rules shortens 6.3's sixteen moves to five when the lone king
"solely occupies" the long diagonal 46-5. It does not say when the king must stand there (when the
count starts? when it ends? throughout?) nor what happens when it leaves, so the project cannot
read it exactly (rules.md); it never fires here. Those endings therefore get the full sixteen
moves each: the pre-2024 rule, and the most generous of the possible readings of the new one.

Other games of the family
-------------------------
The draw switches of the rule set set the counts (``repetition_draw``, ``no_progress_moves``,
``endgame_counts``), and an outcome names the game's own articles (:class:`oracle.rules.Articles`:
``"fmjd64:7.2.5"`` for Russian draughts' kings-only count). A switch the game's sources leave
open (``null`` in its rules file: :attr:`oracle.rules.Rules.unsettled`) is never read as "no such
rule": the game refuses (:class:`~oracle.errors.UnsettledRuleError`, the move is not played) to
reach a position where such a rule could already decide, whatever value it may have -- the second
occurrence of a position (a repetition count is 2 or more), the second ply of king moves without
capture (a kings-only count is 1 move each or more), the second ply of an ending against a lone
king. A move that wins is played: a win beats a draw expiring on the same ply.

Setup positions and their counters
----------------------------------
A game that starts in the middle of a count is given :class:`~oracle.counters.Counters`; the game
refuses counters that no game can reach (the checks are listed in :mod:`oracle.counters`).

Rule steps
----------
Each step of the rules is one small method of :class:`Game` (:meth:`~Game.repetition_key`,
:meth:`~Game.resets_no_progress`, :meth:`~Game.ending_of`, :meth:`~Game.endgame_group`,
:meth:`~Game.endgame_count_after`, :meth:`~Game.changes_ending`, :meth:`~Game.loss_rule`,
:meth:`~Game.draws_at`, :meth:`~Game.first_article`, :meth:`~Game.win_beats_draw`), so that a
"mutant" game -- one rule read wrongly -- is a subclass overriding exactly one of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping
from typing import Any, Final

from oracle.counters import Counters, EndgameClock, check_counters
from oracle.errors import GameOverError, IllegalMoveError, UnsettledRuleError
from oracle.moves import Move, apply_raw, legal_moves
from oracle.notation import Notation, move_text, parse_move
from oracle.outcome import ONGOING, Outcome, Result
from oracle.position import Color, Position
from oracle.rules import INTERNATIONAL, EndgameCount, Ending, Rules

_WINS: Final = {Color.WHITE: Result.WHITE_WINS, Color.BLACK: Result.BLACK_WINS}


@dataclasses.dataclass(frozen=True)
class GameSnapshot:
    """Everything a game's future depends on, for comparing two states (e.g. after an undo)."""

    position: Position
    ply: int
    moves: tuple[Move, ...]
    occurrences: frozenset[tuple[Hashable, int]]
    no_progress_plies: int
    endgame_clock: EndgameClock | None
    outcome: Outcome


@dataclasses.dataclass(frozen=True, slots=True)
class _Ply:
    """One entry of the history: a position and the state of the counters there."""

    position: Position
    move: Move | None  # the move that led here (None at the setup position)
    key: Hashable  # the position's repetition key
    no_progress: int
    group: EndgameCount | None
    endgame_plies: int  # 0 when group is None
    legal: tuple[Move, ...]
    outcome: Outcome


class Game:
    """A game of draughts: positions, moves, the Art. 6 counters and the outcome (Art. 6, 7).

    ``Game(position=None, counters=None, rules=INTERNATIONAL)`` starts at ``position`` (the
    initial position by default) with the given counters (:class:`Counters`, or a mapping of the
    same three keys). :meth:`play` and :meth:`undo` move through the game; :meth:`outcome` tells
    whether it is over, how and at which ply. A move offered once the game is over raises
    :class:`~oracle.errors.GameOverError`; an illegal or ambiguous move raises the notation errors
    (:class:`~oracle.errors.MoveError` and its subclasses). A refused move changes nothing.
    """

    def __init__(
        self,
        position: Position | None = None,
        counters: Counters | Mapping[str, Any] | None = None,
        rules: Rules = INTERNATIONAL,
    ) -> None:
        self.rules: Final = rules
        start = Position.initial(rules) if position is None else position
        if not isinstance(start, Position):
            raise TypeError(
                f"a game starts from a Position (use Position.from_fen), not {type(start).__name__}"
            )
        setup = counters if isinstance(counters, Counters) else Counters.from_dict(counters)
        key = self.repetition_key(start)
        group = self.endgame_group(start)
        check_counters(start, setup, group, rules)
        self._setup_counters: Final = setup
        endgame_plies = setup.endgame_plies if group is not None else 0
        legal = tuple(self.moves_in(start))
        outcome = self._judge(
            start, legal, setup.occurrences, setup.no_progress_plies, group, endgame_plies, 0
        )
        self._occurrences: dict[Hashable, int] = {key: setup.occurrences}
        self._plies: list[_Ply] = [
            _Ply(start, None, key, setup.no_progress_plies, group, endgame_plies, legal, outcome)
        ]

    # -- the history ------------------------------------------------------------------------

    @property
    def setup_position(self) -> Position:
        return self._plies[0].position

    @property
    def setup_counters(self) -> Counters:
        return self._setup_counters

    @property
    def position(self) -> Position:
        """The current position."""
        return self._plies[-1].position

    @property
    def ply(self) -> int:
        """The number of moves played since the setup position."""
        return len(self._plies) - 1

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played, in order (each as the legal move it matched, route included)."""
        return tuple(entry.move for entry in self._plies[1:] if entry.move is not None)

    @property
    def positions(self) -> tuple[Position, ...]:
        """The setup position, then the position after each move: ``positions[ply]``."""
        return tuple(entry.position for entry in self._plies)

    def move_texts(self, notation: Notation = Notation.PDN) -> list[str]:
        """The moves played as text, each written in the position it was played in."""
        return [
            move_text(before.position, after.move, notation, self.rules)
            for before, after in zip(self._plies, self._plies[1:], strict=False)
            if after.move is not None
        ]

    def legal_moves(self) -> list[Move]:
        """The legal moves of the current position (empty when the side to move has lost)."""
        return list(self._plies[-1].legal)

    # -- the live counters ------------------------------------------------------------------

    def outcome(self) -> Outcome:
        return self._plies[-1].outcome

    @property
    def is_over(self) -> bool:
        return self._plies[-1].outcome.is_over

    @property
    def occurrences(self) -> int:
        """How many times the current position has occurred (Art. 6.1), this time included."""
        return self._occurrences[self._plies[-1].key]

    def occurrences_of(self, position: Position) -> int:
        """How many times ``position`` has occurred so far in this game (0 if never)."""
        return self._occurrences.get(self.repetition_key(position), 0)

    @property
    def no_progress_plies(self) -> int:
        """The Art. 6.2 count: consecutive plies, up to now, of king moves without capture."""
        return self._plies[-1].no_progress

    @property
    def endgame_clock(self) -> EndgameClock | None:
        """The running Art. 6.3/6.4 count, or None when the position is no such ending."""
        entry = self._plies[-1]
        if entry.group is None:
            return None
        return EndgameClock(entry.group.article, entry.endgame_plies, entry.group.plies)

    def counters(self) -> Counters:
        """The counters of the current position: a new game set up here with them goes on alike
        (only the occurrences of the earlier positions are not carried over)."""
        entry = self._plies[-1]
        return Counters(self.occurrences, entry.no_progress, entry.endgame_plies)

    def snapshot(self) -> GameSnapshot:
        return GameSnapshot(
            position=self.position,
            ply=self.ply,
            moves=self.moves,
            occurrences=frozenset(self._occurrences.items()),
            no_progress_plies=self.no_progress_plies,
            endgame_clock=self.endgame_clock,
            outcome=self.outcome(),
        )

    # -- playing ------------------------------------------------------------------------

    def play(self, move: Move | str, notation: Notation = Notation.PDN) -> Move:
        """Play a move (a :class:`Move`, or text in ``notation``) and return the legal move played.

        Raises :class:`GameOverError` once the game is over, or the notation errors when the move
        is not legal or is ambiguous; the game is then left exactly as it was.
        """
        current = self._plies[-1]
        if current.outcome.is_over:
            raise GameOverError(
                f"the game is over ({current.outcome}); no move can be played after it "
                f"(position {current.position.fen()})",
                outcome=current.outcome,
            )
        chosen = self._legal_move(current, move, notation)
        after = self.position_after(current.position, chosen)
        ply = len(self._plies)
        key = self.repetition_key(after)
        occurrences = self._occurrences.get(key, 0) + 1
        no_progress = 0 if self.resets_no_progress(current.position, chosen) else current.no_progress + 1
        group = self.endgame_group(after)
        endgame_plies = self.endgame_count_after(
            current.position, chosen, current.group, current.endgame_plies, group
        )
        legal = tuple(self.moves_in(after))
        outcome = self._judge(after, legal, occurrences, no_progress, group, endgame_plies, ply)
        if not outcome.is_over or outcome.result is Result.DRAW:
            self._refuse_unsettled(current, chosen, after, occurrences, no_progress)
        # Nothing above changed the game; from here on nothing can fail.
        self._occurrences[key] = occurrences
        self._plies.append(_Ply(after, chosen, key, no_progress, group, endgame_plies, legal, outcome))
        return chosen

    def undo(self) -> Move:
        """Take back the last move and return it; the game is exactly as before that move."""
        if len(self._plies) == 1:
            raise IndexError("nothing to undo: the game is at its setup position")
        entry = self._plies.pop()
        remaining = self._occurrences[entry.key] - 1
        if remaining:
            self._occurrences[entry.key] = remaining
        else:
            del self._occurrences[entry.key]
        assert entry.move is not None
        return entry.move

    def _refuse_unsettled(
        self, current: _Ply, move: Move, after: Position, occurrences: int, no_progress: int
    ) -> None:
        """Refuse a move after which a draw rule the game's sources leave open could decide."""
        rules = self.rules
        if not rules.unsettled:
            return
        reasons = []
        if not rules.is_settled("repetitionDraw") and occurrences >= 2:
            reasons.append(f"the position occurs for the {_ordinal(occurrences)} time (repetitionDraw)")
        if not rules.is_settled("kingsOnlyDraw") and no_progress >= 2:
            reasons.append(f"{no_progress} plies of king moves without capture (kingsOnlyDraw)")
        if not rules.is_settled("endgameCounts") and self._plies_in_ending(after) >= 2:
            reasons.append("the second ply of an ending against a lone king (endgameCounts)")
        if reasons:
            raise UnsettledRuleError(
                f"the rule set {rules.name!r} does not settle the draw rule that could decide after "
                f"{move} in {current.position.fen()}: {'; '.join(reasons)} (null in its rules file: the "
                "sources read do not say); the oracle does not judge this game further"
            )

    def _plies_in_ending(self, after: Position) -> int:
        """How many plies the game has stood in endings against a lone king, up to ``after`` (0: none)."""
        if self.ending_of(after) is None:
            return 0
        plies = 0
        for entry in reversed(self._plies):
            if self.ending_of(entry.position) is None or plies >= 2:
                break
            plies += 1
        return plies

    def _legal_move(self, current: _Ply, move: Move | str, notation: Notation) -> Move:
        if isinstance(move, Move):
            for legal in current.legal:
                if legal == move:
                    return legal
            raise IllegalMoveError(f"{move} is not a legal move in {current.position.fen()}")
        if type(self).read_move is Game.read_move and type(self).moves_in is Game.moves_in:
            # the rules' reading among the rules' moves: those of the position, generated already
            return parse_move(current.position, move, notation, self.rules, legal=current.legal)
        return self.read_move(current.position, move, notation)

    # -- the rule steps (override one to build a mutant) ------------------------------------

    def moves_in(self, position: Position) -> list[Move]:
        """Art. 3, 4: the legal moves of a position of the game."""
        return legal_moves(position, self.rules)

    def read_move(self, position: Position, text: str, notation: Notation) -> Move:
        """Art. 8: the legal move a move text names (:func:`oracle.notation.parse_move`). A game that
        overrides neither this step nor :meth:`moves_in` reads among the moves it generated already."""
        return parse_move(position, text, notation, self.rules)

    def position_after(self, position: Position, move: Move) -> Position:
        """Art. 3.5, 4.11, 4.15: the position after a legal move."""
        raw = (move.from_square, move.to_square, self.rules.geometry.bitboard(move.captured), move.route)
        return apply_raw(position, raw, self.rules)

    def repetition_key(self, position: Position) -> Hashable:
        """Art. 6.1: what makes two positions "the same": the placement and the side to move."""
        return position

    def resets_no_progress(self, before: Position, move: Move) -> bool:
        """Art. 6.2: whether ``move`` restarts the count: any capture, any man move (promotion too)."""
        return move.is_capture or _is_man_move(before, move)

    def ending_of(self, position: Position) -> Ending | None:
        """Art. 6.3/6.4: the strong side's material when the other side is exactly one king.

        The strong side is found by material, whoever is to move; with a king on each side
        (K v K) either side is the strong one and the ending is the same. None when neither side
        is a lone king, or when the other side has no piece at all."""
        for strong in (Color.WHITE, Color.BLACK):
            weak = strong.opponent
            if position.men(weak) == 0 and position.kings(weak).bit_count() == 1:
                kings, men = position.kings(strong).bit_count(), position.men(strong).bit_count()
                if kings + men:
                    return Ending(kings, men)
        return None

    def endgame_group(self, position: Position) -> EndgameCount | None:
        """The group of Art. 6.3/6.4 (in the rules) the position's ending belongs to, if any."""
        ending = self.ending_of(position)
        return None if ending is None else self.rules.endgame_count_for(ending)

    def endgame_count_after(
        self,
        before: Position,
        move: Move,
        group_before: EndgameCount | None,
        plies_before: int,
        group_after: EndgameCount | None,
    ) -> int:
        """The 6.3/6.4 count after ``move`` (0 when the position after is no ending).

        The ending arises -- count 0 -- when the game enters a group from outside it or from
        another group; inside the same group the count goes on, unless the group restarts on a
        change and the move is one (:meth:`changes_ending`)."""
        if group_after is None:
            return 0
        if group_before != group_after:
            return 0
        if group_after.restarts_on_change and self.changes_ending(before, move):
            return 0
        return plies_before + 1

    def changes_ending(self, before: Position, move: Move) -> bool:
        """For ``restarts_on_change``: a man move (promotion too) or a capture changes the ending."""
        return move.is_capture or _is_man_move(before, move)

    def loss_rule(self, position: Position, legal: tuple[Move, ...]) -> str | None:
        """Art. 7.2: why the side to move has lost -- no piece (7.2.2), all blocked (7.2.3) -- or None."""
        if not position.pieces(position.turn):
            return self.rules.articles.no_pieces
        if not legal:
            return self.rules.articles.blocked
        return None

    def draws_at(
        self, occurrences: int, no_progress: int, group: EndgameCount | None, endgame_plies: int
    ) -> list[str]:
        """The articles of the draw rules that expire with these counts (Art. 6.1-6.4)."""
        rules = self.rules
        articles = []
        if rules.repetition_draw is not None and occurrences >= rules.repetition_draw:
            articles.append(rules.articles.repetition)
        if rules.no_progress_moves is not None and no_progress >= 2 * rules.no_progress_moves:
            articles.append(rules.articles.kings_only)
        if group is not None and endgame_plies >= group.plies:
            articles.append(group.article)
        return articles

    def first_article(self, articles: list[str]) -> str:
        """Of several draw rules expiring on one ply, the one reported: the lowest article."""
        return min(articles, key=_article_order)

    def win_beats_draw(self) -> bool:
        """rules.md: a win on a ply beats a draw rule expiring on that same ply."""
        return True

    def _judge(
        self,
        position: Position,
        legal: tuple[Move, ...],
        occurrences: int,
        no_progress: int,
        group: EndgameCount | None,
        endgame_plies: int,
        ply: int,
    ) -> Outcome:
        loss = self.loss_rule(position, legal)
        win = None if loss is None else Outcome(_WINS[position.turn.opponent], loss, ply)
        draws = self.draws_at(occurrences, no_progress, group, endgame_plies)
        if win is not None and (self.win_beats_draw() or not draws):
            return win
        if draws:
            return Outcome(Result.DRAW, self.first_article(draws), ply)
        return ONGOING

    def __repr__(self) -> str:
        return f"<Game ply {self.ply}, {self.position.fen()}, {self.outcome()}>"


def _is_man_move(before: Position, move: Move) -> bool:
    return bool(before.men(before.turn) & before.geometry.bit[move.from_square])


def _ordinal(number: int) -> str:
    return {2: "second", 3: "third"}.get(number, f"{number}th")


def _article_order(article: str) -> tuple[int, ...]:
    """The order of precedence of draw articles: by number, the source (``fmjd64:``) left out."""
    try:
        return tuple(int(part) for part in article.rpartition(":")[2].split("."))
    except ValueError:
        return (1 << 30,)
