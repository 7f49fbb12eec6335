"""The checks' names, the judgement of one answer, and the article a judgement is filed under.

A :class:`Judgement` is what a check of :class:`conformance.verify.judges.Checks` says of one
answer: its findings (:mod:`conformance.verify.findings`), the articles to file it under, and the
expected and given answers as the report shows them. :func:`filed` picks the most specific
article; :func:`legal_move_articles` and :func:`finding_articles` say which articles a legal-move
answer is about (Art. 4 with a capture, 3 and 5 without); :func:`z3_facts` is the z3 side's
expected answer.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Sequence
from typing import Any, Final

from conformance.core.corpus.model import article_sort_key
from conformance.core.filing.played import file_move
from conformance.core.protocol import MoveSpec
from conformance.verify.checks import quiet_moves
from conformance.verify.findings import Finding, FindingKind, MoveKey, move_text
from conformance.verify.jumps import capture_graphs
from conformance.verify.smt import CaptureSolver
from oracle.moves import legal_moves
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules

# The checks' names; each check's record (capability, judge, filing, shrink rank, source) is in
# conformance.verify.registry.
Z3: Final = "legal_moves[z3]"


INVARIANTS: Final = "legal_moves[invariants]"


ORACLE: Final = "legal_moves[oracle]"


SYMMETRY: Final = "symmetry"


AFTER_INVARIANTS: Final = "after[invariants]"


AFTER_ORACLE: Final = "after[oracle]"


OUTCOME: Final = "outcome[oracle]"


DRAWS: Final = "outcome[draws]"
"""The outcomes of a steered draw-rule game (``--kind draws``) around each boundary, vs the oracle's."""


CHOSEN_Z3: Final = "choose_move[z3]"


CHOSEN_ORACLE: Final = "choose_move[oracle]"


AFTER_CHECKS: Final = (AFTER_INVARIANTS, AFTER_ORACLE)
"""The checks of a position after one move: their subject is the move (a ``MoveKey``)."""


OUTCOME_CHECKS: Final = (OUTCOME, DRAWS)
"""The checks of a game's outcome: their subject is the moves played, filed under their judgement's rules."""


ANSWER_KINDS: Final = frozenset({FindingKind.MALFORMED, FindingKind.DUPLICATE, FindingKind.CAPTURED_SQUARES})
"""Findings about the answer's form: reported by the invariants row, not again by the z3 row."""


def articles_of(kinds: Iterable[FindingKind]) -> tuple[str, ...]:
    return tuple(sorted({a for kind in kinds for a in kind.articles}, key=article_sort_key))


CAPTURE_ARTICLES: Final = articles_of(
    (FindingKind.SOUNDNESS, FindingKind.OPTIMALITY, FindingKind.COMPLETENESS, FindingKind.COMPULSORY_CAPTURE)
)


QUIET_ARTICLES: Final = FindingKind.QUIET_MOVES.articles


AFTER_ARTICLES: Final = articles_of(
    (FindingKind.PIECE_COUNT, FindingKind.PROMOTION_ROW, FindingKind.PROMOTION, FindingKind.RESULT_POSITION)
)


#: When a check concerns several articles, the one its result is filed under: the most specific
#: rule first (move identity, the maximum capture, compulsory capture, dead pieces...).
_FILING_ORDER: Final = (
    "8",
    "4.13",
    "4.2",
    "4.11",
    "4.8",
    "4.15",
    "3.5",
    "4.6",
    "4.3",
    "4.5",
    "4.1",
    "3.4",
    "3.9",
    "7.2.2",
    "7.2.3",
    "6.1",
    "6.2",
    "6.3",
    "6.4",
    "7.2",
    "2",
    "3",
    "4",
)


def filed(articles: Sequence[str]) -> dict[str, Any]:
    """A verify result is filed under one article (the most specific it concerns)."""
    if not articles:
        return {"article": "?"}
    rank = {article: index for index, article in enumerate(_FILING_ORDER)}
    return {"article": min(articles, key=lambda a: rank.get(a, len(rank)))}


def played_move_rule(position: Position, key: MoveKey) -> str | None:
    """The rule of the legal move ``key`` (from, to, captured) in ``position``, if it is one: the
    most specific it relies on (:func:`conformance.core.filing.played.file_move`)."""
    return _played_move_rule(position, (key[0], key[1], frozenset(key[2])))


@functools.lru_cache(maxsize=16)
def _played_move_rule(position: Position, key: MoveKey) -> str | None:
    """:func:`played_move_rule`, remembered for the last few moves: both checks of a move played
    (``after[...]``) file their pass under it."""
    for move in legal_moves(position):
        if move.key == key:
            return file_move(position, move).rule
    return None


@dataclasses.dataclass(frozen=True)
class Judgement:
    """What one check says about one answer: its findings (none = pass), expected vs got, articles."""

    findings: tuple[Finding, ...]
    articles: tuple[str, ...]
    expected: Any = None
    got: Any = None
    subject: Any = None
    """What the check was about besides the position: the move played, the move sequence."""
    requires: tuple[str, ...] = ()
    """Rules the failure relies on (an outcome the draw model cannot tell from a reading read the
    other way relies on that reading: blocked where the engine fails the reading directly)."""

    @property
    def kind(self) -> FindingKind | None:
        return self.findings[0].kind if self.findings else None


def key_texts(keys: Iterable[MoveKey]) -> list[str]:
    return [move_text(key) for key in sorted(keys, key=lambda key: (key[0], key[1], sorted(key[2])))]


def spec_texts(moves: Iterable[MoveSpec]) -> list[str]:
    return key_texts((move.from_square, move.to_square, move.captured) for move in moves)


def can_capture(position: Position, rules: Rules = INTERNATIONAL) -> bool:
    """Whether the side to move can jump at all (the verifier's own jump table, no z3 call)."""
    return bool(capture_graphs(position, rules))


def finding_articles(position: Position, findings: Iterable[Finding]) -> tuple[str, ...]:
    """The articles of ``findings``; wrong moves without a capture narrowed to the pieces whose
    moves differ: a king's (3.9), a man's (3.4) or both."""
    articles: set[str] = set()
    for finding in findings:
        if finding.kind is not FindingKind.QUIET_MOVES:
            articles.update(finding.articles)
            continue
        texts = [*finding.detail.get("missing", ()), *finding.detail.get("extra", ())]
        kings, board = position.kings(position.turn), position.geometry
        starts = {int(text.split("-")[0]) for text in texts if text.split("-")[0].isdigit()}
        narrowed = {
            "3.9" if kings & board.bit[square] else "3.4"
            for square in starts
            if 1 <= square <= board.square_count
        }
        articles.update(narrowed or finding.articles)
    return tuple(sorted(articles, key=article_sort_key))


def legal_move_articles(position: Position, rules: Rules = INTERNATIONAL) -> tuple[str, ...]:
    return CAPTURE_ARTICLES if can_capture(position, rules) else QUIET_ARTICLES


def z3_facts(solver: CaptureSolver) -> dict[str, Any]:
    """What z3 proves about the legal moves (or, without a capture, the rules' quiet moves)."""
    if not solver.can_capture:
        return {"moves": key_texts(quiet_moves(solver.position, solver.rules))}
    m, _ = solver.maximum()
    return {"maximum": m, "moves": key_texts(capture.key for capture in solver.legal_captures())}
