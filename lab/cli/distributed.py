"""Chunk many documents here, or on a Dask cluster (dask.distributed, optional).

Chunking is the part of a check that grows with the corpus and splits cleanly
by document, so it is what goes to a cluster; the pieces come back in the
documents' own order and are merged into one index and one report here, so a
distributed run reports exactly what the serial run does. Dask is optional
(``pip install 'chunk-lab[dask]'``, or requirements-dask.txt in a checkout); asking for it
without it installed is a one-line ClusterUnavailable.

A multi-machine run (docs/gate.md): ``dask scheduler`` on one machine, ``dask
worker tcp://HOST:8786`` on each of the others, then ``python -m lab check DIR
--gold GOLD --scheduler tcp://HOST:8786``. Workers need this project installed
(``pip install .``); the documents travel to them with the tasks, so they need
no shared disk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tqdm import tqdm

from chunkers import ChunkOptions, chunk_with
from chunkers.model import Chunk

Chunked = dict[str, list[Chunk]]


class ClusterUnavailable(RuntimeError):
    """Dask is not installed, or the cluster cannot be reached or started."""


def _dask() -> tuple[Any, Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterUnavailable(
            "Dask is not installed: pip install 'chunk-lab[dask]' to use --workers or --scheduler"
        ) from None
    return Client, LocalCluster


def _chunk_one(text: str, strategy: str, opts: ChunkOptions) -> list[Chunk]:
    return chunk_with(text, strategy, opts)


def chunk_documents(
    documents: dict[str, str],
    strategy: str,
    opts: ChunkOptions,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    quiet: bool = False,
) -> Chunked:
    """Every document's chunks, in the documents' order.

    ``scheduler`` (a Dask address such as tcp://10.0.0.5:8786) sends the work to
    that cluster; ``workers`` starts a local cluster of that many processes for
    the run; neither chunks here, one document after another.
    """
    if scheduler is None and workers is None:
        # -- disable=None is tqdm's "no bar unless stderr is a terminal": CI logs,
        # -- pipes and --json stay clean; --quiet turns it off everywhere
        names = tqdm(documents, "chunking", unit="doc", leave=False, disable=quiet or None)
        return {name: _chunk_one(documents[name], strategy, opts) for name in names}
    if workers is not None and workers < 1:
        raise ClusterUnavailable(f"--workers must be at least 1, got {workers}")
    Client, LocalCluster = _dask()
    if scheduler is not None:

        def remote() -> tuple[Any, Any]:
            return Client(scheduler, timeout="10s"), None

        return _on_cluster(remote, documents, strategy, opts, quiet)

    def local() -> tuple[Any, Any]:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",  # loopback only: nothing leaves this machine
            dashboard_address=None,
        )
        return Client(cluster), cluster

    return _on_cluster(local, documents, strategy, opts, quiet)


def _on_cluster(
    connect: Callable[[], tuple[Any, Any]],
    documents: dict[str, str],
    strategy: str,
    opts: ChunkOptions,
    quiet: bool,
) -> Chunked:
    from distributed import as_completed

    try:
        client, cluster = connect()
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterUnavailable(f"could not reach the Dask cluster ({exc})") from None
    except RuntimeError as exc:
        # -- a local worker process that dies while starting (for one, when the
        # -- program that called us cannot be re-run by a spawned process)
        raise ClusterUnavailable(f"could not start the local Dask workers ({exc})") from None
    try:
        names = list(documents)
        futures = client.map(
            _chunk_one,
            [documents[n] for n in names],
            strategy=strategy,
            opts=opts,
            pure=False,
        )
        with tqdm(
            total=len(futures), desc="chunking", unit="doc", leave=False, disable=quiet or None
        ) as b:
            for _ in as_completed(futures):
                b.update(1)
        results = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return dict(zip(names, results, strict=True))
