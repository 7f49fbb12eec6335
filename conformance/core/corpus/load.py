"""Loading the case corpus: read and validate the YAML files under ``cases/`` into the model.

Loading checks, in order: YAML syntax (safe loading only, duplicate keys refused), the JSON
Schema, then the corpus rules the schema cannot express -- unique ids never retired, every
article and reading in the registry, every FEN valid unless the case says it is not, every
move written by identity. Every problem is reported with its file, line and case id; nothing
from the YAML library reaches the user as a traceback. The cases and questions built are those
of :mod:`conformance.core.corpus.model`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final

import jsonschema
import yaml

from conformance.core.corpus.model import (
    AfterQuestion,
    Case,
    Corpus,
    FenQuestion,
    InitialPositionQuestion,
    Interpretation,
    LegalMovesQuestion,
    MoveCountQuestion,
    MoveTextQuestion,
    NotationQuestion,
    OutcomeQuestion,
    PerftQuestion,
    Question,
    Reading,
)
from conformance.core.errors import CaseError
from conformance.core.protocol import MoveSpec, Verdict
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet
from conformance.core.safe_yaml import YamlError, load_yaml, read_text
from oracle.errors import FenError
from oracle.position import Position

# corpus_data sits next to this package (conformance/corpus_data): a link to cases/ in a source tree
CORPUS_ROOT: Final = (Path(__file__).parent.parent.parent / "corpus_data").resolve()
# rulesets_data: a link to rulesets/cases/ in a source tree; one folder per rule set, its own articles.yaml
RULESETS_ROOT: Final = (Path(__file__).parent.parent.parent / "rulesets_data").resolve()
SCHEMA_NAME: Final = "schema.json"
REGISTRY_NAME: Final = "articles.yaml"
RETIRED_NAME: Final = "retired.yaml"
_NOT_CASE_FILES: Final = {REGISTRY_NAME, RETIRED_NAME}


class CorpusError(CaseError, ValueError):
    """The corpus (or one file of it) is malformed; ``problems`` lists every problem found."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        shown = "\n".join(f"  {problem}" for problem in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in the case corpus:\n{shown}")


def _read_yaml(path: Path, label: str, root: Path | None = None) -> tuple[Any, yaml.Node | None]:
    """The data of a YAML file and its node tree (for line numbers); CorpusError if unreadable.

    Untrusted input: :mod:`conformance.core.safe_yaml` refuses aliases, deep nesting, huge files,
    anything but a regular file, and (with ``root``) a link out of the corpus.
    """
    try:
        return load_yaml(path, label, root=root)
    except YamlError as error:
        raise CorpusError([str(error)]) from None


def _line_of(node: yaml.Node | None, path: Sequence[str | int]) -> int | None:
    """The 1-based line of the value at ``path`` inside a composed YAML node tree."""
    line = node.start_mark.line + 1 if node is not None else None
    for step in path:
        if isinstance(node, yaml.MappingNode):
            node = next((value for key, value in node.value if key.value == step), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            break
        if node is None:
            break
        line = node.start_mark.line + 1
    return line


def corpus_root_for(rule_set: RuleSet) -> Path:
    """The corpus of a rule set: ``cases/`` for international, ``rulesets/cases/<name>/`` for
    another (the cases where that game differs, with their own ``articles.yaml``)."""
    if rule_set.is_default:
        return CORPUS_ROOT
    root = RULESETS_ROOT / rule_set.name
    if not root.is_dir():
        known = (
            sorted(p.name for p in RULESETS_ROOT.iterdir() if p.is_dir()) if RULESETS_ROOT.is_dir() else []
        )
        raise CorpusError(
            [
                f"no corpus for the rule set {rule_set.name!r}: rulesets/cases/ has one for "
                f"{', '.join(known) or 'no rule set'}; give the cases of this game with --corpus DIR"
            ]
        )
    return root


def _schema_path(root: Path) -> Path:
    """The case schema of a corpus: its own ``schema.json``, else the bundled corpus's (a rule
    set's corpus uses the international schema with its extensions, :func:`_schema_validator`)."""
    own = root / SCHEMA_NAME
    return own if own.is_file() else CORPUS_ROOT / SCHEMA_NAME


@cache
def _schema_validator(root: Path, game: str | None = None) -> jsonschema.protocols.Validator:
    """The case schema of ``root``; for the corpus of another ``game`` than international, with the
    extensions of rulesets/README.md (Q12): a required ``rules: <game>`` and articles, requirements
    and outcome rules named ``source:number`` (``fsr:1.5.14``, ``fmjd64:7.2.5``) or ``perft``."""
    path = _schema_path(root)
    try:
        schema = json.loads(read_text(path, SCHEMA_NAME, root=path.parent, max_bytes=1_000_000))
        if game is not None:
            schema["properties"]["rules"] = {
                "const": game,
                "description": "The game the cases are played under.",
            }
            schema["required"] = [*schema["required"], "rules"]
            article = {
                "type": "string",
                "pattern": r"^([a-z][a-z0-9-]*:[A-Za-z0-9.-]+|perft)$",
                "description": "an article of the game's own rulebook as source:number (fsr:1.5.14), or "
                "perft (move generation as a whole, as in the international corpus)",
            }
            schema["$defs"]["article"] = article
            schema["$defs"]["questions"]["properties"]["outcome"]["properties"]["rule"] = {
                "oneOf": [article, {"type": "null"}]
            }
        validator_class = jsonschema.validators.validator_for(schema)
        validator_class.check_schema(schema)
    except YamlError as error:
        raise CorpusError([str(error)]) from None
    except json.JSONDecodeError as error:
        raise CorpusError([f"{SCHEMA_NAME}:{error.lineno}: not valid JSON: {error.msg}"]) from None
    except jsonschema.exceptions.SchemaError as error:
        raise CorpusError([f"{SCHEMA_NAME}: not a valid JSON Schema: {error.message}"]) from None
    return validator_class(schema)


def load_registry(root: Path = CORPUS_ROOT) -> tuple[dict[str, str], dict[str, Reading]]:
    """The articles and readings of ``articles.yaml``."""
    label = REGISTRY_NAME
    data, _ = _read_yaml(root / REGISTRY_NAME, label, root)
    problems = []
    if not isinstance(data, dict) or not isinstance(data.get("articles"), dict):
        raise CorpusError([f"{label}: expected a mapping with 'articles' (and 'readings')"])
    articles = {}
    for number, summary in data["articles"].items():
        if not isinstance(summary, str) or not summary.strip():
            problems.append(f"{label}: article {number!r} needs a one-line summary")
        articles[str(number)] = str(summary)
    readings = {}
    raw_readings = data.get("readings") or {}
    if not isinstance(raw_readings, dict):
        raise CorpusError([f"{label}: 'readings' must be a mapping of reading id -> articles and text"])
    for reading_id, entry in raw_readings.items():
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("text"), str)
            or not isinstance(entry.get("articles", []), list)
        ):
            problems.append(f"{label}: reading {reading_id!r} needs 'articles' (a list) and 'text'")
            continue
        cited = tuple(str(a) for a in entry.get("articles", ()))
        problems += [
            f"{label}: reading {reading_id!r} cites unknown article {a!r}" for a in cited if a not in articles
        ]
        readings[str(reading_id)] = Reading(str(reading_id), cited, entry["text"])
    if problems:
        raise CorpusError(problems)
    return articles, readings


def _load_retired(root: Path) -> set[str]:
    path = root / RETIRED_NAME
    if not path.exists():
        return set()
    data, _ = _read_yaml(path, RETIRED_NAME, root)
    retired = data.get("retired") if isinstance(data, dict) else None
    if not isinstance(retired, list):
        raise CorpusError([f"{RETIRED_NAME}: expected a mapping with a 'retired' list"])
    return {str(case_id) for case_id in retired}


def case_files(root: Path = CORPUS_ROOT) -> list[Path]:
    return sorted(p for p in root.rglob("*.yaml") if p.name not in _NOT_CASE_FILES)


def corpus_digest(root: Path = CORPUS_ROOT) -> str:
    """sha256 over every corpus file (path and bytes): names the exact corpus a report used."""
    digest = hashlib.sha256()
    schema = _schema_path(root)
    for path in sorted([*case_files(root), root / REGISTRY_NAME, schema]):
        name = path.relative_to(root).as_posix() if path.is_relative_to(root) else SCHEMA_NAME
        digest.update(name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def load_corpus(root: Path | str = CORPUS_ROOT, rule_set: RuleSet = INTERNATIONAL_SET) -> Corpus:
    """Load and validate every case file, each played under ``rule_set`` (its positions read on
    that game's board; a file of another game refused); raise :class:`CorpusError` listing every
    problem."""
    root = Path(root)
    if not root.is_dir():
        raise CorpusError([f"{root}: no such corpus directory"])
    articles, readings = load_registry(root)
    retired = _load_retired(root)
    problems: list[str] = []
    cases: list[Case] = []
    for path in case_files(root):
        try:
            cases += load_case_file(path, root, articles, readings, rule_set)
        except CorpusError as error:
            problems += error.problems
    seen: dict[str, Case] = {}
    for case in cases:
        if case.id in seen:
            problems.append(f"{case.where}: case {case.id}: id already used at {seen[case.id].where}")
        elif case.id in retired:
            problems.append(
                f"{case.where}: case {case.id}: id is retired (cases/{RETIRED_NAME}); pick a new one"
            )
        seen.setdefault(case.id, case)
    problems += _requirement_cycles(cases)
    if problems:
        raise CorpusError(problems)
    return Corpus(tuple(cases), articles, readings, corpus_digest(root), root, rule_set)


def _requirement_cycles(cases: Sequence[Case]) -> list[str]:
    """Problems for every cycle of ``requires`` between articles (4.13 needs 4.14 needs 4.13).

    A cycle would let two failing articles block each other, and a defect vanish from the report.
    """
    needs: dict[str, dict[str, Case]] = {}
    for case in cases:
        for required in case.requires:  # a reading's cases are judged under the reading: its node
            needs.setdefault(case.judged_under, {}).setdefault(required, case)
    problems: list[str] = []
    reported: set[frozenset[str]] = set()

    def visit(article: str, path: list[str]) -> None:
        for required, case in sorted(needs.get(article, {}).items()):
            if required in path:
                cycle = [*path[path.index(required) :], required]
                if frozenset(cycle) not in reported:
                    reported.add(frozenset(cycle))
                    problems.append(
                        f"{case.where}: case {case.id}: requires {required!r}, closing the cycle "
                        f"{' -> '.join(cycle)}: an article cannot rely on one that relies on it"
                    )
            elif len(path) < 64:
                visit(required, [*path, required])

    for article in sorted(needs):
        visit(article, [article])
    return problems


def load_case_file(
    path: Path,
    root: Path,
    articles: Mapping[str, str],
    readings: Mapping[str, Reading],
    rule_set: RuleSet = INTERNATIONAL_SET,
) -> list[Case]:
    """Load one case file (schema and per-case checks), its cases played under ``rule_set``."""
    label = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    data, node = _read_yaml(path, label, root)
    problems = []
    game = None if rule_set.is_default else rule_set.name
    for error in sorted(
        _schema_validator(root, game).iter_errors(data), key=lambda e: list(map(str, e.path))
    ):
        location = list(error.absolute_path)
        line = _line_of(node, location)
        case_id = _case_id_at(data, location)
        where = f"{label}:{line}" if line else label
        who = f" case {case_id}:" if case_id else ""
        field = "/".join(map(str, location)) or "(top level)"
        problems.append(f"{where}:{who} {field}: {_schema_message(error)}")
    if problems:
        raise CorpusError(problems)

    topic = data["topic"]
    file_defaults = (str(data["article"]), tuple(data.get("requires", ())))
    cases = []
    for index, raw in enumerate(data["cases"]):
        line = _line_of(node, ["cases", index]) or 0
        where = f"{label}:{line}: case {raw['id']}"
        try:
            cases.append(_build_case(raw, label, line, topic, file_defaults, articles, readings, rule_set))
        except _CaseProblems as error:
            problems += [f"{where}: {problem}" for problem in error.problems]
    if problems:
        raise CorpusError(problems)
    return cases


def _case_id_at(data: Any, location: Sequence[Any]) -> str | None:
    if len(location) >= 2 and location[0] == "cases" and isinstance(location[1], int):
        try:
            case_id = data["cases"][location[1]].get("id")
        except (AttributeError, IndexError, KeyError, TypeError):
            return None
        return str(case_id) if case_id is not None else None
    return None


def _schema_message(error: jsonschema.ValidationError) -> str:
    if error.validator == "additionalProperties":
        return f"{error.message} (see cases/{SCHEMA_NAME} for the allowed keys)"
    if error.validator == "pattern" and isinstance(error.instance, str):
        described = (
            error.schema.get("description", error.message)
            if isinstance(error.schema, dict)
            else error.message
        )
        return f"{error.instance!r} does not have the expected form ({described})"
    return error.message


class _CaseProblems(CaseError):
    def __init__(self, problems: list[str]) -> None:
        self.problems = problems


def _build_case(
    raw: Mapping[str, Any],
    label: str,
    line: int,
    topic: str,
    file_defaults: tuple[str, tuple[str, ...]],
    articles: Mapping[str, str],
    readings: Mapping[str, Reading],
    rule_set: RuleSet = INTERNATIONAL_SET,
) -> Case:
    problems: list[str] = []
    article = str(raw.get("article", file_defaults[0]))
    requires = tuple(str(a) for a in raw.get("requires", file_defaults[1]))
    problems += [f"article {article!r} is not in cases/{REGISTRY_NAME}"] if article not in articles else []
    problems += [
        f"requires {a!r}, which is neither an article nor a reading of cases/{REGISTRY_NAME}"
        for a in requires
        if a not in articles and a not in readings
    ]
    interpretation = None
    if "interpretation" in raw:
        interpretation = Interpretation(raw["interpretation"]["reading"], raw["interpretation"].get("note"))
        if interpretation.reading not in readings:
            problems.append(f"interpretation names unknown reading {interpretation.reading!r}")
    if article in requires and interpretation is None:  # a reading's case may rely on its article
        problems.append(f"requires lists {article!r}, the article the case checks")

    expect = raw["expect"]
    fen_question = expect.get("fen")
    position_is_valid = fen_question is None or fen_question["valid"]
    if position_is_valid:
        try:
            Position.from_fen(raw["position"], rule_set.rules)
        except FenError as error:
            problems.append(f"position: {error}")
    elif len(expect) > 1 or "counters" in raw:
        problems.append("a case with an invalid FEN can only ask the 'fen' question")

    questions: list[Question] = []
    for kind, answer in expect.items():
        try:
            questions.extend(_questions(kind, answer, rule_set))
        except (ValueError, FenError) as error:
            problems.append(f"expect/{kind}: {error}")
    if problems:
        raise _CaseProblems(problems)
    return Case(
        id=raw["id"],
        article=article,
        requires=requires,
        description=raw["description"],
        source=raw["source"],
        position=raw["position"],
        questions=tuple(questions),
        file=label,
        line=line,
        topic=topic,
        counters=dict(raw.get("counters", {})),
        interpretation=interpretation,
        tags=tuple(raw.get("tags", ())),
        rule_set=rule_set,
    )


def _questions(kind: str, answer: Any, rule_set: RuleSet = INTERNATIONAL_SET) -> Iterator[Question]:
    rules, squares = rule_set.rules, rule_set.rules.geometry.square_count

    def parse(text: str) -> MoveSpec:
        return MoveSpec.parse(text, squares)

    if kind == "fen":
        if answer["valid"] and "position" in answer:
            Position.from_fen(answer["position"], rules)
        yield FenQuestion(answer["valid"], answer.get("position"), answer.get("reason"))
    elif kind == "initial_position":
        Position.from_fen(answer, rules)
        yield InitialPositionQuestion(answer)
    elif kind == "legal_moves":
        specs = [parse(text) for text in answer]
        if len(set(specs)) != len(specs):
            raise ValueError("the same move is listed twice")
        yield LegalMovesQuestion(frozenset(specs))
    elif kind == "move_count":
        yield MoveCountQuestion(answer)
    elif kind == "perft":
        yield PerftQuestion(tuple(answer))
    elif kind == "after":
        for item in answer:
            Position.from_fen(item["position"], rules)
            yield AfterQuestion(tuple(item["moves"]), item["position"])
    elif kind == "move_texts":
        for item in answer:
            verdict = Verdict(item["verdict"])
            move = parse(item["move"]) if "move" in item else None
            if (verdict is Verdict.LEGAL) != (move is not None):
                raise ValueError(f"{item['text']!r}: give 'move' exactly when the verdict is 'legal'")
            yield MoveTextQuestion(item["text"], item["notation"], verdict, move)
    elif kind == "notation":
        for item in answer:
            pdn = item.get("pdn", ())
            yield NotationQuestion(
                parse(item["move"]), (pdn,) if isinstance(pdn, str) else tuple(pdn), item.get("hub")
            )
    elif kind == "outcome":
        result, rule, ply = answer["result"], answer.get("rule"), answer.get("ply")
        if (result == "ongoing") != (rule is None and ply is None):
            raise ValueError("an ongoing game has no rule and no ply; a finished one needs both")
        wins = (rules.articles.no_pieces, rules.articles.blocked)
        if result in ("white_wins", "black_wins") and rule not in wins:
            raise ValueError(f"a win is by rule {' or '.join(wins)}, not {rule!r}")
        draws = draw_articles(rule_set)
        if result == "draw" and rule not in draws:
            named = "6.1-6.4" if rule_set.is_default else ", ".join(draws)
            raise ValueError(f"a draw is by rule {named}, not {rule!r}")
        if ply is not None and ply != len(answer["moves"]):
            raise ValueError(
                f"ply {ply} must be the number of moves played ({len(answer['moves'])}): "
                "the outcome is asked after the last move, and no move may follow the end"
            )
        yield OutcomeQuestion(tuple(answer["moves"]), result, rule, ply)
    else:  # the schema admits no other key
        raise ValueError(f"unknown question {kind!r}")


def draw_articles(rule_set: RuleSet) -> tuple[str, ...]:
    """The articles a draw of the rule set's game is named by: its repetition, kings-only and
    ending-count articles (FMJD 6.1-6.4 for international)."""
    rules = rule_set.rules
    if rule_set.is_default:
        return ("6.1", "6.2", "6.3", "6.4")
    named = [rules.articles.repetition, rules.articles.kings_only]
    named += [count.article for count in rules.endgame_counts]
    return tuple(dict.fromkeys(named))
