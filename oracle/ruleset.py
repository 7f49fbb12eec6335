"""Rule sets as data: read a game of the draughts family from a YAML or JSON file, or by name.

A rules file is a plain object of switches (``oracle/rulesets/schema.json``)::

    name: russian
    boardSize: 8                 # default 2 x menRows + 2
    menRows: 3
    menCaptureBackward: true
    flyingKings: true
    captureChoice: free          # maximum | free
    crownMidCapture: continues   # passes | stops | continues
    repetitionDraw: 3            # null: the sources read do not settle it
    kingsOnlyDraw: 15
    endgameCounts: [{article: "7.2.8", endings: ["2K v K"], movesEach: 5, restartsOnChange: null}]

plus ``title``, ``gameType`` (the PDN GameType tag), ``firstMove`` (default: the tag's second
field, else white), ``sources`` and ``cite``. The built-in sets -- :data:`BUILTIN` -- ship with the
package (``oracle/rulesets/NAME.yaml``), each citing its rulebook switch by switch.

``null`` is never "no such rule": a draw switch set to null is *unsettled*
(:attr:`oracle.rules.Rules.unsettled`), and the game refuses to judge a position where it could
decide; ``endgameCounts: []`` says the game has no ending counts. ``restartsOnChange: null`` (the
rulebook silent, Russian 7.2.4/7.2.8) is read as rules.md reads FMJD 6.3/6.4, whose text is silent
too: the count does not restart inside its group (reading endgame-no-restart).

Every problem is one :class:`~oracle.errors.RulesError` line naming the file and the field. This
module needs PyYAML and jsonschema (imported when a file is read); the rest of the oracle needs
only the standard library.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from oracle.errors import RulesError, excerpt
from oracle.rules import (
    Articles,
    CaptureChoice,
    EndgameCount,
    Ending,
    FirstMove,
    MidCaptureCrowning,
    Rules,
)

BUILTIN: Final = ("international", "brazilian", "canadian", "russian", "pool", "american")
"""The built-in rule sets, by name."""

MAX_FILE_BYTES: Final = 1 << 20
"""A rules file is a few kilobytes; a larger one is refused unread."""

_ENDING: Final = re.compile(r"(?:([0-9]+)K)?\+?(?:([0-9]+)M)? v K")


def _data_file(name: str) -> Any:
    return importlib.resources.files("oracle") / "rulesets" / name


@functools.cache
def schema() -> dict[str, Any]:
    """The JSON Schema of a rules file (``oracle/rulesets/schema.json``)."""
    loaded: dict[str, Any] = json.loads(_data_file("schema.json").read_text(encoding="utf-8"))
    return loaded


def load_rules(spec: str | Path) -> Rules:
    """The rule set a ``--rules`` argument names: a built-in name or a YAML/JSON file.

    A bare name (letters, digits, dashes) is a built-in set; anything else is a path.
    """
    text = str(spec)
    if isinstance(spec, str) and re.fullmatch(r"[a-z][a-z0-9-]*", text) and not Path(text).is_file():
        return builtin(text)
    return load_file(Path(spec))


@functools.cache
def builtin(name: str) -> Rules:
    """A built-in rule set by name (:data:`BUILTIN`)."""
    if name not in BUILTIN:
        raise RulesError(
            f"--rules {excerpt(name)}: no such built-in rule set (built in: {', '.join(BUILTIN)}; "
            "or give the path of a rules file)"
        )
    resource = _data_file(f"{name}.yaml")
    return rules_from_text(resource.read_text(encoding="utf-8"), f"{name}.yaml (built in)")


def load_file(path: Path) -> Rules:
    """Read a rules file (YAML, of which JSON is a part)."""
    if path.exists() and not path.is_file():
        raise RulesError(f"{path}: not a regular file (a folder, FIFO or device is not read)")
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise RulesError(f"{path}: cannot read the rules file ({error.strerror or error})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise RulesError(f"{path}: a rules file is at most {MAX_FILE_BYTES:,} bytes; this one is larger")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RulesError(f"{path}: not UTF-8 text (byte {error.start})") from None
    return rules_from_text(text, str(path))


def rules_from_text(text: str, where: str) -> Rules:
    """Parse the YAML or JSON text of a rules file; ``where`` names it in messages."""
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise RulesError(f"{where}: not YAML or JSON{at}: {problem}") from None
    return rules_from_data(data, where)


def rules_from_data(data: object, where: str = "rules") -> Rules:
    """Check a rules object against the schema and build the :class:`Rules` it describes."""
    import jsonschema

    if not isinstance(data, Mapping):
        raise RulesError(
            f"{where}: a rule set is a mapping of switches (menRows: 3, ...), not {excerpt(data)}"
        )
    errors = sorted(
        jsonschema.Draft202012Validator(schema()).iter_errors(data), key=lambda e: list(e.absolute_path)
    )
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        raise RulesError(f"{where}: {_field(error)}: {_message(error)}")
    return _build(data, where)


def _field(error: Any) -> str:
    """The field an error is about, as ``endgameCounts[0].movesEach``; a missing one by its name."""
    path = ""
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    if error.validator == "required":
        missing = re.match(r"'([^']+)'", error.message)
        name = missing.group(1) if missing else "?"
        return f"{path}.{name}" if path else name
    if error.validator == "additionalProperties" and not path:
        return "(top level)"
    return path or "(top level)"


def _message(error: Any) -> str:
    if error.validator == "required":
        return "missing (every switch must be given; null where the sources do not settle it)"
    if error.validator == "enum":
        return f"{excerpt(error.instance)} is not one of {', '.join(map(str, error.validator_value))}"
    return str(error.message).splitlines()[0]


def _build(data: Mapping[str, Any], where: str) -> Rules:
    men_rows: int = data["menRows"]
    board_size: int = data.get("boardSize", 2 * men_rows + 2)
    unsettled = frozenset(
        switch for switch in ("repetitionDraw", "kingsOnlyDraw", "endgameCounts") if data[switch] is None
    )
    first_move = _first_move(data, where)
    articles = _Numbering(data)
    try:
        return Rules(
            men_rows=men_rows,
            men_capture_backward=data["menCaptureBackward"],
            flying_kings=data["flyingKings"],
            capture_choice=CaptureChoice(data["captureChoice"]),
            mid_capture_crowning=MidCaptureCrowning(data["crownMidCapture"]),
            repetition_draw=data["repetitionDraw"],
            no_progress_moves=data["kingsOnlyDraw"],
            endgame_counts=tuple(
                _endgame_count(entry, articles.qualify) for entry in data["endgameCounts"] or ()
            ),
            board_size=board_size,
            first_move=first_move,
            unsettled=unsettled,
            name=data["name"],
            title=data.get("title", ""),
            game_type=data.get("gameType"),
            articles=articles.articles(),
        )
    except RulesError as error:
        raise RulesError(f"{where}: {_data_name(str(error))}") from None


def _data_name(message: str) -> str:
    """A message of :class:`Rules` with its Python field names as a rules file spells them."""
    for python, data in (("board_size", "boardSize"), ("men_rows", "menRows"), ("moves_each", "movesEach")):
        message = message.replace(python, data)
    return message


def _first_move(data: Mapping[str, Any], where: str) -> FirstMove:
    game_type = data.get("gameType")
    from_tag = None
    if game_type and "," in game_type:
        from_tag = FirstMove.WHITE if game_type.split(",")[1] == "W" else FirstMove.BLACK
    given = FirstMove(data["firstMove"]) if "firstMove" in data else None
    if given is not None and from_tag is not None and given is not from_tag:
        raise RulesError(
            f"{where}: firstMove: {given.value}, but gameType {game_type!r} says {from_tag.value} moves first"
        )
    return given or from_tag or FirstMove.WHITE


class _Numbering:
    """How an outcome names the articles of a rule set: ``source:number`` from its ``cite``.

    The international set keeps the bare FMJD numbers of the corpus (``"6.1"``). The loss articles
    are no switch and have no citation: every game of the family is lost without a piece or a
    move, and the other sets name it by FMJD's number (``"fmjd:7.2.2"``, ``"fmjd:7.2.3"``).
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.bare = data["name"] == "international"
        self.cite: Mapping[str, Any] = data.get("cite", {})

    def qualify(self, switch: str, article: str | None = None) -> str | None:
        citation = self.cite.get(switch, {})
        number = article if article is not None else citation.get("article")
        if isinstance(number, list):
            number = number[0]
        if number is None:
            return None
        source = citation.get("source")
        return number if self.bare or not source else f"{source}:{number}"

    def articles(self) -> Articles:
        if self.bare:
            return Articles()
        return Articles(
            repetition=self.qualify("repetitionDraw") or "repetition",
            kings_only=self.qualify("kingsOnlyDraw") or "kings-only",
            no_pieces="fmjd:7.2.2",
            blocked="fmjd:7.2.3",
        )


def _endgame_count(entry: Mapping[str, Any], qualify: Any) -> EndgameCount:
    endings = set()
    for text in entry["endings"]:
        match = _ENDING.fullmatch(text)
        assert match is not None  # the schema's pattern
        endings.add(Ending(int(match.group(1) or 0), int(match.group(2) or 0)))
    return EndgameCount(
        article=qualify("endgameCounts", entry["article"]),
        endings=frozenset(endings),
        moves_each=entry["movesEach"],
        # null, the rulebook silent, is read as rules.md reads FMJD 6.3/6.4, whose text is silent
        # too: the count does not restart inside the group (reading endgame-no-restart).
        restarts_on_change=bool(entry["restartsOnChange"]),
    )


def describe(rules: Rules) -> dict[str, Any]:
    """A rule set in the shape of a rules file: every switch, and the citations of the draw articles
    an outcome names (no sources): the full object for reports and JSON; it reads back equal."""
    unsettled = rules.unsettled
    described: dict[str, Any] = {
        "name": rules.name,
        "boardSize": rules.board_size,
        "menRows": rules.men_rows,
        "menCaptureBackward": rules.men_capture_backward,
        "flyingKings": rules.flying_kings,
        "captureChoice": rules.capture_choice.value,
        "crownMidCapture": rules.mid_capture_crowning.value,
        "firstMove": rules.first_move.value,
        "repetitionDraw": None if "repetitionDraw" in unsettled else rules.repetition_draw,
        "kingsOnlyDraw": None if "kingsOnlyDraw" in unsettled else rules.no_progress_moves,
        "endgameCounts": None
        if "endgameCounts" in unsettled
        else [
            {
                "article": count.article,
                "endings": [str(ending) for ending in sorted(count.endings, reverse=True)],
                "movesEach": count.moves_each,
                "restartsOnChange": count.restarts_on_change,
            }
            for count in rules.endgame_counts
        ],
    }
    if rules.name != "international":  # the articles an outcome names, as a file cites them
        cite = {}
        for switch, article in (
            ("repetitionDraw", rules.articles.repetition),
            ("kingsOnlyDraw", rules.articles.kings_only),
        ):
            source, _, number = article.rpartition(":")
            cite[switch] = {"source": source or None, "article": number}
        described["cite"] = cite
    return described


__all__ = [
    "BUILTIN",
    "builtin",
    "describe",
    "load_file",
    "load_rules",
    "rules_from_data",
    "rules_from_text",
    "schema",
]
