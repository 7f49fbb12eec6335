"""Pieces every renderer shares: article order, status tallies, a failure described in words."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from conformance.corpus import article_sort_key
from conformance.report.stream import Report, pass_rate
from conformance.results import Result, Status
from oracle.errors import FenError
from oracle.position import Position

PROBLEMS = (Status.FAIL, Status.ERROR)


def articles_in_order(report: Report) -> list[tuple[str, list[Result]]]:
    return sorted(report.by_article().items(), key=lambda item: article_sort_key(item[0]))


def tally(results: list[Result]) -> dict[str, int]:
    counts = Counter(r.status.value for r in results)
    return {status.value: counts[status.value] for status in Status}


def rate_text(results: list[Result]) -> str:
    rate = pass_rate(results)
    return "n/a" if rate is None else f"{100 * rate:.1f}%"


def problems(report: Report) -> list[Result]:
    """Failures and errors, in report order, baselined ones last."""
    found = [r for r in report.results if r.status in PROBLEMS]
    return sorted(found, key=lambda r: r.baselined)


def board(position: str) -> str:
    try:
        return Position.from_fen(position).diagram()
    except FenError:
        return "(the position is not a valid FEN)"


def as_text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def headline(report: Report) -> str:
    engine = report.header.get("engine", {})
    counts = report.footer.get("counts") or tally(report.results)
    rate = rate_text(report.results)
    parts = ", ".join(f"{counts.get(s.value, 0)} {s.value}" for s in Status)
    return f"{engine.get('name', '?')} {engine.get('version', '')}: {rate} of scored questions pass ({parts})"
