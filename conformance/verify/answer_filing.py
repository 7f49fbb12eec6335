"""Where a failing verify answer is filed: the one rule the engine broke, for the default game and
for another game of the family.

:class:`AnswerFiling` is the :class:`~conformance.verify.driver.Driver`'s filing of a row: a failing
judgement by :mod:`conformance.core.filing` (the one filing of ``run``, ``verify`` and ``bisect``), a
refused move of an outcome question under the move's rule, another game's answers by the switch
that explains them (:mod:`conformance.verify.game_filing`). Whether an answer is wrong was decided
by the check; this module only says under which rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from conformance.core.filing import Filing, file_answer
from conformance.core.filing.draws import file_game
from conformance.core.filing.played import file_move, file_played, refused_move_filing
from conformance.core.protocol import Capability, Engine
from conformance.core.rule_sets import RuleSet
from conformance.harness.failures import text_filing
from conformance.verify.asking import Asker, EngineFailed
from conformance.verify.findings import MoveKey
from conformance.verify.game_filing import broken_switch, game_article
from conformance.verify.judgement import (
    AFTER_INVARIANTS,
    AFTER_ORACLE,
    DRAWS,
    ORACLE,
    OUTCOME,
    Z3,
    Judgement,
    filed,
)
from conformance.verify.judges import Checks
from oracle.moves import legal_moves
from oracle.notation import pdn_text
from oracle.position import Position


class AnswerFiling:
    """The rule a verify row of one engine is filed under (see the module)."""

    def __init__(
        self, asker: Asker, checks: Checks, capabilities: frozenset[Capability], rule_set: RuleSet
    ) -> None:
        self.asker = asker
        self.checks = checks
        self.capabilities = capabilities
        self.rule_set = rule_set

    def filing(self, check: str, position: Position, failing: Judgement) -> tuple[str, tuple[str, ...]]:
        """Where a failing answer is filed, and the rules it relies on (``requires``): by
        :mod:`conformance.core.filing`, the one filing of ``run``, ``verify`` and ``bisect``.

        A wrong legal-move answer (``legal_moves[z3]``, ``legal_moves[oracle]``) by the rule the
        engine's moves break (:func:`~conformance.core.filing.file_answer`: a capture no path makes, under
        the rule that relaxed makes it; missed moves, under what they need that the answer does not
        show it can do, relying on their other rules); a wrong position after a move by what is
        wrong with it (:func:`~conformance.core.filing.played.file_played`); a wrong outcome by the
        moves the engine's legal moves change in its game (:func:`~conformance.core.filing.draws.file_game`),
        else as the check filed it (:mod:`conformance.core.filing.outcomes`: the draw or game-end
        rule, or the reading the draw model shows read otherwise). Whether the answer is wrong was
        decided by the check; this only says under which rule.
        """
        if not self.rule_set.is_default:
            return self.game_filing(check, position, failing), ()
        article = filed(failing.articles)["article"]
        if check in (OUTCOME, DRAWS):
            if failing.subject:
                got = failing.got if isinstance(failing.got, dict) else {}
                ply = got.get("ply")
                upto = ply if isinstance(ply, int) else len(failing.subject)
                found = file_game(position.fen(), failing.subject, upto, self.listed)
                if found is not None:
                    return found.rule, found.requires
            return article, failing.requires
        if check in (AFTER_INVARIANTS, AFTER_ORACLE) and isinstance(failing.got, str):
            move = next((m for m in self.checks.oracle_moves(position) if m.key == failing.subject), None)
            if move is not None:
                played = file_played(position, move, failing.got)
                return played.rule, played.requires
            return article, ()
        if check not in (Z3, ORACLE):
            return article, ()
        try:
            answer = self.asker.legal_moves(position.fen())
        except EngineFailed:
            return article, ()
        filing = file_answer(position, [(m.from_square, m.to_square, m.captured) for m in answer])
        return (filing.rule, filing.requires) if filing is not None else (article, ())

    def game_filing(self, check: str, position: Position, failing: Judgement) -> str:
        """Where a failing answer of another game is filed (:mod:`conformance.verify.game_filing`):
        a wrong legal-move answer under the one switch that explains it, else by the check's
        article as the game names it."""
        if check in (Z3, ORACLE):
            try:
                answer = self.asker.legal_moves(position.fen())
            except EngineFailed:
                answer = None
            if answer is not None:
                keys = [(m.from_square, m.to_square, m.captured) for m in answer]
                switch = broken_switch(self.rule_set, position, keys)
                if switch is not None:
                    return switch
        article: str = self.filed(failing.articles)["article"]
        return article

    def filed(self, articles: Sequence[str]) -> dict[str, Any]:
        """:func:`~conformance.verify.judgement.filed` (the most specific article), named as the game
        names it (:func:`conformance.verify.game_filing.game_article`)."""
        chosen = filed(articles)
        if self.rule_set.is_default:
            return chosen
        return {"article": game_article(self.rule_set, chosen["article"])}

    @staticmethod
    def refused_rule(
        check: str,
        position: Position,
        subject: Any,
        failed: EngineFailed,
        listed: Callable[[Position], list[MoveKey] | None] | None = None,
        engine: Engine | None = None,
    ) -> Filing | None:
        """Where a legal move an outcome question's engine refused is filed instead of the draw
        rules: under the rule its legal moves there break when they are wrong (``listed``), else
        under the move's own (a king's slide: 3.9); None for anything else."""
        if failed.refused is not None and check in (AFTER_INVARIANTS, AFTER_ORACLE) and engine is not None:
            move = next((m for m in legal_moves(position) if m.key == subject), None)
            if move is None:
                return None
            answer = listed(position) if listed is not None else None
            found = file_answer(position, answer) if answer is not None else None
            text = failed.refused.move or pdn_text(position, move)
            return found or text_filing(engine, position, text, move) or file_move(position, move)
        if failed.refused is None or check not in (OUTCOME, DRAWS) or not subject:
            return None
        ply = failed.refused.ply
        if listed is not None and ply is not None and 1 <= ply <= len(subject):
            found = file_game(position.fen(), subject[:ply], ply, listed)
            if found is not None:
                return found
        return refused_move_filing(position, subject, ply)

    def listed(self, position: Position) -> list[MoveKey] | None:
        """The engine's legal moves of ``position`` (None when it cannot list them)."""
        if Capability.LEGAL_MOVES not in self.capabilities:
            return None
        try:
            return [(m.from_square, m.to_square, m.captured) for m in self.asker.legal_moves(position.fen())]
        except EngineFailed:
            return None
