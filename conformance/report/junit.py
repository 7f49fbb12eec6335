"""JUnit XML for CI: one test suite per article, one test case per question of a case."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance.report.stream import Report
from conformance.report.text import articles_in_order, as_text, tally
from conformance.results import Status


def render_junit(report: Report) -> str:
    engine = report.header.get("engine", {})
    root = ET.Element("testsuites", name=f"draughts-conformance: {engine.get('name', '?')}")
    for article, results in articles_in_order(report):
        counts = tally(results)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=f"Art. {article}",
            tests=str(len(results)),
            failures=str(sum(1 for r in results if r.status is Status.FAIL and not r.baselined)),
            errors=str(sum(1 for r in results if r.status is Status.ERROR and not r.baselined)),
            skipped=str(counts["skip"] + counts["unsupported"] + sum(1 for r in results if r.baselined)),
            time=f"{sum(r.duration_ms for r in results) / 1000:.3f}",
        )
        for result in results:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"art_{article}",
                name=f"{result.case} [{result.question}]",
                time=f"{result.duration_ms / 1000:.3f}",
            )
            detail = (
                f"FEN {result.position}\nexpected: {as_text(result.expected)}\ngot: {as_text(result.got)}"
            )
            if result.baselined:
                ET.SubElement(case, "skipped", message=f"known ({result.status.value}): {result.message}")
            elif result.status is Status.FAIL:
                ET.SubElement(case, "failure", message=result.message).text = detail
            elif result.status is Status.ERROR:
                node = ET.SubElement(
                    case, "error", message=result.message, type=result.error.kind if result.error else "error"
                )
                node.text = detail + (
                    f"\nstderr:\n{result.error.stderr}" if result.error and result.error.stderr else ""
                )
            elif result.status in (Status.SKIP, Status.UNSUPPORTED):
                ET.SubElement(case, "skipped", message=f"{result.status.value}: {result.message}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
