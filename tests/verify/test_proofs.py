"""z3 where it adds something: the oracle proven once per piece count (``--prove``, a record with the
code digest that later campaigns cite), and z3 called in a campaign only where an engine and the
oracle disagree, to say which side the proof supports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.core.results import Status
from conformance.core.shards import Shard
from conformance.engines.mutants import mutant
from conformance.engines.oracle_engine import OracleEngine
from conformance.verify import judges, proofs
from conformance.verify.generate import VerifyOptions
from conformance.verify.judgement import ORACLE, Z3
from conformance.verify.run import verify
from oracle.moves import legal_moves
from oracle.position import Position

SLICE = Shard(1, 9)
"""A ninth of the 2-piece campaign (1,966 positions: both sides to move, quiet and capturing)."""


def test_a_wrong_engine_is_refuted_by_z3_where_it_disagrees_and_only_there() -> None:
    run = verify(lambda: mutant("short-kings"), VerifyOptions(pieces=2, plays=0, shrink=0, shard=SLICE))
    assert run.exit_status == 1
    oracle_rows = [r for r in run.results if r.question == ORACLE]
    z3_rows = [r for r in run.results if r.question == Z3]
    assert oracle_rows
    assert all(r.status is Status.FAIL for r in oracle_rows)
    assert all("z3 proves the oracle's answer and refutes the engine's" in r.message for r in oracle_rows)
    # A z3 row exactly where the oracle row failed, and no z3 anywhere else (not even counted).
    assert [r.case for r in z3_rows] == [r.case for r in oracle_rows]
    assert {r.status for r in z3_rows} == {Status.FAIL}
    assert not [kind for kind in run.report.tallied() if kind.question == Z3]
    # The report names the proof of the oracle it relies on: the suite's record for this code, if any.
    assert run.header["oracle_proof"] == proofs.citation(proofs.code_digest())


def test_a_wrong_oracle_is_an_error_of_the_suite_never_a_failure_of_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The verifier's oracle made to forget a king's longest slide: the right engine then disagrees
    with it, and z3 says the engine is right."""

    def short(self: judges.Checks, position: Position) -> list[object]:
        moves = legal_moves(position)
        return [m for m in moves if abs(m.to_square - m.from_square) < 40] if len(moves) > 2 else moves

    monkeypatch.setattr(judges.Checks, "oracle_moves", short)
    run = verify(OracleEngine, VerifyOptions(pieces=2, plays=0, shrink=0, shard=SLICE))
    wrong = [r for r in run.results if r.question == ORACLE]
    assert wrong
    assert {(r.status, r.error.kind if r.error else None) for r in wrong} == {(Status.ERROR, "oracle")}
    assert all("a defect of the suite's oracle" in r.message for r in wrong)
    # z3's passes of the engine's answers are counted (a pass is never listed), one per disagreement.
    z3_passes = sum(
        n for kind, n in run.report.tallied().items() if kind.question == Z3 and kind.status == "pass"
    )
    assert z3_passes == len(wrong)
    assert not [r for r in run.results if r.status is Status.FAIL]


@pytest.fixture(scope="module")
def proven() -> dict[str, object]:
    """A proof of the oracle on every 2-piece position (z3 on every capture)."""
    run = verify(OracleEngine, VerifyOptions(pieces=2, plays=0, prove=True))
    assert run.exit_status == 0
    return proofs.proof_record(run.report, "draughts-conformance verify ...")


def test_proving_the_oracle_records_the_code_digest_and_later_runs_cite_it(
    proven: dict[str, object], tmp_path: Path
) -> None:
    assert proven["pieces"] == 2
    assert proven["positions"] == proven["checked"] == 17_690
    assert proven["oracle_rows"] == 17_690
    assert sum(proven["z3_rows_by_rule"].values()) == 17_690  # type: ignore[attr-defined]
    assert proven["code_digest"] == proofs.code_digest()
    assert "oracle/moves.py" in proven["files"]  # type: ignore[operator]
    assert "conformance/verify/smt.py" in proven["files"]  # type: ignore[operator]
    assert "conformance/verify/capture_formula.py" in proven["files"]  # type: ignore[operator]
    assert "conformance/verify/findings.py" in proven["files"]  # type: ignore[operator]
    assert "conformance/verify/judgement.py" in proven["files"]  # type: ignore[operator]
    proofs.write_record(proven, proofs.record_path(2, tmp_path))
    cited = proofs.citation(proofs.code_digest(), tmp_path)
    assert cited == {
        "record": "oracle-2.json",
        "pieces": 2,
        "positions": 17_690,
        "finished": proven["finished"],
    }
    # Another code (any edit of either description of the rules): the record proves nothing of it.
    assert proofs.citation("sha256:" + "0" * 64, tmp_path) is None
    stored = json.loads(proofs.record_path(2, tmp_path).read_text(encoding="utf-8"))
    assert stored["kind"] == proofs.RECORD_KIND


def test_no_record_for_a_run_that_is_not_a_whole_proof_of_the_oracle() -> None:
    shard = verify(OracleEngine, VerifyOptions(pieces=2, plays=0, prove=True, shard=Shard(1, 40)))
    with pytest.raises(ValueError, match="a shard: merge the shards first"):
        proofs.proof_record(shard.report)
    unproven = verify(OracleEngine, VerifyOptions(pieces=2, plays=0, shard=Shard(1, 40)))
    with pytest.raises(ValueError, match="not an exhaustive campaign with --prove"):
        proofs.proof_record(unproven.report)
    other = verify(
        lambda: mutant("short-kings"), VerifyOptions(pieces=2, plays=0, prove=True, shrink=0, shard=SLICE)
    )
    with pytest.raises(ValueError, match=r"not the in-process oracle.*did not pass"):
        proofs.proof_record(other.report)


def test_the_code_digest_changes_with_either_description_of_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = proofs.proven_files()
    before = proofs.code_digest()
    original = Path.read_bytes
    edited = files[0]
    monkeypatch.setattr(Path, "read_bytes", lambda path: original(path) + (b"#" if path == edited else b""))
    assert proofs.code_digest() != before


def test_a_pipelining_engine_gets_a_campaign_s_requests_ahead_and_the_same_report() -> None:
    """The fast path sends a subprocess engine the next positions' requests before reading the first
    answer (``send_ahead``): the report is the in-process engine's."""
    import sys

    from conformance.engines.adapters.jsonl import JsonlEngine

    root = Path(__file__).resolve().parents[2]
    engine = JsonlEngine(
        [sys.executable, "-m", "conformance.servers.oracle_jsonl"], env={"PYTHONPATH": str(root)}
    )
    options = VerifyOptions(pieces=2, plays=0, shard=SLICE, tally_every=500)
    remote = verify(lambda: engine, options, engine=engine)
    local = verify(OracleEngine, options)
    assert engine.most_in_flight > 1, "requests were in flight together"
    assert remote.exit_status == local.exit_status == 0
    assert [line.to_json() for line in remote.tallies] == [line.to_json() for line in local.tallies]
