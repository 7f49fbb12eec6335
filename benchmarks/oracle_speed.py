"""How fast is the oracle? Perft leaves per second, and microseconds per FEN -> legal-move set.

    python benchmarks/oracle_speed.py [--depth 6] [--positions 1000] [--seed 2026] [--repeat 3]

1. perft from the start position (depth 6 = 167,140 leaves by default), leaves per second;
2. FEN -> legal-move set (parse the FEN, generate every legal move with its captured squares)
   over a fixed, seeded set of mid-game and king-rich positions, microseconds per position.

Where py-draughts (PyPI ``py-draughts``, module ``draughts``) is importable, the same work is
measured with it in the same run and the ratio printed: its public API (``Board.legal_moves``
with ``push``/``pop``) and, for perft, its internal bitboard engine (``engines.turbo.perft``)
too. Figures are best-of-``--repeat`` wall-clock times.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from oracle.board import SQUARES, row_of
from oracle.moves import legal_moves, play
from oracle.perft import perft
from oracle.position import Color, Position


def mid_game_positions(count: int, rng: random.Random) -> list[Position]:
    """Positions from random play-outs of 10-60 plies from the start (games that end are retried)."""
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.initial()
        for _ in range(rng.randint(10, 60)):
            moves = legal_moves(position)
            if not moves:
                break
            position = play(position, rng.choice(moves))
        if legal_moves(position):
            positions.append(position)
    return positions


def king_rich_positions(count: int, rng: random.Random) -> list[Position]:
    """Random valid positions with 2-5 kings and 0-8 men a side (flying kings, long captures)."""
    positions: list[Position] = []
    while len(positions) < count:
        squares = rng.sample(SQUARES, 26)
        placed: dict[str, set[int]] = {"wm": set(), "wk": set(), "bm": set(), "bk": set()}
        for key, low, high in (("wk", 2, 5), ("bk", 2, 5), ("wm", 0, 8), ("bm", 0, 8)):
            for _ in range(rng.randint(low, high)):
                square = squares.pop()
                if (key == "wm" and row_of(square) == 0) or (key == "bm" and row_of(square) == 9):
                    continue
                placed[key].add(square)
        turn = rng.choice([Color.WHITE, Color.BLACK])
        position = Position.from_squares(turn, placed["wm"], placed["wk"], placed["bm"], placed["bk"])
        if legal_moves(position):
            positions.append(position)
    return positions


def best_of(repeat: int, work: Callable[[], Any]) -> tuple[float, Any]:
    best, answer = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        answer = work()
        best = min(best, time.perf_counter() - started)
    return best, answer


def _py_draughts() -> Any:
    try:
        import draughts  # type: ignore[import-not-found]
    except ImportError:
        return None
    return draughts if hasattr(draughts, "StandardBoard") else None  # pydraughts also installs 'draughts'


def py_draughts_perft(draughts: Any, depth: int) -> int:
    board = draughts.StandardBoard()

    def walk(depth: int) -> int:
        moves = board.legal_moves
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += walk(depth - 1)
            board.pop()
        return total

    return walk(depth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument(
        "--positions", type=int, default=1000, help="positions of each kind (mid-game, king-rich)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    draughts = _py_draughts()
    print(
        f"python {sys.version.split()[0]}; py-draughts: {getattr(draughts, '__version__', 'not installed')}"
    )

    start = Position.initial()
    seconds, leaves = best_of(args.repeat, lambda: perft(start, args.depth))
    oracle_rate = leaves / seconds
    print(f"\nperft({args.depth}) from the start: {leaves} leaves")
    print(f"  oracle                     {seconds:8.3f} s  {oracle_rate:12,.0f} leaves/s")
    if draughts is not None:
        seconds, theirs = best_of(args.repeat, lambda: py_draughts_perft(draughts, args.depth))
        rate = theirs / seconds
        print(f"  py-draughts Board API      {seconds:8.3f} s  {rate:12,.0f} leaves/s  ({theirs} leaves)")
        print(f"  ratio oracle / py-draughts (Board API): {oracle_rate / rate:.2f}x")
        try:
            from draughts.engines.turbo import perft_from_board  # type: ignore[import-not-found]
        except ImportError:
            perft_from_board = None
        if perft_from_board is not None:
            board = draughts.StandardBoard()
            seconds, theirs = best_of(args.repeat, lambda: perft_from_board(board, args.depth))
            rate = theirs / seconds
            print(
                f"  py-draughts turbo (internal) {seconds:6.3f} s  {rate:12,.0f} leaves/s  ({theirs} leaves)"
            )
            print(f"  ratio oracle / py-draughts (turbo):     {oracle_rate / rate:.2f}x")

    rng = random.Random(args.seed)
    positions = mid_game_positions(args.positions, rng) + king_rich_positions(args.positions, rng)
    fens = [position.fen() for position in positions]
    seconds, total = best_of(
        args.repeat, lambda: sum(len(legal_moves(Position.from_fen(fen))) for fen in fens)
    )
    oracle_us = seconds / len(fens) * 1e6
    print(
        f"\nFEN -> legal-move set over {len(fens)} positions (seed {args.seed}; {args.positions} mid-game, "
        f"{args.positions} king-rich; {total} moves in all)"
    )
    print(f"  oracle                     {oracle_us:8.1f} us/position")
    if draughts is not None:

        def theirs() -> int:
            count = 0
            for fen in fens:
                count += len(draughts.StandardBoard.from_fen(fen).legal_moves)
            return count

        seconds, their_total = best_of(args.repeat, theirs)
        their_us = seconds / len(fens) * 1e6
        print(f"  py-draughts                {their_us:8.1f} us/position  ({their_total} moves in all)")
        print(
            f"  ratio oracle / py-draughts: {their_us / oracle_us:.2f}x faster"
            if their_us >= oracle_us
            else f"  ratio oracle / py-draughts: {oracle_us / their_us:.2f}x slower"
        )
        if their_total != total:
            print(f"  note: the two disagree on the total number of moves ({total} vs {their_total})")


if __name__ == "__main__":
    main()
