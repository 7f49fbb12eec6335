"""The options that decide a run's verdict, the same for ``run`` and ``verify``.

``--require RULE[:SCOPE]`` (what must be certified), ``--baseline FILE`` (known failures, marked
known), ``--accept-known`` (they alone do not fail the exit status), ``--force-baseline`` (use a
baseline that hides more than :data:`conformance.core.baseline.MAX_HIDDEN_SHARE` of the run) and
``--write-baseline FILE``; :func:`output_clash` refuses an output that would overwrite an input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from conformance.cli import config
from conformance.core.arguments import clashing_paths
from conformance.core.baseline import Baseline, BaselineError
from conformance.core.files import atomic_text
from conformance.core.protocol import EngineInfo
from conformance.core.results import Result
from conformance.core.scopes import SCOPES, Requirement, RequirementError


def requirement(text: str) -> str:
    """A ``--require`` value, checked (an unknown scope is a one-line usage error)."""
    try:
        return str(Requirement.parse(text))
    except RequirementError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_verdict_options(parser: argparse.ArgumentParser, *, questions: str = "questions") -> None:
    """Add the verdict options to ``parser`` (``questions``: what a baseline's share is counted in)."""
    scopes = ", ".join(scope.value for scope in SCOPES)
    parser.add_argument(
        "--require",
        nargs="+",
        default=[],
        type=requirement,
        metavar="RULE[:SCOPE]",
        help="what must be certified: a rule (an article with its sub-articles, a reading, or 'all') in every "
        f"scope it was asked in, or RULE:SCOPE for one scope ({scopes}); exit 3 when one is not",
    )
    parser.add_argument(
        "--baseline", type=Path, help="YAML/JSON file of known failures (from --write-baseline)"
    )
    parser.add_argument(
        "--accept-known",
        action="store_true",
        help="with --baseline: the known failures alone do not fail the exit status (the verdict stays "
        "'FAILED, N known'); a new failure still does",
    )
    parser.add_argument(
        "--force-baseline",
        action="store_true",
        help=f"use a baseline even when it lists more than a quarter of the run's {questions}",
    )
    parser.add_argument(
        "--write-baseline", type=Path, help="write the failures of this run as a baseline file"
    )


def load_baseline(
    args: argparse.Namespace, measure: Callable[[Baseline], tuple[int, int]], what: str = "questions"
) -> Baseline | None:
    """The ``--baseline`` of ``args``; ``measure`` says how many of the run's questions (or positions)
    it lists, and how many the run has: BaselineError when it hides too much, unless
    ``--force-baseline``. An old-format file is read with a warning on stderr."""
    if args.baseline is None:
        if args.accept_known:
            raise BaselineError("--accept-known needs --baseline FILE (the known failures to accept)")
        return None
    baseline = Baseline.load(args.baseline)
    baseline.check_share(*measure(baseline), force=args.force_baseline, what=what)
    if baseline.deprecation():
        print(f"draughts-conformance: {baseline.deprecation()}", file=sys.stderr)
    return baseline


def write_baseline(path: Path, results: Iterable[Result], info: EngineInfo) -> None:
    """Write the failures of ``results`` as a baseline at ``path`` (OSError if it cannot be written)."""
    text = Baseline.from_results(results, info.name, info.version)
    with atomic_text(path) as stream:  # written beside it, renamed once complete
        stream.write(text)


def output_clash(args: argparse.Namespace, settings: config.Resolution) -> str | None:
    """The refusal of a ``run`` or ``verify`` command line whose output would overwrite an input
    (the baseline, the settings file) or another output; ``--write-baseline`` may regenerate the
    ``--baseline`` it read (docs/ci.md)."""
    return clashing_paths(
        {"--baseline": args.baseline, "the settings file": settings.file.path if settings.file else None},
        {
            "--report": args.report,
            "--write-baseline": args.write_baseline,
            "-o": args.output,
            "--trace": getattr(args, "trace", None),
        },
        may_replace=[("--write-baseline", "--baseline")],
    )
