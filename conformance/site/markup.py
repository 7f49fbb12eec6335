"""HTML fragments shared by every page: diagrams, expected answers written readably, failures drawn.

Everything here returns XHTML-compatible markup (every element closed, every attribute quoted,
text escaped), so each page parses as XML as well as HTML. Moves are written by identity, as
the corpus writes them (``47x36 {14,29,31,42}``); positions as PDN FEN.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from html import escape
from typing import Any, Literal

from conformance.core.corpus.model import FenQuestion
from conformance.core.protocol import MoveSpec
from conformance.core.results import Result, Status
from conformance.core.safe_text import printable
from conformance.site.model import CaseView, QuestionView, question_kind, slug
from conformance.site.svg import ARROW_COLOURS, Arrow, ArrowRole, board_svg, move_arrow
from oracle.board import geometry
from oracle.errors import FenError
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules

#: Draw the expected legal moves as arrows when there are at most this many (more is a tangle).
MAX_ARROWS = 16

QUESTION_LABELS = {
    "fen": "Reading the FEN",
    "initial_position": "The start position",
    "legal_moves": "Legal moves",
    "move_count": "Number of legal moves",
    "perft": "Perft (leaf counts)",
    "after": "Position after playing",
    "move_text": "Reading move text",
    "notation": "Writing a move",
    "outcome": "Outcome of the game",
}

RESULT_WORDS = {
    "ongoing": "the game goes on",
    "white_wins": "White wins",
    "black_wins": "Black wins",
    "draw": "draw",
}

ARROW_LEGEND = {
    ArrowRole.MOVE: "expected move",
    ArrowRole.EXTRA: "given by the engine, not legal",
    ArrowRole.MISSING: "legal, left out by the engine",
    ArrowRole.AGREED: "legal, given by the engine too",
}


def esc(value: object) -> str:
    """Text for HTML: control characters made visible, then escaped (engine text is untrusted)."""
    return escape(printable(value), quote=True)


def code(value: object) -> str:
    return f"<code>{esc(value)}</code>"


def anchor(*parts: str) -> str:
    """A page-unique id from parts: ``anchor("f", "4.1-x", "after[0]")`` -> ``f-4.1-x--after-0``."""
    return "--".join(slug(part) for part in parts)


def case_anchor(case_id: str) -> str:
    return "case-" + slug(case_id)


def status_badge(status: Status | None, *, baselined: bool = False, blocked_by: Sequence[str] = ()) -> str:
    """A result's status; a wrong answer explained by a prerequisite failed directly says so (it is
    not counted as a failure of its rule), a baselined one too."""
    if status is None:
        return '<span class="st st-none">not run</span>'
    if blocked_by:
        return f'<span class="st st-blocked">{status.value}, blocked by {esc(", ".join(blocked_by))}</span>'
    known = " (baselined)" if baselined else ""
    return f'<span class="st st-{status.value}">{status.value}{known}</span>'


def parse_move(text: object) -> MoveSpec | None:
    if not isinstance(text, str):
        return None
    try:
        return MoveSpec.parse(text)
    except ValueError:
        return None


def position_or_none(fen: object, rules: Rules = INTERNATIONAL) -> Position | None:
    """The position of ``fen`` on the board of ``rules``'s game, or None when it is not one."""
    if not isinstance(fen, str):
        return None
    try:
        return Position.from_fen(fen, rules)
    except FenError:
        return None


def changed_squares(before: Position, after: Position) -> list[int]:
    """Squares whose content differs between two positions (of one board)."""
    squares = geometry(before.board_size).squares
    return [square for square in squares if before.piece_at(square) != after.piece_at(square)]


@lru_cache(maxsize=4096)
def _svg(
    fen: str,
    arrows: tuple[Arrow, ...],
    highlight: tuple[int, ...],
    differences: tuple[int, ...],
    title: str,
    rules: Rules,
) -> str:
    return board_svg(
        fen,
        arrows=arrows,
        highlight=highlight,
        differences=differences,
        title=title,
        shared=True,
        rules=rules,
    )


def diagram(
    fen: str,
    caption: str,
    *,
    arrows: Sequence[Arrow] = (),
    highlight: Iterable[int] = (),
    differences: Iterable[int] = (),
    title: str = "",
    legend: Iterable[ArrowRole] = (),
    rules: Rules = INTERNATIONAL,
) -> str:
    """A figure with the board of ``fen`` on its game's board (``rules``), or a note when the FEN
    is not a valid position or a mark is off the board; the board refers to the squares and
    numbers the page holds once (:func:`board_parts`)."""
    try:
        svg = _svg(fen, tuple(arrows), tuple(highlight), tuple(differences), title, rules)
    except (FenError, ValueError) as error:
        return f'<p class="nodiagram">No diagram: {esc(error)}</p>'
    keys = "".join(
        f'<li><span class="key" style="background:{ARROW_COLOURS[role]}"></span>{esc(ARROW_LEGEND[role])}</li>'
        for role in legend
    )
    legend_html = f'<ul class="legend">{keys}</ul>' if keys else ""
    return f'<figure class="diagram">{svg}<figcaption>{caption}{legend_html}</figcaption></figure>'


def moves_list(texts: Iterable[object]) -> str:
    items = [code(text) for text in texts]
    return ", ".join(items) if items else "<em>none</em>"


# -- expected answers ----------------------------------------------------------------------------


def expected_text(question: QuestionView) -> str:
    """The expected answer of a question, in words (HTML)."""
    expected = question.expected
    kind = question.kind
    if kind == "fen" and isinstance(expected, dict):
        reason = question.question.reason if isinstance(question.question, FenQuestion) else None
        if expected.get("valid"):
            read = f"; it reads as {code(expected['position'])}" if expected.get("position") else ""
            return f"A valid position{read}."
        because = f": {esc(reason)}" if reason else ""
        return f"<strong>Not</strong> a valid position{because}."
    if kind == "initial_position":
        return f"A new game starts from {code(expected)}."
    if kind == "legal_moves" and isinstance(expected, list):
        if not expected:
            return "No legal move: the side to move cannot move (Art. 7.2)."
        return f"{len(expected)} legal move{'s' * (len(expected) != 1)}: {moves_list(expected)}."
    if kind == "move_count":
        return f"{esc(expected)} legal move{'s' * (expected != 1)}."
    if kind == "perft" and isinstance(expected, list):
        return perft_table(expected)
    if kind == "after" and isinstance(expected, dict):
        return (
            f"After {moves_list(expected.get('moves', []))} the position is {code(expected.get('position'))}."
        )
    if kind == "move_text" and isinstance(expected, dict):
        notation = "PDN" if expected.get("notation") == "pdn" else "Hub"
        move = f", the move {code(expected['move'])}" if expected.get("move") else ""
        return f"{code(expected.get('text'))} in {notation}: <strong>{esc(expected.get('verdict'))}</strong>{move}."
    if kind == "notation" and isinstance(expected, dict):
        parts = []
        if expected.get("pdn"):
            parts.append(f"in PDN {' or '.join(code(text) for text in expected['pdn'])}")
        if expected.get("hub"):
            parts.append(f"in Hub {code(expected['hub'])}")
        return f"{code(expected.get('move'))} is written {' and '.join(parts)}."
    if kind == "outcome" and isinstance(expected, dict):
        moves = expected.get("moves") or []
        if not moves:
            return f"In the setup position, before any move: {outcome_words(expected)}."
        return f"After {played(moves)}: {outcome_words(expected)}."
    return code(json.dumps(expected, ensure_ascii=False))


def played(moves: Sequence[object]) -> str:
    return f'{len(moves)} move{"s" * (len(moves) != 1)} <span class="line">{moves_list(moves)}</span>'


def outcome_words(outcome: dict[str, Any]) -> str:
    result = outcome.get("result")
    words = RESULT_WORDS.get(str(result), str(result))
    if result == "ongoing" or outcome.get("rule") is None:
        return f"<strong>{esc(words)}</strong>"
    return (
        f"<strong>{esc(words)}</strong> by Art. {esc(outcome.get('rule'))} at ply {esc(outcome.get('ply'))}"
    )


def perft_table(counts: Sequence[object], got: Sequence[object] | None = None) -> str:
    head = "<tr><th>depth</th><th>expected</th>" + ("<th>engine</th>" if got is not None else "") + "</tr>"
    rows = []
    for depth, count in enumerate(counts, start=1):
        cell = ""
        if got is not None:
            answer = got[depth - 1] if depth - 1 < len(got) else None
            wrong = ' class="wrong"' if answer is not None and answer != count else ""
            cell = f"<td{wrong}>{esc(answer) if answer is not None else '-'}</td>"
        rows.append(f"<tr><td>{depth}</td><td>{esc(count)}</td>{cell}</tr>")
    return f'<table class="perft">{head}{"".join(rows)}</table>'


def expected_moves(case: CaseView) -> tuple[list[MoveSpec], str]:
    """The moves worth drawing on a case's diagram, and what they are."""
    for question in case.questions:
        if question.kind == "legal_moves" and isinstance(question.expected, list):
            specs = [spec for spec in map(parse_move, question.expected) if spec is not None]
            if specs and len(specs) <= MAX_ARROWS:
                return specs, "the expected legal moves"
            return [], ""
    named: dict[MoveSpec, None] = {}
    for question in case.questions:
        if isinstance(question.expected, dict) and question.kind in ("notation", "move_text"):
            spec = parse_move(question.expected.get("move"))
            if spec is not None:
                named[spec] = None
    if named and len(named) <= MAX_ARROWS:
        return list(named), "the moves the questions name"
    return [], ""


def case_diagram(case: CaseView) -> str:
    """The case's position, with the expected moves drawn when that helps."""
    position = position_or_none(case.position, case.rules)
    if position is None:
        return (
            f'<p class="nodiagram">No diagram: {code(case.position)} is not a valid position'
            f"{' (that is what this case is about)' if any(q.kind == 'fen' for q in case.questions) else ''}.</p>"
        )
    specs, what = expected_moves(case)
    arrows = [move_arrow(position, spec) for spec in specs]
    caption = f"{code(case.position)}"
    if arrows:
        caption += f". Arrows: {what}; crosses mark the pieces they capture"
    return diagram(case.position, caption, arrows=arrows, title=case.id, rules=case.rules)


def after_diagram(case: CaseView, question: QuestionView) -> str:
    expected = question.expected
    if not isinstance(expected, dict):
        return ""
    before = position_or_none(case.position, case.rules)
    after = position_or_none(expected.get("position"), case.rules)
    if before is None or after is None:
        return ""
    caption = (
        f"After {moves_list(expected.get('moves', []))}: {code(after.fen())}. "
        "Framed in blue: the squares the moves changed"
    )
    highlight = changed_squares(before, after)
    return diagram(after.fen(), caption, highlight=highlight, title=f"{case.id} after", rules=case.rules)


# -- an engine's answer ----------------------------------------------------------------------------


def got_text(kind: str, got: Any) -> str:
    """An engine's answer, in words (HTML)."""
    if got is None:
        return "<em>no answer</em>"
    if kind == "legal_moves":
        if isinstance(got, list):
            return f"{len(got)} move{'s' * (len(got) != 1)}: {moves_list(got)}"
        return f"chose {code(got)}"
    if kind == "fen" and isinstance(got, dict):
        if not got.get("valid"):
            return "rejected the FEN as invalid"
        return "accepted the FEN" + (f", read as {code(got['position'])}" if got.get("position") else "")
    if kind == "move_text" and isinstance(got, dict):
        move = f", the move {code(got['move'])}" if got.get("move") else ""
        return f"<strong>{esc(got.get('verdict'))}</strong>{move}"
    if kind == "notation" and isinstance(got, dict):
        return "; ".join(
            f"{'PDN' if key == 'pdn' else 'Hub'} {code(text)}" for key, text in sorted(got.items())
        )
    if kind == "outcome" and isinstance(got, dict):
        return outcome_words(got)
    if kind == "after" and isinstance(got, str):
        return code(got)
    if isinstance(got, str):
        return code(got)
    return code(json.dumps(got, ensure_ascii=False))


def _failure_drawing(case: CaseView, question: QuestionView, result: Result) -> str:
    """The engine's wrong answer drawn: wrong moves as arrows, a wrong position as a diagram."""
    kind = question_kind(result.question)
    fen = result.position or case.position
    rules = case.rules
    position = position_or_none(fen, rules)
    got, expected = result.got, result.expected
    if kind == "legal_moves" and position is not None and isinstance(expected, list):
        want = {spec for spec in map(parse_move, expected) if spec is not None}
        if isinstance(got, list):
            given = {spec for spec in map(parse_move, got) if spec is not None}
            missing, extra, agreed = sorted(want - given), sorted(given - want), sorted(want & given)
            arrows = [move_arrow(position, s, ArrowRole.MISSING) for s in missing[:MAX_ARROWS]]
            arrows += [move_arrow(position, s, ArrowRole.EXTRA) for s in extra[:MAX_ARROWS]]
            roles = [ArrowRole.MISSING] * bool(missing) + [ArrowRole.EXTRA] * bool(extra)
            if len(agreed) + len(arrows) <= MAX_ARROWS:
                arrows = [move_arrow(position, s, ArrowRole.AGREED) for s in agreed] + arrows
                roles += [ArrowRole.AGREED] * bool(agreed)
            if not arrows:
                return ""
            caption = "The engine's answer, drawn"
            title = f"{case.id}: engine's moves"
            return diagram(fen, caption, arrows=arrows, title=title, legend=roles, rules=rules)
        chosen = parse_move(got)
        arrows = [move_arrow(position, s) for s in sorted(want)[:MAX_ARROWS]]
        if chosen is not None:
            arrows.append(move_arrow(position, chosen, ArrowRole.EXTRA))
        roles = [ArrowRole.MOVE] * bool(want) + [ArrowRole.EXTRA] * (chosen is not None)
        return diagram(
            fen,
            "The engine's chosen move, drawn",
            arrows=arrows,
            title=f"{case.id}: chosen move",
            legend=roles,
            rules=rules,
        )
    if kind == "move_text" and position is not None and isinstance(got, dict):
        chosen = parse_move(got.get("move"))
        if chosen is None:
            return ""
        arrows = []
        want_move = parse_move(expected.get("move")) if isinstance(expected, dict) else None
        if want_move is not None:
            arrows.append(move_arrow(position, want_move))
        arrows.append(move_arrow(position, chosen, ArrowRole.EXTRA))
        roles = [ArrowRole.MOVE] * (want_move is not None) + [ArrowRole.EXTRA]
        return diagram(
            fen,
            "The move the engine read",
            arrows=arrows,
            title=f"{case.id}: move read",
            legend=roles,
            rules=rules,
        )
    wrong_fen: object = None
    expected_fen: object = None
    if kind == "after":
        wrong_fen = got
        expected_fen = expected.get("position") if isinstance(expected, dict) else None
    elif kind == "fen" and isinstance(got, dict) and isinstance(expected, dict):
        wrong_fen, expected_fen = got.get("position"), expected.get("position")
    wrong, right = position_or_none(wrong_fen, rules), position_or_none(expected_fen, rules)
    if wrong is not None and right is not None and wrong != right:
        differences = changed_squares(right, wrong)
        turn = " (and the side to move)" if wrong.turn != right.turn else ""
        caption = (
            f"The engine's position {code(wrong.fen())}; framed in red: where it differs from the "
            f"expected {code(right.fen())}{turn}"
        )
        title = f"{case.id}: engine's position"
        return diagram(wrong.fen(), caption, differences=differences, title=title, rules=rules)
    return ""


Detail = Literal["drawn", "words", "message"]
"""How much of a failure :func:`failure_block` shows."""


def failure_block(
    case: CaseView,
    question: QuestionView,
    result: Result,
    *,
    anchor_id: str,
    heading: str,
    detail: Detail = "drawn",
    blocked_by: Sequence[str] = (),
) -> str:
    """A failed or errored result: its message, then (``detail``) expected and got in words and the
    answer drawn, or only in words, or nothing more; a blocked one says what blocks it."""
    kind = question_kind(result.question)
    badge = status_badge(result.status, baselined=result.baselined, blocked_by=blocked_by)
    box = "blocked" if blocked_by else result.status.value
    parts = [
        f'<div class="failure st-box-{box}" id="{anchor_id}">',
        f"<p>{heading} {badge} {esc(result.message)}</p>",
    ]
    if detail == "message":
        return "".join(parts) + "</div>"
    if result.status is Status.FAIL:
        if kind == "perft" and isinstance(result.expected, list) and isinstance(result.got, list):
            parts.append(perft_table(result.expected, result.got))
        else:
            parts.append(
                '<table class="versus">'
                f"<tr><th>expected</th><td>{expected_text(question)}</td></tr>"
                f"<tr><th>engine</th><td>{got_text(kind, result.got)}</td></tr></table>"
            )
        if detail == "drawn":
            parts.append(_failure_drawing(case, question, result))
    if result.error is not None:
        said = "" if result.error.message == result.message else f": {esc(result.error.message)}"
        parts.append(f"<p>Error kind {code(result.error.kind)}{said}</p>")
        if result.error.stderr:
            parts.append(f'<pre class="stderr">{esc(result.error.stderr[-2000:])}</pre>')
    parts.append("</div>")
    return "".join(parts)


_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*([^*\n]+)\*\*")
_EMPHASIS = re.compile(r"(?<![*\w])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![*\w])")
_LINK = re.compile(r"\[([^\]\n]+)\]\([^)\n]*\)")


def _inline(text: str) -> str:
    """Inline Markdown of the rulebook: `code`, **bold**, *emphasis*, [text](link) shown as its text;
    escaped."""
    parts = _INLINE_CODE.split(text)
    out = []
    for index, part in enumerate(parts):
        if index % 2:
            out.append(f"<code>{escape(part)}</code>")
        else:
            plain = escape(_LINK.sub(r"\1", part))
            out.append(_EMPHASIS.sub(r"<em>\1</em>", _BOLD.sub(r"<strong>\1</strong>", plain)))
    return "".join(out)


def markdown_html(markdown: str) -> str:
    """The small Markdown of docs/rules.md as HTML: paragraphs, bullet lists, sub-headings, inline
    code, bold and emphasis. Everything is escaped first; nothing of the text becomes markup on its own."""
    html: list[str] = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        lines = block.splitlines()
        if all(line.lstrip().startswith(("- ", "* ")) or line.startswith("  ") for line in lines) and lines[
            0
        ].lstrip().startswith(("- ", "* ")):
            items: list[str] = []
            for line in lines:
                if line.lstrip().startswith(("- ", "* ")):
                    items.append(line.lstrip()[2:])
                elif items:
                    items[-1] += " " + line.strip()
            html.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in items) + "</ul>")
            continue
        if lines[0].startswith("#"):
            html.append(f"<h4>{_inline(lines[0].lstrip('#').strip())}</h4>")
            lines = lines[1:]
            if not lines:
                continue
        html.append(f"<p>{_inline(' '.join(line.strip() for line in lines))}</p>")
    return "".join(html)
