"""Reports: one canonical JSON-lines stream per run, and renderers from it to every other format."""

from conformance.core.errors import ReportError
from conformance.core.reading import read_report
from conformance.core.stream import Report, ReportWriter

__all__ = ["Report", "ReportError", "ReportWriter", "read_report"]
