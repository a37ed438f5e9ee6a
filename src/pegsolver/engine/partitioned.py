"""Level-by-level enumeration with each level cut into partitions kept compressed in memory
or on disk (delayed duplicate detection: Korf, AAAI 2004), for levels past the memory of
the in-memory tables (engine.levels).

A level is a list of partitions, each a sorted array of keys and counts in the stored form
of engine.partition. Level k+1 is made in two steps (engine.shards): every partition of
level k is expanded into runs of children cut into shards; then consecutive shards are
grouped into partitions small enough for the memory budget, and each is merged from its
pieces of every run. Threads run the steps here; engine.cluster runs them on Dask.
"""
from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

import numpy as np

from ..model.geometry import Shape
from ..model.notation import hole_name
from .levels import LevelRun, LevelSet, LevelStop, Perm, Totals
from .limits import size_text
from .outcome import Reason
from .partition import encode
from .shards import EXPAND_BYTES, MERGE_BYTES, BoardSpec, StepWork, expand_partition, merge_runs, run_piece, shard_sizes
from .spill import MemoryStore, SpillFull, open_spill, package_version

MAX_SHARD_BITS = 12          # the core's stage takes 4096 buckets at most
STAGE_MOST = 64 << 20        # a thread's stage: more only makes the runs fewer
CHILD_BYTES = 2 * 24         # a staged child takes 3 words at most; twice that, for the estimate's misses
BLOCK = 4096
PARALLEL_FROM = 1 << 18      # children of a level from which its partitions are spread over the threads


class StoredLevel(LevelSet):
    """A level whose partitions are stored: read as one when asked (the last level's finishes,
    positions kept for the winning ones)."""

    def __init__(self, store: MemoryStore, k: int, parts: int, n: int, total: int) -> None:
        self.store, self.k, self.parts, self.n, self.total = store, k, parts, n, total

    def total_count(self) -> int:
        return self.total

    def _pieces(self) -> list[tuple[Any, Any, Any]]:
        return [self.store.load_part(self.k, i) for i in range(self.parts)]

    def keys_array(self) -> Any:
        return np.concatenate([p[0] for p in self._pieces()] or [np.empty(0, np.uint64)])

    def counts_arrays(self) -> Any:
        pieces = self._pieces()
        lo = np.concatenate([p[1] if p[1] is not None else np.ones(len(p[0]), np.uint64) for p in pieces])
        hi = np.concatenate([p[2] if p[2] is not None else np.zeros(len(p[0]), np.uint64) for p in pieces])
        return lo, hi


class PartitionedRun(LevelRun):
    """Out-of-core levels: partitions in ``spill`` (a directory; None: memory), threads of
    this process expanding and merging them. Stops as LevelRun does, and with
    Reason.DISK_FULL when the spill directory fills up."""

    def __init__(self, shape: Shape, group: list[Perm], threads: int, budget: int, deadline: float | None,
                 spill: str | None = None, resume: bool = False, keep_levels: bool = False,
                 board_name: str = "", finish: int | None = None) -> None:
        super().__init__(shape, group, threads, budget, deadline, 1 << 20)
        self.spec = BoardSpec.of(shape, group)
        self.spill, self.resume, self.keep_levels = spill, resume, keep_levels
        self.board_name = board_name or shape.name
        self.finish = finish
        self.level_stats: list[dict[str, Any]] = []   # the forward levels: partitions, bytes stored, seconds
        self.pass_stats: list[dict[str, Any]] = []    # the levels of the enumeration running (its store's record)
        self.disk_peak = 0
        self.dedup = 1.0   # positions per child staged, in the last level made
        self.first = 0     # the start of the first enumeration (the forward one)
        self.halt = threading.Event()   # set when a step stops: its other partitions stop too
        self.opened: list[MemoryStore] = []   # the stores of spill directories, released by close

    def keep(self, level: LevelSet) -> Any:
        # the level stays stored (keep_levels): read again when the winning ones are counted
        return level

    def loaded(self, kept: Any) -> Any:
        return self.sorted_keys(kept.keys_array()) if isinstance(kept, StoredLevel) else kept

    def meet(self, forward: Any, back: Any) -> Any:
        # Stored levels meet a partition at a time, within the budget: the backward level's
        # complements are held sorted in key-range windows of a quarter of it each (the
        # sort's scratch is as large), and the forward partitions, sorted by key range,
        # walk through the windows in order.
        if not (isinstance(forward, StoredLevel) and isinstance(back, StoredLevel)):
            return super().meet(forward, back)
        found = forward.store.get_winning(forward.k, self.first.bit_count() - forward.k)   # kept before a stop
        if found is None:
            found = self._meet_stored(forward, back)
            self._checked(lambda _: forward.store.put_winning(forward.k, found), 0)   # a full disk: a stop
        return found

    def _meet_stored(self, forward: StoredLevel, back: StoredLevel) -> Any:
        bounds = self._windows(back, self.window_count(back))
        found, loaded, comps = [], -1, np.empty(0, np.uint64)
        for i in range(forward.parts):
            if (stop := self.stop_now()) is not None:
                raise stop
            keys = forward.store.load_part(forward.k, i)[0]
            edges = [0, *np.searchsorted(keys, bounds), len(keys)]
            for w in range(len(edges) - 1):
                part = keys[edges[w]:edges[w + 1]]
                if not len(part):
                    continue
                if w != loaded:
                    comps, loaded = self._window(back, bounds, w), w
                if len(comps):
                    hit = comps[np.minimum(np.searchsorted(comps, part), len(comps) - 1)] == part
                    found.append(part[hit])
        return np.concatenate(found) if found else np.empty(0, np.uint64)

    def window_count(self, back: StoredLevel) -> int:
        """Windows the backward level's complements are held in: a quarter of the budget each."""
        return back.n * 8 // max(self.budget // 4, 1) + 1

    def _complements(self, back: StoredLevel) -> Iterator[Any]:
        for i in range(back.parts):
            if (stop := self.stop_now()) is not None:
                raise stop
            yield self.E.complement_keys(self.moves, back.store.load_part(back.k, i)[0])

    def _windows(self, back: StoredLevel, count: int) -> Any:
        # the bounds between windows of about equal size, from a sample of the complements
        if count <= 1:
            return np.empty(0, np.uint64)
        step = max(back.n >> 20, 1)
        sample = np.sort(np.concatenate([c[::step] for c in self._complements(back)]))
        return np.unique(sample[[len(sample) * w // count for w in range(1, count)]])

    def _window(self, back: StoredLevel, bounds: Any, w: int) -> Any:
        # the backward level's complements in window w, sorted
        lo = bounds[w - 1] if w else np.uint64(0)
        kept = []
        for c in self._complements(back):
            inside = c >= lo
            if w < len(bounds):
                inside &= c < bounds[w]
            kept.append(c[inside])
        return self.sorted_keys(np.concatenate(kept) if kept else np.empty(0, np.uint64))

    # -- what differs between threads and a cluster: the two steps over all partitions
    def expand_all(self, store: MemoryStore, k: int, parts: int, counted: bool, shard_bits: int,
                   stage: int) -> StepWork:
        def one(i: int) -> StepWork:
            names = itertools.count()
            return expand_partition(self.spec, store.load_part(k, i), counted, shard_bits, stage,
                                    lambda data: store.put_run(k + 1, f"{i:05d}_{next(names):05d}", data),
                                    self.poll)
        return _sum(self._map(one, range(parts), k + 1, "expanding"))

    def merge_all(self, store: MemoryStore, k: int, groups: list[tuple[int, int]], counted: bool,
                  cap: int) -> list[tuple[int, int, int, int, int]]:
        runs = store.run_list(k)

        def one(j: int) -> tuple[int, int, int, int, int]:
            a, b = groups[j]
            piece, total, peak = merge_runs(self.polled(run_piece(r, a, b) for r in runs), counted, cap)
            enc = encode(*piece)
            store.put_part(k, j, enc.data)
            return enc.positions, total, enc.key_bytes, enc.count_bytes, peak
        return self._map(one, range(len(groups)), k, "merging")

    def shard_sizes(self, store: MemoryStore, k: int) -> Any:
        return shard_sizes(store.run_list(k))

    def _map(self, f: Callable[[int], Any], items: range, k: int, step: str) -> list[Any]:
        # f over the partitions, in order, on the threads; on_step told as each one finishes
        t0 = time.monotonic()
        if self.threads == 1 or len(items) == 1:
            out = []
            for i in items:
                out.append(self._checked(f, i))
                self.tell(k, step, len(out), len(items), t0)
            return out
        self.halt.clear()
        with ThreadPoolExecutor(self.threads) as pool:
            futures = [pool.submit(self._checked, f, i) for i in items]
            try:
                for done, fu in enumerate(as_completed(futures), start=1):
                    fu.result()   # a stop in one partition stops them all
                    self.tell(k, step, done, len(items), t0)
            except BaseException:   # Ctrl-C here, or a partition's stop: the others stop at their next poll
                self.halt.set()
                raise
            return [fu.result() for fu in futures]

    def polled(self, pieces: Iterator[Any]) -> Iterator[Any]:
        # the pieces of a merge, with a poll before each
        for piece in pieces:
            self.poll()
            yield piece

    def poll(self) -> None:
        # called by the steps between chunks of work: a stop elsewhere, a cancel or the deadline ends them
        if self.halt.is_set():
            raise LevelStop(Reason.INTERRUPTED, "stopped with the other partitions")
        if (stop_now := self.stop_now()) is not None:
            raise stop_now

    def tell(self, k: int, step: str, done: int, total: int, t0: float) -> None:
        if self.on_step is not None:
            self.on_step(k, step, done, total, time.monotonic() - t0)

    def _checked(self, f: Callable[[int], Any], i: int) -> Any:
        self.poll()   # a partition not begun when the step stopped does not begin
        try:
            return f(i)
        except MemoryError as e:
            raise LevelStop(Reason.MEMORY_LIMIT, f"stopped: the memory budget of {size_text(self.budget)} is too "
                            f"small for one partition ({e}); give more memory{self._or_fewer()}") from None
        except SpillFull as e:
            raise LevelStop(Reason.DISK_FULL, f"stopped: {e}") from None

    # -- the level loop
    def open_store(self, start: int, counted: bool) -> MemoryStore:
        if self.spill is None:
            return MemoryStore()
        # a run without a finish keeps only its last level: one with a finish cannot resume it
        identity = {"pegsolver": package_version(), "board": self.board_name, "holes": self.shape.size,
                    "jumps": len(self.shape.jumps), "start": start, "counted": counted,
                    "symmetries": len(self.group), "finish": self.finish}
        name = f"{'forward' if start == self.first else 'backward'}_{start:x}"
        names = [hole_name(self.shape, h) for h in range(self.shape.size)]
        store = open_spill(self.spill, name, identity, self.resume, names)
        self.opened.append(store)
        return store

    def close(self) -> None:
        for store in self.opened:   # the spill directory's lock goes with the last
            store.release()
        self.opened = []

    def levels(self, start: int, counted: bool, depth: int) -> Iterator[tuple[int, LevelSet, Totals | None]]:
        self.first = self.first or start   # the run's own start; a second enumeration is the backward one
        store = self.open_store(start, counted)
        self.pass_stats = []
        if start == self.first:   # the levels reported are the forward ones
            self.level_stats = self.pass_stats
        record = store.finished()
        if record:
            k, parts, n, total = yield from self._replay(store, record)
        else:
            key = self.canonical(start)
            store.put_part(0, 0, encode(np.array([key], np.uint64), *((np.ones(1, np.uint64),) if counted
                                                                        else ())).data)
            k, parts, n, total = 0, 1, 1, 1
            self._finish(store, k, parts, n, total, None, 0.0)
            yield 0, StoredLevel(store, 0, 1, 1, 1), None
        growth = self._learned(self.pass_stats)
        while k < depth and n:
            t0 = time.monotonic()
            store.drop_runs(k + 1)    # what a killed run left of the level it was making
            store.drop_level(k + 1)
            share = self.budget // self.threads
            entries = int(n * max(growth, 1.0) * self.per_parent)
            # shards: enough for partitions of a quarter of a thread's share, as many as its
            # stage can hold (4 blocks each) in half of that share
            most = min(MAX_SHARD_BITS, max(0, (share // 2 // (4 * BLOCK)).bit_length() - 1))
            shard_bits = min(most, max(2 * self.threads.bit_length(),
                                       (entries * MERGE_BYTES * 4 // max(share, 1)).bit_length()))
            # the stage: a quarter of the share, or less where the level's children need less
            # (a run on 2 workers counted triangle5 with 256 MiB allocated for 1,544 positions)
            stage = min(STAGE_MOST, max(min(share // 4, CHILD_BYTES * entries),
                                        BLOCK * (4 << shard_bits) + BLOCK * 2 * len(self.shape.jumps)))
            if stage + EXPAND_BYTES * (n // max(parts, 1)) > share:
                raise LevelStop(Reason.MEMORY_LIMIT, f"stopped: the memory budget of {size_text(self.budget)} is "
                                f"too small to expand one partition of level {k} into level {k + 1}; give more "
                                f"memory{self._or_fewer()}")
            try:
                work = self.expand_all(store, k, parts, counted, shard_bits, stage)   # raises past 2**128
            except BaseException:   # a stop: what it held counts, and a half-made level goes
                self._abandon(store, k + 1)
                raise
            # a group's children are summed into about dedup times as many positions (the last
            # level's ratio, with a margin): groups as large as a thread's share then allows
            sizes = self.shard_sizes(store, k + 1)
            cap = max(share - stage, share // 2) // MERGE_BYTES
            cap = int(cap / min(1.0, 1.5 * self.dedup))
            if sizes is not None and int(sizes.sum()) > PARALLEL_FROM:   # work for every thread or worker
                cap = min(cap, int(sizes.sum()) // (2 * self.threads) + 1)
            groups = _groups(sizes, cap)
            try:
                made = self.merge_all(store, k + 1, groups, counted, share)
            except LevelStop as stop:
                self._abandon(store, k + 1)
                raise _skewed(stop, sizes, cap, k + 1) from None
            except BaseException:
                self._abandon(store, k + 1)
                raise
            self.peak = max(self.peak, work.peak_bytes * self.threads, max((m[4] for m in made), default=0))
            self.per_parent = max(work.children / max(work.nodes, 1), 1.0)
            new_n = sum(m[0] for m in made)
            self.dedup = new_n / max(int(sizes.sum()) if sizes is not None else 1, 1)
            growth = new_n / max(n, 1)
            k, parts, n, total = k + 1, len(groups), new_n, sum(m[1] for m in made)
            self._finish(store, k, parts, n, total, work, time.monotonic() - t0, made,
                         int(sizes.sum()) if sizes is not None else 0)
            yield k, StoredLevel(store, k, parts, n, total), _totals(work)
            if not self.keep_levels:
                store.drop_level(k - 1)

    def _abandon(self, store: MemoryStore, k: int) -> None:
        # level k stopped half made: its runs and partitions are of no use to a resume
        self.disk_peak = max(self.disk_peak, store.disk_bytes())
        store.drop_runs(k)
        store.drop_level(k)

    def _learned(self, stats: list[dict[str, Any]]) -> float:
        # The level growth (returned), positions a child staged and children a parent that
        # the last level made showed: a resumed run sizes its next level as the first run would
        if len(stats) < 2 or not stats[-1].get("staged"):
            return 4.0
        last = stats[-1]
        self.dedup = last["positions"] / last["staged"]
        self.per_parent = max(last["children"] / max(last["nodes"], 1), 1.0)
        return float(last["positions"] / max(stats[-2]["positions"], 1))

    def _finish(self, store: MemoryStore, k: int, parts: int, n: int, total: int, work: StepWork | None,
                seconds: float, made: list[tuple[int, int, int, int, int]] | None = None, staged: int = 0) -> None:
        key_bytes = sum(m[2] for m in made) if made else 0
        count_bytes = sum(m[3] for m in made) if made else 0
        stats = {"k": k, "parts": parts, "positions": n, "total": str(total), "seconds": round(seconds, 3),
                 "key_bytes": key_bytes, "count_bytes": count_bytes,
                 "dead_ends": work.dead_ends if work else 0, "games": str(work.games) if work else "0",
                 "nodes": work.nodes if work else 0, "children": work.children if work else 0, "staged": staged}
        self.disk_peak = max(self.disk_peak, store.disk_bytes())
        store.drop_runs(k)   # a level merged: its runs are no longer needed
        # recorded, then counted as stored: a Ctrl-C between the two never reports a level
        # that the record does not hold
        store.finish_level({"levels": [*self.pass_stats, stats], "peak_bytes": self.peak,
                            "disk_bytes": self.disk_peak})
        self.pass_stats.append(stats)

    def _replay(self, store: MemoryStore, record: dict[str, Any]
                ) -> Generator[tuple[int, LevelSet, Totals | None], None, tuple[int, int, int, int]]:
        # Levels a spill directory finished before: their figures again, the last one's partitions.
        stats: list[dict[str, Any]] = record["levels"]
        self.pass_stats[:] = stats   # (the forward pass's are also the ones reported)
        self.peak = max(self.peak, record.get("peak_bytes", 0))   # what the run had reached
        self.disk_peak = max(self.disk_peak, record.get("disk_bytes", 0))
        for s in stats:
            k, parts, n, total = s["k"], s["parts"], s["positions"], int(s["total"])
            work = None if k == 0 else StepWork(nodes=s["nodes"], dead_ends=s["dead_ends"], games=int(s["games"]),
                                                sequences=total)
            yield k, StoredLevel(store, k, parts, n, total), _totals(work) if work else None
        return k, parts, n, total


def _groups(sizes: Any, cap: int) -> list[tuple[int, int]]:
    # consecutive shards whose children add up to at most cap (a shard alone may pass it)
    groups: list[tuple[int, int]] = []
    if sizes is None:
        return [(0, 1)]
    a, acc = 0, 0
    for s, size in enumerate(sizes.tolist()):
        if acc and acc + size > cap:
            groups.append((a, s))
            a, acc = s, 0
        acc += size
    groups.append((a, len(sizes)))
    return groups


def _skewed(stop: LevelStop, sizes: Any, cap: int, k: int) -> LevelStop:
    # A merge past the budget where one key range (shard) alone holds more children than a
    # partition may: partitions are cut between ranges, so no budget below it can help.
    # Nearly full positions of a 64-hole board share their top holes' pegs (square8's
    # level 10: 77% of its children in one range of 512).
    if stop.reason is not Reason.MEMORY_LIMIT or sizes is None or int(sizes.max()) <= cap:
        return stop
    big = int(sizes.max())
    return LevelStop(stop.reason, f"{stop.message}. The children that make level {k} fall unevenly into the "
                                  f"{len(sizes)} key "
                                  f"ranges that partitions are cut from: one range alone holds {big:,} of the "
                                  f"{int(sizes.sum()):,} ({big / max(int(sizes.sum()), 1):.0%}), and a range is "
                                  "merged at once")


def _sum(works: list[StepWork]) -> StepWork:
    out = StepWork()
    for w in works:
        out.add(w)
    return out


def _totals(w: StepWork) -> Totals:
    t = Totals([])
    t.dead_ends, t.games, t.sequences = w.dead_ends, w.games, w.sequences
    return t

