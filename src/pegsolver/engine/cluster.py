"""The out-of-core levels (engine.partitioned) on a Dask distributed cluster: partitions are
Dask futures held by the workers, each expansion and merge is a task running the compiled
core there (engine.shards), and the children move between workers by Dask's own transfers.

A worker lost mid-level costs nothing but time: Dask computes its tasks again from their
inputs (the scheduler keeps the lineage of every partition held), so the totals are the
same. ``workers=N`` starts a LocalCluster of N processes here; ``address`` joins a running
scheduler (``dask scheduler`` and ``dask worker``, or dask-jobqueue on SLURM or PBS).
"""
from __future__ import annotations

import importlib
import logging
import multiprocessing
import operator
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from typing import Any

import numpy as np

from ..errors import PegsolverError, Terminated
from ..model.geometry import Shape
from .levels import LevelStop, Perm
from .limits import size_text
from .outcome import Reason
from .partition import decode, encode
from .partitioned import PartitionedRun
from .shards import BoardSpec, StepWork, expand_partition, merge_runs, pack_run, run_piece, shard_sizes
from .spill import MemoryStore
from .stopping import note_stop

CONNECT_SECONDS = 10
UNGUARDED = ("a script that starts workers must do so under `if __name__ == \"__main__\":`, since each worker "
             "process imports the script's main module")
SLICE = 0.25   # seconds between two looks at the deadline, a cancel and the progress while tasks run
WORKERLESS_SECONDS = 30   # a run at an address stops after this long with no worker at all


class ClusterError(PegsolverError):
    """A cluster that cannot be used: Dask missing, or no scheduler at the address."""


def _expand_task(spec: BoardSpec, data: bytes, counted: bool, shard_bits: int,
                 stage: int) -> tuple[list[bytes], StepWork]:
    runs: list[bytes] = []
    work = expand_partition(spec, decode(data), counted, shard_bits, stage, runs.append)
    return runs, work


def _sizes_task(out: tuple[list[bytes], StepWork]) -> tuple[Any, StepWork]:
    return shard_sizes(out[0]), out[1]


def _slice_task(out: tuple[list[bytes], StepWork], a: int, b: int) -> list[bytes]:
    # shards [a, b) of each run as a run of one shard: the children travel to the merging
    # worker compressed, without the rest of their runs
    return [pack_run(p, np.array([0, len(p[0])], np.int64)) for p in (run_piece(r, a, b) for r in out[0])]


def _merge_task(slices: list[list[bytes]], counted: bool, cap: int) -> tuple[bytes, tuple[int, ...]]:
    piece, total, peak = merge_runs((run_piece(r, 0, 1) for s in slices for r in s), counted, cap)
    enc = encode(*piece)
    return enc.data, (enc.positions, total, enc.key_bytes, enc.count_bytes, peak)


class FutureStore(MemoryStore):
    """Partitions as futures on the cluster's workers."""

    def __init__(self, client: Any) -> None:
        super().__init__()
        self.client = client
        self.futures: dict[tuple[int, int], Any] = {}

    def put_part(self, k: int, i: int, data: Any) -> None:
        self.futures[k, i] = data if not isinstance(data, bytes) else self.client.submit(bytes, data, pure=False)

    def get_part(self, k: int, i: int) -> bytes:
        data: bytes = self.futures[k, i].result()
        return data

    def drop_level(self, k: int) -> None:
        for key in [key for key in self.futures if key[0] == k]:
            del self.futures[key]


class DaskRun(PartitionedRun):
    """Out-of-core levels on Dask: ``workers`` processes started here, or the scheduler at
    ``address``; the memory budget is shared by the workers (at an address, unless
    ``budget_given``, it is 3/4 of the workers' memory limits added up)."""

    def __init__(self, shape: Shape, group: list[Perm], budget: int, deadline: float | None,
                 workers: int | None = None, address: str | None = None, spill: Any = None, resume: bool = False,
                 keep_levels: bool = False, board_name: str = "", finish: int | None = None,
                 budget_given: bool = True) -> None:
        if spill is not None or resume:
            raise ClusterError("a cluster keeps the partitions in its workers' memory: --spill and --resume "
                               "apply to runs on this machine")
        self.client, self.local, self.scratch = connect(workers, address, budget)
        if address is not None:
            wait_for_a_worker(self.client, address)
            if not budget_given:   # the workers' memory, not this machine's
                budget = workers_budget(self.client) or budget
        n = max(len(self.client.scheduler_info().get("workers", {})), 1)
        threads = 1 << (n.bit_length() - 1)
        super().__init__(shape, group, threads, budget, deadline, keep_levels=keep_levels, board_name=board_name,
                         finish=finish)
        self.nworkers = n
        self.stores: list[FutureStore] = []
        self._outs: list[Any] = []

    def close(self) -> None:
        for store in self.stores:  # let go of the partitions before the workers stop
            store.futures.clear()
        self._outs = []
        if self.local is not None:   # ours
            stop_local(self.client, self.local, self.scratch)
        else:                        # someone else's cluster: leave it running
            self.client.close()

    def open_store(self, start: int, counted: bool) -> MemoryStore:
        store = FutureStore(self.client)
        self.stores.append(store)
        return store

    def _wait(self, futures: list[Any], k: int, step: str) -> list[Any]:
        dask, t0 = dask_api(), time.monotonic()
        seen = looked = t0   # when a worker was last known to be there, and last looked for
        while True:
            if (stop_now := self.stop_now()) is not None:   # before each slice: a step may take less
                self.client.cancel(futures)
                raise stop_now
            timeout = None if self.deadline is None else max(self.deadline - time.monotonic(), 0.0)
            try:
                dask.wait(futures, timeout=SLICE if timeout is None else min(timeout, SLICE))
            except TimeoutError:
                self.tell(k, step, sum(f.done() for f in futures), len(futures), t0)
                if self.local is not None or time.monotonic() - looked < 2.0:   # an RPC: every 2 s at most
                    continue
                looked = time.monotonic()
                if self.client.scheduler_info().get("workers"):
                    seen = looked
                elif looked - seen > WORKERLESS_SECONDS:   # the tasks would wait for ever
                    self.client.cancel(futures)
                    raise LevelStop(Reason.WORKERS_LOST, f"stopped: no Dask worker has been connected to the "
                                    f"scheduler for {WORKERLESS_SECONDS} s, while level {k} was {step}; the "
                                    "partitions they held are lost") from None
                continue
            self.tell(k, step, len(futures), len(futures), t0)
            try:
                return list(self.client.gather(futures))
            except MemoryError as e:
                raise LevelStop(Reason.MEMORY_LIMIT, f"stopped: the memory budget of {size_text(self.budget)} is "
                                f"too small for one partition ({e}); give more memory") from None
            except dask.KilledWorker as e:   # a worker's nanny restarts it past its memory limit
                raise LevelStop(Reason.WORKERS_LOST, f"stopped: Dask workers died while level {k} was {step} "
                                f"({str(e)[:300]}); a worker past its memory limit is restarted by its nanny: "
                                f"give the workers more memory, or the run less than "
                                f"{size_text(self.budget)} (--memory-gb)") from None

    def expand_all(self, store: MemoryStore, k: int, parts: int, counted: bool, shard_bits: int,
                   stage: int) -> StepWork:
        assert isinstance(store, FutureStore)
        c = self.client
        self._outs = [c.submit(_expand_task, self.spec, store.futures[k, i], counted, shard_bits, stage, pure=False)
                      for i in range(parts)]
        metas = self._wait([c.submit(_sizes_task, f, pure=False) for f in self._outs], k + 1, "expanding")
        self._sizes = None
        work = StepWork()
        for sizes, w in metas:
            work.add(w)
            if sizes is not None:
                self._sizes = sizes if self._sizes is None else self._sizes + sizes
        return work

    def shard_sizes(self, store: MemoryStore, k: int) -> Any:
        return self._sizes

    def merge_all(self, store: MemoryStore, k: int, groups: list[tuple[int, int]], counted: bool,
                  cap: int) -> list[tuple[int, int, int, int, int]]:
        assert isinstance(store, FutureStore)
        c = self.client
        merged = []
        for a, b in groups:
            slices = [c.submit(_slice_task, f, a, b, pure=False) for f in self._outs]
            merged.append(c.submit(_merge_task, slices, counted, cap, pure=False))
        stats = self._wait([c.submit(operator.itemgetter(1), m, pure=False) for m in merged], k, "merging")
        for j, m in enumerate(merged):
            store.put_part(k, j, c.submit(operator.itemgetter(0), m, pure=False))
        self._outs = []
        return [tuple(s) for s in stats]


def dask_api() -> Any:
    """The module ``distributed``, typed as Any: it ships no type hints for its client API.

    :raises ClusterError: Dask distributed is not installed."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise ClusterError("--workers and --cluster need Dask distributed: pip install \".[cluster]\" in the "
                           "project's folder (as the README says), or pip install 'dask[distributed]'") from None


# Workers started here spill what they hold (partitions, children) to their scratch
# directory past 70% of their share of the budget (Dask's own spilling), and are never
# paused or killed for memory: a paused worker could wait for ever on the others. They
# ignore the terminal's Ctrl-C (engine.worker_setup): this process stops them.
LOCAL_MEMORY = {"distributed.worker.memory.target": False, "distributed.worker.memory.spill": 0.7,
                "distributed.worker.memory.pause": False, "distributed.worker.memory.terminate": False,
                "distributed.worker.preload": ["pegsolver.engine.worker_setup"]}
WORKER_LEAST = 512 << 20   # a worker's share at least: its process takes about WORKER_IDLE idle
WORKER_IDLE = 150 << 20


def _join(Client: Any, address: str) -> Any:
    # A client of the scheduler at address, made in a thread of its own: a server that
    # takes the connection but never speaks Dask's protocol would hold Client() for ever.
    port = re.fullmatch(r"(?:tcp|tls)://.+:(\d+)", address)
    if port and not 0 < int(port.group(1)) < 65536:
        raise ClusterError(f"{address!r} is not a Dask scheduler address: port {port.group(1)} is not 1 to 65535")
    out: dict[str, Any] = {}

    def attempt() -> None:
        try:
            out["client"] = Client(address, timeout=f"{CONNECT_SECONDS}s")
        except BaseException as e:   # handed to the caller below
            out["error"] = e
    thread = threading.Thread(target=attempt, daemon=True, name="pegsolver-dask-connect")
    thread.start()
    thread.join(CONNECT_SECONDS + 5)
    e = out.get("error")
    if "client" in out:
        return out["client"]
    if isinstance(e, (ValueError, TypeError)):   # Dask's parse of the address
        raise ClusterError(f"{address!r} is not a Dask scheduler address (tcp://HOST:PORT): {str(e)[:200]}")
    if isinstance(e, OSError):   # refused, unreachable or timed out
        raise ClusterError(f"no Dask scheduler answers at {address!r} (waited up to {CONNECT_SECONDS} s): "
                           f"{str(e)[:200]}")
    # a MemoryError here is Dask reading another protocol's bytes as a huge frame's length,
    # not this machine out of memory: name it so
    why = (f"no handshake in {CONNECT_SECONDS + 5} s" if e is None else "its answer is not a Dask message"
           if isinstance(e, MemoryError) else type(e).__name__)
    raise ClusterError(f"something answers at {address!r}, but not as a Dask scheduler ({why})")


def wait_for_a_worker(client: Any, address: str) -> None:
    """Return once the scheduler has a worker.

    :raises ClusterError: none came within CONNECT_SECONDS (tasks would wait for ever).
    """
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except TimeoutError:
        client.close()
        raise ClusterError(f"the Dask scheduler at {address!r} has no worker (waited {CONNECT_SECONDS} s): "
                           f"start one with `dask worker {address}`") from None


def workers_budget(client: Any) -> int | None:
    """3/4 of the memory a cluster's workers may hold past their own (``memory_limit`` less
    WORKER_IDLE each), added up, as a run here takes 3/4 of this machine's; None when a worker
    has no limit or none answers.

    :raises ClusterError: the limits leave no room past the workers' own memory (a worker
        past its limit is killed by its nanny, again and again).
    """
    limits = [int(w.get("memory_limit") or 0) for w in client.scheduler_info().get("workers", {}).values()]
    if not limits or not all(limits):
        return None
    budget = sum(max(limit - WORKER_IDLE, 0) * 3 // 4 for limit in limits)
    if budget < 1 << 20:
        raise ClusterError(f"the Dask workers' memory limits ({', '.join(size_text(x) for x in limits[:4])}"
                           f"{', ...' if len(limits) > 4 else ''}) leave no room past a worker's own "
                           f"{size_text(WORKER_IDLE)}: start the workers with more memory (dask worker "
                           "--memory-limit), or give --memory-gb")
    return budget


def connect(workers: int | None, address: str | None, budget: int = 0) -> tuple[Any, Any, str]:
    """A Dask client, and the LocalCluster and its scratch directory when started here: of
    ``workers`` processes (one thread each, each with ``budget / workers`` bytes of memory
    before it spills to disk; 0: Dask's default share), or of the scheduler at ``address``.

    :raises ClusterError: Dask is not installed, or no scheduler answers within 10 s.
    :raises KeyboardInterrupt: Ctrl-C while the LocalCluster started (it is stopped first);
        Terminated (a KeyboardInterrupt) for SIGTERM.
    """
    dask = dask_api()
    if address is not None:
        return _join(dask.Client, address), None, ""
    # a process still starting (multiprocessing's own test, before it refuses to start more)
    # is a worker importing a script that is not guarded
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise ClusterError(f"a Dask worker process is starting a cluster itself: {UNGUARDED}")
    # A Ctrl-C or SIGTERM while the cluster starts is only noted (raised inside Dask's
    # start-up, it could be lost there); the cluster is then stopped and the signal raised
    # here. SIGINT is also blocked in this thread, so the worker processes start with it
    # blocked (until their preload ignores it); the resource tracker, which unblocks it,
    # starts first.
    pressed: list[int] = []
    main = threading.current_thread() is threading.main_thread()
    old = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)} if main else {}
    noted = [sig for sig, handler in old.items() if handler is not signal.SIG_IGN]
    if noted:
        for sig in noted:   # before any process starts: a signal from then on is noted
            signal.signal(sig, lambda signum, _: pressed.append(signum))
        importlib.import_module("multiprocessing.resource_tracker").ensure_running()
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    started: tuple[Any, Any, str] | None = None
    failed: ClusterError | None = None
    try:
        started = _start_local(dask, workers, budget)
    except ClusterError as e:   # also the workers' processes stopped by the same signal
        failed = e
    finally:
        if noted:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)   # a held Ctrl-C arrives: noted
            for sig in noted:
                signal.signal(sig, old[sig])
    if pressed:
        note_stop(signal.SIGTERM if signal.SIGTERM in pressed else signal.SIGINT)
        if started is not None:
            stop_local(*started)
        raise Terminated if signal.SIGTERM in pressed else KeyboardInterrupt
    if failed is not None or started is None:
        raise failed or ClusterError("the Dask LocalCluster did not start")
    return started


def _start_local(dask: Any, workers: int | None, budget: int) -> tuple[Any, Any, str]:
    scratch = tempfile.mkdtemp(prefix="pegsolver-dask-")   # removed by stop_local
    try:
        with importlib.import_module("dask").config.set(LOCAL_MEMORY):
            cluster = dask.LocalCluster(n_workers=workers or 1, threads_per_worker=1, processes=True,
                                        dashboard_address=":0",   # any free port: no warning beside another
                                        silence_logs=logging.ERROR, local_directory=scratch,
                                        memory_limit=max(budget // (workers or 1), WORKER_LEAST) if budget
                                        else "auto")
    except OSError as e:   # Dask's start-up timed out (its TimeoutError is an OSError)
        shutil.rmtree(scratch, ignore_errors=True)
        raise ClusterError(f"could not start a Dask LocalCluster of {workers or 1} worker(s): "
                           f"{str(e) or 'its start-up timed out'} (start fewer workers)") from None
    except RuntimeError as e:   # a worker process that could not start (its error is above)
        shutil.rmtree(scratch, ignore_errors=True)
        main = sys.modules.get("__main__")
        spec = getattr(main, "__spec__", None)   # python -m pegsolver, or the pegsolver command: not a script
        path = getattr(main, "__file__", None)
        script = (path is not None and not (spec and spec.name.startswith("pegsolver"))
                  and os.path.basename(sys.argv[0]) != "pegsolver")
        # python - < script.py: a worker process looks for the main module in a file named <stdin>
        hint = (UNGUARDED if os.path.isfile(path or "") else f"a script read from {path} cannot start worker "
                "processes, since each one reads the script's main module again from its file: run it from a file")
        raise ClusterError(f"could not start a Dask LocalCluster of {workers or 1} worker(s): {e}"
                           + (f" (if this runs from a script: {hint})" if script else "")) from None
    return dask.Client(cluster), cluster, scratch


def stop_local(client: Any, cluster: Any, scratch: str) -> None:
    """Stop a LocalCluster started by ``connect`` (scheduler and workers together, without
    Dask's shutdown log lines) and remove its scratch directory."""
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        client.shutdown()
        cluster.close()
    finally:
        quiet.setLevel(level)
        shutil.rmtree(scratch, ignore_errors=True)
