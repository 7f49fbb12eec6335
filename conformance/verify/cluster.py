"""``verify`` across machines on a Dask distributed cluster (``verify --scheduler``).

The optional extra ``pip install 'draughts-conformance[distributed]'`` brings Dask. The work is
what :mod:`conformance.verify.pool` does on local processes, handed to a Dask scheduler instead:
chunks of positions go out as tasks (:func:`~conformance.verify.pool.check_chunk`, sent by
reference: every worker needs this package and the engine installed), each worker process starts
its engine once from the engine recipe and keeps it (a per-process cache keyed by the recipe), and
the finished chunks stream back (:func:`distributed.wait` for the first done) into the same report,
in position order. At the end every worker closes its engines.

Schedulers: ``tcp://HOST:PORT`` (a running ``dask scheduler``; workers started on each machine
with ``dask worker tcp://HOST:PORT --nthreads 1 --nworkers N``: one engine and one z3 per worker
process, as the engines and z3 are CPU-bound Python); ``local`` starts a
:class:`distributed.LocalCluster` of ``workers`` processes on this machine.

Dask runs tasks on worker threads, where an in-process engine cannot be held to its time by an
alarm (:func:`conformance.verify.asking.deadline` needs the main thread): there, only subprocess
engines (JSON-lines, Hub, DXP) keep their per-request timeouts.

Why Dask: it is the Python-native choice for independent tasks over a cluster -- a scheduler and
workers started by two commands, futures streamed back as they finish, no shared filesystem, the
same code path on a laptop (``LocalCluster``) as on many machines.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import struct
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final

from conformance.core.errors import IncompleteError
from conformance.core.protocol import Engine
from conformance.verify.chunk import Listed, Passed
from conformance.verify.generate import VerifyOptions
from conformance.verify.pool import (
    IN_FLIGHT,
    WorkerError,
    check_chunk,
    chunk_size,
    chunks,
    close_engines,
    flatten,
    in_order,
    picklable,
)

if TYPE_CHECKING:
    from distributed import Client

LOCAL: Final = "local"
"""The ``--scheduler`` value that starts a LocalCluster."""

INSTALL_HINT: Final = "pip install 'draughts-conformance[distributed]'"
PROBE_SECONDS: Final = 5.0
"""How long a ``tcp://`` scheduler has to send its first bytes (a Dask scheduler sends them at once)."""
MAX_FIRST_MESSAGE: Final = 1 << 20
"""The largest first message a Dask scheduler is believed to send (its handshake is tens of bytes)."""


class ClusterError(IncompleteError, RuntimeError):
    """Dask is not installed, or the scheduler cannot be reached."""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--scheduler needs Dask: {INSTALL_HINT}") from None
    return distributed


@contextlib.contextmanager
def connect(scheduler: str, workers: int) -> Iterator[Client]:
    """A client of the scheduler at ``scheduler`` (``tcp://HOST:PORT``), or of a new LocalCluster."""
    distributed = _distributed()
    if scheduler == LOCAL:
        cluster = distributed.LocalCluster(
            n_workers=max(1, workers),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        with cluster, distributed.Client(cluster) as client:
            yield client
        return
    probe(scheduler)
    try:
        client = distributed.Client(scheduler, timeout="20s")
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler {scheduler!r}: {error}") from None
    with client:
        yield client


def probe(scheduler: str) -> None:
    """Refuse a ``tcp://`` address that is not a Dask scheduler before Dask reads from it: Dask
    takes the first 8 bytes it gets as a message length and allocates that much (an SSH banner:
    a MemoryError). A scheduler sends its handshake at once, a little-endian length of tens of
    bytes first. Other schemes (``tls://``...) are left to Dask."""
    where = urllib.parse.urlsplit(scheduler)
    if where.scheme != "tcp" or where.hostname is None:
        return
    try:
        with socket.create_connection((where.hostname, where.port or 8786), timeout=PROBE_SECONDS) as peer:
            first = b""
            while len(first) < 8:
                received = peer.recv(8 - len(first))
                if not received:
                    break
                first += received
    except TimeoutError:
        raise ClusterError(
            f"{scheduler!r} is not a Dask scheduler: it sent nothing within {PROBE_SECONDS:g} s"
        ) from None
    except (OSError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler {scheduler!r}: {error}") from None
    if len(first) < 8 or struct.unpack("<Q", first)[0] > MAX_FIRST_MESSAGE:
        raise ClusterError(f"{scheduler!r} is not a Dask scheduler: it answered {first!r}")


def threads(client: Client) -> int:
    """How many tasks the cluster runs at once (the worker threads of all its workers)."""
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(int(worker.get("nthreads", 1)) for worker in workers.values()))


@contextlib.contextmanager
def cluster_rows(
    factory: Callable[[], Engine],
    options: VerifyOptions,
    scheduler: str,
    workers: int,
    indices: range | None = None,
) -> Iterator[Iterator[Passed | Listed]]:
    """The run's positions (``indices``, by default all of its shard's), checked on the Dask cluster
    ``scheduler``, in order: counted passes and positions listed with their rows."""
    distributed = _distributed()
    picklable(factory)
    with connect(scheduler, workers) as client:
        width = threads(client)
        pieces = chunks(
            options.indices() if indices is None else indices, width, chunk_size(options), options.span
        )

        def submit(piece: range) -> Any:
            return client.submit(check_chunk, factory, options, piece, pure=False)

        def first_done(futures: set[Any]) -> Iterable[Any]:
            return distributed.wait(futures, return_when="FIRST_COMPLETED").done  # type: ignore[no-any-return]

        try:
            yield flatten(in_order(pieces, submit, first_done, IN_FLIGHT * width))
        except distributed.KilledWorker as error:
            raise WorkerError(f"a Dask worker died checking positions: {error}") from None
        finally:
            with contextlib.suppress(Exception):
                client.run(close_engines)
