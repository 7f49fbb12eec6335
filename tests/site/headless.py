"""A headless Chromium for the browser tests: Debian's ``chromium`` and ``chromedriver``, driven by
Selenium, and the checks a reader's eye makes on a page, run in the page itself.

Nothing is downloaded: the browser and its driver are the system's (``apt-get install chromium
chromium-driver``); :func:`missing` says what is absent so that the tests skip with that reason.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)


@dataclasses.dataclass(frozen=True)
class Width:
    name: str
    width: int
    height: int
    mobile: bool


DESKTOP = Width("desktop", 1280, 900, mobile=False)
PHONE = Width("phone", 390, 844, mobile=True)  # a common phone, in CSS pixels

#: The smallest rendered size (CSS pixels) of a square number on a board, and of any other text.
MIN_NUMBER_PX = 9.0
MIN_TEXT_PX = 11.0


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromedriver() -> str | None:
    return shutil.which("chromedriver")


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if chromium() is None:
        return "no chromium on this machine (Debian: apt-get install chromium chromium-driver)"
    if chromedriver() is None:
        return "no chromedriver on this machine (Debian: apt-get install chromium-driver)"
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@contextlib.contextmanager
def browser(profile: Path) -> Iterator[Any]:
    """A headless Chromium with a fresh profile in ``profile``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(chromium())
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(chromedriver())))
    try:
        yield driver
    finally:
        driver.quit()


def set_width(driver: Any, width: Width) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width.width, "height": width.height, "deviceScaleFactor": 1, "mobile": width.mobile},
    )


def open_page(driver: Any, path: Path) -> None:
    driver.get(path.resolve().as_uri())
    driver.get_log("browser")  # drop what an earlier page left


#: Run in the page: every problem a reader would see, as short strings.
CHECKS_JS = r"""
const minNumber = arguments[0], minText = arguments[1];
const problems = [];
const say = (text) => { if (problems.length < 40) problems.push(text); };
const where = (el) => {
  const id = el.closest('[id]');
  return el.tagName.toLowerCase() + (id ? ' in #' + id.id : '');
};
if (document.readyState !== 'complete') say('not loaded: ' + document.readyState);
if (!document.title) say('no title');
if (!document.querySelector('h1')) say('no h1');
if (getComputedStyle(document.body).marginTop !== '0px') say('the stylesheet is not applied');
// Boards: each drawn, of a reasonable size, with every part it refers to.
const boards = [...document.querySelectorAll('svg.board')];
for (const svg of boards) {
  const box = svg.getBoundingClientRect();
  if (box.width < 200 || box.height < 200) say(`board too small (${box.width.toFixed(0)}px) ${where(svg)}`);
  for (const use of svg.querySelectorAll('use')) {
    const target = (use.getAttribute('href') || '').slice(1);
    if (!document.getElementById(target)) say(`board part #${target} missing ${where(svg)}`);
  }
  const squares = svg.querySelector('use[href="#dc-squares"]') || svg.querySelector('g.squares');
  if (!squares || squares.getBBox().width < 390) say(`board squares not drawn ${where(svg)}`);
  const scale = box.width / svg.viewBox.baseVal.width;
  const numbers = svg.querySelector('g.numbers') || document.getElementById('dc-numbers');
  const numberPx = parseFloat(numbers ? numbers.getAttribute('font-size') : '0') * scale;
  if (!(numberPx >= minNumber)) say(`square numbers ${numberPx.toFixed(1)}px < ${minNumber}px ${where(svg)}`);
  for (const text of svg.querySelectorAll('text:not(.numbers text)')) {
    const px = parseFloat(getComputedStyle(text).fontSize) * scale;
    if (px < minNumber) say(`board text "${text.textContent}" ${px.toFixed(1)}px ${where(svg)}`);
  }
}
for (const img of document.images) {
  if (!img.complete || img.naturalWidth === 0) say(`image not shown: ${img.getAttribute('src')}`);
}
// Nothing wider than the window: the page must not scroll sideways.
const width = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth > width + 1) {
  say(`the page is ${document.documentElement.scrollWidth}px wide in a ${width}px window`);
  let shown = 0;
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 && !el.closest('.wide, pre') && shown++ < 5) say(`  overflows: ${where(el)}`);
  }
}
// Text a reader can read, and no Markdown shown as it was typed.
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
let small = 0;
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const el = node.parentElement;
  if (!node.textContent.trim() || el.closest('svg') || !el.getClientRects().length) continue;
  const px = parseFloat(getComputedStyle(el).fontSize);
  if (px < minText && small++ < 3) say(`text ${px}px < ${minText}px: "${node.textContent.trim().slice(0, 30)}" ${where(el)}`);
}
const text = document.body.innerText;
const literal = text.match(/(^|[\s(])(\*\*?|__?)[A-Za-z][^*_\n]{0,60}?\2(?=[\s.,;:)]|$)/m);
if (literal) say(`Markdown shown literally: ${literal[0].trim()}`);
const ticks = text.match(/`[^`\n]{1,40}`/);
if (ticks) say(`Markdown code shown literally: ${ticks[0]}`);
return {problems: problems, boards: boards.length, images: document.images.length};
"""


@dataclasses.dataclass(frozen=True)
class Seen:
    """What the checks found on one page at one width."""

    page: str
    width: str
    problems: list[str]
    boards: int
    images: int


def check_page(driver: Any, path: Path, width: Width) -> Seen:
    open_page(driver, path)
    found = driver.execute_script(CHECKS_JS, MIN_NUMBER_PX, MIN_TEXT_PX)
    problems = list(found["problems"])
    for entry in driver.get_log("browser"):
        if entry.get("level") == "SEVERE":
            problems.append(f"console: {entry.get('message', '')[:200]}")
    return Seen(path.name, width.name, problems, int(found["boards"]), int(found["images"]))
