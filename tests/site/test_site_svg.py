"""The SVG board: squares, numbers and pieces where a printed diagram has them, moves along their routes.

Expected coordinates are written out by hand from the board as FMJD Art. 2 describes it (seen
from White, square 1 the dark square on the second column of the top row, numbered left to
right row by row), never computed with oracle.board, which the renderer itself uses.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from conformance.core.corpus import MoveSpec
from conformance.site.svg import SQUARE, Arrow, ArrowRole, board_svg, move_arrow, move_route
from oracle.errors import FenError
from oracle.position import Position
from oracle.ruleset import builtin

SVG = "{http://www.w3.org/2000/svg}"

#: (column, row) of squares, column 0 = left, row 0 = top (Black's back row), by hand.
HAND_PLACED = {
    1: (1, 0),
    5: (9, 0),
    6: (0, 1),
    10: (8, 1),
    23: (5, 4),
    28: (4, 5),
    32: (3, 6),
    45: (9, 8),
    46: (0, 9),
    50: (8, 9),
}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def center(square: int) -> tuple[float, float]:
    column, row = HAND_PLACED[square]
    return column * SQUARE + SQUARE / 2, row * SQUARE + SQUARE / 2


def pieces(root: ET.Element) -> dict[int, tuple[str, str]]:
    found = {}
    for group in root.iter(f"{SVG}g"):
        if "piece" in group.get("class", "").split():
            square = int(group.get("data-square", "0"))
            assert square not in found, f"two pieces on square {square}"
            found[square] = (group.get("data-color", ""), group.get("data-kind", ""))
    return found


def piece_group(root: ET.Element, square: int) -> ET.Element:
    return next(
        g
        for g in root.iter(f"{SVG}g")
        if "piece" in g.get("class", "").split() and g.get("data-square") == str(square)
    )


def test_squares_are_where_a_printed_diagram_has_them() -> None:
    root = parse(board_svg("W:W31-50:B1-20"))
    rects = {int(r.get("data-square", "0")): r for r in root.iter(f"{SVG}rect") if r.get("data-square")}
    assert sorted(rects) == list(range(1, 51))
    for square, (column, row) in HAND_PLACED.items():
        rect = rects[square]
        assert (float(rect.get("x", "nan")), float(rect.get("y", "nan"))) == (
            column * SQUARE,
            row * SQUARE,
        ), square
        assert (float(rect.get("width", "0")), float(rect.get("height", "0"))) == (SQUARE, SQUARE)
    corners = {(float(r.get("x", "0")), float(r.get("y", "0"))) for r in rects.values()}
    assert len(corners) == 50, "two squares drawn at the same place"
    for x, y in corners:  # every numbered square is a dark one: column + row odd
        assert (int(x // SQUARE) + int(y // SQUARE)) % 2 == 1


def test_long_diagonal_runs_from_46_to_5() -> None:
    root = parse(board_svg("W:W31-50:B1-20"))
    rects = {int(r.get("data-square", "0")): r for r in root.iter(f"{SVG}rect") if r.get("data-square")}
    diagonal = [46, 41, 37, 32, 28, 23, 19, 14, 10, 5]
    cells = [(float(rects[s].get("x", "0")), float(rects[s].get("y", "0"))) for s in diagonal]
    for (x1, y1), (x2, y2) in itertools.pairwise(cells):
        assert (x2 - x1, y2 - y1) == (SQUARE, -SQUARE)


def test_every_number_is_written_inside_its_square() -> None:
    root = parse(board_svg("W:W31-50:B1-20"))
    rects = {int(r.get("data-square", "0")): r for r in root.iter(f"{SVG}rect") if r.get("data-square")}
    numbers = [t for t in root.iter(f"{SVG}text") if (t.text or "").isdigit()]
    assert sorted(int(t.text or "") for t in numbers) == list(range(1, 51))
    for text in numbers:
        rect = rects[int(text.text or "")]
        x, y = float(rect.get("x", "0")), float(rect.get("y", "0"))
        assert x <= float(text.get("x", "-1")) < x + SQUARE / 2
        assert y < float(text.get("y", "-1")) < y + SQUARE / 2


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        (
            "W:WK1,46,50:B5,K45,K47",
            {
                1: ("white", "king"),
                46: ("white", "man"),
                50: ("white", "man"),
                5: ("black", "man"),
                45: ("black", "king"),
                47: ("black", "king"),
            },
        ),
        (
            "B:W27,28,38,39,42:BK25",
            {
                27: ("white", "man"),
                28: ("white", "man"),
                38: ("white", "man"),
                39: ("white", "man"),
                42: ("white", "man"),
                25: ("black", "king"),
            },
        ),
        (
            "W:W31-50:B1-20",
            {
                **dict.fromkeys(range(1, 21), ("black", "man")),
                **dict.fromkeys(range(31, 51), ("white", "man")),
            },
        ),
        ("B:W:B1,2", {1: ("black", "man"), 2: ("black", "man")}),
    ],
)
def test_pieces_stand_on_exactly_their_squares(fen: str, expected: dict[int, tuple[str, str]]) -> None:
    root = parse(board_svg(fen))
    assert pieces(root) == expected
    for square in expected.keys() & HAND_PLACED.keys():
        circle = piece_group(root, square).find(f"{SVG}circle")
        assert circle is not None
        assert (float(circle.get("cx", "nan")), float(circle.get("cy", "nan"))) == center(square)


def test_kings_carry_a_crown_and_men_do_not() -> None:
    root = parse(board_svg("W:WK1,46:B5,K45"))
    for square, crowned in ((1, True), (46, False), (5, False), (45, True)):
        group = piece_group(root, square)
        crowns = [p for p in group.iter(f"{SVG}polygon") if p.get("class") == "crown"]
        assert bool(crowns) is crowned, square
    white, black = piece_group(root, 46), piece_group(root, 5)
    white_fill = white.find(f"{SVG}circle")
    black_fill = black.find(f"{SVG}circle")
    assert white_fill is not None
    assert black_fill is not None
    assert white_fill.get("fill") != black_fill.get("fill")


def test_side_to_move_is_shown() -> None:
    assert parse(board_svg("B:W31:B1")).find(f".//{SVG}g[@class='turn']").get("data-turn") == "black"  # type: ignore[union-attr]
    assert parse(board_svg("W:W31:B1")).find(f".//{SVG}g[@class='turn']").get("data-turn") == "white"  # type: ignore[union-attr]


def test_accessible_name_carries_the_fen() -> None:
    root = parse(board_svg("B:W27,28,38,39,42:BK25", title="Turkish strike"))
    assert root.get("role") == "img"
    assert "B:W27,28,38,39,42:BK25" in root.get("aria-label", "")
    assert "Turkish strike" in root.get("aria-label", "")
    title = root.find(f"{SVG}title")
    assert title is not None
    assert "B:W27,28,38,39,42:BK25" in (title.text or "")


def test_output_is_deterministic() -> None:
    position = Position.from_fen("B:W27,28,38,39,42:BK25")
    arrow = move_arrow(position, MoveSpec.parse("25x33 {27,28,39,42}"))
    first = board_svg(position, arrows=[arrow], highlight=[33], differences=[38])
    assert first == board_svg(position, arrows=[arrow], highlight=[33], differences=[38])
    assert first != board_svg(position, arrows=[arrow], highlight=[33])


def test_invalid_fen_is_refused() -> None:
    with pytest.raises(FenError):
        board_svg("W:W1:B2")  # a white man on White's promotion row


# -- routes and arrows ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "move", "route"),
    [
        # The corpus's PDN full route of the Turkish strike (cases/notation/pdn-and-hub.yaml).
        ("B:W27,28,38,39,42:BK25", "25x33 {27,28,39,42}", (25, 48, 31, 22, 33)),
        # 4.1-zigzag-four-pieces: 46 -> 37 -> 28 -> 39 -> 50, worked out in the case file.
        ("W:W46:B1,32,33,41,44", "46x50 {32,33,41,44}", (46, 37, 28, 39, 50)),
        # A king going straight on lands right behind the first piece (46 NE: 41 37B 32 28 23B 19 14).
        ("W:WK46:B23,37", "46x14 {23,37}", (46, 32, 14)),
        ("W:W31-50:B1-20", "32-28", (32, 28)),
        # Impossible on this board (nothing on 37): drawn as a plain arrow from start to end.
        ("W:W46:B32", "46x28 {37}", (46, 28)),
    ],
)
def test_move_routes(fen: str, move: str, route: tuple[int, ...]) -> None:
    assert move_route(Position.from_fen(fen), MoveSpec.parse(move)) == route


def test_arrow_follows_the_route_and_marks_the_captures() -> None:
    position = Position.from_fen("B:W27,28,38,39,42:BK25")
    svg = board_svg(position, arrows=[move_arrow(position, MoveSpec.parse("25x33 {27,28,39,42}"))])
    root = parse(svg)
    arrows = [g for g in root.iter(f"{SVG}g") if "arrow" in g.get("class", "").split()]
    assert len(arrows) == 1
    arrow = arrows[0]
    assert arrow.get("data-route") == "25 48 31 22 33"
    assert arrow.get("data-role") == "move"
    line = arrow.find(f"{SVG}polyline")
    assert line is not None
    points = [tuple(map(float, p.split(","))) for p in line.get("points", "").split()]
    assert points[1:4] == list(map(_center, (48, 31, 22)))
    tip = arrow.find(f"{SVG}polygon")
    assert tip is not None
    assert tuple(map(float, tip.get("points", "").split()[0].split(","))) == _center(33)
    marks = {int(g.get("data-square", "0")) for g in root.iter(f"{SVG}g") if g.get("class") == "captured"}
    assert marks == {27, 28, 39, 42}


def _center(square: int) -> tuple[float, float]:
    """Centre of a square by hand: rows of five, odd rows (from 0) starting on the first column."""
    row, index = divmod(square - 1, 5)
    column = 2 * index + (0 if row % 2 else 1)
    return column * SQUARE + SQUARE / 2, row * SQUARE + SQUARE / 2


def test_hand_centres_agree_with_the_table() -> None:
    for square in HAND_PLACED:
        assert _center(square) == center(square)


def test_arrow_roles_and_marks() -> None:
    root = parse(
        board_svg(
            "W:W31-50:B1-20",
            arrows=[Arrow((32, 28), role=ArrowRole.EXTRA), Arrow((31, 26), role=ArrowRole.MISSING)],
            highlight=[28],
            differences=[26],
        )
    )
    roles = {g.get("data-route"): g.get("data-role") for g in root.iter(f"{SVG}g") if g.get("data-role")}
    assert roles == {"32 28": "extra", "31 26": "missing"}
    assert [r.get("data-square") for r in root.iter(f"{SVG}rect") if r.get("class") == "highlight"] == ["28"]
    assert [r.get("data-square") for r in root.iter(f"{SVG}rect") if r.get("class") == "difference"] == ["26"]
    with pytest.raises(ValueError, match="two squares"):
        Arrow((32,))


# -- legibility and shared parts --------------------------------------------------------------------


def test_numbers_are_drawn_over_the_pieces_and_readable_on_a_phone() -> None:
    """A number stays visible on an occupied square, and renders at least 9 CSS px high where the
    pages draw a board narrowest (300 px: a phone, inside a failure box)."""
    from conformance.site.svg import FRAME, NUMBER_SIZE

    root = parse(board_svg("W:W31-50:B1-20"))
    order = [g.get("class") for g in root if g.tag == f"{SVG}g"]
    assert order.index("numbers") > order.index("pieces")
    numbers = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "numbers")
    assert float(numbers.get("font-size", "0")) == NUMBER_SIZE
    assert NUMBER_SIZE * 300 / (10 * SQUARE + 2 * FRAME) >= 9


def test_shared_boards_refer_to_parts_the_page_holds_once() -> None:
    from conformance.site.svg import board_parts

    fen = "W:WK1,46,50:B5,K45,K47"
    shared = board_svg(fen, shared=True)
    whole = board_svg(fen)
    assert len(shared) < len(whole) / 3
    parts = parse(board_parts())
    ids = {element.get("id") for element in parts.iter() if element.get("id")}
    root = parse(shared)
    refs = [use.get("href", "") for use in root.iter(f"{SVG}use")]
    assert all(ref.startswith("#") and ref[1:] in ids for ref in refs)
    used = {
        int(use.get("data-square", "0")): use.get("href")
        for use in root.iter(f"{SVG}use")
        if use.get("class") == "piece"
    }
    assert used == {
        1: "#dc-white-king",
        46: "#dc-white-man",
        50: "#dc-white-man",
        5: "#dc-black-man",
        45: "#dc-black-king",
        47: "#dc-black-king",
    }
    piece = next(use for use in root.iter(f"{SVG}use") if use.get("data-square") == "46")
    assert (float(piece.get("x", "nan")), float(piece.get("y", "nan"))) == center(46)


@pytest.mark.parametrize(
    ("game", "fen", "corners"),
    [
        # By hand, as on 10x10: square 1 on the second column of the top row, the last square on the
        # first column of the bottom row; 8x8: 32 squares, 29 bottom left; 12x12: 72, 67 bottom left.
        ("russian", "W:W21-32:B1-12", {1: (1, 0), 4: (7, 0), 5: (0, 1), 29: (0, 7), 32: (6, 7)}),
        ("canadian", "W:W43-72:B1-30", {1: (1, 0), 6: (11, 0), 7: (0, 1), 67: (0, 11), 72: (10, 11)}),
    ],
)
def test_another_games_board_is_drawn_on_its_own_squares(
    game: str, fen: str, corners: dict[int, tuple[int, int]]
) -> None:
    rules = builtin(game)
    root = parse(board_svg(fen, rules=rules))
    size = rules.board_size
    assert root.get("viewBox") == f"-4 -4 {size * SQUARE + 8} {size * SQUARE + 22 + 8}"
    assert root.get("data-size") == str(size)
    rects = {int(r.get("data-square", "0")): r for r in root.iter(f"{SVG}rect") if r.get("data-square")}
    assert sorted(rects) == list(range(1, size * size // 2 + 1))
    for square, (column, row) in corners.items():
        assert (float(rects[square].get("x", "0")), float(rects[square].get("y", "0"))) == (
            column * SQUARE,
            row * SQUARE,
        ), square
    assert len(pieces(root)) == 2 * rules.men_rows * size // 2  # each side's men, on the game's board
    with pytest.raises(ValueError, match=f"square {size * size // 2 + 1} is outside 1-{size * size // 2}"):
        board_svg(fen, rules=rules, highlight=[size * size // 2 + 1])
