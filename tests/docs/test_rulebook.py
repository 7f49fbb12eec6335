"""docs/rules.md, the rulebook as the project reads it, and conformance.core.rulebook which finds its sections.

The registry (cases/articles.yaml) names every article and reading; the rulebook must have a section
for each, cite only cases that exist, and cite under each reading every case resting on it.
"""

from __future__ import annotations

import re
import tomllib
import zipfile
from pathlib import Path

import pytest

from conformance.core import rulebook
from conformance.core.corpus import CORPUS_ROOT, load_corpus, load_registry
from conformance.core.rulebook import Kind, RulebookError

REPO = Path(__file__).resolve().parents[2]
ARTICLES, READINGS = load_registry()
CASES = load_corpus().cases


@pytest.mark.parametrize("article", sorted(ARTICLES))
def test_every_registered_article_has_a_section_that_cites_cases(article: str) -> None:
    section = rulebook.section(article)
    assert section.kind is Kind.ARTICLE
    assert section.key == article
    assert section.body
    assert section.cases, f"the section of {article} cites no case"


@pytest.mark.parametrize("name", sorted(READINGS))
def test_every_registered_reading_has_a_section_saying_what_it_fixes_and_why(name: str) -> None:
    section = rulebook.reading(name)
    assert section.kind is Kind.READING
    assert "**Fixes:**" in section.body
    assert "**Why:**" in section.body


def test_every_section_of_the_page_is_a_registered_article_or_reading() -> None:
    book = rulebook.load()
    assert set(book.keys(Kind.ARTICLE)) == set(ARTICLES)
    assert set(book.keys(Kind.READING)) == set(READINGS)


def test_every_case_id_the_rulebook_cites_is_a_case_of_the_corpus() -> None:
    known = {case.id for case in CASES}
    cited = set(rulebook.load().cited_case_ids())
    assert len(cited) > 100
    assert sorted(cited - known) == []


@pytest.mark.parametrize("name", sorted(READINGS))
def test_each_reading_cites_every_case_whose_interpretation_names_it(name: str) -> None:
    resting = {c.id for c in CASES if c.interpretation and c.interpretation.reading == name}
    missing = sorted(resting - set(rulebook.reading(name).cases))
    assert missing == [], f"docs/rules.md, reading {name}: add these cases: {missing}"


@pytest.mark.parametrize("page", ["README.md", *sorted(p.name for p in (REPO / "docs").glob("*.md"))])
def test_every_reading_a_page_names_is_registered(page: str) -> None:
    """Each "reading `x`" of the documentation names a reading of cases/articles.yaml, not a retired
    one (what the FMJD text settles is written under its article, not as a reading)."""
    path = REPO / page if page == "README.md" else REPO / "docs" / page
    named = set(re.findall(r"\breadings? `([a-z0-9][a-z0-9-]*)`", path.read_text(encoding="utf-8")))
    assert sorted(named - set(READINGS)) == []


def test_the_move_text_part_cites_every_notation_case() -> None:
    """What a reader of PDN or Hub text must answer is shown by every case filed under PDN or Hub."""
    part = rulebook.part("move-text")
    notation = {case.id for case in CASES if case.article in ("PDN", "Hub")}
    assert len(notation) > 20
    assert sorted(notation - set(part.cases)) == []
    assert part.key == "move-text"
    assert part.markdown.startswith("## Move text")


def test_a_missing_section_names_what_was_asked_and_what_exists() -> None:
    with pytest.raises(RulebookError, match=r"no article section '4\.99'; it has: 2, 2\.8, 3\.4"):
        rulebook.section("4.99")
    with pytest.raises(RulebookError, match="no reading section 'no-such-reading'; it has: move-identity"):
        rulebook.reading("no-such-reading")


def test_a_heading_that_does_not_follow_the_shape_is_refused_with_its_line() -> None:
    text = "# Title\n\n## The articles\n\n### Art. 4.13 — Most\n\nbody\n\n### Maximum capture\n"
    with pytest.raises(RulebookError, match=r"line 9: heading 'Maximum capture' is not 'Art\. 4\.13"):
        rulebook.parse(text)


def test_a_section_given_twice_is_refused_with_both_lines() -> None:
    text = "## The readings\n\n### `a-b` — One\n\nx\n\n### `a-b` — Two\n"
    with pytest.raises(RulebookError, match=r"line 7: reading 'a-b' already has a section \(line 3\)"):
        rulebook.parse(text)


def test_sections_split_at_headings_and_ignore_fenced_code() -> None:
    text = (
        "# Title\n\nintro\n\n## The articles\n\n### Art. 4.13 — Most pieces\n\nSee `4.13-x-y` and `32-28`.\n"
        "```\n## not a heading\n```\n\n## The readings\n\n### `pdn-full-route` — A route\n\n**Fixes:** x\n"
        "\n## Move text: what a reader answers\n\n### Steps\n\n`pdn-a` and `perft-b-c`, not `pdn-full-route`\n"
    )
    book = rulebook.parse(text)
    article = book.find(Kind.ARTICLE, "4.13")
    assert article.title == "Most pieces"
    assert article.body == "See `4.13-x-y` and `32-28`.\n```\n## not a heading\n```"
    assert article.cases == ("4.13-x-y",)
    assert article.line == 7
    assert article.anchor == "art-413--most-pieces"
    assert book.find(Kind.READING, "pdn-full-route").body == "**Fixes:** x"
    notation = book.find(Kind.PART, "move-text")
    assert notation.body == "### Steps\n\n`pdn-a` and `perft-b-c`, not `pdn-full-route`"
    assert notation.cases == ("pdn-a", "perft-b-c")


def test_a_missing_rulebook_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RulebookError, match=r"cannot read the rulebook .*nowhere\.md"):
        rulebook.load(tmp_path / "nowhere.md")


def test_the_rulebook_links_nowhere_outside_the_repository() -> None:
    text = rulebook.load().text
    assert "shared/" not in text
    assert "](http" not in text  # the rulebook stands alone, in the repository and in the wheel


# -- shipped in the wheel ---------------------------------------------------------------------------


def test_the_rulebook_is_packaged_like_the_corpus() -> None:
    """conformance/docs_data links to docs/ (as corpus_data to cases/) and package-data takes rules.md."""
    assert (REPO / "docs" / "rules.md").resolve() == rulebook.RULEBOOK_PATH
    assert (REPO / "cases").resolve() == CORPUS_ROOT
    package_data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"
    ]["conformance"]
    assert "docs_data/rules.md" in package_data
    assert (REPO / "conformance" / "docs_data").is_symlink()


def test_the_wheel_contains_the_rulebook_and_the_corpus(suite_wheel: Path) -> None:
    """``pip wheel`` of a clone (conftest.py; network for the build backend): the rulebook and the
    corpus are in the wheel."""
    with zipfile.ZipFile(suite_wheel) as archive:
        names = set(archive.namelist())
        shipped = archive.read("conformance/docs_data/rules.md").decode("utf-8")
    assert shipped == (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "conformance/corpus_data/articles.yaml" in names
    assert not any(
        name.startswith("conformance/docs_data/") and name.endswith("protocol.md") for name in names
    )
