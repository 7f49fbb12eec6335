"""PDN games: read them into a :class:`~oracle.game.Game` and replay them, and write them back.

PDN (Portable Draughts Notation, 3.0) follows PGN: tag pairs ``[Name "value"]``, then the move
text, ended by a result. What this reader understands:

* tags, with ``\\"`` and ``\\\\`` escapes inside values; ``[FEN "W:W31-50:B1-20"]`` sets up the
  start position (the initial position without it); ``[GameType "20"]`` (international draughts)
  is accepted, any other game type refused. Under another rule set (``rules``) the FEN is read on
  its board, and the GameType accepted is the rule set's own (``21`` for American checkers...);
* move numbers ``1.`` (the move of the side that moves first: White, Black in American checkers
  and pool) and ``1...`` (the other side's), written with or without a space before the move; they
  are kept for error messages, not checked;
* moves in PDN move text (``32-28``, ``28x19``, ``47x38x24x13x36``, see :mod:`oracle.notation`),
  with move-strength suffixes (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``) and NAGs (``$3``);
* comments ``{...}`` and ``; ...`` to the end of the line, ``%`` escape lines, variations in
  parentheses (nested ones too): all skipped;
* the result tokens ``2-0``, ``0-2``, ``1-1``, ``0-0``, ``1-0``, ``0-1`` and ``*``, each ending a
  game; a tag after move text without a result also starts a new game. A file may hold many games.

Each game is replayed with the rules: the first move that is illegal, ambiguous, or played after
the game has ended (Art. 6, 7: draws are automatic) raises :class:`~oracle.errors.PdnError`
naming the game, the line, the move number, the move text and the position. The result written
in the file is kept as given and not checked against the replayed outcome: a game may end by
resignation or agreement.

This project's extension: a ``[Counters "occurrences=2,no_progress_plies=10,endgame_plies=10"]``
tag carries the Art. 6 counters of a setup position (see :mod:`oracle.game`), so that a game set
up mid-count survives a round trip. Other readers ignore unknown tags.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

from oracle.counters import MAX_COUNTER_DIGITS, Counters
from oracle.errors import FenError, GameOverError, MoveError, PdnError, SetupError, excerpt, number_excerpt
from oracle.game import Game
from oracle.outcome import RESULT_TOKENS
from oracle.position import Color, Position
from oracle.rules import INTERNATIONAL, Rules

INTERNATIONAL_GAME_TYPE: Final = "20"
"""The PDN GameType number of international draughts (10x10)."""

RESULTS: Final = ("2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "*")

# Every repetition is possessive (``*+``, ``++``) or of a single character class, so that
# matching keeps no backtracking state per character: a token of megabytes costs its own size.
_TOKEN: Final = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<escape>(?<![^\n])%[^\n]*)
  | (?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s*"(?P<value>(?:[^"\\]++|\\.)*+)"\s*\])
  | (?P<badtag>\[[^\]\n]*\]?)
  | (?P<comment>\{[^}]*\}?)
  | (?P<linecomment>;[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<nag>\$[0-9]+)
  | (?P<result>(?:2-0|0-2|1-1|0-0|1-0|0-1|\*)(?![0-9x\-]))
  | (?P<number>[0-9]+\s*\.+)
  | (?P<ellipsis>\.\.\.|\u2026)
  | (?P<move>[0-9]++(?:[-x][0-9]++)++)(?P<suffix>[!?]{1,2})?
  | (?P<other>[^\s\[\]{}();$]+|\S)
    """,
    re.VERBOSE,
)

MAX_MOVE_NUMBER_DIGITS: Final = 9
"""A move number has at most this many digits (no game lasts a billion moves)."""

_SEVEN_TAGS: Final = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_TAG_NAME: Final = re.compile(r"[A-Za-z0-9_]+")


@dataclasses.dataclass(frozen=True)
class PdnGame:
    """One game of a PDN text: its tags, the replayed :class:`Game` and the result written."""

    tags: Mapping[str, str]
    game: Game
    result: str | None
    """The game-termination token as written (``2-0``, ``*``, ...), None when the text has none."""
    index: int = 1
    """The game's number in its file, from 1."""
    line: int = 1
    """The line where the game starts."""

    def to_json(self) -> dict[str, object]:
        """The summary ``python -m oracle game`` prints for each game."""
        return {
            "index": self.index,
            "line": self.line,
            "tags": dict(self.tags),
            "plies": self.game.ply,
            "outcome": self.game.outcome().to_json(),
            "fen": self.game.position.fen(),
            "pdn_result": self.result,
        }


@dataclasses.dataclass
class _MoveToken:
    text: str
    line: int
    number: int | None  # the last move number written before it


@dataclasses.dataclass
class _RawGame:
    line: int
    tags: dict[str, str] = dataclasses.field(default_factory=dict)
    moves: list[_MoveToken] = dataclasses.field(default_factory=list)
    result: str | None = None

    @property
    def is_empty(self) -> bool:
        return not (self.tags or self.moves or self.result)


# -- reading ----------------------------------------------------------------------------------


def read_games(text: str, rules: Rules = INTERNATIONAL) -> list[PdnGame]:
    """Every game of a PDN text, each replayed (raises :class:`PdnError` at the first problem)."""
    if not isinstance(text, str):
        raise PdnError(f"PDN text must be a string, not {type(text).__name__}")
    return [_replay(raw, index, rules) for index, raw in enumerate(_split_games(text), start=1)]


def read_game(text: str, rules: Rules = INTERNATIONAL) -> PdnGame:
    """The one game of a PDN text (a :class:`PdnError` if it holds none or several)."""
    games = read_games(text, rules)
    if len(games) != 1:
        raise PdnError(f"expected exactly one PDN game, found {len(games)}")
    return games[0]


def read_file(path: str | Path, rules: Rules = INTERNATIONAL) -> list[PdnGame]:
    """Every game of a PDN file (UTF-8; Latin-1 when it is not valid UTF-8)."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        return read_games(text, rules)
    except PdnError as error:
        raise PdnError(
            f"{path}: {error}",
            game=error.game,
            line=error.line,
            move_number=error.move_number,
            move_text=error.move_text,
            fen=error.fen,
        ) from error


def _tokens(text: str) -> Iterator[tuple[str, re.Match[str], int]]:
    line = 1
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        assert match is not None  # the last alternatives match any non-space character
        kind = match.lastgroup
        assert kind is not None
        if kind == "suffix":
            kind = "move"
        yield kind, match, line
        line += match.group().count("\n")
        position = match.end()


def _split_games(text: str) -> list[_RawGame]:
    games: list[_RawGame] = []
    current = _RawGame(line=1)
    depth = 0  # nesting of variations
    number: int | None = None

    def finish(next_line: int) -> None:
        nonlocal current, number
        if not current.is_empty:
            games.append(current)
        current = _RawGame(line=next_line)
        number = None

    for kind, match, line in _tokens(text):
        where = f"game {len(games) + 1}, line {line}"
        if kind in ("space", "escape", "comment", "linecomment", "nag"):
            if kind == "comment" and not match.group().endswith("}"):
                raise PdnError(
                    f"{where}: comment opened with '{{' is never closed", game=len(games) + 1, line=line
                )
            continue
        if kind == "open":
            depth += 1
            continue
        if kind == "close":
            if depth == 0:
                raise PdnError(f"{where}: ')' closes no variation", game=len(games) + 1, line=line)
            depth -= 1
            continue
        if depth:
            if kind in ("tag", "badtag"):
                raise PdnError(
                    f"{where}: a tag inside a variation (missing ')')", game=len(games) + 1, line=line
                )
            continue  # moves, numbers and results of variations are skipped
        if kind == "tag":
            if current.moves or current.result:
                finish(line)
            name = match.group("name")
            if name in current.tags:
                raise PdnError(f"{where}: tag {_shown(name)} is given twice", game=len(games) + 1, line=line)
            if current.is_empty:
                current.line = line
            current.tags[name] = _unescape(match.group("value"))
        elif kind == "badtag":
            raise PdnError(
                f'{where}: {excerpt(match.group())} is not a tag pair like [Event "..."]',
                game=len(games) + 1,
                line=line,
            )
        elif kind == "result":
            if current.is_empty:
                current.line = line
            current.result = match.group()
            finish(line)
        elif kind == "number":
            digits = match.group().split(".")[0].strip()
            significant = digits.lstrip("0") or "0"  # int() refuses 4,300 digits, zeros too
            if len(significant) > MAX_MOVE_NUMBER_DIGITS:
                raise PdnError(
                    f"{where}: move number {number_excerpt(digits)} is too large (more than "
                    f"{MAX_MOVE_NUMBER_DIGITS} digits)",
                    game=len(games) + 1,
                    line=line,
                )
            number = int(significant)
        elif kind == "ellipsis":
            continue
        elif kind == "move":
            if current.is_empty:
                current.line = line
            current.moves.append(_MoveToken(match.group("move"), line, number))
        else:
            raise PdnError(
                f"{where}: unexpected {excerpt(match.group())} in the move text (expected a move like 32-28 or "
                f"28x19, a move number, a comment, or a result {' '.join(RESULTS)})",
                game=len(games) + 1,
                line=line,
            )
    if depth:
        raise PdnError(f"game {len(games) + 1}: a variation '(' is never closed", game=len(games) + 1)
    finish(0)
    return games


def _shown(text: str) -> str:
    """A name or a move text as a message shows it: as it is, or cut when it is long."""
    return text if len(text) <= 40 else excerpt(text, 40)


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _replay(raw: _RawGame, index: int, rules: Rules) -> PdnGame:
    where = f"game {index} (line {raw.line})"
    game_type = raw.tags.get("GameType")
    expected = (rules.game_type or "").split(",")[0] if rules != INTERNATIONAL else INTERNATIONAL_GAME_TYPE
    if game_type is not None and expected and game_type.split(",")[0].strip() != expected:
        game_name = "international draughts" if expected == INTERNATIONAL_GAME_TYPE else repr(rules.name)
        raise PdnError(
            f"{where}: GameType {excerpt(game_type)} is not {game_name} ({expected})",
            game=index,
            line=raw.line,
        )
    try:
        position = Position.from_fen(raw.tags["FEN"], rules) if "FEN" in raw.tags else None
    except FenError as error:
        raise PdnError(f"{where}: bad FEN tag: {error}", game=index, line=raw.line) from error
    try:
        counters = _parse_counters(raw.tags["Counters"]) if "Counters" in raw.tags else None
        game = Game(position, counters, rules)
    except SetupError as error:
        raise PdnError(f"{where}: bad Counters tag: {error}", game=index, line=raw.line) from error

    first = Color.WHITE if rules.white_moves_first else Color.BLACK  # whose move a number starts
    second_to_move = game.position.turn is not first
    for token in raw.moves:
        number = token.number
        if number is None:  # no number written: count from the start
            number = 1 + (game.ply + second_to_move) // 2
        label = f"{number}." if game.position.turn is first else f"{number}..."
        fen = game.position.fen()
        try:
            game.play(token.text)
        except GameOverError as error:
            raise PdnError(
                f"{where}: move {label} {_shown(token.text)} (line {token.line}) comes after the end of the game: "
                f"{game.outcome()}",
                game=index,
                line=token.line,
                move_number=label,
                move_text=token.text,
                fen=fen,
            ) from error
        except MoveError as error:
            raise PdnError(
                f"{where}: move {label} {_shown(token.text)} (line {token.line}) cannot be played in {fen}: {error}",
                game=index,
                line=token.line,
                move_number=label,
                move_text=token.text,
                fen=fen,
            ) from error
    return PdnGame(tags=dict(raw.tags), game=game, result=raw.result, index=index, line=raw.line)


def _parse_counters(text: str) -> Counters:
    """``occurrences=2,no_progress_plies=10,endgame_plies=10`` (any subset, any order)."""
    values: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not (value.isascii() and value.isdigit()):
            raise SetupError(f"counter {excerpt(item)} is not name=number (e.g. occurrences=2)")
        significant = value.lstrip("0") or "0"  # int() refuses 4,300 digits, zeros too
        if len(significant) > MAX_COUNTER_DIGITS:
            raise SetupError(f"counter {excerpt(name)} is {number_excerpt(value)}, too large")
        values[name] = int(significant)
    return Counters.from_dict(values)


# -- writing ----------------------------------------------------------------------------------


def result_token(game: Game, tags: Mapping[str, str] | None = None) -> str:
    """The result to write: the outcome's when the game is over, else the ``Result`` tag, else ``*``."""
    outcome = game.outcome()
    if outcome.is_over:
        return RESULT_TOKENS[outcome.result]
    return (tags or {}).get("Result", "*")


def write_game(game: Game, tags: Mapping[str, str] | None = None, *, width: int = 80) -> str:
    """The PDN text of a game: tags, numbered moves, result.

    The seven-tag roster comes first (Event, Site, Date, Round, White, Black, Result; only those
    given, plus Result), then the other tags given, then ``FEN`` when the game did not start from
    the initial position and ``Counters`` when its setup counters are not the defaults. Moves are
    written in PDN move text (full route when ``fromxto`` is ambiguous), wrapped at ``width``.
    """
    given = dict(tags or {})
    for name in given:
        if not _TAG_NAME.fullmatch(name):
            raise ValueError(f"PDN tag name {name!r} must be letters, digits or '_'")
    result = result_token(game, given)
    given["Result"] = result
    if game.setup_position != Position.initial(game.rules):
        given["FEN"] = game.setup_position.fen()
    else:
        given.pop("FEN", None)
    if not game.setup_counters.is_default:
        given["Counters"] = ",".join(f"{k}={v}" for k, v in game.setup_counters.to_dict().items())
    else:
        given.pop("Counters", None)
    ordered = [name for name in _SEVEN_TAGS if name in given] + [n for n in given if n not in _SEVEN_TAGS]
    lines = [f'[{name} "{_escape(given[name])}"]' for name in ordered]

    words: list[str] = []
    number = 1
    first = Color.WHITE if game.rules.white_moves_first else Color.BLACK  # whose move a number starts
    second = game.setup_position.turn is not first
    for text in game.move_texts():
        if not second:
            words.append(f"{number}.")
        elif not words:
            words.append(f"{number}...")
        words.append(text)
        if second:
            number += 1
        second = not second
    words.append(result)
    lines.append("")
    lines.extend(_wrap(words, width))
    return "\n".join(lines) + "\n"


def write_games(games: list[tuple[Game, Mapping[str, str] | None]]) -> str:
    """Several games in one PDN text, separated by blank lines."""
    return "\n".join(write_game(game, tags) for game, tags in games)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(words: list[str], width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines
