"""The site and the single-run HTML report, looked at in a real browser (slow; ``--run-slow``).

Debian's Chromium renders every page at a desktop and a phone width; each page must load with
its stylesheet, show every board whole (squares, numbers, pieces: every part a board refers to is
on the page), never scroll sideways, keep its text and the board numbers at a readable size, and
show no Markdown as typed (``*italics*``). The checks run in the page (:mod:`headless`); a page
made wrong on purpose shows that each of them can fail.

``DRAUGHTS_SCREENSHOTS=DIR`` also writes the few screenshots kept in ``docs/img``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from headless import DESKTOP, PHONE, Width, browser, check_page, missing, open_page, set_width

from conformance.core.corpus import Corpus
from conformance.report import Report
from conformance.site.build import render_html
from conformance.site.svg import board_svg

pytestmark = pytest.mark.slow

SHOT = Width("screenshot", 1000, 620, mobile=False)
PHONE_SHOT = Width("phone screenshot", 390, 700, mobile=True)


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    reason = missing()
    if reason:
        pytest.skip(reason)
    with browser(tmp_path_factory.mktemp("chromium-profile")) as running:
        yield running


@pytest.fixture(scope="module")
def report_page(corpus: Corpus, broken_report: Report, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(render_html(broken_report, corpus), encoding="utf-8")
    return path


@pytest.mark.parametrize("width", [DESKTOP, PHONE], ids=lambda width: width.name)
def test_every_page_reads_well(driver: Any, site_dir: Path, report_page: Path, width: Width) -> None:
    set_width(driver, width)
    pages = [*sorted(site_dir.glob("*.html")), report_page]
    assert len(pages) > 30
    seen = [check_page(driver, page, width) for page in pages]
    problems = [f"{s.page} ({s.width}): {problem}" for s in seen for problem in s.problems]
    assert not problems, "\n".join(problems)
    boards = {s.page: s.boards for s in seen}
    assert boards["art-4.13.html"] > 20
    assert all(count > 0 for name, count in boards.items() if name.startswith("eng-no-backward"))


def test_the_checks_see_what_a_reader_sees(driver: Any, tmp_path: Path) -> None:
    """A page with every fault the checks look for: each is reported."""
    board = board_svg("W:W31-50:B1-20", width=200)  # numbers 6.1 px high, the caption 6.4 px
    page = tmp_path / "bad.html"
    page.write_text(
        "<!DOCTYPE html><html><head><title>bad</title><style>body{margin:0}</style>"
        '<meta name="viewport" content="width=device-width, initial-scale=1"/></head><body>'
        f"<h1>bad</h1><p>An *emphasis* typed, not rendered.</p>{board}"
        '<svg class="board" viewBox="0 0 408 430" width="300"><use href="#dc-squares"/></svg>'
        f"<table><tr><td>{'x' * 400}</td></tr></table>"
        '<img src="nowhere.png" alt="gone"/></body></html>',
        encoding="utf-8",
    )
    set_width(driver, PHONE)
    problems = "\n".join(check_page(driver, page, PHONE).problems)
    assert "square numbers 6.1px < 9px" in problems
    assert 'board text "White to move" 6.4px' in problems
    assert "board part #dc-squares missing" in problems
    assert "wide in a 390px window" in problems
    assert "image not shown: nowhere.png" in problems
    assert "Markdown shown literally: *emphasis*" in problems


def test_screenshots(driver: Any, site_dir: Path, report_page: Path, tmp_path: Path) -> None:
    """Screenshots of the pages a reader starts from; kept in docs/img when asked."""
    out = Path(os.environ.get("DRAUGHTS_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    engine = next(site_dir.glob("eng-no-backward*.html"))
    shots = [
        ("site-engine-defects.png", engine, SHOT, "defects"),
        ("site-defect-example.png", engine, SHOT, "defect-1"),
        ("site-article-phone.png", site_dir / "art-4.1.html", PHONE_SHOT, "cases"),
        ("site-matrix.png", site_dir / "index.html", SHOT, "matrix"),
    ]
    for name, page, width, anchor in shots:
        set_width(driver, width)
        open_page(driver, page)
        driver.execute_script(f"document.getElementById('{anchor}').scrollIntoView()")
        target = out / name
        assert driver.save_screenshot(str(target))
        assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
