"""A shields.io endpoint badge (https://img.shields.io/endpoint?url=<this JSON>), from the certificate.

Green only for a complete run in which every question was answered and passed; certified rules
with questions left unanswered (or a filtered run) are blue, failures red (known failures of a
baseline too, orange when accepted: the rules still fail), nothing certified, an unmet
``--require`` or an incomplete run grey -- never green.
"""

from __future__ import annotations

import json

from conformance.core import rule_sets
from conformance.core.certificate import ExitStatus, Standing
from conformance.core.stream import Report
from conformance.report.formats import Rendering, report_format


def _filtered(report: Report) -> bool:
    """True when the run asked fewer questions than the default corpus holds (--article, --case...)."""
    corpus_questions = report.header.get("corpus_questions")
    questions = report.header.get("questions")
    if report.header.get("kind") == "verify" or not isinstance(corpus_questions, int):
        return False
    return not isinstance(questions, int) or questions < corpus_questions


def render_badge(report: Report) -> str:
    certificate = report.certificate()
    questions, answered, passed = certificate.questions, certificate.answered, certificate.passed
    rules = len(certificate.rows)
    certified = len(certificate.rows_by(Standing.CERTIFIED))
    failed = len(certificate.rows_by(Standing.FAILED))
    if not certificate.complete:
        message, color = f"partial run · {passed}/{questions} pass", "lightgrey"
    elif certificate.problems:
        message, color = f"{failed} rule(s) failed · {passed}/{questions} pass", "red"
    elif certificate.known:
        color = "orange" if certificate.exit_status is not ExitStatus.FAILED else "red"
        message = f"{failed} rule(s) failed, {certificate.known} known · {passed}/{questions} pass"
    elif certificate.level == "none":
        message, color = f"not certified · {answered}/{questions} answered", "lightgrey"
    elif certificate.missing_required:
        message, color = (
            f"not certified: {len(certificate.missing_required)} required · {passed}/{questions} pass",
            "lightgrey",
        )
    elif certified == rules and passed == questions and not _filtered(report):
        message, color = f"certified · {passed}/{questions}", "brightgreen"
    elif certified == rules and passed == questions:
        message, color = f"certified · {passed}/{questions} (a filtered run)", "blue"
    else:
        message, color = f"certified {certified}/{rules} rules · {answered}/{questions} answered", "blue"
    if certificate.level == "move-choice" and color not in ("red", "orange"):
        message = "move-choice " + message
    name = rule_sets.name_of(report.header)
    label = "FMJD conformance" if name == rule_sets.DEFAULT else f"{name} conformance"
    badge = {"schemaVersion": 1, "label": label, "message": message, "color": color}
    return json.dumps(badge) + "\n"


@report_format("badge", order=40)
def write_badge(report: Report, out: Rendering) -> None:
    out.stream.write(render_badge(report))
