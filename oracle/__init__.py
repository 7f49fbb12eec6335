"""A readable reference implementation of the rules of international draughts (FMJD Annex 1).

Read it next to ``rules.md``: each module implements one part of the rulebook and cites the
articles it follows. Standard library only.
"""

from oracle.board import SQUARES, Direction
from oracle.errors import (
    AmbiguousMoveError,
    FenError,
    GameOverError,
    IllegalMoveError,
    MoveError,
    MoveSyntaxError,
    PdnError,
    SetupError,
    SquareRangeError,
)
from oracle.game import Counters, EndgameClock, Game, Outcome, Result
from oracle.moves import Move, all_captures, capture_routes, is_lost, legal_moves, play
from oracle.notation import Notation, hub_text, move_text, parse_move, pdn_text
from oracle.parallel import parallel_divide, parallel_perft
from oracle.pdn import PdnGame, read_file, read_game, read_games, write_game
from oracle.perft import divide, perft
from oracle.position import Color, Kind, Piece, Position
from oracle.rules import INTERNATIONAL, CaptureChoice, EndgameCount, Ending, MidCaptureCrowning, Rules

__version__ = "0.1.0"

__all__ = [
    "INTERNATIONAL",
    "SQUARES",
    "AmbiguousMoveError",
    "CaptureChoice",
    "Color",
    "Counters",
    "Direction",
    "EndgameClock",
    "EndgameCount",
    "Ending",
    "FenError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Kind",
    "MidCaptureCrowning",
    "Move",
    "MoveError",
    "MoveSyntaxError",
    "Notation",
    "Outcome",
    "PdnError",
    "PdnGame",
    "Piece",
    "Position",
    "Result",
    "Rules",
    "SetupError",
    "SquareRangeError",
    "all_captures",
    "capture_routes",
    "divide",
    "hub_text",
    "is_lost",
    "legal_moves",
    "move_text",
    "parallel_divide",
    "parallel_perft",
    "parse_move",
    "pdn_text",
    "perft",
    "play",
    "read_file",
    "read_game",
    "read_games",
    "write_game",
]
