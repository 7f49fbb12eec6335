"""Reports: one canonical JSON-lines stream per run, and renderers from it to every other format."""

from conformance.core.reading import read_report
from conformance.core.stream import Report, ReportError, ReportWriter

__all__ = ["Report", "ReportError", "ReportWriter", "read_report"]
