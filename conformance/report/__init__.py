"""Reports: one canonical JSON-lines stream per run, and renderers from it to every other format."""

from conformance.report.reading import read_report
from conformance.report.stream import Report, ReportError, ReportWriter

__all__ = ["Report", "ReportError", "ReportWriter", "read_report"]
