"""The formats of ``diff`` are declared in the one registry of formats (``report/formats.py``): a new
one is registered from one place (here, the test) and ``diff --format`` offers and uses it."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli.commands import build_parser
from conformance.cli.main import main
from conformance.report.diff import ReportDiff
from conformance.report.formats import diff_format, diff_formats, get_diff_format, unregister_diff


@pytest.fixture(scope="module")
def saved_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "oracle.jsonl"
    status = main(
        ["run", "oracle", "--article", "4.13", "--report", str(path), "--no-progress", "-o", "/dev/null"]
    )
    assert status == 0
    return path


def test_the_diff_formats_are_the_registrys() -> None:
    assert diff_formats() == ("terminal", "markdown")
    assert get_diff_format("markdown").render.__module__ == "conformance.report.diff"
    with pytest.raises(ValueError, match="terminal, markdown"):
        get_diff_format("toml")


def test_a_diff_format_registered_from_outside_is_offered_and_rendered(
    saved_report: Path, tmp_path: Path
) -> None:
    @diff_format("toy", order=30)
    def render_toy(diff: ReportDiff) -> str:
        return f"toy: {len(diff.regressions) + len(diff.fixes)} change(s), regressed={diff.regressed}\n"

    try:
        assert "toy" in diff_formats()
        output = tmp_path / "diff.txt"
        assert main(["diff", str(saved_report), str(saved_report), "--format", "toy", "-o", str(output)]) == 0
        assert output.read_text(encoding="utf-8") == "toy: 0 change(s), regressed=False\n"
    finally:
        unregister_diff("toy")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["diff", "a", "b", "--format", "toy"])
