"""The numbers of the corpus the README and the docs state (questions, cases, rules) are the corpus's
own, counted here: a corpus that grows makes this fail until the pages say so (issue 24: the README
said 397 questions when the corpus had 465)."""

from __future__ import annotations

import re
from pathlib import Path

from conformance.core.corpus import load_corpus
from conformance.core.corpus.load import corpus_root_for
from conformance.core.rule_sets import rule_set
from oracle.ruleset import BUILTIN

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def default_corpus() -> tuple[int, int, int]:
    """Cases, questions and rules of a default run (slow cases left out)."""
    cases = [case for case in load_corpus().cases if "slow" not in case.tags]
    return len(cases), sum(len(case.questions) for case in cases), len({case.judged_under for case in cases})


def stated_games(pages: list[Path] = PAGES) -> dict[str, str]:
    """The lines that state a certificate of another game than international (``FAILED for russian
    at rules level``), with the game."""
    found = {}
    for page in pages:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            match = re.search(r"(?:CERTIFIED|FAILED) for ([a-z]+)\b", line)
            if match and match.group(1) in BUILTIN[1:]:
                found[f"{page.name}:{number}"] = match.group(1)
    return found


def stated(pattern: str, pages: list[Path] = PAGES) -> list[tuple[str, int]]:
    """Each number ``pattern`` captures in the pages, with where it stands."""
    found = []
    for page in pages:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            found += [(f"{page.name}:{number}", int(match)) for match in re.findall(pattern, line)]
    return found


def game_questions() -> dict[str, int]:
    """The questions of each other game's default run (rulesets/cases/<game>/, slow cases left out),
    by rule-set name."""
    counts = {}
    for name in BUILTIN[1:]:
        played = rule_set(name)
        cases = load_corpus(corpus_root_for(played), played).cases
        counts[name] = sum(len(case.questions) for case in cases if "slow" not in case.tags)
    return counts


def test_the_pages_state_the_corpus_s_own_counts() -> None:
    cases, questions, rules = default_corpus()
    totals = stated(r"whole default corpus \((\d+) questions\)") + stated(r"\d+/(\d+) answered")
    totals += stated(r"\d+ cases, (\d+) questions") + stated(r"/(\d+) questions pass")
    assert len(totals) >= 5, totals
    games = stated_games()
    international = [(where, number) for where, number in totals if where not in games]
    assert [where for where, number in international if number != questions] == [], questions
    per_game = game_questions()  # a certificate of another game: that game's corpus
    assert [where for where, number in totals if where in games and number != per_game[games[where]]] == []
    case_counts = stated(r"(\d+) cases, \d+ questions")
    assert case_counts
    assert [where for where, number in case_counts if number != cases] == [], cases
    rule_counts = stated(r"certified \d+/(\d+) rules")
    assert rule_counts
    assert [where for where, number in rule_counts if number != rules] == [], rules


def test_the_patterns_find_a_wrong_count(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("the whole default corpus (397 questions) and 163/397 answered\n", encoding="utf-8")
    assert stated(r"\d+/(\d+) answered", [page]) == [("page.md:1", 397)]
    assert stated(r"whole default corpus \((\d+) questions\)", [page]) == [("page.md:1", 397)]
