"""The loader rejects malformed case files with clear errors (file, line, case id, what is wrong)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from conformance.core.corpus import CORPUS_ROOT, CorpusError, MoveSpec, load_corpus

GOOD_CASE = """\
  - id: {id}
    description: A white man steps forward
    source: constructed
    position: "W:W28"
    expect:
      legal_moves: ["28-22", "28-23"]
"""


def make_corpus(tmp_path: Path, files: dict[str, str], retired: list[str] | None = None) -> Path:
    root = tmp_path / "cases"
    root.mkdir()
    shutil.copy(CORPUS_ROOT / "schema.json", root / "schema.json")
    shutil.copy(CORPUS_ROOT / "articles.yaml", root / "articles.yaml")
    (root / "retired.yaml").write_text(json.dumps({"retired": retired or []}))
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def file_with(*cases: str) -> str:
    return 'topic: Test topic\narticle: "3.4"\ncases:\n' + "".join(cases)


def problems_of(tmp_path: Path, files: dict[str, str], **kwargs: list[str]) -> list[str]:
    root = make_corpus(tmp_path, files, **kwargs)
    with pytest.raises(CorpusError) as caught:
        load_corpus(root)
    return list(caught.value.problems)


def test_the_schema_is_a_valid_json_schema() -> None:
    schema = json.loads((CORPUS_ROOT / "schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)


def test_a_good_file_loads(tmp_path: Path) -> None:
    corpus = load_corpus(make_corpus(tmp_path, {"a.yaml": file_with(GOOD_CASE.format(id="3.4-good"))}))
    (case,) = corpus.cases
    assert case.id == "3.4-good"
    assert (case.article, case.requires, case.reading, case.judged_under) == ("3.4", (), None, "3.4")
    assert case.line == 4
    assert len(corpus.digest) == 64


def test_a_case_checks_the_file_article_unless_it_names_its_own(tmp_path: Path) -> None:
    own = GOOD_CASE.format(id="3.9-own").replace(
        "    source: constructed\n", '    source: constructed\n    article: "3.9"\n    requires: ["3.4"]\n'
    )
    text = file_with(GOOD_CASE.format(id="3.4-default"), own).replace(
        'article: "3.4"\n', 'article: "3.4"\nrequires: ["2"]\n', 1
    )
    cases = {case.id: case for case in load_corpus(make_corpus(tmp_path, {"a.yaml": text})).cases}
    assert (cases["3.4-default"].article, cases["3.4-default"].requires) == ("3.4", ("2",))
    assert (cases["3.9-own"].article, cases["3.9-own"].requires) == ("3.9", ("3.4",))
    assert cases["3.9-own"].articles == ("3.9", "3.4")


def test_a_case_resting_on_a_reading_is_judged_under_it(tmp_path: Path) -> None:
    case_text = GOOD_CASE.format(id="3.4-read").replace(
        "    source: constructed\n",
        "    source: constructed\n    interpretation: {reading: fen-whitespace}\n",
    )
    (case,) = load_corpus(make_corpus(tmp_path, {"a.yaml": file_with(case_text)})).cases
    assert (case.article, case.reading, case.judged_under) == ("3.4", "fen-whitespace", "fen-whitespace")


def test_a_case_cannot_require_the_rule_it_checks(tmp_path: Path) -> None:
    case_text = GOOD_CASE.format(id="3.4-self").replace(
        "    source: constructed\n", '    source: constructed\n    requires: ["3.4"]\n'
    )
    (problem,) = problems_of(tmp_path, {"a.yaml": file_with(case_text)})
    assert "3.4-self" in problem
    assert "requires lists '3.4', the article the case checks" in problem


def test_a_case_resting_on_a_reading_may_require_the_article_it_reads(tmp_path: Path) -> None:
    """The reading is judged on its own; its case relies on the article working (blocked if not)."""
    case_text = GOOD_CASE.format(id="3.4-read").replace(
        "    source: constructed\n",
        '    source: constructed\n    requires: ["3.4"]\n    interpretation: {reading: fen-whitespace}\n',
    )
    (case,) = load_corpus(make_corpus(tmp_path, {"a.yaml": file_with(case_text)})).cases
    assert (case.article, case.requires, case.judged_under) == ("3.4", ("3.4",), "fen-whitespace")


def test_a_cycle_of_requires_between_articles_is_refused(tmp_path: Path) -> None:
    up = GOOD_CASE.format(id="3.4-up").replace(
        "    source: constructed\n", '    source: constructed\n    requires: ["3.9"]\n'
    )
    down = GOOD_CASE.format(id="3.9-down").replace(
        "    source: constructed\n", '    source: constructed\n    article: "3.9"\n    requires: ["3.4"]\n'
    )
    found = problems_of(tmp_path, {"a.yaml": file_with(up, down)})
    assert any("closing the cycle" in p and "3.4" in p and "3.9" in p for p in found), found


def test_yaml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    (problem,) = problems_of(tmp_path, {"bad.yaml": "topic: [unclosed\narticle: []\n"})
    assert problem.startswith("bad.yaml:")
    assert "YAML error" in problem
    assert "Traceback" not in problem


def test_duplicate_key_is_refused(tmp_path: Path) -> None:
    text = file_with(GOOD_CASE.format(id="3.4-a")).replace(
        "    source: constructed\n", "    source: x1\n    source: x2\n"
    )
    (problem,) = problems_of(tmp_path, {"dup.yaml": text})
    assert "dup.yaml:" in problem
    assert "'source' appears twice" in problem


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (("    source: constructed\n", ""), "'source' is a required property"),
        (
            ("    description:", "    colour: blue\n    description:"),
            "Additional properties are not allowed ('colour'",
        ),
        (("id: 3.4-bad", "id: 3.4 Bad"), "does not have the expected form"),
        (('"28-22", "28-23"', '"28-22", "28x23 {}"'), "does not have the expected form"),
        (("legal_moves:", "movez:"), "movez"),
    ],
)
def test_schema_violations_name_the_case_and_field(
    tmp_path: Path, edit: tuple[str, str], expected: str
) -> None:
    text = file_with(GOOD_CASE.format(id="3.4-bad")).replace(*edit)
    found = problems_of(tmp_path, {"s.yaml": text})
    assert any(expected in p and p.startswith("s.yaml:") for p in found), found
    assert all("3.4-bad" in p or "3.4 Bad" in p for p in found if "cases/0" in p)


def test_duplicate_id_across_files(tmp_path: Path) -> None:
    files = {
        "a.yaml": file_with(GOOD_CASE.format(id="3.4-twice")),
        "b.yaml": file_with(GOOD_CASE.format(id="3.4-twice")),
    }
    (problem,) = problems_of(tmp_path, files)
    assert "3.4-twice" in problem
    assert "already used at a.yaml:4" in problem


def test_retired_id_cannot_be_reused(tmp_path: Path) -> None:
    (problem,) = problems_of(
        tmp_path, {"a.yaml": file_with(GOOD_CASE.format(id="3.4-old"))}, retired=["3.4-old"]
    )
    assert "retired" in problem


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            ("    source: constructed\n", '    source: constructed\n    article: "9.9"\n'),
            "article '9.9' is not in",
        ),
        (
            ("    source: constructed\n", "    source: constructed\n    interpretation: {reading: nope}\n"),
            "unknown reading 'nope'",
        ),
        (('"W:W28"', '"W:W3"'), "own promotion row"),
        (('"28-22", "28-23"', '"28-22", "28 - 22"'), "listed twice"),
        (('"28-22", "28-23"', '"28-22", "28x19 {23,23}"'), "captured square twice"),
        (('"28-22", "28-23"', '"28-22", "28-61"'), "outside 1-50"),
    ],
)
def test_corpus_rules_beyond_the_schema(tmp_path: Path, edit: tuple[str, str], expected: str) -> None:
    text = file_with(GOOD_CASE.format(id="3.4-lint")).replace(*edit)
    found = problems_of(tmp_path, {"l.yaml": text})
    assert any(expected in p and "case 3.4-lint" in p and p.startswith("l.yaml:4") for p in found), found


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        ("{moves: [], result: draw}", "a finished one needs both"),
        ('{moves: [], result: white_wins, rule: "6.1", ply: 0}', "a win is by rule 7.2.2 or 7.2.3"),
        ('{moves: [], result: draw, rule: "7.2.2", ply: 0}', "a draw is by rule 6.1-6.4"),
        ('{moves: ["28-22"], result: draw, rule: "6.1", ply: 0}', "must be the number of moves played"),
        ('{moves: [], result: ongoing, rule: "6.1"}', "an ongoing game has no rule"),
    ],
)
def test_outcome_answers_must_be_consistent(tmp_path: Path, outcome: str, expected: str) -> None:
    case = GOOD_CASE.format(id="3.4-out").replace('legal_moves: ["28-22", "28-23"]', f"outcome: {outcome}")
    found = problems_of(tmp_path, {"o.yaml": file_with(case)})
    assert any(expected in p for p in found), found


def test_an_invalid_fen_case_asks_only_about_the_fen(tmp_path: Path) -> None:
    case = GOOD_CASE.format(id="2-bad-fen").replace(
        'legal_moves: ["28-22", "28-23"]', "fen: {valid: false}\n      move_count: 0"
    )
    found = problems_of(tmp_path, {"f.yaml": file_with(case)})
    assert any("can only ask the 'fen' question" in p for p in found), found


def test_every_problem_is_reported_not_just_the_first(tmp_path: Path) -> None:
    files = {
        "a.yaml": file_with(GOOD_CASE.format(id="3.4-one").replace('"W:W28"', '"W:W1"')),
        "b.yaml": file_with(GOOD_CASE.format(id="3.4-two").replace('"W:W28"', '"W:W51"')),
    }
    found = problems_of(tmp_path, files)
    assert len(found) == 2
    assert {p.split(":")[0] for p in found} == {"a.yaml", "b.yaml"}


def test_a_missing_corpus_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="no such corpus directory"):
        load_corpus(tmp_path / "nowhere")


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("32-28", MoveSpec(32, 28)),
        (" 47x36 {14, 29,31,42} ", MoveSpec(47, 36, frozenset({14, 29, 31, 42}))),
        ("38x38 {18,19,32,33}", MoveSpec(38, 38, frozenset({18, 19, 32, 33}))),
    ],
)
def test_move_spec_parse_and_format(text: str, move: MoveSpec) -> None:
    assert MoveSpec.parse(text) == move
    assert MoveSpec.parse(str(move)) == move


@pytest.mark.parametrize("text", ["32x28", "32-28 {27}", "32-", "a-b", "47x36 {}", "47x36 {14,,29}"])
def test_move_spec_rejects(text: str) -> None:
    with pytest.raises(ValueError, match=r"is not a move by identity|comma-separated"):
        MoveSpec.parse(text)
