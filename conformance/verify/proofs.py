"""Proofs of the oracle, once per piece count, recorded with the code they prove (``--prove``).

``verify --exhaustive --pieces K --engine oracle --prove`` checks the oracle's legal moves of every
position with at most ``K`` pieces against the verifier's own description of the rules: z3 on
every position with a capture (soundness, the maximum, completeness: :mod:`conformance.verify.smt`,
which never uses the oracle's move generator), the verifier's own steps and slides on the others
(:func:`conformance.verify.checks.quiet_moves`). When every position agrees, the run writes a
*record* (``conformance/proofs/oracle-K.json`` by default): the piece count, how many positions of
each kind were proven, and the **code digest** -- a SHA-256 of the sources of both descriptions
(the oracle package, and the verifier's encoding and enumeration), so that a record proves exactly
the code that ran.

A later campaign against an engine cites the record that matches its code (:func:`citation`, in
its report's header): on those positions the oracle's answer is proven, so a disagreement there is
the engine's. Such a campaign calls z3 only where the engine and the oracle disagree, to state which
side the proof supports (:meth:`conformance.verify.driver.Driver.proved`). A record whose digest
is not the code's is not cited: the code changed since, and the proof with it.

The digest is of the files' contents alone (each file's SHA-256, sorted), so that moving a module
leaves it unchanged while any edit of either description changes it.
"""

from __future__ import annotations

import datetime
import hashlib
import importlib
import json
from pathlib import Path
from typing import Any, Final

from conformance import __version__
from conformance.core.results import Status
from conformance.core.stream import Report
from conformance.verify import exhaustive

PROOFS_DIR: Final = Path(__file__).resolve().parent.parent / "proofs"
"""The suite's own records (shipped with it): ``oracle-K.json``."""

PROVEN_MODULES: Final = (
    "conformance.verify.smt",
    "conformance.verify.capture_formula",
    "conformance.verify.jumps",
    "conformance.verify.checks",
    "conformance.verify.findings",
    "conformance.verify.answer_reading",
    "conformance.verify.exhaustive",
    "conformance.verify.judges",
    "conformance.verify.judgement",
)
"""The verifier's side of a proof (its encoding, its checks and their judging, the positions); the
oracle's side is every file of the ``oracle`` package, its rule-set data included."""

RECORD_KIND: Final = "draughts-conformance oracle proof"


def proven_files() -> list[Path]:
    """The source files a proof of the oracle depends on."""
    oracle = importlib.import_module("oracle")
    assert oracle.__file__ is not None
    package = Path(oracle.__file__).parent
    files = sorted(
        path
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )
    for name in PROVEN_MODULES:
        module = importlib.import_module(name)
        assert module.__file__ is not None
        files.append(Path(module.__file__))
    return files


def code_digest() -> str:
    """``sha256:<hex>`` of the proven files' contents (each hashed, the hashes sorted)."""
    hashes = sorted(hashlib.sha256(path.read_bytes()).hexdigest() for path in proven_files())
    return "sha256:" + hashlib.sha256("\n".join(hashes).encode()).hexdigest()


def record_path(pieces: int, directory: Path = PROOFS_DIR) -> Path:
    return directory / f"oracle-{pieces}.json"


def _records(directory: Path) -> list[dict[str, Any]]:
    found = []
    for path in sorted(directory.glob("oracle-*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("kind") == RECORD_KIND and isinstance(data.get("pieces"), int):
            found.append(data | {"file": path.name})
    return found


def citation(digest: str, directory: Path = PROOFS_DIR) -> dict[str, Any] | None:
    """The record of a proof of this code (``digest``) that covers the most positions, as a report's
    header cites it; None when there is none."""
    matching = [record for record in _records(directory) if record.get("code_digest") == digest]
    if not matching:
        return None
    best = max(matching, key=lambda record: int(record["pieces"]))
    return {
        "record": best["file"],
        "pieces": best["pieces"],
        "positions": best.get("positions"),
        "finished": best.get("finished"),
    }


def proof_record(report: Report, command: str = "") -> dict[str, Any]:
    """The record of the proof ``report`` holds (a whole ``--prove`` campaign of the oracle, complete,
    every position passing); ValueError saying why it is none."""
    header, footer = report.header, report.footer
    settings = header.get("verify", {})
    engine = header.get("engine", {})
    pieces = settings.get("pieces")
    problems = []
    if not settings.get("prove") or not isinstance(pieces, int):
        problems.append("not an exhaustive campaign with --prove")
    if engine.get("name") != "oracle" or engine.get("adapter") != "in-process":
        problems.append(
            f"the engine is {engine.get('name')!r} ({engine.get('adapter')}), not the in-process oracle"
        )
    if header.get("shard"):
        problems.append("a shard: merge the shards first")
    certificate = report.certificate()
    if not certificate.complete:
        problems.append(f"incomplete: {certificate.incompleteness}")
    listed = [result for result in report.results if result.status is not Status.PASS]
    if certificate.problems or listed:
        problems.append(f"{len(listed)} check(s) did not pass")
    if header.get("code_digest") != code_digest():
        problems.append("the code changed since the run (another code digest)")
    if problems:
        raise ValueError("no proof of the oracle: " + "; ".join(problems))
    assert isinstance(pieces, int)
    by_question = report.by_question()
    proven = {
        kind.article: count for kind, count in report.tallied().items() if kind.question == "legal_moves[z3]"
    }
    return {
        "kind": RECORD_KIND,
        "pieces": pieces,
        "positions": exhaustive.count(pieces),
        "checked": footer.get("positions"),
        "z3_rows_by_rule": dict(sorted(proven.items())),
        "oracle_rows": by_question["legal_moves[oracle]", "pass"],
        "result": "every position: the oracle's legal moves pass z3 (captures) or the verifier's own "
        "steps and slides (no capture), its invariants, and equal the engine's",
        "code_digest": header["code_digest"],
        "files": [_shown(path) for path in proven_files()],
        "oracle_version": engine.get("version"),
        "suite_version": __version__,
        "z3_version": _z3_version(),
        "command": command,
        "duration_s": footer.get("duration_s"),
        "finished": footer.get("finished")
        or datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }


def write_record(record: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _shown(path: Path) -> str:
    root = PROOFS_DIR.parent.parent
    try:
        return str(path.relative_to(root))
    except ValueError:
        return path.name


def _z3_version() -> str:
    import z3

    return str(z3.get_version_string())
