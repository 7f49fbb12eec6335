"""SVG diagrams of positions, drawn as printed diagrams are (FMJD Art. 2), on the board of the
position's game (10x10; 8x8 and 12x12 for the other games of the family, numbered the same way).

The board is seen from White: square 1 is the dark square on the second column of the top row,
46 the first dark square of the bottom row (on 10x10), and the long diagonal runs 46-5. Every dark square
carries its number in its top-left corner, drawn over the pieces with a halo so that it stays
legible on an occupied square (at the width the pages draw a board, the numbers render at least
9 CSS pixels high). Men are discs; kings are discs with a ring and a crown. A move is drawn as an arrow along its route (start, every landing square, end)
with a cross on every captured piece; squares can be highlighted.

Every element that says something about the position carries ``data-*`` attributes (the
square, the colour, the kind of piece, the role of an arrow), so tests read the diagram back
from the SVG itself. Output is deterministic: the same input gives the same bytes.

A page holding many boards draws the squares, the numbers and the four kinds of piece once
(:func:`board_parts`) and has every board refer to them (``board_svg(..., shared=True)``): a
board is then a list of references and its marks, a kilobyte or two instead of eight.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterable, Sequence
from html import escape
from typing import Final

from conformance.core.protocol import MoveSpec
from oracle.board import INTERNATIONAL_SIZE, LARGEST_SIZE, TEN, Direction, Geometry, geometry
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL, Rules

#: The side of one square, in SVG user units; a board of N columns is N x SQUARE units.
SQUARE: Final = 40
FRAME: Final = 4
CAPTION: Final = 22
"""Height of the strip under the board that says who is to move."""
PIECE_RADIUS: Final = 14.5
NUMBER_SIZE: Final = 12.5
"""Font size of the square numbers, in SVG user units (the board is 408 units wide)."""
WIDTH: Final = 340
"""The width a board is drawn at by default, in CSS pixels: numbers render 10.4 px high."""
SQUARES_ID: Final = "dc-squares"
NUMBERS_ID: Final = "dc-numbers"


def parts_id(ident: str, size: int) -> str:
    """The id of the shared squares or numbers of a ``size`` board (10x10: the id itself)."""
    return ident if size == INTERNATIONAL_SIZE else f"{ident}-{size}"


LIGHT: Final = "#f1e4c8"
DARK: Final = "#a5744a"
NUMBER: Final = "#fffaf0"
EDGE: Final = "#4a3522"
WHITE_FILL, WHITE_EDGE = "#fbf8f0", "#3b3b3b"
BLACK_FILL, BLACK_EDGE = "#262626", "#000000"
CROWN_ON_WHITE, CROWN_ON_BLACK = "#b8860b", "#f2c94c"
HIGHLIGHT: Final = "#2f81f7"
DIFFERENCE: Final = "#d1242f"


class ArrowRole(enum.Enum):
    """What an arrow stands for; each role has its own colour (and a legend in the pages)."""

    MOVE = "move"
    """An expected move (green)."""
    EXTRA = "extra"
    """A move the engine gave that is not legal (red)."""
    MISSING = "missing"
    """A legal move the engine left out (blue, dashed)."""
    AGREED = "agreed"
    """A legal move the engine also gave (grey, thin)."""


_ARROW_STYLE: Final = {
    # role: (colour, stroke width, dash pattern)
    ArrowRole.MOVE: ("#1a7f37", 4.5, ""),
    ArrowRole.EXTRA: ("#d1242f", 4.5, ""),
    ArrowRole.MISSING: ("#0969da", 4.0, "7 5"),
    ArrowRole.AGREED: ("#6e7781", 2.5, ""),
}

ARROW_COLOURS: Final = {role: style[0] for role, style in _ARROW_STYLE.items()}


@dataclasses.dataclass(frozen=True)
class Arrow:
    """A move drawn on the board: its route (start, landing squares, end) and captured squares."""

    route: tuple[int, ...]
    captured: frozenset[int] = frozenset()
    role: ArrowRole = ArrowRole.MOVE
    label: str = ""
    """The move as text (for the arrow's tooltip)."""

    def __post_init__(self) -> None:
        if len(self.route) < 2:
            raise ValueError(f"an arrow needs at least two squares, not {self.route!r}")
        largest = geometry(LARGEST_SIZE).square_count
        for square in (*self.route, *self.captured):
            if not 1 <= square <= largest:
                raise ValueError(f"square {square} is outside 1-{largest}")


# -- geometry ----------------------------------------------------------------------------------


def square_origin(square: int, board: Geometry = TEN) -> tuple[int, int]:
    """The top-left corner (x, y) of a square of ``board``, in SVG user units."""
    return board.column_of(square) * SQUARE, board.row_of(square) * SQUARE


def square_center(square: int, board: Geometry = TEN) -> tuple[float, float]:
    x, y = square_origin(square, board)
    return x + SQUARE / 2, y + SQUARE / 2


def _n(value: float) -> str:
    """A number as SVG text: at most two decimals, no trailing zeros, no ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


# -- routes ------------------------------------------------------------------------------------


def move_route(position: Position, move: MoveSpec) -> tuple[int, ...]:
    """One route of ``move`` in ``position``: start, one landing square per captured piece, end.

    The route is found on the board's geometry alone (not with the oracle's rules), so it can
    draw an engine's wrong move too: a man jumps an adjacent piece and lands right behind it; a
    king jumps a piece at any distance and lands on any empty square behind it; pieces already
    jumped stay on the board and block (Art. 4.11); the start square counts as empty. Landing
    squares nearest to the jumped piece are tried first, so a capture that goes straight on
    lands right behind each piece, as PDN writes full routes. A man that lands on its far row
    mid-capture goes on as a man where it can, else as a king (Russian draughts crowns it there).
    When no such route exists (the move is impossible on this board) the route is just the start
    and the end.
    """
    if not move.captured:
        return (move.from_square, move.to_square)
    piece = position.piece_at(move.from_square)
    if piece is None:
        return (move.from_square, move.to_square)
    board = geometry(position.board_size)
    far_row = 0 if piece.color is Color.WHITE else board.size - 1
    if not all(board.is_square(s) for s in (move.from_square, move.to_square, *move.captured)):
        return (move.from_square, move.to_square)
    occupied = {s for s in board.squares if position.piece_at(s) is not None} - {move.from_square}
    targets = move.captured
    dead_ends: set[tuple[int, frozenset[int], bool]] = set()

    def search(square: int, taken: frozenset[int], is_king: bool) -> tuple[int, ...] | None:
        if taken == targets:
            return (square,) if square == move.to_square else None
        if (square, taken, is_king) in dead_ends:
            return None
        for direction in Direction:
            ray = board.rays[square][direction]
            index = 0
            if is_king:
                while index < len(ray) and ray[index] not in occupied:
                    index += 1
            if index >= len(ray) or ray[index] not in targets or ray[index] in taken:
                continue
            jumped = ray[index]
            landings = []
            for beyond in ray[index + 1 :]:
                if beyond in occupied:
                    break
                landings.append(beyond)
                if not is_king:
                    break
            for landing in landings:
                crowned = (is_king, True) if board.row_of(landing) == far_row else (is_king,)
                for king in dict.fromkeys(crowned):
                    rest = search(landing, taken | {jumped}, king)
                    if rest is not None:
                        return (square, *rest)
        dead_ends.add((square, taken, is_king))
        return None

    route = search(move.from_square, frozenset(), piece.kind is Kind.KING)
    return route if route is not None else (move.from_square, move.to_square)


def move_arrow(position: Position, move: MoveSpec, role: ArrowRole = ArrowRole.MOVE) -> Arrow:
    """The arrow of a move by identity in a position (see :func:`move_route`)."""
    return Arrow(move_route(position, move), move.captured, role, str(move))


# -- drawing -----------------------------------------------------------------------------------


def _piece_shape(color: Color, kind: Kind, cx: float, cy: float) -> str:
    """A man (a disc) or a king (a disc with a ring and a crown) centred on (cx, cy)."""
    fill, edge = (WHITE_FILL, WHITE_EDGE) if color is Color.WHITE else (BLACK_FILL, BLACK_EDGE)
    parts = [
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(PIECE_RADIUS)}" fill="{fill}" stroke="{edge}" '
        'stroke-width="1.5"/>'
    ]
    if kind is Kind.KING:
        crown = CROWN_ON_WHITE if color is Color.WHITE else CROWN_ON_BLACK
        parts.append(
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(PIECE_RADIUS - 4)}" fill="none" '
            f'stroke="{crown}" stroke-width="1.5"/>'
        )
        points = [(-6, 4), (-6, -3), (-3, 0), (0, -5), (3, 0), (6, -3), (6, 4)]
        path = " ".join(f"{_n(cx + dx)},{_n(cy + dy)}" for dx, dy in points)
        parts.append(f'<polygon class="crown" points="{path}" fill="{crown}"/>')
    return "".join(parts)


def _color_name(color: Color) -> str:
    return "white" if color is Color.WHITE else "black"


def _piece_id(color: Color, kind: Kind) -> str:
    return f"dc-{_color_name(color)}-{kind.value}"


def _piece(square: int, color: Color, kind: Kind, board: Geometry, *, shared: bool = False) -> str:
    cx, cy = square_center(square, board)
    name = _color_name(color)
    if shared:  # the shape is drawn once per page (board_parts), centred on (0, 0)
        return (
            f'<use class="piece" href="#{_piece_id(color, kind)}" x="{_n(cx)}" y="{_n(cy)}" '
            f'data-square="{square}"/>'
        )
    return (
        f'<g class="piece {name} {kind.value}" data-square="{square}" data-color="{name}" '
        f'data-kind="{kind.value}">{_piece_shape(color, kind, cx, cy)}</g>'
    )


def _arrow(arrow: Arrow, board: Geometry) -> str:
    colour, width, dash = _ARROW_STYLE[arrow.role]
    points = [square_center(square, board) for square in arrow.route]
    # Stop the shaft where the head begins, so the tip lands on the centre of the last square.
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = 3.2 * width
    base = (x2 - ux * head, y2 - uy * head)
    shaft = [*points[:-1], base]
    left = (base[0] - uy * head * 0.55, base[1] + ux * head * 0.55)
    right = (base[0] + uy * head * 0.55, base[1] - ux * head * 0.55)
    route = " ".join(map(str, arrow.route))
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    title = f"<title>{escape(arrow.label)}</title>" if arrow.label else ""
    # Start at the rim of the moving piece, so the piece (a king's crown) stays visible.
    (sx, sy), (nx, ny) = points[0], points[1]
    first = math.hypot(nx - sx, ny - sy) or 1.0
    shaft[0] = (sx + (nx - sx) / first * PIECE_RADIUS * 0.8, sy + (ny - sy) / first * PIECE_RADIUS * 0.8)
    return (
        f'<g class="arrow {arrow.role.value}" data-role="{arrow.role.value}" data-route="{route}" '
        f'opacity="0.85">{title}'
        f'<polyline points="{" ".join(f"{_n(x)},{_n(y)}" for x, y in shaft)}" fill="none" '
        f'stroke="{colour}" stroke-width="{_n(width)}" stroke-linejoin="round" stroke-linecap="round"{dashed}/>'
        f'<polygon points="{_n(x2)},{_n(y2)} {_n(left[0])},{_n(left[1])} {_n(right[0])},{_n(right[1])}" '
        f'fill="{colour}"/></g>'
    )


def _capture_mark(square: int, colour: str, board: Geometry) -> str:
    cx, cy = square_center(square, board)
    d = 9
    return (
        f'<g class="captured" data-square="{square}" stroke="{colour}" stroke-width="3.5" '
        f'stroke-linecap="round" opacity="0.9">'
        f'<line x1="{_n(cx - d)}" y1="{_n(cy - d)}" x2="{_n(cx + d)}" y2="{_n(cy + d)}"/>'
        f'<line x1="{_n(cx - d)}" y1="{_n(cy + d)}" x2="{_n(cx + d)}" y2="{_n(cy - d)}"/></g>'
    )


def _frame(square: int, kind: str, colour: str, board: Geometry) -> str:
    x, y = square_origin(square, board)
    return (
        f'<rect class="{kind}" data-square="{square}" x="{x + 2}" y="{y + 2}" width="{SQUARE - 4}" '
        f'height="{SQUARE - 4}" fill="none" stroke="{colour}" stroke-width="3"/>'
    )


def _squares(board: Geometry = TEN) -> str:
    side = board.size * SQUARE
    out = [
        f'<rect x="{-FRAME}" y="{-FRAME}" width="{side + 2 * FRAME}" height="{side + 2 * FRAME}" '
        f'fill="{EDGE}"/>',
        f'<rect x="0" y="0" width="{side}" height="{side}" fill="{LIGHT}"/>',
        f'<g class="squares" fill="{DARK}">',
    ]
    for square in board.squares:
        x, y = square_origin(square, board)
        out.append(f'<rect data-square="{square}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}"/>')
    out.append("</g>")
    return "\n".join(out)


def _numbers(ident: str = "", board: Geometry = TEN) -> str:
    """Every dark square's number, top left, with a halo of the square's colour (it is drawn over
    the pieces, and must stay legible on a white man as on a black one)."""
    id_attribute = f' id="{ident}"' if ident else ""
    out = [
        f'<g class="numbers"{id_attribute} font-family="sans-serif" font-size="{_n(NUMBER_SIZE)}" '
        f'font-weight="600" fill="{NUMBER}" stroke="{DARK}" stroke-width="2.5" paint-order="stroke" '
        'aria-hidden="true">'
    ]
    for square in board.squares:
        x, y = square_origin(square, board)
        out.append(f'<text x="{x + 1}" y="{y + 11}">{square}</text>')
    out.append("</g>")
    return "\n".join(out)


def board_parts(sizes: Iterable[int] = (INTERNATIONAL_SIZE,)) -> str:
    """The squares, numbers and pieces every ``shared`` board of a page refers to, for boards of
    ``sizes``: an invisible SVG to put once in the page, before or after the boards."""
    pieces = "".join(
        f'<g id="{_piece_id(color, kind)}">{_piece_shape(color, kind, 0, 0)}</g>'
        for color in Color
        for kind in Kind
    )
    boards = "".join(
        f'<g id="{parts_id(SQUARES_ID, size)}">{_squares(geometry(size))}</g>'
        f"{_numbers(parts_id(NUMBERS_ID, size), geometry(size))}"
        for size in sorted(set(sizes))
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" class="board-parts" width="0" height="0" '
        f'style="position:absolute" aria-hidden="true" focusable="false"><defs>{boards}{pieces}</defs></svg>'
    )


def sizes_referred(body: str) -> list[int]:
    """The board sizes whose shared parts the boards of ``body`` refer to (:func:`board_parts`)."""
    return [size for size in range(4, LARGEST_SIZE + 1, 2) if f'href="#{parts_id(SQUARES_ID, size)}"' in body]


def board_svg(
    position: Position | str,
    *,
    arrows: Sequence[Arrow] = (),
    highlight: Iterable[int] = (),
    differences: Iterable[int] = (),
    title: str | None = None,
    caption: bool = True,
    width: int | None = None,
    shared: bool = False,
    rules: Rules = INTERNATIONAL,
) -> str:
    """An SVG document (also valid inline in HTML) of ``position`` with optional marks.

    ``arrows`` are moves along their routes, with a cross on every piece they capture;
    ``highlight`` frames squares in blue (squares a move changed); ``differences`` frames
    squares in red (where an engine's position differs from the expected one). ``title``
    becomes the accessible name together with the FEN. With ``shared``, the squares, numbers and
    pieces are not drawn but referred to (``<use>``, a piece with its ``data-square``): the page
    must hold :func:`board_parts` once. A FEN is read under ``rules`` (its game's board); a
    position is drawn on its own board, ``width`` CSS pixels wide (by default :data:`WIDTH`, wider
    for a board of more than 10 columns, so that its numbers stay as legible).
    Raises :class:`oracle.errors.FenError` for a FEN that is not a valid position, ValueError for
    a mark outside the board.
    """
    if isinstance(position, str):
        position = Position.from_fen(position, rules)
    board = geometry(position.board_size)
    for square in (*highlight, *differences, *(s for a in arrows for s in (*a.route, *a.captured))):
        if not board.is_square(square):
            raise ValueError(f"square {square} is outside 1-{board.square_count}")
    side = board.size * SQUARE
    width = width if width is not None else WIDTH * max(board.size, INTERNATIONAL_SIZE) // INTERNATIONAL_SIZE
    fen = position.fen()
    turn = "White" if position.turn is Color.WHITE else "Black"
    label = f"{title}. " if title else ""
    label += f"Position {fen}, {turn} to move"
    if arrows:
        label += "; arrows: " + ", ".join(a.label or "-".join(map(str, a.route)) for a in arrows)
    height = side + (CAPTION if caption else 0)
    size = board.size
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" role="img" '
        f'viewBox="{-FRAME} {-FRAME} {side + 2 * FRAME} {height + 2 * FRAME}" width="{width}" '
        f'height="{_n(width * (height + 2 * FRAME) / (side + 2 * FRAME))}" '
        f'aria-label="{escape(label)}" data-fen="{escape(fen)}"'
        + (f' data-size="{size}">' if size != INTERNATIONAL_SIZE else ">"),
        f"<title>{escape(label)}</title>",
        f'<use href="#{parts_id(SQUARES_ID, size)}"/>' if shared else _squares(board),
    ]
    for square in sorted(set(highlight)):
        out.append(_frame(square, "highlight", HIGHLIGHT, board))
    for square in sorted(set(differences)):
        out.append(_frame(square, "difference", DIFFERENCE, board))
    out.append('<g class="pieces">')
    for square in board.squares:
        piece = position.piece_at(square)
        if piece is not None:
            out.append(_piece(square, piece.color, piece.kind, board, shared=shared))
    out.append("</g>")
    out.append(f'<use href="#{parts_id(NUMBERS_ID, size)}"/>' if shared else _numbers(board=board))
    if arrows:
        marks: dict[int, str] = {}
        for arrow in arrows:
            for square in sorted(arrow.captured):
                marks.setdefault(square, ARROW_COLOURS[arrow.role])
        out.append('<g class="moves">')
        out += [_capture_mark(square, colour, board) for square, colour in sorted(marks.items())]
        out += [_arrow(arrow, board) for arrow in arrows]
        out.append("</g>")
    if caption:
        fill, edge = (WHITE_FILL, WHITE_EDGE) if position.turn is Color.WHITE else (BLACK_FILL, BLACK_EDGE)
        middle = side + FRAME + CAPTION / 2
        out.append(
            f'<g class="turn" data-turn="{turn.lower()}"><circle cx="8" cy="{_n(middle)}" r="6" fill="{fill}" '
            f'stroke="{edge}"/><text x="20" y="{_n(middle + 4.5)}" font-family="sans-serif" font-size="13" '
            f'fill="#222">{turn} to move</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out)
