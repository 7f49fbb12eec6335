"""What ``bisect`` found, for people: the line, the board, the moves that differ, a case for ``cases/``.

The case checks one rule, chosen from the moves that differ (:func:`case_rule`); its expectation
is a TODO to be worked out by hand, with a suggestion that never comes from the oracle: the legal
moves from z3 (:func:`conformance.verify.casefile.suggested_moves`), a position after a move from
the rules' arithmetic (:func:`conformance.verify.after.position_after`).
"""

from __future__ import annotations

import hashlib

from conformance.bisect.search import Bisection, Difference, spec_of
from conformance.core.corpus.load import CORPUS_ROOT
from conformance.core.corpus.write import AFTER_SUGGESTION, TODO_HEADER, CaseDraft, written
from conformance.core.filing import Filing, file_answer
from conformance.core.filing.layers import suggested
from conformance.core.filing.played import file_move, file_played
from conformance.core.filing.registry import readings
from conformance.core.move_rules import move_rule
from conformance.core.protocol import MoveSpec
from oracle.errors import FenError
from oracle.moves import Move, legal_moves, play
from oracle.notation import pdn_text
from oracle.position import Kind, Position
from oracle.rules import INTERNATIONAL, Rules


def _legal(position: Position) -> dict[MoveSpec, Move]:
    return {spec_of(move): move for move in legal_moves(position)}


def move_kind(position: Position, spec: MoveSpec, rules: Rules = INTERNATIONAL) -> str:
    """A move in a few words: ``long king move, Art. 3.9`` when legal, ``man step`` when not (and in
    another game than international, whose articles the FMJD words do not name)."""
    legal = _legal(position) if rules == INTERNATIONAL else {}
    if spec in legal:
        rule = move_rule(position, legal[spec])
        return f"{rule.kind}, Art. {rule.article}"
    piece = position.piece_at(spec.from_square)
    who = "king" if piece is not None and piece.kind is Kind.KING else "man" if piece else "empty-square"
    return f"{who} {'capture' if spec.captured else 'move' if who == 'king' else 'step'}"


def case_rule(difference: Difference) -> tuple[str, tuple[str, ...], str | None, str]:
    """The rule a case of this difference checks, the rules it requires, its reading, and why:
    the filing of ``run`` and ``verify`` (:mod:`conformance.core.filing`) of the engine's legal moves
    there, or of its play of a legal move, made a case (:func:`~conformance.core.filing.layers.suggested`:
    ``requires`` of lower layers only, a reading's case checking the reading's first article)."""
    position = difference.position
    if difference.played is not None:
        move = difference.played
        filing = (
            file_played(position, move, difference.engine_after)
            if difference.engine_after is not None
            else file_move(position, move)
        )
    else:
        legal = [spec_of(move) for move in legal_moves(position)]
        answer = [spec for spec in legal if spec not in set(difference.missing)]
        answer += [*difference.extra, *difference.twice]
        found = file_answer(position, [(m.from_square, m.to_square, m.captured) for m in answer])
        filing = found or Filing("3.4", why="the engine's count of legal moves differs")
    article, requires, reading = suggested(filing.rule, filing.requires, readings())
    return article, requires, reading or filing.reading, filing.why or filing.rule


def _folder(article: str) -> str:
    head = article.split(".")[0]
    matches = sorted(path.name for path in CORPUS_ROOT.glob(f"{head}-*") if path.is_dir())
    return f"cases/{matches[0]}/" if matches else "cases/"


def case_draft(difference: Difference, engine_spec: str, *, z3_timeout_ms: int = 10_000) -> CaseDraft:
    """A case for ``cases/``: the position where the engine differs, its rule, and a TODO
    expectation (suggested by z3 or the rules' arithmetic, never by the oracle)."""
    article, requires, reading, why = case_rule(difference)
    position = difference.position
    where = difference.root.fen() + (f", after {difference.line_text()}" if difference.line else "")
    digest = hashlib.sha256(f"{difference.root.fen()} {position.fen()}".encode()).hexdigest()[:8]
    expect: dict[str, object]
    if difference.played is not None:
        from conformance.verify.after import position_after

        move = difference.played
        after = position_after(position, (move.from_square, move.to_square, move.captured))
        expect = {"after": [{"moves": [pdn_text(position, move)], "position": after.fen()}]}
        suggestion: tuple[str, ...] = AFTER_SUGGESTION
    else:
        from conformance.verify.casefile import suggested_moves  # z3: imported when a case is written

        suggestion, moves = suggested_moves(position, z3_timeout_ms)
        expect = {"legal_moves": moves}
    return CaseDraft(
        id=f"{article}-bisect-{digest}",
        article=article,
        requires=requires,
        reading=reading,
        source=f"constructed (found by draughts-conformance bisect from {where})",
        position=position.fen(),
        expect=expect,
        comments=(
            f"Found by draughts-conformance bisect {engine_spec} from {where}.",
            f"{'Reading ' + reading if reading else 'Article ' + article}: {why}.",
            *TODO_HEADER,
        ),
        expect_comments=suggestion,
    )


case_yaml = written(case_draft)
"""A case for ``cases/`` (YAML, indented for a file's ``cases:`` list) of what bisect found."""


def describe(bisection: Bisection, engine_spec: str, *, with_case: bool = True) -> str:
    """The report, in plain text: the line, the board, the moves that differ, a case."""
    lines = [
        f"bisect {engine_spec} from {bisection.root.fen()}, lines of up to {bisection.depth - 1} plies "
        f"({bisection.method}): {bisection.positions} position(s) compared in {bisection.seconds:.1f} s"
    ]
    if bisection.perft:
        counts = (f"depth {d} {e}" + ("" if e == o else f" (oracle {o})") for d, e, o in bisection.perft)
        lines.append("perft: " + ", ".join(counts))
    lines += [f"note: {note}" for note in bisection.notes]
    difference = bisection.difference
    international = difference is None or difference.rules == INTERNATIONAL
    if difference is None:
        lines.append(_nothing_found(bisection))
        return "\n".join(lines)
    position = difference.position
    lines += [
        f"first difference after {difference.plies} plies: {difference.line_text()}",
        f"FEN {position.fen()}",
        position.diagram(),
    ]
    if difference.played is not None:
        lines += _wrong_play(difference)
    if difference.engine_count is not None:
        lines.append(
            f"the engine counts {difference.engine_count} legal moves ({difference.compared}), "
            f"the oracle {difference.oracle_count}"
        )
    for title, specs in (
        ("missing (legal, the engine does not list them)", difference.missing),
        ("extra (the engine lists them, they are not legal)", difference.extra),
        ("listed more than once", difference.twice),
    ):
        if specs:
            lines.append(f"{title}:")
            lines += [f"  {spec}  ({move_kind(position, spec, difference.rules)})" for spec in specs]
    if difference.engine_count is not None and not difference.missing:
        lines.append("(which moves differ is unknown: the engine has no legal_moves, nor play to refuse one)")
    if with_case and not international:
        lines.append(
            f"(no ready-to-paste case in {difference.rules.name}: write it in rulesets/cases/"
            f"{difference.rules.name}/, its expectation worked out from the game's rulebook)"
        )
    elif with_case:
        lines.append(
            f"ready-to-paste case for {_folder(case_rule(difference)[0])} "
            "(work its expectation out by hand first):"
        )
        lines.append(case_yaml(difference, engine_spec))
    return "\n".join(lines)


def _nothing_found(bisection: Bisection) -> str:
    if bisection.perft_differs:
        return "the perft counts differ, but every legal-move set compared agrees: see the notes"
    if bisection.method == "perft divide":
        return (
            f"no difference: the engine's perft agrees with the oracle's to depth {bisection.depth} (counts "
            "only: a move replaced by another with as many positions below it escapes perft; `verify` "
            "compares the moves themselves). Try a larger --depth or another --fen."
        )
    games = f", nor in {bisection.games} random game(s) from it" if bisection.games else ""
    return (
        f"no difference: the engine's legal moves agree with the oracle's in every position up to "
        f"{bisection.depth - 1} plies from the start{games} (try a larger --depth, more --playouts or "
        "another --fen)"
    )


def _wrong_play(difference: Difference) -> list[str]:
    position, move, rules = difference.position, difference.played, difference.rules
    assert move is not None
    text = pdn_text(position, move, rules)
    if rules == INTERNATIONAL:
        rule = move_rule(position, move)
        text += f" ({rule.kind}, Art. {rule.article})"
    if difference.engine_after is None:
        return [f"the engine's play refuses the legal move {text}"]
    lines = [
        f"the engine's play of {text} gives {difference.engine_after}",
        f"by the rules:{' ' * (len(text) + 16)}{play(position, move, rules).fen()}",
    ]
    try:
        lines.append(Position.from_fen(difference.engine_after, rules).diagram())
    except FenError:
        lines.append("(the engine's answer is not a valid FEN)")
    return lines
