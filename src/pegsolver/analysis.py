"""Whole-board analysis: every position reachable from a start, level by level.

Level k holds the positions after k jumps (k fewer pegs than the start), each kept once
per symmetry class (the board symmetries that fix the start, and the finish when one is
given; none with ``reduced=False``). Each class carries the number of jump sequences
from the start that reach it, so the last levels give exact numbers of solutions.
Backward analysis is forward analysis from the complement of the finish (complement
duality); forward and backward levels meet in the winning positions.

Published figures reproduced by the tests (English board, centre start; design.md):
23,475,688 positions in all (OEIS A112737), 1,679,072 on some centre-to-centre solution
(OEIS A112738), 40,861,647,040,079,968 solutions ending at the centre (G. I. Bell,
arXiv:0903.3696) and 577,116,156,815,309,849,672 complete games (Durango Bill,
durangobill.com/Peg33.html); triangle 5: 29,760 solutions from a corner vacancy.
"""
from __future__ import annotations

import math
import operator
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from .engine.outcome import Reason
from .errors import BoardTooLargeError, CoreMissingError, GoalError, PegsolverError
from .model.board import Board
from .model.geometry import Shape
from .model.notation import hole_name, parse_hole
from .proofs.classes import has_classes, hole_class, position_class
from .solver import resolve_board

MAX_ENUM_HOLES = 64
MAX_THREADS = 64                 # partitions of a level (the core's limit)
MAX_MEMORY_BYTES = 1 << 50       # 1 PiB: past any machine here
SLOT_BYTES = 16          # a counted position in a level's table: key + low count word
WIDE_SLOT_BYTES = 24     # with its high count word (counts past 2**64)
KEY_BYTES = 8            # a position kept for the caller or for the winning positions
WIDE_ENTRY_BYTES = 24    # a staged child: key and count (16 bytes while counts fit 64 bits)
STAGE_CAP = 384 << 20    # staged children (all threads) before they are merged
MIN_STAGE = 1 << 20      # a thread's stage at least
REGION_BYTES = 2048 << 10  # a table is merged a region at a time: about an L2 cache (1 and 4 MiB: slower)
STOP_REASONS = (Reason.MEMORY_LIMIT, Reason.TIME_LIMIT, Reason.INTERRUPTED)
CHUNK_SLOTS = 1 << 17    # table slots expanded between two checks of the limits


def _enum():
    # The BMI2 build where the processor has it (x86-64 since 2013), else the portable one.
    try:
        from pegcore import _enum64
    except ImportError as e:
        raise CoreMissingError(f"pegsolver's compiled enumeration (pegcore._enum64) is not built: "
                               f"install with `pip install .` ({e})") from e
    if _enum64.cpu_has_bmi2() and os.environ.get("PEGSOLVER_PORTABLE") != "1":
        try:
            from pegcore import _enum64_bmi2
            return _enum64_bmi2
        except ImportError:  # built elsewhere than x86-64
            pass
    return _enum64


def available_memory() -> int:
    """Bytes of memory available now (MemAvailable on Linux; else physical memory / 2)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return 4 << 30


def default_threads() -> int:
    """The largest power of two not above the number of CPUs this process may use."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:
        n = os.cpu_count() or 1
    return 1 << (max(1, n).bit_length() - 1)


@dataclass(frozen=True)
class Level:
    """One level: ``jumps`` made, ``pegs`` left, ``positions`` (symmetry classes, or
    positions when unreduced), ``dead_ends`` among them (no jump left; None when the run
    stopped before expanding the level), ``winning``
    among them (None without a finish) and ``sequences``: jump sequences from the start
    that reach this level (a Python int)."""

    jumps: int
    pegs: int
    positions: int
    dead_ends: int | None
    sequences: int
    winning: int | None = None


@dataclass
class Analysis:
    """The result of :func:`analyse`.

    ``levels[k]`` is level k (k jumps made); ``total`` sums their positions and
    ``winning`` their winning positions (None without a finish). ``solutions`` counts
    jump sequences from the start to the finish (None without one); ``finishes`` maps
    each hole where one peg can end to its number of solutions; ``games`` counts jump
    sequences played until no jump is left (None when the run stopped early).
    ``symmetries`` is the size of the group the counts are reduced by (1: unreduced).
    ``stopped`` is None for a complete run, else the :class:`Reason` (memory limit,
    time limit, interrupted) and the levels finished so far are kept;
    ``message`` says what happened in words. ``peak_bytes`` is the largest memory the
    levels held at once; ``seconds`` wall time.
    """

    start: Board
    finish: int | None
    symmetries: int
    threads: int
    levels: list[Level] = field(default_factory=list)
    solutions: int | None = None
    finishes: dict[int, int] = field(default_factory=dict)
    games: int | None = 0
    seconds: float = 0.0
    peak_bytes: int = 0
    stopped: Reason | None = None
    message: str = ""
    _positions: list[np.ndarray] = field(default_factory=list, repr=False)
    _winning: list[np.ndarray] = field(default_factory=list, repr=False)

    @property
    def total(self) -> int:
        return sum(lv.positions for lv in self.levels)

    @property
    def winning(self) -> int | None:
        if self.finish is None or self.stopped or any(lv.winning is None for lv in self.levels):
            return None
        return sum(lv.winning or 0 for lv in self.levels)

    def positions(self, k: int) -> np.ndarray:
        """Level k's positions as a numpy uint64 array of shape (positions,): bit i is
        hole i; each class is given by its smallest image. Sorted.

        :raises PegsolverError: the level was not kept (``keep_positions=False``) or not reached.
        """
        if not 0 <= k < len(self._positions):
            raise PegsolverError(f"level {k} was not kept (levels 0..{len(self._positions) - 1} are)")
        return self._positions[k]

    def winning_positions(self, k: int) -> np.ndarray:
        """Level k's winning positions (uint64, sorted), given a finish.

        :raises PegsolverError: no finish was given, or the level was not kept.
        """
        if not 0 <= k < len(self._winning):
            raise PegsolverError("winning positions need a finish and a completed run with positions kept")
        return self._winning[k]

    def to_json(self, hole_name) -> dict:
        """JSON-ready data: levels (positions per jump count), total, winning, solutions,
        games, seconds and the rest; ``hole_name(h)`` names a hole."""
        return {
            "board": self.start.shape.name,
            "vacant": [hole_name(h) for h in self.start.vacancies()],
            "finish": None if self.finish is None else hole_name(self.finish),
            "symmetries": self.symmetries,
            "levels": [lv.positions for lv in self.levels],
            "winning_levels": None if self.winning is None else [lv.winning for lv in self.levels],
            "dead_ends": [lv.dead_ends for lv in self.levels],
            "total": self.total,
            "winning": self.winning,
            "solutions": self.solutions,
            "finishes": {hole_name(h): n for h, n in sorted(self.finishes.items())},
            "games": self.games,
            "seconds": self.seconds,
            "threads": self.threads,
            "peak_bytes": self.peak_bytes,
            "stopped": self.stopped,
            "message": self.message,
        }


class _Stop(Exception):
    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason, self.message = reason, message


def level_bound(shape: Shape, start: int, pegs: int) -> int:
    """An upper bound on the positions with ``pegs`` pegs reachable from ``start``:
    those of the start's position class (a class never changes), counted exactly by a
    walk over the holes; every position where the board has no classes."""
    if not has_classes(shape):
        return math.comb(shape.size, pegs)
    # ways[(k, cls)]: subsets of the holes seen so far with k pegs and class cls
    ways = {(0, (0,) * len(position_class(shape, 0))): 1}
    for h in range(shape.size):
        add = hole_class(shape, h)
        nxt = dict(ways)
        for (k, cls), n in ways.items():
            if k < pegs:
                key = (k + 1, tuple(a ^ b for a, b in zip(cls, add)))
                nxt[key] = nxt.get(key, 0) + n
        ways = nxt
    return ways.get((pegs, position_class(shape, start)), 0)


def _bounds(shape: Shape, start: int, symmetries: int) -> list[int]:
    # level k: the positions of the start's class with k pegs fewer, divided by the symmetries
    n = start.bit_count()
    return [level_bound(shape, start, n - k) // symmetries + 1 for k in range(n)]


def _stage_bytes(shape: Shape, bounds: list[int], stage_cap: int) -> int:
    # all the children a level can have (one per jump of each position), up to stage_cap
    return min(stage_cap, WIDE_ENTRY_BYTES * len(shape.jumps) * max(bounds))


def estimate_bytes(shape: Shape, start: int, symmetries: int, keep_positions: bool,
                   stage_cap: int = STAGE_CAP) -> int:
    """Bytes the run may need at most, from :func:`level_bound` divided by the symmetry
    group: two sets of tables (the level being built and the level before; a table
    keeps the memory of the largest level it held), each at most 6 slots of 24 bytes
    a position of the largest level (sized for half load, doubled when a level
    outgrows it, the old table living on while copied), the children staged (all a
    level can have, at most ``stage_cap``, shared by the threads), and every level's
    positions when kept."""
    bounds = _bounds(shape, start, symmetries)
    tables = 2 * 6 * WIDE_SLOT_BYTES * max(bounds)
    return tables + _stage_bytes(shape, bounds, stage_cap) + (KEY_BYTES * sum(bounds) if keep_positions else 0)


def _group(shape: Shape, masks: list[int], reduced: bool) -> list[tuple[int, ...]]:
    if not reduced:
        return [tuple(range(shape.size))]
    return [p for p in shape.symmetries if all(shape.map_mask(p, m) == m for m in masks)]


class _LevelSet:
    """One level: the tables of its partitions, read as one."""

    def __init__(self, tables):
        self.tables = tables
        self.n = sum(t.n for t in tables)

    def total_count(self):
        return sum(t.total_count() for t in self.tables)

    def keys_array(self) -> np.ndarray:
        return np.concatenate([t.keys_array() for t in self.tables])

    def counts_arrays(self):
        lo, hi = zip(*(t.counts_arrays() for t in self.tables))
        return np.concatenate(lo), np.concatenate(hi)


class _Run:
    """Level-by-level expansion with a memory budget, a deadline, threads and Ctrl-C.

    Two sets of tables take turns: the level being expanded and the level being built;
    the set of level k-1 is cleared and reused for level k+1."""

    def __init__(self, shape: Shape, group, threads: int, budget: int, deadline: float | None, stage_bytes: int):
        E = _enum()
        self.E = E
        self.shape = shape
        perms = np.array(group[1:], dtype=np.int32).reshape(-1, shape.size)
        jumps = np.array(shape.jumps, dtype=np.int32).reshape(-1, 3)
        self.moves = E.Moves(jumps, perms, shape.size)
        self.threads = threads
        self.part_bits = threads.bit_length() - 1
        self.budget = budget
        self.deadline = deadline
        # stages start small and grow, up to their share of stage_bytes, as levels need
        self.stage_cap = max(stage_bytes // threads, MIN_STAGE)
        self.stages = [E.Stage(MIN_STAGE) for _ in range(threads)]
        self.per_parent = 4.0   # children per position in the last expansion
        self.held = 0           # bytes of the levels kept
        self.peak = 0
        self.tables = []        # every table alive (both sets)

    def canonical(self, mask: int) -> int:
        return self.moves.canonical(mask)

    def room(self) -> int:
        room = self.budget - self.held - self.staged() - sum(t.nbytes for t in self.tables)
        if room <= 0:
            raise _Stop(Reason.MEMORY_LIMIT, f"stopped: the memory budget of {self.budget / 2**30:.2f} GiB is used up")
        return room

    def note(self) -> None:
        self.peak = max(self.peak, self.held + self.staged() + sum(t.nbytes for t in self.tables))

    def staged(self) -> int:
        return sum(st.nbytes for st in self.stages)

    def grow_stage(self, st, nbytes: int) -> bool:
        # Enlarge a stage towards nbytes, within its cap and the budget.
        nbytes = min(nbytes, self.stage_cap)
        if nbytes <= st.nbytes or nbytes - st.nbytes > self.room() or not st.grow(nbytes):
            return False
        self.note()
        return True

    def region_bits(self, expect: int, counted: bool) -> int:
        # regions of about REGION_BYTES, as many as the stages' buckets allow
        table = 2 * expect * (SLOT_BYTES if counted else KEY_BYTES)
        most = min(self.E.MAX_BUCKETS, min(st.blocks for st in self.stages) // 4).bit_length() - 1 - self.part_bits
        return max(0, min(most, (max(table // REGION_BYTES, 1) - 1).bit_length()))

    def levels(self, start: int, counted: bool, depth: int):
        """Yield (k, level, work of level k-1's expansion) for k = 0..depth."""
        E, P = self.E, self.threads
        try:
            try:
                cur = E.from_keys(np.array([self.canonical(start)], dtype=np.uint64), counted,
                                  max(self.room(), 1 << 20), self.part_bits)
            except MemoryError:
                raise _Stop(Reason.MEMORY_LIMIT, f"stopped: the start does not fit in the memory budget of "
                                            f"{self.budget / 2**30:.1f} GiB") from None
            self.tables = list(cur)
            yield 0, _LevelSet(cur), None
            spare = []
            pool = ThreadPoolExecutor(max_workers=P) if P > 1 else None
            try:
                growth = 4.0
                for k in range(1, depth + 1):
                    works = [E.Work() for _ in range(P)]
                    # the next level is about as large as this one times the last growth
                    expect = int(sum(t.n for t in cur) * max(1.0, growth)) // P
                    words = 1 if not counted else 3 if any(t.wide for t in cur) else 2
                    children = sum(t.n for t in cur) * self.per_parent
                    for st in self.stages:  # room for the level's children, if the cap allows
                        self.grow_stage(st, int(8 * words * children * 1.2) // P)
                    rb = self.region_bits(expect, counted)
                    spare = self._clear(spare, counted, expect, rb)
                    for st in self.stages:
                        st.reset(self.part_bits + rb, words)
                    self._expand(cur, spare, works, pool)
                    if any(t.overflow for t in spare) or any(w.overflow for w in works):
                        raise PegsolverError("a solution count passed 2**128; the board is too large to count")
                    growth = sum(t.n for t in spare) / max(sum(t.n for t in cur), 1)
                    self.per_parent = max(sum(w.children for w in works) / max(sum(w.nodes for w in works), 1), 1.0)
                    cur, spare = spare, cur
                    level = _LevelSet(cur)
                    yield k, level, _Total(works)
                    if level.n == 0:
                        return
            finally:
                if pool is not None:
                    pool.shutdown(wait=True)
        finally:
            self.tables = []

    def _clear(self, tables, counted: bool, expect: int, rb: int) -> list:
        # The tables of level k-1, emptied for level k+1 (new ones at first).
        E, P = self.E, self.threads
        over = _Stop(Reason.MEMORY_LIMIT, f"stopped: a table for {expect:,} positions does not fit in "
                                     f"the memory budget of {self.budget / 2**30:.1f} GiB")
        if not tables:
            share = self.room() // P
            try:
                tables = [E.Level(counted, share, expect, self.part_bits, rb) for _ in range(P)]
            except MemoryError:
                raise over from None
            self.tables += tables
        else:
            for t in tables:
                t.budget = max(self.room() // P + t.nbytes, t.nbytes)
                if not t.clear(expect, rb):
                    raise over
        self.note()
        return tables

    def _expand(self, cur, nxt, works, pool) -> None:
        # Every thread expands its own table of the level chunk by chunk into its stage;
        # when a stage fills up (and at the end) every thread merges its partition's
        # children from all stages, and the stages are emptied.
        E, P = self.E, self.threads
        pos = [0] * P
        ends = [t.slots_used for t in cur]
        while True:
            todo = [t for t in range(P) if pos[t] < ends[t]]
            his = {t: min(pos[t] + CHUNK_SLOTS, ends[t]) for t in todo}
            reached = self._parallel(pool, [(E.generate, self.moves, cur[t], pos[t], his[t], self.stages[t],
                                             works[t]) for t in todo])
            full = False
            for t, r in zip(todo, reached):
                if r < his[t] and not self.grow_stage(self.stages[t], 2 * self.stages[t].nbytes):
                    full = True   # the stage is at its cap: merge what is staged
                pos[t] = r
            done = all(pos[t] >= ends[t] for t in range(P))
            if full or done:
                fits = self._parallel(pool, [(E.insert, nxt[p], self.stages, p) for p in range(P)])
                for st in self.stages:
                    st.reset(st.bucket_bits, st.entry_words)
                self.note()
                if not all(fits):
                    raise _Stop(Reason.MEMORY_LIMIT, f"stopped: a level outgrew the memory budget of "
                                                f"{self.budget / 2**30:.1f} GiB")
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise _Stop(Reason.TIME_LIMIT, "stopped by the time limit")
            if done:
                return

    @staticmethod
    def _parallel(pool, calls) -> list:
        if pool is None:
            return [f(*args) for f, *args in calls]
        futures = [pool.submit(f, *args) for f, *args in calls]
        try:
            return [f.result() for f in futures]
        finally:  # on Ctrl-C, let the (short) calls finish before unwinding
            wait(futures)


class _Total:
    """The counters of several threads' Work, summed."""

    def __init__(self, works):
        self.dead_ends = sum(w.dead_ends for w in works)
        self.games = sum(w.games for w in works)
        self.sequences = sum(w.sequences for w in works)


def analyse(board: Board, finish: int | None = None, reduced: bool = True, threads: int | None = None,
            memory_bytes: int | None = None, seconds: float | None = None, keep_positions: bool = True,
            progress=None, force: bool = False) -> Analysis:
    """Enumerate every position reachable from ``board``'s pegs, level by level.

    :param board: the start (at most 64 holes), or a variant name for its standard start.
    :param finish: a hole (index or name) for a one-peg finish: then the winning positions (those
        that can still end there) and the number of solutions ending there are computed,
        by a second enumeration from the complement of the finish when it differs from
        the start. None: forward only (solutions are still given per finish hole).
    :param reduced: count positions up to the board's symmetries that fix the start (and
        the finish); False counts every position.
    :param threads: threads expanding each level (a power of two; default: the CPUs
        available, rounded down to a power of two).
    :param memory_bytes: budget for the levels (default: 3/4 of the memory available
        now); a run that would pass it stops cleanly with ``stopped=Reason.MEMORY_LIMIT``.
    :param seconds: wall-clock limit (None: none); Ctrl-C also stops the run. A stopped
        run keeps the levels it finished.
    :param keep_positions: keep each level's positions (8 bytes each) for
        :meth:`Analysis.positions`; needed for the winning positions.
    :param progress: called as ``progress(k, positions)`` after each level.
    :param force: run even when :func:`estimate_bytes` is over the budget (the bound
        is loose: the English board peaks at about a third of it); the run still stops
        cleanly at the budget.
    :raises BoardTooLargeError: more than 64 holes, or an estimate over the memory
        budget (unless ``force``); the message gives both.
    :raises GoalError: a finish hole out of range, or a start with no pegs.
    :raises PegsolverError: bad threads, memory or seconds.
    :raises CoreMissingError: the compiled enumeration is not built.
    """
    board = resolve_board(board)
    shape = board.shape
    if isinstance(finish, str):
        finish = parse_hole(shape, finish)
    elif finish is not None and not isinstance(finish, bool) and hasattr(finish, "__index__"):
        finish = operator.index(finish)  # numpy integers too
    if shape.size > MAX_ENUM_HOLES:
        raise BoardTooLargeError(f"board {shape.name!r} has {shape.size} holes; the enumeration takes at most "
                                 f"{MAX_ENUM_HOLES}")
    start = board.pegs_mask
    if start == 0:
        raise GoalError("the start has no pegs")
    if finish is not None and not (isinstance(finish, int) and not isinstance(finish, bool)
                                   and 0 <= finish < shape.size):
        raise GoalError(f"finish must be a hole index from 0 to {shape.size - 1}, not {finish!r}")
    threads = default_threads() if threads is None else threads
    if (isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS
            or threads & (threads - 1)):
        raise PegsolverError(f"threads must be a power of two from 1 to {MAX_THREADS}, not {threads!r}")
    budget = memory_bytes if memory_bytes is not None else available_memory() * 3 // 4
    if isinstance(budget, bool) or not isinstance(budget, int) or not (1 << 20) <= budget <= MAX_MEMORY_BYTES:
        raise PegsolverError(f"memory budget must be a whole number of bytes from 1 MiB to 1 PiB, "
                             f"not {memory_bytes!r}")
    _check_seconds(seconds)
    t0 = time.monotonic()
    masks = [start] if finish is None else [start, 1 << finish]
    group = _group(shape, masks, reduced)
    # staged children may take a quarter of the budget, up to STAGE_CAP
    stage_cap = min(budget // 4, STAGE_CAP)
    need = estimate_bytes(shape, start, len(group), keep_positions, stage_cap)
    if need > budget and not force:
        raise BoardTooLargeError(
            f"board {shape.name!r} from vacancy {' '.join(hole_name(shape, h) for h in board.vacancies()) or 'none'} "
            f"may need up to {need / 2**30:,.1f} GiB to enumerate "
            f"(positions of the start's class per peg count, divided by the symmetries kept "
            f"({len(group)}), in the tables of two levels and the staged children), "
            f"over the budget of {budget / 2**30:,.1f} GiB; "
            f"pass force=True (--force) to try anyway: the run stops cleanly at the budget")
    run = _Run(shape, group, threads, budget, t0 + seconds if seconds else None,
               _stage_bytes(shape, _bounds(shape, start, len(group)), stage_cap))
    result = Analysis(board.with_pegs(start), finish, len(group), threads)
    depth = start.bit_count() - 1
    dead_ends, sequences, keys = [], [], []
    last = None
    try:
        with _interrupt_guard():
            for k, level, work in run.levels(start, True, depth):
                if work is not None:  # the expansion of level k-1 found its dead ends
                    dead_ends.append(work.dead_ends)
                    result.games += work.games
                if level.n == 0:
                    break
                # the next level's total is what its parents passed on (no pass over its table)
                sequences.append(level.total_count() if work is None else work.sequences)
                if keep_positions:
                    keys.append(_kept(run, level))
                result.levels.append(Level(k, start.bit_count() - k, level.n, 0, sequences[-1]))
                if progress:
                    progress(k, level.n)
                last = level
            if len(result.levels) == depth + 1:  # one peg left: every position is a dead end
                dead_ends.append(last.n)
                result.games += sequences[-1]
                _finishes(result, group, last)
            # the backward pass must not hold the last forward tables outside the budget
            level = last = None
            if finish is not None and keep_positions:
                _meet(result, run, start, finish, keys, depth)
    except _Stop as stop:
        result.stopped, result.message = stop.reason, stop.message
    except KeyboardInterrupt:
        result.stopped, result.message = Reason.INTERRUPTED, "interrupted by Ctrl-C"
    result.levels = [Level(lv.jumps, lv.pegs, lv.positions, dead_ends[i] if i < len(dead_ends) else None,
                           lv.sequences, lv.winning) for i, lv in enumerate(result.levels)]
    if finish is not None and not result.stopped:
        result.solutions = result.finishes.get(finish, 0)
    if result.stopped:  # partial sums would read as final figures
        result.games = None
        result.finishes = {}
    result._positions = keys
    result.seconds = time.monotonic() - t0
    result.peak_bytes = run.peak
    if not result.stopped:
        result.message = f"complete: {len(result.levels)} levels, {result.total:,} positions"
    return result


def _check_seconds(seconds) -> None:
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not 0 < seconds < math.inf):
        raise PegsolverError(f"time limit must be a positive, finite number of seconds, not {seconds!r}")


def _kept(run: _Run, level) -> np.ndarray:
    arr = np.sort(level.keys_array())
    run.held += arr.nbytes
    run.note()
    if run.held > run.budget:
        raise _Stop(Reason.MEMORY_LIMIT, f"stopped: the levels kept so far pass the memory budget of "
                                    f"{run.budget / 2**30:.1f} GiB (keep_positions=False keeps none)")
    return arr


def _finishes(result: Analysis, group, last) -> None:
    # One-peg classes of the last level: a class of orbit size m holding T sequences
    # gives T / m solutions for each hole in it.
    keys = last.keys_array()
    lo, hi = last.counts_arrays()
    for key, a, b in zip(keys.tolist(), lo.tolist(), hi.tolist()):
        hole = key.bit_length() - 1
        orbit = {p[hole] for p in group}
        total = a | (b << 64)
        for h in orbit:
            result.finishes[h] = total // len(orbit)


def _meet(result: Analysis, run: _Run, start: int, finish: int, keys, depth: int) -> None:
    # Backward levels: forward from the complement of the finish (complement duality).
    # A finish in another position class than the start has no winning position at all.
    full = run.shape.full_mask
    dual = full & ~(1 << finish)
    shape = run.shape
    if has_classes(shape) and position_class(shape, start) != position_class(shape, 1 << finish):
        back = []
    elif dual == 0:  # a one-hole board: the only backward position is the empty board
        back = [np.zeros(1, dtype=np.uint64)]
    elif dual == start and len(keys) == depth + 1:
        back = keys
    else:
        back = []
        for _, level, _ in run.levels(dual, False, depth):
            if level.n == 0:
                break
            back.append(_kept(run, level))
    winning = []
    for k in range(len(keys)):
        j = depth - k
        if j < len(back):
            mask = run.E.complement_members(run.moves, keys[k], back[j])
            winning.append(keys[k][mask])
        else:
            winning.append(np.empty(0, dtype=np.uint64))
    result._winning = winning
    result.levels = [Level(lv.jumps, lv.pegs, lv.positions, lv.dead_ends, lv.sequences, len(winning[i]))
                     for i, lv in enumerate(result.levels)]


class _interrupt_guard:
    """Make sure Ctrl-C raises KeyboardInterrupt in the main thread during the run."""

    def __enter__(self):
        self.old = None
        if threading.current_thread() is threading.main_thread():
            self.old = signal.getsignal(signal.SIGINT)
            if self.old is not signal.default_int_handler:
                signal.signal(signal.SIGINT, signal.default_int_handler)
        return self

    def __exit__(self, *exc):
        if self.old is not None and self.old is not signal.default_int_handler:
            signal.signal(signal.SIGINT, self.old)
        return False


class AnalysisStopped(PegsolverError):
    """A whole-board run stopped before the end; ``reason`` is one of ``STOP_REASONS``."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


def solution_table(shape: Shape | Board | str, threads: int | None = None, memory_bytes: int | None = None,
                   seconds: float | None = None, progress=None, force: bool = False) -> dict[tuple[int, int], int]:
    """Number of solutions of every single-vacancy -> single-peg problem of a board.

    :returns: ``{(vacancy, finish): solutions}`` for every pair of holes (0: unsolvable).
        Vacancies that a symmetry maps onto one already counted are not enumerated again.
    :param progress: called as ``progress(vacancy)`` before each enumeration.
    :raises AnalysisStopped: a run stopped (memory, time, Ctrl-C); ``reason`` says which.
    :raises PegsolverError: a time limit that is not a positive, finite number of seconds.
    Other errors as :func:`analyse`.
    """
    if not isinstance(shape, Shape):
        shape = resolve_board(shape).shape
    _check_seconds(seconds)
    table: dict[tuple[int, int], int] = {}
    deadline = time.monotonic() + seconds if seconds else None
    for v in range(shape.size):
        if (v, 0) in table:
            continue
        if progress:
            progress(v)
        left = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        a = analyse(Board(shape, shape.full_mask & ~(1 << v)), threads=threads, memory_bytes=memory_bytes,
                    seconds=left, keep_positions=False, force=force)
        if a.stopped:
            raise AnalysisStopped(f"the table stopped at vacancy {hole_name(shape, v)} ({a.message}); "
                                  f"{len(table) // shape.size} "
                                  f"of {shape.size} vacancies were done", a.stopped)
        for p in shape.symmetries:
            if (p[v], 0) not in table:
                for f in range(shape.size):
                    table[(p[v], p[f])] = a.finishes.get(f, 0)
    return table
