"""JUnit XML for CI: one test suite per rule, one test case per question (never repeated).

A ``verify`` campaign's counted passes (:mod:`conformance.core.tallies`) are one test case per kind --
``legal_moves[oracle]: 61,235 positions passed (counted)`` -- that counts as that many tests (and
an unsupported kind as that many skipped ones): the totals are those of the report with every line.

A failure is filed under the rule it breaks (a legal move refused inside a draw-rule question
goes to the move's rule); a failure explained by a rule the case relies on, failed directly,
is a skipped test saying so. A failure a baseline lists as known is still a failure (of type
``known``, its message saying so): the rule fails, and ``failures`` counts it. Class names have no dots, so that Jenkins does not split them into
packages; each test case carries its case's article, requirements and reading as properties.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance.core import rule_sets
from conformance.core.certificate import Certificate
from conformance.core.results import Result, Status
from conformance.core.safe_text import printable
from conformance.core.stream import Report
from conformance.core.tallies import Tallied
from conformance.report.formats import Rendering, report_format
from conformance.report.text import as_text, engine_title


def class_name(rule: str, reading: bool) -> str:
    kind = "reading" if reading else "art"
    return f"{kind}_{rule.replace('.', '_').replace('-', '_')}"


def _suite_of(result: Result, certificate: Certificate) -> str:
    if (
        result.status in (Status.FAIL, Status.ERROR)
        and (result.case, result.question) not in certificate.blocked
    ):
        return result.charged
    if result.charged_to and result.status in (Status.FAIL, Status.ERROR):
        return result.charged
    return result.judged_under


def render_junit(report: Report) -> str:
    certificate = report.certificate()
    readings = {row.key for row in certificate.rows if row.reading}
    rows = {row.key: row for row in certificate.rows}
    suites: dict[str, list[Result]] = {row.key: [] for row in certificate.rows}
    for result in report.results:
        suites.setdefault(_suite_of(result, certificate), []).append(result)
    counted: dict[str, list[tuple[Tallied, int]]] = {}
    for tallied_kind, number in sorted(report.tallied().items()):
        counted.setdefault(tallied_kind.judged_under, []).append((tallied_kind, number))
        suites.setdefault(tallied_kind.judged_under, [])
    name = rule_sets.name_of(report.header)
    game = f" for {name}" if name != rule_sets.DEFAULT else ""
    root = ET.Element("testsuites", name=f"draughts-conformance: {engine_title(report)}{game}")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for rule, results in suites.items():
        tallied = counted.get(rule, [])
        if not results and not tallied:
            continue
        suite = ET.SubElement(root, "testsuite", name=f"{'Reading' if rule in readings else 'Art.'} {rule}")
        row = rows.get(rule)
        if row is not None:  # the rule's standing, in the certificate's words
            properties = ET.SubElement(suite, "properties")
            ET.SubElement(properties, "property", name="standing", value=row.standing.value)
            ET.SubElement(properties, "property", name="by scope", value=row.scope_text())
        counts = {"tests": len(results), "failures": 0, "errors": 0, "skipped": 0}
        for result in results:
            kind = _add_case(suite, result, rule, rule in readings, certificate)
            if kind:
                counts[kind] += 1
        for counted_kind, number in tallied:
            _add_counted(suite, counted_kind, number, rule in readings)
            counts["tests"] += number
            counts["skipped"] += number if counted_kind.status == Status.UNSUPPORTED.value else 0
        for name, value in counts.items():
            suite.set(name, str(value))
            totals[name] += value
        suite.set("time", f"{sum(r.duration_ms for r in results) / 1000:.3f}")
    for name, value in totals.items():
        root.set(name, str(value))
    out = ET.SubElement(root, "system-out")
    out.text = certificate.summary()
    _make_inert(root)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _make_inert(root: ET.Element) -> None:
    """Every text and attribute made printable: XML 1.0 forbids most control characters, and an
    engine's message or stderr may carry them (ANSI colours): one would make the file unreadable."""
    for element in root.iter():
        for name, value in element.attrib.items():
            element.set(name, printable(value))
        if element.text:
            element.text = printable(element.text)


def _add_counted(suite: ET.Element, kind: Tallied, number: int, reading: bool) -> None:
    """A test case standing for ``number`` counted results of ``kind`` (passes, or unsupported)."""
    status = "passed" if kind.status == Status.PASS.value else kind.status
    case = ET.SubElement(
        suite,
        "testcase",
        classname=class_name(kind.judged_under, reading),
        name=f"{kind.question}: {number:,} positions {status} (counted)",
        time="0.000",
    )
    properties = ET.SubElement(case, "properties")
    ET.SubElement(properties, "property", name="article", value=kind.article)
    ET.SubElement(properties, "property", name="count", value=str(number))
    if kind.requires:
        ET.SubElement(properties, "property", name="requires", value=" ".join(kind.requires))
    if kind.reading:
        ET.SubElement(properties, "property", name="reading", value=kind.reading)
    if kind.status == Status.UNSUPPORTED.value:
        ET.SubElement(case, "skipped", message=f"unsupported: {kind.message}")


def _add_case(
    suite: ET.Element, result: Result, rule: str, reading: bool, certificate: Certificate
) -> str | None:
    case = ET.SubElement(
        suite,
        "testcase",
        classname=class_name(rule, reading),
        name=f"{result.case} [{result.question}]",
        time=f"{result.duration_ms / 1000:.3f}",
    )
    properties = ET.SubElement(case, "properties")
    ET.SubElement(properties, "property", name="article", value=result.article)
    if result.requires:
        ET.SubElement(properties, "property", name="requires", value=" ".join(result.requires))
    if result.reading:
        ET.SubElement(properties, "property", name="reading", value=result.reading)
    if result.charged_to:
        ET.SubElement(properties, "property", name="charged_to", value=result.charged_to)
    detail = f"FEN {result.position}\nexpected: {as_text(result.expected)}\ngot: {as_text(result.got)}"
    blocked_by = certificate.blocked.get((result.case, result.question))
    if result.baselined:
        blocked = f", blocked by {', '.join(blocked_by)}" if blocked_by and not result.charged_to else ""
        message = f"known {result.status.value} (listed in the baseline{blocked}): {result.message}"
        ET.SubElement(case, "failure", message=message, type="known").text = detail
        return "failures"
    if result.status is Status.FAIL and blocked_by and not result.charged_to:
        ET.SubElement(
            case,
            "skipped",
            message=f"blocked by {', '.join(blocked_by)} (failed directly): {result.message}",
        )
        return "skipped"
    if result.status is Status.FAIL:
        ET.SubElement(case, "failure", message=result.message, type=result.defect or "fail").text = detail
        return "failures"
    if result.status is Status.ERROR:
        node = ET.SubElement(
            case, "error", message=result.message, type=result.error.kind if result.error else "error"
        )
        node.text = detail + (
            f"\nstderr:\n{result.error.stderr}" if result.error and result.error.stderr else ""
        )
        return "errors"
    if result.status in (Status.SKIP, Status.UNSUPPORTED):
        ET.SubElement(case, "skipped", message=f"{result.status.value}: {result.message}")
        return "skipped"
    return None


@report_format("junit", order=20)
def write_junit(report: Report, out: Rendering) -> None:
    out.stream.write(render_junit(report))
