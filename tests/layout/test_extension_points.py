"""Each extension point is declared once: a new one is registered from one place (here, the test).

docs/architecture.md walks through the same three: a report format, a verify check, an engine kind.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.core.reading import read_report
from conformance.core.stream import Report
from conformance.report.formats import Rendering, formats, report_format, unregister


@pytest.fixture(scope="module")
def saved_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "oracle.jsonl"
    status = main(
        [
            "run",
            "oracle",
            "--article",
            "4.13",
            "--report",
            str(path),
            "--no-progress",
            "-o",
            str(path.with_suffix(".txt")),
        ]
    )
    assert status == 0
    return path


def test_a_report_format_registered_from_outside_is_offered_and_rendered_by_every_command(
    saved_report: Path, tmp_path: Path
) -> None:
    @report_format("toy", order=99)
    def render_toy(report: Report, out: Rendering) -> None:
        out.stream.write(f"toy: {len(report.results)} results of {report.header['engine']['spec']}\n")

    try:
        assert formats()[-1] == "toy"
        assert "toy" in formats(verify=True)
        rendered = tmp_path / "rendered.txt"
        assert main(["render", str(saved_report), "--format", "toy", "-o", str(rendered)]) == 0
        results = len(read_report(saved_report).results)
        assert rendered.read_text() == f"toy: {results} results of oracle\n"
        merged = tmp_path / "merged.txt"
        main(["merge", str(saved_report), "--format", "toy", "-o", str(merged)])
        assert merged.read_text() == f"toy: {results} results of oracle\n"
    finally:
        unregister("toy")
    assert "toy" not in formats()


def test_the_site_registers_html_and_verify_does_not_offer_it() -> None:
    assert "html" in formats()
    assert "html" not in formats(verify=True)


def test_two_formats_cannot_share_a_name() -> None:
    def other(report: Report, out: Rendering) -> None:
        raise AssertionError("never called")

    with pytest.raises(ValueError, match="two report formats named 'json'"):
        report_format("json", order=0)(other)


def test_the_header_records_the_engine_spec_the_run_was_given(saved_report: Path) -> None:
    header = json.loads(saved_report.read_text().splitlines()[0])
    assert header["engine"]["spec"] == "oracle"
    assert header["engine"]["adapter"] == "in-process"


def test_the_bisect_hint_names_the_recorded_spec_rather_than_guessing_it() -> None:
    from conformance.report.hints import engine_spec_of

    recorded = {"engine": {"name": "MyEngine", "adapter": "in-process", "spec": "python:my_engine:Engine"}}
    assert engine_spec_of(recorded) == "python:my_engine:Engine"
    assert engine_spec_of({"engine": {"name": "MyEngine", "adapter": "in-process"}}) == "ENGINE"


def test_an_engine_kind_registered_from_outside_starts_for_run_and_is_listed(tmp_path: Path) -> None:
    from collections.abc import Callable

    from conformance.core.protocol import Engine
    from conformance.engines.adapters import kinds
    from conformance.engines.adapters.specs import SpecError, engine_factory
    from conformance.engines.oracle_engine import OracleEngine

    started: list[str] = []

    @kinds.engine_kind
    class Toy(kinds.EngineKind):
        prefix = "toy"
        usage = ("toy:NAME",)
        order = 99
        in_process = True

        def factory(self, rest: str, settings: kinds.EngineSettings) -> Callable[[], Engine]:
            def start() -> Engine:
                started.append(rest)
                return OracleEngine()

            return start

    try:
        report = tmp_path / "toy.jsonl"
        status = main(
            [
                "run",
                "toy:first",
                "--article",
                "4.13",
                "--report",
                str(report),
                "--no-progress",
                "-o",
                str(tmp_path / "out.txt"),
            ]
        )
        assert status == 0
        assert started == ["first"]
        assert json.loads(report.read_text().splitlines()[0])["engine"]["spec"] == "toy:first"
        with pytest.raises(SpecError, match=r"expected one of: .*mutant:NAME, .*, toy:NAME$"):
            engine_factory("nothing-of-the-kind")
        with pytest.raises(
            SpecError,
            match=r"--engine-cwd applies to engines started by a command \(jsonl:, hub:, dxp:\), not 'toy:x'",
        ):
            engine_factory("toy:x", cwd=tmp_path)
    finally:
        kinds.unregister(Toy)
    with pytest.raises(SpecError, match="unknown engine spec 'toy:first'"):
        engine_factory("toy:first")


def test_a_subcommand_registered_from_outside_is_parsed_run_and_listed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import argparse

    from conformance.cli import commands

    def run_toy(args: argparse.Namespace) -> int:
        print(f"toy of size {args.size}")
        return 7

    @commands.subcommand("toy", order=200, help="a toy command")
    def register(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--size", type=int, default=1)
        parser.set_defaults(handler=run_toy)

    try:
        assert main(["toy", "--size", "3"]) == 7
        assert capsys.readouterr().out == "toy of size 3\n"
        assert [command.name for command in commands.subcommands()][-2:] == ["config", "toy"]
        with pytest.raises(SystemExit) as usage:
            main(["toy", "--size", "three"])
        assert usage.value.code == 2
    finally:
        commands.unregister("toy")
    assert "toy" not in [command.name for command in commands.subcommands()]


def test_config_offers_exactly_the_subcommands_that_start_an_engine() -> None:
    from conformance.cli import commands

    starting = {command.name for command in commands.subcommands() if command.starts_engine}
    assert starting == {"run", "verify", "bisect", "smoke"}


def test_a_verify_check_registered_from_outside_runs_on_every_position_and_is_filed() -> None:
    from typing import Any

    from conformance.core.protocol import Capability
    from conformance.core.results import Status
    from conformance.engines.mutants import mutant
    from conformance.engines.oracle_engine import OracleEngine
    from conformance.verify import registry
    from conformance.verify.findings import Finding, FindingKind
    from conformance.verify.generate import VerifyOptions
    from conformance.verify.judgement import Judgement
    from conformance.verify.judges import Checks
    from conformance.verify.run import verify
    from oracle.moves import legal_moves
    from oracle.position import Position

    def count_moves(checks: Checks) -> Any:
        def judge(position: Position, subject: Any = None) -> Judgement:
            listed, expected = len(checks.asker.legal_moves(position.fen())), len(legal_moves(position))
            if listed == expected:
                return Judgement((), ("1.1",))
            finding = Finding(FindingKind.COMPLETENESS, f"{listed} moves listed, {expected} legal")
            return Judgement((finding,), ("4.1",), expected, listed)

        return judge

    toy = registry.Check(
        "legal_moves[count]",
        Capability.LEGAL_MOVES,
        count_moves,
        order=45,
        runs=lambda plan: not plan.move_choice,
        articles=lambda position, generated: ("1.1",),
        shrink_rank=99,
    )
    registry.verify_check(toy)
    try:
        options = VerifyOptions(examples=12, seed=5, z3=False, shrink=0, all_results=True)
        passed = [r for r in verify(OracleEngine, options).results if r.question == "legal_moves[count]"]
        assert len(passed) == 12
        assert {r.status for r in passed} == {Status.PASS}
        counted = verify(OracleEngine, dataclasses.replace(options, all_results=False)).report.by_question()
        assert counted["legal_moves[count]", "pass"] == 12  # counted in the tally lines by default
        broken = verify(
            lambda: mutant("men-capture-forward-only"), VerifyOptions(examples=40, seed=5, z3=False, shrink=0)
        )
        failed = [r for r in broken.results if r.question == "legal_moves[count]" and r.status is Status.FAIL]
        assert failed
        assert {r.article for r in failed} == {"4.1"}
    finally:
        registry.unregister("legal_moves[count]")
    assert "legal_moves[count]" not in {check.name for check in registry.checks()}
