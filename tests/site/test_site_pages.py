"""The documentation site and the single-run HTML report, checked from the files themselves.

Each page must parse as XML (the pages are written XHTML-compatible, so a strict parser finds
any unclosed element or stray ``&``); every ``href``/``src`` must name a file of the site and,
with a fragment, an id on that page; every case, article, reading and engine of the input must
be on the pages where a reader looks for it; a failing engine's wrong answers must be drawn.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest

from conformance.cli.commands import build_parser
from conformance.core.corpus import Corpus, LegalMovesQuestion, MoveSpec
from conformance.core.filing.registry import readings
from conformance.core.results import Result, Status
from conformance.report import Report, ReportError
from conformance.report.text import blocked_by, defects
from conformance.site.build import render_html, write_site
from oracle.position import Position

PROBLEMS = (Status.FAIL, Status.ERROR)


# -- reading pages back ------------------------------------------------------------------------------


def parse_page(text: str) -> ET.Element:
    """Parse a page strictly as XML; drop namespaces from tags so queries read plainly."""
    doctype, _, rest = text.partition("\n")
    assert doctype == "<!DOCTYPE html>"
    root = ET.fromstring(rest)
    for element in root.iter():
        element.tag = element.tag.rsplit("}", 1)[-1]
    return root


def text_of(element: ET.Element) -> str:
    return " ".join(" ".join(element.itertext()).split())


def ids_of(root: ET.Element) -> list[str]:
    return [element.get("id", "") for element in root.iter() if element.get("id")]


def by_id(root: ET.Element, ident: str) -> ET.Element:
    found = [element for element in root.iter() if element.get("id") == ident]
    assert len(found) == 1, f"id {ident!r} found {len(found)} times"
    return found[0]


def has_class(element: ET.Element, name: str) -> bool:
    return name in element.get("class", "").split()


@pytest.fixture(scope="module")
def pages(site_dir: Path) -> dict[str, ET.Element]:
    return {
        path.name: parse_page(path.read_text(encoding="utf-8")) for path in sorted(site_dir.glob("*.html"))
    }


def engine_pages(pages: dict[str, ET.Element]) -> dict[str, str]:
    """Engine title (``name version``) -> its page, read from the pages' own headings."""
    found = {}
    for name, root in pages.items():
        if name.startswith("eng-"):
            heading = next(root.iter("h1"))
            found[text_of(heading)] = name
    return found


def title(report: Report) -> str:
    engine = report.header["engine"]
    return f"{engine['name']} {engine['version']}".strip()


def failures_in(element: ET.Element) -> list[ET.Element]:
    return [e for e in element.iter("div") if has_class(e, "failure")]


def svg_arrows(element: ET.Element) -> list[tuple[str, tuple[int, ...]]]:
    return sorted(
        (g.get("data-role", ""), tuple(int(s) for s in g.get("data-route", "").split()))
        for g in element.iter("g")
        if has_class(g, "arrow")
    )


# -- well-formed, linked, complete -------------------------------------------------------------------


def test_every_page_is_well_formed_with_unique_ids(site_dir: Path, pages: dict[str, ET.Element]) -> None:
    assert "index.html" in pages
    assert (site_dir / "style.css").is_file()
    for name, root in pages.items():
        assert root.tag == "html", name
        assert root.get("lang") == "en", name
        heading = next(root.iter("title"), None)
        assert heading is not None, name
        assert text_of(heading), name
        duplicates = [ident for ident, n in Counter(ids_of(root)).items() if n > 1]
        assert not duplicates, f"{name}: ids used twice: {duplicates[:5]}"
        assert_html_nesting(root, name)


BLOCKS = {"div", "p", "table", "ul", "ol", "dl", "figure", "section", "pre", "h1", "h2", "h3", "h4", "form"}
PHRASING = {"p", "a", "span", "code", "strong", "em", "h1", "h2", "h3", "h4", "dt", "figcaption", "title"}


def assert_html_nesting(root: ET.Element, name: str) -> None:
    """What XML cannot see but an HTML parser acts on: a block inside a paragraph (or a link, a
    heading, a span) silently closes it, and the page no longer says what it was written to say."""
    for element in root.iter():
        if element.tag in PHRASING and element.tag != "figcaption":
            inner = [child.tag for child in element.iter() if child is not element and child.tag in BLOCKS]
            assert not inner, f"{name}: <{element.tag}> holds <{inner[0]}>: {text_of(element)[:80]}"


def iter_links(root: ET.Element) -> Iterator[str]:
    for element in root.iter():
        for attribute in ("href", "src"):
            value = element.get(attribute)
            if value is not None:
                yield value


def test_no_dead_link(site_dir: Path) -> None:
    """Every link of every page, the other games' pages (in their folders) included, resolves."""
    pages = {
        path.relative_to(site_dir).as_posix(): parse_page(path.read_text(encoding="utf-8"))
        for path in sorted(site_dir.rglob("*.html"))
    }
    assert "russian/index.html" in pages
    ids = {name: set(ids_of(root)) for name, root in pages.items()}
    checked = 0
    for name, root in pages.items():
        folder = PurePosixPath(name).parent
        for link in iter_links(root):
            assert "://" not in link, f"{name}: {link} leaves the site"
            assert not link.startswith("//"), f"{name}: {link} leaves the site"
            target, _, fragment = link.partition("#")
            target = posixpath.normpath((folder / target).as_posix()) if target else name
            assert not target.startswith(".."), f"{name}: {link} leaves the site"
            assert (site_dir / target).is_file(), f"{name}: {link}: no file {target}"
            if fragment:
                assert fragment in ids.get(target, set()), f"{name}: {link}: no id {fragment!r} on {target}"
            checked += 1
    assert checked > 1000  # the pages really are linked to each other


def test_each_other_game_has_its_pages_linked_from_the_index(
    corpus: Corpus,
    site_dir: Path,
    pages: dict[str, ET.Element],
    russian_corpus: Corpus,
    russian_reports: list[Report],
) -> None:
    """Russian draughts: linked from the index with its cases and engines; its index, article and
    engine pages are the game's (title, footer, its own articles), its boards 8x8 with the pieces
    on the game's squares, its engines' failures filed and drawn under its own article."""
    assert text_of(by_id(pages["index.html"], "games")) == "Other games of the family"
    assert "russian/index.html" in set(iter_links(pages["index.html"]))
    russian = {
        path.name: parse_page(path.read_text(encoding="utf-8"))
        for path in sorted((site_dir / "russian").glob("*.html"))
    }
    for name, root in russian.items():
        duplicates = [ident for ident, n in Counter(ids_of(root)).items() if n > 1]
        assert not duplicates, f"{name}: ids used twice: {duplicates[:5]}"
        assert_html_nesting(root, name)
        assert "Russian draughts (8x8)" in text_of(next(root.iter("footer"))), name
        assert "International draughts" not in text_of(next(root.iter("footer"))), name
        assert (site_dir / "russian" / name).stat().st_size < 300_000
    index = text_of(russian["index.html"])
    assert "Russian draughts (8x8), rule by rule" in index
    assert f"{len(russian_corpus.cases)} cases" in index
    assert not any(name.startswith("art-4.") for name in russian)  # none of FMJD's articles
    case = next(c for c in russian_corpus.cases if c.id == "russian-1.5.15-crowned-man-goes-on-as-king")
    page = next(name for name in russian if name.startswith("art-fsr-1.5.15"))
    board = next(by_id(russian[page], f"case-{case.id}").iter("svg"))
    assert board.get("viewBox") == "-4 -4 328 350"  # 8 squares of 40, the frame and the caption
    drawn = {int(use.get("data-square", "0")) for use in board.iter("use") if use.get("data-square")}
    assert drawn == {9, 6, 11, 21}  # W:W9:B6,11,21 on the 8x8 board, not 10x10's squares
    assert any(route == (9, 2, 16) for _, route in svg_arrows(board))  # crowned on 2, on as a king
    mutant_page = next(name for name in russian if name.startswith("eng-maximum-capture-choice"))
    assert "fsr:1.5.14" in text_of(russian[mutant_page])
    assert russian_reports[1].certificate().verdict.startswith("FAILED")
    single = render_html(russian_reports[1], corpus)  # the international corpus is not the run's: left out
    assert 'viewBox="-4 -4 328 350"' in single
    assert 'viewBox="-4 -4 408 430"' not in single
    assert "Russian draughts (8x8): article summaries" in single


def test_every_article_has_its_page_with_summary_and_readings(
    corpus: Corpus, pages: dict[str, ET.Element]
) -> None:
    index_links = set(iter_links(pages["index.html"]))
    for article, summary in corpus.articles.items():
        page = f"art-{article}.html"
        assert page in pages, page
        assert page in index_links
        text = text_of(pages[page])
        assert " ".join(summary.split()) in text
    for reading in corpus.readings.values():
        for article in reading.articles:
            text = text_of(pages[f"art-{article}.html"])
            assert reading.id in text, article
            assert " ".join(reading.text.split()) in text, (reading.id, article)
        assert by_id(pages["index.html"], f"reading--{reading.id}") is not None


def test_long_diagonal_clause_is_documented_as_not_applied(pages: dict[str, ET.Element]) -> None:
    text = text_of(pages["art-6.3.html"])
    assert "long-diagonal-not-applied" in text
    assert "is not applied" in text


def test_every_case_is_on_the_page_of_every_article_it_cites(
    corpus: Corpus, pages: dict[str, ET.Element]
) -> None:
    for case in corpus.cases:
        for article in case.articles:
            if article in corpus.readings:  # a reading it relies on: shown on its articles' pages
                continue
            section = by_id(pages[f"art-{article}.html"], f"case-{case.id}")
            text = text_of(section)
            assert case.id in text
            assert " ".join(case.description.split()) in text
            boards = list(section.iter("svg"))
            position_is_valid = _valid(case.position)
            assert bool(boards) is position_is_valid, case.id
            if position_is_valid:  # the first board is the case's own position
                assert boards[0].get("data-fen") == Position.from_fen(case.position).fen()


def _valid(fen: str) -> bool:
    try:
        Position.from_fen(fen)
    except ValueError:
        return False
    return True


def test_expected_legal_moves_are_drawn_on_the_case_diagram(
    corpus: Corpus, pages: dict[str, ET.Element]
) -> None:
    checked = 0
    for case in corpus.cases:
        moves = next((q.moves for q in case.questions if isinstance(q, LegalMovesQuestion)), None)
        if not moves or len(moves) > 16:
            continue
        section = by_id(pages[f"art-{case.articles[0]}.html"], f"case-{case.id}")
        board = next(section.iter("svg"))
        drawn = sorted((route[0], route[-1]) for role, route in svg_arrows(board) if role == "move")
        assert drawn == sorted((m.from_square, m.to_square) for m in moves), case.id
        captured = {int(g.get("data-square", "0")) for g in board.iter("g") if g.get("class") == "captured"}
        assert captured == {s for m in moves for s in m.captured}, case.id
        checked += 1
    assert checked > 20


def test_every_engine_has_its_page_and_column(reports: list[Report], pages: dict[str, ET.Element]) -> None:
    engines = engine_pages(pages)
    assert sorted(engines) == sorted(title(report) for report in reports)
    index = pages["index.html"]
    index_links = set(iter_links(index))
    for report in reports:
        page = engines[title(report)]
        assert page in index_links
        text = text_of(pages[page])
        engine = report.header["engine"]
        for fact in (engine["name"], engine["version"], engine["adapter"], engine["level"]):
            assert fact in text


def test_matrix_cells_give_each_engines_standing_per_rule(
    corpus: Corpus, reports: list[Report], pages: dict[str, ET.Element]
) -> None:
    engines = engine_pages(pages)
    cells = {
        link.get("href", ""): text_of(link)
        for td in pages["index.html"].iter("td")
        if has_class(td, "rate")
        for link in td.iter("a")
    }
    for report in reports:
        slug = engines[title(report)][len("eng-") : -len(".html")]
        rows = {row.key: row for row in report.certificate().rows}
        for article in corpus.articles:
            filed = [r for r in report.results if r.judged_under == article]
            row = rows.get(article)
            href = f"art-{article}.html#eng-{slug}"
            if row is None:
                assert href not in cells
                continue
            passed = sum(1 for r in filed if r.status is Status.PASS)
            assert (row.passed, row.questions) == (passed, len(filed))
            expected = f"{row.standing.value} {passed}/{len(filed)} pass" if filed else row.standing.value
            assert cells[href] == expected, (article, title(report), cells[href])


def test_each_case_shows_each_engines_result(reports: list[Report], pages: dict[str, ET.Element]) -> None:
    for report in reports:
        for result in report.results[::7]:  # a sample across the corpus
            section = by_id(pages[f"art-{result.articles[0]}.html"], f"case-{result.case}")
            rows = [
                text_of(row)
                for table in section.iter("table")
                if has_class(table, "results")
                for row in table.iter("tr")
            ]
            assert any(row.startswith(title(report)) and result.status.value in row for row in rows)


def _failure_block(pages: dict[str, ET.Element], report: Report, result: Result) -> ET.Element:
    engine_page = engine_pages(pages)[title(report)]
    section = by_id(pages[f"art-{result.articles[0]}.html"], f"case-{result.case}")
    question = next(
        div
        for div in section.iter("div")
        if has_class(div, "question") and f"[{result.question}]" in text_of(next(div.iter("h4")))
    )
    blocks = [
        block for block in failures_in(question) if any(a.get("href") == engine_page for a in block.iter("a"))
    ]
    assert len(blocks) == 1, (result.case, result.question)
    return blocks[0]


def test_wrong_move_sets_are_drawn(broken_report: Report, pages: dict[str, ET.Element]) -> None:
    checked = 0
    for result in broken_report.results:
        if result.status is not Status.FAIL or result.question != "legal_moves":
            continue
        expected = {MoveSpec.parse(m) for m in result.expected}
        got = {MoveSpec.parse(m) for m in result.got}
        block = _failure_block(pages, broken_report, result)
        assert result.message in text_of(block)
        arrows = svg_arrows(block)
        for role, moves in (("missing", expected - got), ("extra", got - expected)):
            drawn = sorted((route[0], route[-1]) for r, route in arrows if r == role)
            assert drawn == sorted((m.from_square, m.to_square) for m in moves), (result.case, role)
        checked += 1
    assert checked >= 5


def test_a_wrong_chosen_move_is_drawn(chooser_report: Report, pages: dict[str, ET.Element]) -> None:
    engine_page = pages[engine_pages(pages)[title(chooser_report)]]
    assert "move-choice" in text_of(engine_page)
    checked = 0
    for result in chooser_report.results:
        if result.status is not Status.FAIL or result.got is None:
            continue
        chosen = MoveSpec.parse(result.got)
        legal = {MoveSpec.parse(m) for m in result.expected}
        arrows = svg_arrows(_failure_block(pages, chooser_report, result))
        assert [(route[0], route[-1]) for role, route in arrows if role == "extra"] == [
            (chosen.from_square, chosen.to_square)
        ]
        drawn = sorted((route[0], route[-1]) for role, route in arrows if role == "move")
        assert drawn == sorted((m.from_square, m.to_square) for m in legal)
        checked += 1
    assert checked >= 3


def test_wrong_positions_are_drawn(keeper_report: Report, pages: dict[str, ET.Element]) -> None:
    checked = 0
    for result in keeper_report.results:
        if result.status is not Status.FAIL or not result.question.startswith("after"):
            continue
        got, expected = Position.from_fen(result.got), Position.from_fen(result.expected["position"])
        block = _failure_block(pages, keeper_report, result)
        boards = list(block.iter("svg"))
        assert [svg.get("data-fen") for svg in boards] == [got.fen()]
        framed = {
            int(rect.get("data-square", "0"))
            for rect in boards[0].iter("rect")
            if rect.get("class") == "difference"
        }
        assert framed == {s for s in range(1, 51) if got.piece_at(s) != expected.piece_at(s)}
        assert framed  # this engine leaves captured pieces on the board
        checked += 1
    assert checked >= 5


def table_rows(root: ET.Element, name: str) -> list[list[str]]:
    """The cells' text of each row (after the heading) of the table of class ``name``."""
    return [
        [text_of(td) for td in tr.iter("td")]
        for table in root.iter("table")
        if has_class(table, name)
        for tr in table.iter("tr")
    ][1:]


def test_engine_page_tells_the_terminals_story(
    reports: list[Report], pages: dict[str, ET.Element], site_dir: Path
) -> None:
    """The defects one line each, as the terminal lists them; one failure of each drawn; every other
    wrong answer linked to where it is drawn; blocked ones as blocked; a light page."""
    engines = engine_pages(pages)
    blocked_seen = 0
    corpus_readings = readings()
    for report in reports:
        name = engines[title(report)]
        root = pages[name]
        certificate = report.certificate()
        found, blocked = defects(report, certificate)
        assert [row[1:5] for row in table_rows(root, "defects")] == [
            [
                f"reading {d.rule}" if d.rule in corpus_readings else d.rule,
                d.what,
                str(len(d.new) or ""),
                str(len(d.known) or ""),
            ]
            for d in found
        ]
        drawn = failures_in(root)
        assert len(drawn) == len(found)  # one example per defect, no more
        for index, (defect, block) in enumerate(zip(found, drawn, strict=True), start=1):
            assert block.get("id") == f"defect-{index}-example"
            assert defect.results[0].message in text_of(block)
        hrefs = {a.get("href", "") for a in iter_links_elements(root)}
        for result in [r for d in found for r in d.results[1:]] + blocked:  # linked to their drawing
            target = f"art-{result.articles[0]}.html#{_failure_block(pages, report, result).get('id')}"
            assert target in hrefs, (name, result.case, result.question)
        blocked_rows = table_rows(root, "blocked")
        assert len(blocked_rows) == len(blocked)
        for result, row in zip(blocked, blocked_rows, strict=True):
            assert row[2] == ", ".join(blocked_by(result, certificate))
        blocked_seen += len(blocked)
        per_article = {link.get("href", "") for link in iter_links_elements(root)}
        for article in {r.article for r in report.results if not r.reading}:
            assert any(href.startswith(f"art-{article}.html#eng-") for href in per_article)
        assert (site_dir / name).stat().st_size < 300_000
    assert blocked_seen  # the broken engines' reports do hold blocked failures


def test_blocked_results_are_shown_as_blocked_not_failed(
    broken_report: Report, pages: dict[str, ET.Element]
) -> None:
    certificate = broken_report.certificate()
    _, blocked = defects(broken_report, certificate)
    assert blocked
    for result in blocked:
        block = _failure_block(pages, broken_report, result)
        assert has_class(block, "st-box-blocked")
        assert f"fail, blocked by {', '.join(blocked_by(result, certificate))}" in text_of(block)
    engine = pages[engine_pages(pages)[title(broken_report)]]
    table = next(t for t in engine.iter("table") if has_class(t, "matrix"))
    head = [text_of(th) for th in next(table.iter("tr")).iter("th")]
    assert head[3:] == ["pass", "fail", "error", "known", "blocked", "skip", "unsupported"]
    rows = {row.key: row for row in certificate.rows}
    for tr in list(table.iter("tr"))[1:]:
        cells = [text_of(td) for td in tr.iter("td")]
        row = rows[cells[0].removeprefix("reading ")]
        assert cells[-3] == str(row.blocked or "")
        assert cells[4] == str(row.failed + row.charged or "")


def iter_links_elements(root: ET.Element) -> Iterator[ET.Element]:
    return (element for element in root.iter("a") if element.get("href"))


# -- other inputs ------------------------------------------------------------------------------------


def test_site_without_reports_documents_every_case(corpus: Corpus, tmp_path: Path) -> None:
    write_site(tmp_path, corpus, [])
    names = sorted(path.name for path in tmp_path.glob("*.html"))
    assert not [name for name in names if name.startswith("eng-")]
    assert names == sorted(["index.html", *(f"art-{article}.html" for article in corpus.articles)])
    ids = {name: set(ids_of(parse_page((tmp_path / name).read_text(encoding="utf-8")))) for name in names}
    for case in corpus.cases:
        for article in case.articles:
            if article not in corpus.readings:  # a reading it relies on has no page of its own
                assert f"case-{case.id}" in ids[f"art-{article}.html"]


def test_site_is_deterministic(
    corpus: Corpus,
    reports: list[Report],
    russian_corpus: Corpus,
    russian_reports: list[Report],
    site_dir: Path,
    tmp_path: Path,
) -> None:
    write_site(tmp_path, corpus, [*reports, *russian_reports], {"russian": russian_corpus})
    first = {path.relative_to(site_dir): path.read_bytes() for path in site_dir.rglob("*") if path.is_file()}
    second = {path.relative_to(tmp_path): path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    assert Path("russian", "index.html") in first
    assert first == second


@pytest.mark.parametrize("with_corpus", [True, False])
def test_single_run_report(corpus: Corpus, broken_report: Report, with_corpus: bool) -> None:
    root = parse_page(render_html(broken_report, corpus if with_corpus else None))
    ids = ids_of(root)
    duplicates = [ident for ident, n in Counter(ids).items() if n > 1]
    assert not duplicates
    known = set(ids)
    for link in iter_links(root):
        assert link.startswith("#"), link
        assert link[1:] in known, link
    assert next(root.iter("style"), None) is not None  # self-contained: no stylesheet file to carry
    text = text_of(root)
    assert title(broken_report) in text
    for case_id in {result.case for result in broken_report.results}:
        assert case_id in text
    certificate = broken_report.certificate()
    found, _ = defects(broken_report, certificate)
    problems = [r for r in broken_report.results if r.status in PROBLEMS]
    entries = {
        (text_of(next(section.iter("h3"))), _question_of(block)): block
        for section in root.iter("section")
        if has_class(section, "case")
        for block in failures_in(section)
    }
    for result in problems:  # each wrong answer has its entry, in words; blocked ones say so
        block = entries[(result.case, result.question)]
        assert result.message in text_of(block)
        assert not list(block.iter("svg"))
        assert ("blocked by" in text_of(block)) is bool(blocked_by(result, certificate))
    # One drawing per defect, and the words of every wrong answer: nothing drawn twice.
    assert len(failures_in(root)) == len(found) + len(problems)
    assert sum(1 for block in failures_in(root) if list(block.iter("svg"))) <= len(found)


def _question_of(block: ET.Element) -> str:
    """``after[0]`` from a failure block's heading ``Position after playing [after[0]]: ...``."""
    found = re.match(r"[^\[]*\[(.*?)\]:", text_of(next(block.iter("p"))))
    assert found is not None, text_of(block)
    return found.group(1)


def test_single_run_report_stays_small(corpus: Corpus, broken_report: Report) -> None:
    """Every question of the corpus, wrong in a third (then in two thirds) of them: the page grows with
    the distinct defects (one drawing each), not with the failures (a link each)."""

    def wrong(every: set[int]) -> tuple[Report, int]:
        results = [
            dataclasses.replace(
                r, status=Status.FAIL, message="wrong", got=[], defect=f"defect {n % 7}", baselined=False
            )
            if n % 3 in every
            else r
            for n, r in enumerate(broken_report.results)
        ]
        report = Report(broken_report.header, results, broken_report.footer)
        return report, sum(1 for r in results if r.status is Status.FAIL)

    third, third_failures = wrong({0})
    two_thirds, two_thirds_failures = wrong({0, 1})
    small = len(render_html(third, corpus).encode())
    large = len(render_html(two_thirds, corpus).encode())
    drawn_small = len(defects(third, third.certificate())[0])
    drawn_large = len(defects(two_thirds, two_thirds.certificate())[0])
    assert small < 8_000 * drawn_small + 200_000, (small, drawn_small)
    assert large < 8_000 * drawn_large + 200_000, (large, drawn_large)
    assert large - small < 8_000 * (drawn_large - drawn_small) + 1_500 * (
        two_thirds_failures - third_failures
    )


def test_docs_command(corpus: Corpus, broken_report: Report, tmp_path: Path) -> None:
    parser = build_parser()
    out = tmp_path / "site"
    args = parser.parse_args(["docs", "--out", str(out), "--report", broken_report.source])
    assert args.handler(args) == 0
    assert (out / "index.html").is_file()
    assert (out / "style.css").is_file()
    assert len(list(out.glob("eng-*.html"))) == 1
    for game in ("brazilian", "canadian", "russian", "pool", "american"):  # each game's corpus, linked
        assert (out / game / "index.html").is_file()
        assert f'href="{game}/index.html"' in (out / "index.html").read_text(encoding="utf-8")
    missing = parser.parse_args(["docs", "--out", str(out), "--report", str(tmp_path / "nowhere.jsonl")])
    with pytest.raises(ReportError, match=r"nowhere\.jsonl"):
        missing.handler(missing)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory", encoding="utf-8")
    unwritable = parser.parse_args(["docs", "--out", str(blocked)])
    assert unwritable.handler(unwritable) == 2


def test_a_case_only_in_a_report_is_still_shown(
    corpus: Corpus, broken_report: Report, tmp_path: Path
) -> None:
    stranger = Result(
        case="zz-case-from-another-corpus",
        question="legal_moves",
        article="4.13",
        status=Status.FAIL,
        position="W:W33:B28,29",
        message="missing: 33x22 {28}",
        expected=["33x22 {28}", "33x24 {29}"],
        got=["33x24 {29}"],
    )
    report = Report(broken_report.header, [*broken_report.results, stranger], broken_report.footer)
    write_site(tmp_path, corpus, [report])
    root = parse_page((tmp_path / "art-4.13.html").read_text(encoding="utf-8"))
    section = by_id(root, "case-zz-case-from-another-corpus")
    assert "not in the corpus" in text_of(section)
    block = failures_in(section)[0]
    assert svg_arrows(block) == [("agreed", (33, 24)), ("missing", (33, 22))]


def test_every_article_page_shows_its_long_form_from_the_rulebook(
    corpus: Corpus, pages: dict[str, ET.Element]
) -> None:
    from conformance.core import rulebook
    from conformance.site.markup import markdown_html

    for article in corpus.articles:
        body = rulebook.section(article).body
        expected = text_of(ET.fromstring(f"<div>{markdown_html(body)}</div>"))
        assert expected[:200] in text_of(pages[f"art-{article}.html"]), article


def test_the_rulebook_markdown_is_escaped_not_interpreted() -> None:
    from conformance.site.markup import markdown_html

    html = markdown_html("A <b>bold</b> **claim**, an *emphasis*, 2*3*4 and `x<y`\n\n- one\n- two <script>")
    assert "<b>" not in html
    assert "<script>" not in html
    assert "<strong>claim</strong>" in html
    assert "<em>emphasis</em>" in html
    assert "2*3*4" in html  # a star inside a word is not emphasis
    assert "<code>x&lt;y</code>" in html
    assert html.count("<li>") == 2


def test_each_kind_of_rule_has_its_own_title(pages: dict[str, ET.Element]) -> None:
    from conformance.site.build import article_title

    assert article_title("4.13") == "Article 4.13"
    assert article_title("PDN") == "PDN 3.0 notation"
    assert article_title("perft") == "Perft (the move generator as a whole)"
    assert article_title("endgame-no-restart", reading=True) == "Reading endgame-no-restart"
    assert "Perft (the move generator as a whole)" in text_of(pages["art-perft.html"])
    assert "Article perft" not in text_of(pages["art-perft.html"])


def test_a_verify_reports_engine_page_says_which_positions_it_checked(tmp_path: Path) -> None:
    """A verify run checked generated positions, not the corpus's cases: its page says how many, of
    which seed and kinds, and how z3 was used (it once read "cases run ? of ?")."""
    from conformance.cli.main import main
    from conformance.report import read_report

    path = tmp_path / "verify.jsonl"
    command = ["verify", "--engine", "oracle", "-n", "6", "--seed", "3", "--kind", "random"]
    assert main([*command, "--no-z3", "--no-progress", "--report", str(path)]) == 0
    assert read_report(path).header["kind"] == "verify"
    out = tmp_path / "site"
    assert main(["docs", "--out", str(out), "--report", str(path)]) == 0
    (page,) = out.glob("eng-*.html")
    facts = next(
        dl for dl in parse_page(page.read_text(encoding="utf-8")).iter("dl") if has_class(dl, "meta")
    )
    said = dict(
        zip((text_of(dt) for dt in facts.iter("dt")), (text_of(dd) for dd in facts.iter("dd")), strict=True)
    )
    assert said["positions"] == "6, seed 3 (random)"
    assert said["z3"] == "off"
    assert "cases run" not in said
    assert "corpus" not in said
