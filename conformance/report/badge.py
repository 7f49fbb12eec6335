"""A shields.io endpoint badge: https://img.shields.io/endpoint?url=<this JSON>."""

from __future__ import annotations

import json

from conformance.report.stream import Report, pass_rate
from conformance.results import Status


def render_badge(report: Report) -> str:
    rate = pass_rate(report.results)
    passed = sum(1 for r in report.results if r.status is Status.PASS)
    scored = sum(1 for r in report.results if r.status in (Status.PASS, Status.FAIL, Status.ERROR))
    if rate is None:
        message, color = "no scored questions", "lightgrey"
    else:
        message = f"{100 * rate:.1f}% ({passed}/{scored})"
        color = (
            "brightgreen" if rate == 1 else "green" if rate >= 0.95 else "yellow" if rate >= 0.8 else "red"
        )
    badge = {"schemaVersion": 1, "label": "FMJD conformance", "message": message, "color": color}
    return json.dumps(badge) + "\n"
