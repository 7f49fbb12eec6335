"""No file of the repository links outside it: a clone or a pip install has every page it points to.

Scans every tracked text file for paths into the developers' folders next to the repository, and
every Markdown file for relative links (and images) that leave the repository or point nowhere.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
_OUTSIDE = ("..", "/shared")  # joined at run time, so this file does not name what it forbids
_FORBIDDEN = ("".join(_OUTSIDE), "/work/" + "shared")
_MARKDOWN_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_SKIPPED_DIRECTORIES = {".git", ".venv", ".engines", "build", "dist", "__pycache__", "site", "reports"}


def tracked_files() -> list[Path]:
    """The repository's tracked files (git), else every file outside build and tool folders."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=True, timeout=60
        ).stdout.decode("utf-8")
        return [REPO / name for name in listed.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        return [
            path
            for path in REPO.rglob("*")
            if path.is_file() and not _SKIPPED_DIRECTORIES.intersection(path.relative_to(REPO).parts)
        ]


def text_of(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:  # a tracked symlink to a directory, a file deleted in the work tree
        return None
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")


def outside_references(path: Path, text: str) -> list[str]:
    """Every place in ``text`` that points outside the repository, as ``file:line: what``."""
    found = []
    where = path.relative_to(REPO)
    for number, line in enumerate(text.splitlines(), start=1):
        found += [f"{where}:{number}: names {forbidden!r}" for forbidden in _FORBIDDEN if forbidden in line]
        for target in _MARKDOWN_LINK.findall(line) if path.suffix == ".md" else ():
            problem = _link_problem(path, target)
            if problem:
                found.append(f"{where}:{number}: link {target!r} {problem}")
    return found


def _link_problem(path: Path, target: str) -> str | None:
    if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
        return None  # a URL (http:, mailto:) or an anchor on the same page
    relative = target.split("#", 1)[0]
    resolved = (REPO / relative.lstrip("/")) if relative.startswith("/") else (path.parent / relative)
    resolved = Path(*resolved.parts).resolve()
    if not resolved.is_relative_to(REPO.resolve()):
        return "leaves the repository"
    if not resolved.exists():
        return "points to nothing"
    return None


def test_no_tracked_file_links_outside_the_repository() -> None:
    files = tracked_files()
    assert any(path.name == "README.md" for path in files)
    problems = []
    for path in files:
        text = text_of(path)
        if text is not None:
            problems += outside_references(path, text)
    assert problems == [], "links that leave the repository:\n" + "\n".join(problems)


def test_the_scan_finds_each_kind_of_outside_link() -> None:
    page = REPO / "docs" / "example.md"  # never written: the scan only reads the text given
    text = "\n".join(
        [
            "[rules](../" + _FORBIDDEN[0] + "/rules.md)",
            "see " + _FORBIDDEN[1] + "/design.md",
            "[up](../../elsewhere.md)",
            "![img](img/missing.svg)",
            "[ok](rules.md#the-readings) [web](https://example.org) [here](#top) [root](/README.md)",
        ]
    )
    found = outside_references(page, text)
    assert found == [
        f"docs/example.md:1: names {_FORBIDDEN[0]!r}",
        "docs/example.md:1: link '../" + _FORBIDDEN[0] + "/rules.md' leaves the repository",
        f"docs/example.md:2: names {_FORBIDDEN[1]!r}",
        "docs/example.md:3: link '../../elsewhere.md' leaves the repository",
        "docs/example.md:4: link 'img/missing.svg' points to nothing",
    ]
