"""The level-by-level engine: level k holds the positions after k jumps, one per symmetry
class, with the number of jump sequences reaching it. Two sets of tables take turns, one per
thread; a level's children are staged per thread and merged by partition."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import PegsolverError
from ..model.geometry import Hole, Shape
from .core import enum_core, enum_sizes
from .level_memory import CHUNK_SLOTS, first_stage_bytes
from .limits import Cancel, size_text
from .outcome import Reason
from .stopping import raise_if_stopped

if TYPE_CHECKING:
    import numpy.typing as npt

    Keys = npt.NDArray[np.uint64]  # positions (bitboards), one per symmetry class
    Call = tuple[Callable[..., Any], *tuple[Any, ...]]  # a function of the core and its arguments

# The enumeration core's objects: engine.core loads the build, as a module chosen at run
# time, so they are Any here (pegcore's .pyi stubs type them for direct callers):
EnumCore = Any  # the module enum_core() loads
Table = Any     # E.Level: one partition's hash table of a level's positions (and counts)
Stage = Any     # E.Stage: one thread's buffer of children waiting to be merged
Work = Any      # E.Work: one thread's counters while expanding a level
Perm = tuple[Hole, ...]  # a board symmetry as a permutation of the holes

STOP_REASONS = (Reason.MEMORY_LIMIT, Reason.TIME_LIMIT, Reason.INTERRUPTED, Reason.CANCELLED, Reason.DISK_FULL,
                Reason.WORKERS_LOST)


class LevelStop(Exception):
    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason, self.message = reason, message


def symmetry_group(shape: Shape, masks: list[int], reduced: bool) -> list[Perm]:
    if not reduced:
        return [tuple(range(shape.size))]
    return [p for p in shape.symmetries if all(shape.map_mask(p, m) == m for m in masks)]


class LevelSet:
    """One level: the tables of its partitions, read as one."""

    def __init__(self, tables: list[Table]) -> None:
        self.tables = tables
        self.n: int = sum(t.n for t in tables)

    def total_count(self) -> int:
        total: int = sum(t.total_count() for t in self.tables)
        return total

    def keys_array(self) -> Keys:
        # one array, each table writing its slice: a copy more of a level costs seconds of fresh pages
        out = np.empty(self.n, dtype=np.uint64)
        pos = 0
        for t in self.tables:
            t.keys_array(out[pos:pos + t.n])
            pos += t.n
        return out

    def counts_arrays(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
        """The low and high 64-bit words of each position's count of jump sequences."""
        lo, hi = zip(*(t.counts_arrays() for t in self.tables))
        return np.concatenate(lo), np.concatenate(hi)


class LevelRun:
    """Level-by-level expansion with a memory budget, a deadline, threads and Ctrl-C.

    Two sets of tables take turns: the level being expanded and the level being built;
    the set of level k-1 is cleared and reused for level k+1."""

    def __init__(self, shape: Shape, group: list[Perm], threads: int, budget: int, deadline: float | None,
                 stage_bytes: int) -> None:
        E: EnumCore = enum_core()
        self.E = E
        self.shape = shape
        self.group = group
        perms = np.array(group[1:], dtype=np.int32).reshape(-1, shape.size)
        jumps = np.array(shape.jumps, dtype=np.int32).reshape(-1, 3)
        self.moves = E.Moves(jumps, perms, shape.size)
        self.threads = threads
        self.part_bits = threads.bit_length() - 1
        self.budget = budget
        self.deadline = deadline
        # stages start small and grow, up to their share of stage_bytes, as levels need
        self.reserve = len(shape.jumps) + 1   # blocks one position's children may take
        first = first_stage_bytes(shape)
        self.stage_cap = max(stage_bytes // threads, first)
        self.stages: list[Stage] = [E.Stage(first) for _ in range(threads)]
        self.grow_lock = threading.Lock()  # threads grow their stages within one budget
        self.per_parent = 4.0   # children per position in the last expansion
        self.held = 0           # bytes of the levels kept
        self.peak = 0
        self.tables: list[Table] = []  # every table alive (both sets)
        # out-of-core runs: told (k, step, done, total, seconds) as a step's partitions finish
        self.on_step: Callable[[int, str, int, int, float], None] | None = None
        self.cancel: Cancel | None = None   # set from another thread, it stops the run like the deadline

    def close(self) -> None:
        """Release what the run holds outside this process (nothing here)."""

    def stop_now(self) -> LevelStop | None:
        """The stop that applies now, checked between chunks of work: a cancel, or the deadline passed.
        A signal whose exception was caught on the way (in a Dask future's ``__del__``, say) is raised."""
        raise_if_stopped()
        if self.cancel is not None and self.cancel.is_set():
            return LevelStop(Reason.CANCELLED, "stopped by a cancel")
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return LevelStop(Reason.TIME_LIMIT, "stopped by the time limit")
        return None

    def keep(self, level: LevelSet) -> Keys:
        """A level's positions kept for the winning ones (sorted, in the budget)."""
        return keep_level(self, level)

    def loaded(self, kept: Keys) -> Keys:
        """The sorted positions of a level kept by :meth:`keep`."""
        return kept

    def meet(self, forward: Keys, back: Keys) -> Keys:
        """The positions of a kept forward level whose complement's class is in a kept
        backward level: the winning ones (sorted)."""
        keys = self.loaded(forward)
        winning: Keys = keys[self.E.complement_members(self.moves, keys, self.loaded(back))]
        return winning

    def sorted_keys(self, keys: Keys) -> Keys:
        """``keys`` sorted in place by the core, which stops at the deadline, a cancel or
        Ctrl-C like a merge (a level of 80 million keys takes about a second)."""
        halt = np.zeros(1, dtype=np.uint8)
        if self.cancel is not None:
            self.cancel.link(halt)
        try:
            self.E.sort_keys(keys, 0.0 if self.deadline is None else self.deadline, halt)
        except TimeoutError:
            raise LevelStop(Reason.TIME_LIMIT, "stopped by the time limit") from None
        except InterruptedError:
            raise LevelStop(Reason.CANCELLED, "stopped by a cancel") from None
        finally:
            if self.cancel is not None:
                self.cancel.unlink(halt)
        return keys

    def canonical(self, mask: int) -> int:
        key: int = self.moves.canonical(mask)
        return key

    def room(self) -> int:
        room: int = self.budget - self.held - self.staged() - sum(t.nbytes for t in self.tables)
        if room <= 0:
            raise LevelStop(Reason.MEMORY_LIMIT,
                            f"stopped: the memory budget of {size_text(self.budget)} is used up")
        return room

    def note(self) -> None:
        self.peak = max(self.peak, self.held + self.staged() + sum(t.nbytes for t in self.tables))

    def staged(self) -> int:
        nbytes: int = sum(st.nbytes for st in self.stages)
        return nbytes

    def grow_stage(self, st: Stage, nbytes: int) -> bool:
        # Enlarge a stage towards nbytes, within its cap and the budget.
        # True only when the arena gained blocks: a cap less than a block above its size
        # (sizes count the block links too) must merge, not retry
        nbytes = min(nbytes, self.stage_cap)
        blocks = st.blocks
        if nbytes <= st.nbytes or nbytes - st.nbytes > self.room() or not st.grow(nbytes):
            return False
        self.note()
        return bool(st.blocks > blocks)

    def region_bits(self, expect: int, counted: bool) -> int:
        # regions of about the core's region size, as many as the stages' buckets allow
        sizes = enum_sizes()
        table = 2 * expect * (sizes.slot_bytes if counted else sizes.key_bytes)
        buckets = max(min(st.blocks for st in self.stages) - self.reserve, 1) // sizes.min_blocks_per_bucket
        most: int = min(sizes.max_buckets, buckets).bit_length() - 1 - self.part_bits
        return max(0, min(most, (max(table // sizes.region_bytes, 1) - 1).bit_length()))

    def levels(self, start: int, counted: bool, depth: int) -> Iterator[tuple[int, LevelSet, Totals | None]]:
        """Yield (k, level, work of level k-1's expansion) for k = 0..depth."""
        E, P = self.E, self.threads
        sizes = enum_sizes()
        try:
            try:
                cur = E.from_keys(np.array([self.canonical(start)], dtype=np.uint64), counted,
                                  max(self.room(), 1 << 20), self.part_bits)
            except MemoryError:
                raise LevelStop(Reason.MEMORY_LIMIT, f"stopped: the start does not fit in the memory budget of "
                                            f"{size_text(self.budget)}") from None
            self.tables = list(cur)
            yield 0, LevelSet(cur), None
            spare: list[Table] = []
            pool = ThreadPoolExecutor(max_workers=P) if P > 1 else None
            try:
                growth = 4.0
                for k in range(1, depth + 1):
                    raise_if_stopped()   # a signal whose exception something caught stops here
                    works = [E.Work() for _ in range(P)]
                    # the next level is about as large as this one times the last growth
                    expect = int(sum(t.n for t in cur) * max(1.0, growth)) // P
                    words = (sizes.key_entry_words if not counted else sizes.wide_entry_words
                             if any(t.wide for t in cur) else sizes.count_entry_words)
                    children = sum(t.n for t in cur) * self.per_parent
                    for st in self.stages:  # room for the level's children, if the cap allows
                        self.grow_stage(st, int(8 * words * children * 1.2) // P)
                    rb = self.region_bits(expect, counted)
                    spare = self._clear(spare, counted, expect, rb, k)
                    for st in self.stages:
                        st.reset(self.part_bits + rb, words)
                    self._expand(cur, spare, works, pool)
                    if any(t.overflow for t in spare) or any(w.overflow for w in works):
                        raise PegsolverError("a solution count passed 2**128; the board is too large to count")
                    growth = sum(t.n for t in spare) / max(sum(t.n for t in cur), 1)
                    self.per_parent = max(sum(w.children for w in works) / max(sum(w.nodes for w in works), 1), 1.0)
                    cur, spare = spare, cur
                    level = LevelSet(cur)
                    yield k, level, Totals(works)
                    if level.n == 0:
                        return
            finally:
                if pool is not None:
                    pool.shutdown(wait=True)
        finally:
            self.tables = []

    def _clear(self, tables: list[Table], counted: bool, expect: int, rb: int, k: int) -> list[Table]:
        # The tables of level k-1, emptied for level k+1 (new ones at first).
        E, P = self.E, self.threads
        sizes = enum_sizes()
        need = max(sizes.min_slots, 2 * expect) * (sizes.slot_bytes if counted else sizes.key_bytes)
        if not tables:
            share = self.room() // P
            try:
                tables = [E.Level(counted, share, expect, self.part_bits, rb) for _ in range(P)]
            except MemoryError:
                raise self._no_table(expect, need <= share, k) from None
            self.tables += tables
        else:
            for t in tables:
                t.budget = max(self.room() // P + t.nbytes, t.nbytes)
                if not t.clear(expect, rb):
                    raise self._no_table(expect, need <= t.budget, k)
        self.note()
        return tables

    def _or_fewer(self) -> str:
        # each one's share of the budget grows with fewer (a trial's out-of-core run on 2
        # threads stopped for want of memory, and on 1 thread finished)
        unit = "Dask workers" if getattr(self, "nworkers", 0) else "threads"
        return f", or fewer {unit} (each has 1/{self.threads} of it)" if self.threads > 1 else ""

    def _no_table(self, expect: int, within: bool, k: int) -> LevelStop:
        # a table the budget has no room for, or (``within`` it) one the system refused:
        # a trial under a ulimit was told of a 1 GiB budget with 401 MiB of it used.
        # ``expect`` is a guess, and one thread's share: trials read it as the level's size
        tables = f"a table for level {k} ({expect:,} positions expected)" if self.threads == 1 else \
            f"{self.threads} tables for level {k} (one a thread, {expect:,} positions expected in each)"
        if within:
            return LevelStop(Reason.MEMORY_LIMIT, f"stopped: the system refused memory for {tables} (within the "
                                                  f"memory budget of {size_text(self.budget)}: other programs or "
                                                  f"a ulimit leave less)")
        return LevelStop(Reason.MEMORY_LIMIT, f"stopped: {tables} do{'es' * (self.threads == 1)} not fit in "
                                              f"the memory budget of {size_text(self.budget)}")

    def _expand(self, cur: list[Table], nxt: list[Table], works: list[Work], pool: ThreadPoolExecutor | None) -> None:
        # Every thread expands its own table of the level chunk by chunk into its stage;
        # when a stage fills up (and at the end) every thread merges its partition's
        # children from all stages, and the stages are emptied.
        P = self.threads
        pos = [0] * P
        ends = [t.slots_used for t in cur]
        while True:
            stop = threading.Event()
            todo = [t for t in range(P) if pos[t] < ends[t]]
            reached = self._parallel(pool, [(self._stage_part, t, cur[t], pos[t], ends[t], works[t], stop)
                                            for t in todo], stop.set)
            for t, r in zip(todo, reached):
                pos[t] = r
            if (stop_now := self.stop_now()) is not None:
                raise stop_now
            done = all(pos[t] >= ends[t] for t in range(P))
            fits = self._merge(pool, nxt)
            for st in self.stages:
                st.reset(st.bucket_bits, st.entry_words)
            self.note()
            if not all(fits):
                raise LevelStop(Reason.MEMORY_LIMIT, f"stopped: a level outgrew the memory budget of "
                                            f"{size_text(self.budget)}")
            if done:
                return

    def _merge(self, pool: ThreadPoolExecutor | None, nxt: list[Table]) -> list[bool]:
        # Every thread merges its partition of the stages. A merge into fresh memory can
        # take seconds, so it looks for the deadline and Ctrl-C itself; the halt flag
        # stops the other threads' merges once one thread's stop is raised here, or a cancel.
        halt = np.zeros(1, dtype=np.uint8)
        deadline = 0.0 if self.deadline is None else self.deadline
        calls = [(self.E.insert, nxt[p], self.stages, p, deadline, halt) for p in range(self.threads)]
        if self.cancel is not None:
            self.cancel.link(halt)   # a cancel halts the merges too
        try:
            fits: list[bool] = self._parallel(pool, calls, lambda: halt.fill(1))
        except TimeoutError:
            raise LevelStop(Reason.TIME_LIMIT, "stopped by the time limit") from None
        except InterruptedError:
            if (stop_now := self.stop_now()) is not None:
                raise stop_now from None
            raise
        finally:
            if self.cancel is not None:
                self.cancel.unlink(halt)
        return fits

    def _stage_part(self, t: int, table: Table, pos: int, end: int, work: Work, stop: threading.Event) -> int:
        # Thread t stages its table's children from slot pos, a chunk at a time, with no
        # wait for the other threads between chunks, until its table is done, its stage
        # is full and cannot grow (then every thread stops, to merge), the deadline
        # passes or a cancel comes, or stop is set (by another thread, or by Ctrl-C). Returns the slot reached.
        st = self.stages[t]
        while pos < end and not stop.is_set():
            hi = min(pos + CHUNK_SLOTS, end)
            reached = self.E.generate(self.moves, table, pos, hi, st, work)
            pos = reached
            if reached < hi:
                with self.grow_lock:
                    grown = self.grow_stage(st, 2 * st.nbytes)
                if not grown:  # at its cap: merge what is staged
                    stop.set()
            if self.stop_now() is not None:
                stop.set()
        return pos

    @staticmethod
    def _parallel(pool: ThreadPoolExecutor | None, calls: list[Call],
                  stop: Callable[[], None] | None = None) -> list[Any]:
        if pool is None:
            return [f(*args) for f, *args in calls]
        futures = [pool.submit(f, *args) for f, *args in calls]
        try:
            return [f.result() for f in futures]
        except BaseException:  # Ctrl-C, or a thread's error: stop tells the others to stop soon
            if stop is not None:
                stop()
            raise
        finally:  # let the calls finish before unwinding
            wait(futures)


class Totals:
    """The counters of several threads' Work, summed."""

    def __init__(self, works: list[Work]) -> None:
        self.dead_ends: int = sum(w.dead_ends for w in works)
        self.games: int = sum(w.games for w in works)
        self.sequences: int = sum(w.sequences for w in works)


def keep_level(run: LevelRun, level: LevelSet) -> Keys:
    arr = run.sorted_keys(level.keys_array())
    run.held += arr.nbytes
    run.note()
    if run.held > run.budget:
        raise LevelStop(Reason.MEMORY_LIMIT, f"stopped: the levels kept so far pass the memory budget of "
                                    f"{size_text(run.budget)} (keep_positions=False keeps none)")
    return arr
