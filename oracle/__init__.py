"""A readable reference implementation of the rules of international draughts (FMJD Annex 1),
and of the other games of the draughts family as rule sets (:mod:`oracle.ruleset`).

Read it next to ``rules.md``: each module implements one part of the rulebook and cites the
articles it follows. Standard library only, but for reading a rules file (PyYAML, jsonschema).
"""

from oracle.board import SQUARES, Direction
from oracle.counters import Counters, EndgameClock
from oracle.errors import (
    AmbiguousMoveError,
    FenError,
    GameOverError,
    IllegalMoveError,
    MoveError,
    MoveSyntaxError,
    PdnError,
    RulesError,
    SetupError,
    SquareRangeError,
    UnsettledRuleError,
)
from oracle.game import Game
from oracle.moves import Move, all_captures, capture_routes, is_lost, legal_moves, play
from oracle.notation import Notation, hub_text, move_text, parse_move, pdn_text
from oracle.outcome import Outcome, Result
from oracle.parallel import parallel_divide, parallel_perft
from oracle.pdn import PdnGame, read_file, read_game, read_games, write_game
from oracle.perft import divide, perft
from oracle.position import Color, Kind, Piece, Position
from oracle.rules import (
    INTERNATIONAL,
    Articles,
    CaptureChoice,
    EndgameCount,
    Ending,
    FirstMove,
    MidCaptureCrowning,
    Rules,
)
from oracle.ruleset import BUILTIN, load_rules

__version__ = "0.1.0"

__all__ = [
    "BUILTIN",
    "INTERNATIONAL",
    "SQUARES",
    "AmbiguousMoveError",
    "Articles",
    "CaptureChoice",
    "Color",
    "Counters",
    "Direction",
    "EndgameClock",
    "EndgameCount",
    "Ending",
    "FenError",
    "FirstMove",
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
    "RulesError",
    "SetupError",
    "SquareRangeError",
    "UnsettledRuleError",
    "all_captures",
    "capture_routes",
    "divide",
    "hub_text",
    "is_lost",
    "legal_moves",
    "load_rules",
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
