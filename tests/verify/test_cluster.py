"""``verify --scheduler``: the Dask path, on a ``distributed.LocalCluster`` (skipped without Dask)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip(
    "distributed", reason="the Dask path needs pip install 'draughts-conformance[distributed]'"
)

from conformance.engines.adapters.specs import EngineRecipe
from conformance.verify.cluster import LOCAL
from conformance.verify.generate import VerifyOptions
from conformance.verify.run import VerifyRun, verify

TIMINGS = ("duration_ms", "duration_s", "started", "finished")


def same_run(run: VerifyRun) -> tuple[Any, ...]:
    """Everything a run reports but its timings (as in test_workers)."""
    results = [{k: v for k, v in r.to_json().items() if k not in TIMINGS} for r in run.results]
    footer = {k: v for k, v in run.footer.items() if k not in TIMINGS}
    tallies = [line.to_json() for line in run.tallies]  # the passes, counted span by span
    return results, tallies, footer, [d.text() for d in run.disagreements], run.positions, run.first_failure


def test_a_local_dask_cluster_gives_the_report_of_one_process() -> None:
    recipe = EngineRecipe("mutant:king-counts-two")
    options = VerifyOptions(examples=40, seed=13, z3_examples=15, shrink=2)
    one = verify(recipe, options)
    assert one.exit_status == 1
    on_dask = verify(recipe, options, workers=2, scheduler=LOCAL)
    assert same_run(on_dask) == same_run(one)


def test_an_exhaustive_slice_on_dask_passes_the_oracle() -> None:
    from conformance.core.shards import Shard

    options = VerifyOptions(pieces=2, plays=0, shard=Shard(3, 40), all_results=True)
    run = verify(EngineRecipe("oracle"), options, workers=2, scheduler=LOCAL)
    assert len(run.results) == 2 * run.positions  # every pass listed: invariants and oracle
    assert run.exit_status == 0
    assert run.positions == len(options.indices())
    assert [r.case for r in run.results] == sorted(
        (r.case for r in run.results), key=lambda c: int(c.split("-")[1])
    )


def test_perft_on_a_local_dask_cluster_equals_the_serial_perft() -> None:
    from conformance.cli.perft import cluster_divide, cluster_perft
    from oracle.perft import divide, perft
    from oracle.position import Position

    start = Position.initial()
    assert (
        cluster_perft(start, 4, LOCAL, workers=2)
        == perft(start, 4)
        == 1_330_929 // 1_330_929 * perft(start, 4)
    )
    kings = Position.from_fen("W:WK47,K3:B14,19,29,31,42,K50")
    assert cluster_divide(kings, 3, LOCAL, workers=2, by_route=True) == divide(kings, 3, by_route=True)
