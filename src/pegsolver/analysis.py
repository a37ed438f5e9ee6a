"""Whole-board analysis: every position reachable from a start, level by level.

Level k holds the positions after k jumps (k fewer pegs than the start), each kept once
per symmetry class (the board symmetries that fix the start, and the finish when one is
given and in the start's position class; none with ``reduced=False``). Each class carries the number of jump sequences
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

import os
import time
from collections.abc import Callable

from .engine import level_memory as memory
from .engine.core import enum_sizes
from .engine.enumeration import Analysis, Level, SolutionCounts
from .engine.level_counts import count_levels
from .engine.level_memory import (
    STAGE_CAP,
    default_threads,
    estimate_bytes,
    level_bound,
    level_bounds,
    stage_bytes,
)
from .engine.levels import STOP_REASONS, LevelRun, Perm, symmetry_group
from .engine.limits import (
    MIB,
    PIB,
    Limit,
    check_callables,
    check_flags,
    check_memory,
    check_seconds,
    check_threads,
    size_text,
)
from .engine.outcome import Reason
from .engine.partitioned import PartitionedRun
from .errors import BoardTooLargeError, GoalError, PegsolverError
from .model.board import Board
from .model.geometry import Shape
from .model.goal import plural, require_pegs
from .model.notation import hole_name, parse_hole
from .model.numbers import as_whole
from .proofs.classes import fixed_by_count
from .solver import resolve_board, resolve_position

MAX_WORKERS = 256   # Dask worker processes a run starts here at most
WORKERS_PER_CPU = 4  # and at most this many a CPU: 100 on 2 CPUs took 133 s to start, then timed out

__all__ = ["Analysis", "AnalysisStopped", "Level", "Limit", "STOP_REASONS", "SolutionCounts", "analyse",
           "default_threads", "estimate_bytes", "level_bound", "solution_counts"]


def enum_limit(limit: Limit | None, threads: int | None, memory_bytes: int | None, seconds: float | None,
               no_nodes: str | None = None) -> Limit:
    """One Limit from ``limit`` or the keyword arguments, checked for an enumeration: threads
    a power of two, memory from 1 MiB to 1 PiB (default: 3/4 of the memory available now).

    :param no_nodes: the caller's name, when it takes no node limit (a whole-board
        enumeration expands every position of a level: a node limit would be ignored).
    :raises PegsolverError: a value out of range, ``limit`` not a Limit, a part given both
        in ``limit`` and as a keyword, or a node limit where ``no_nodes`` says none is taken.
    """
    Limit.check(limit)
    limit = limit or Limit()
    if no_nodes and limit.nodes is not None:
        raise PegsolverError(f"{no_nodes} takes no node limit (Limit(nodes={limit.nodes})): it enumerates "
                             f"every position of each level; bound it by seconds or memory_bytes")
    for name, given, inside in (("threads", threads, limit.threads), ("memory_bytes", memory_bytes,
                                limit.memory_bytes), ("seconds", seconds, limit.seconds)):
        if given is not None and inside is not None:
            raise PegsolverError(f"{name} is given both in limit and as a keyword; give it once")
    threads = limit.threads if threads is None else check_threads(threads)
    seconds = limit.seconds if seconds is None else check_seconds(seconds)
    budget = limit.memory_or(memory.available_memory() * 3 // 4) if memory_bytes is None else memory_bytes
    budget = check_memory(budget, low=MIB, high=PIB)
    return Limit(limit.nodes, seconds, budget, threads or memory.default_threads(), cancel=limit.cancel)


def analyse(board: Board | str, finish: int | str | None = None, reduced: bool = True, threads: int | None = None,
            memory_bytes: int | None = None, seconds: float | None = None, keep_positions: bool = True,
            progress: Callable[[int, int], None] | None = None, force: bool = False,
            limit: Limit | None = None, spill: str | os.PathLike[str] | None = None, resume: bool = False,
            workers: int | None = None, cluster: str | None = None, positions_only: bool = False,
            on_step: Callable[[int, str, int, int, float], None] | None = None) -> Analysis:
    """Enumerate every position reachable from ``board``'s pegs, level by level.

    :param board: the start (at most 64 holes), or a variant name for its standard start.
    :param finish: a hole (index or name) for a one-peg finish: then the winning positions (those
        that can still end there) and the number of solutions ending there are computed,
        by a second enumeration from the complement of the finish when it differs from
        the start. None: forward only (solutions are still given per finish hole).
    :param reduced: count positions up to the board's symmetries that fix the start (and
        the finish, unless out of its position class); False counts every position.
    :param limit: threads, memory and seconds (:class:`~pegsolver.Limit`; a node limit is
        refused). ``threads``, ``memory_bytes`` and ``seconds`` give the same one by one:
        threads expanding each level (a power of two; default: the CPUs available, rounded
        down to a power of two); the memory budget in bytes of the levels (default: 3/4 of
        the memory available now), at which a run stops cleanly with
        ``stopped=Reason.MEMORY_LIMIT``; a wall-clock limit in seconds. Ctrl-C or the limit's
        Cancel (``Reason.CANCELLED``) stops it too. A stopped run keeps the levels it finished.
    :param keep_positions: keep each level's positions (8 bytes each) for
        :meth:`Analysis.positions`; needed for the winning positions.
    :param progress: called as ``progress(k, positions)`` after each level.
    :param on_step: called as ``on_step(k, step, done, total, seconds)`` (``seconds`` since the step
        began) as partitions of an out-of-core or Dask step finish (``"expanding"`` level k - 1,
        ``"merging"`` level k), and as each forward level k meets its backward one (``"winning"``).
    :param spill: a directory for out-of-core levels (partitions stored compressed there,
        the memory budget kept in RAM); also the run's checkpoint.
    :param resume: continue the run stored in ``spill`` from its last finished level
        (the same board, start, symmetries and pegsolver version; else SpillError).
    :param workers: run the partitions on a Dask LocalCluster of this many worker processes
        started here (one thread each; ``threads`` is then not used); ``cluster``: on the Dask
        scheduler at this address (``tcp://HOST:8786``) instead.
    :param positions_only: keep no counts (8 bytes a position, not 16 to 24; none on disk):
        levels and dead ends only, no solutions or games; not with a finish.
    :param force: kept for scripts; changes nothing (every run starts, whatever
        :func:`estimate_bytes` says, and stops cleanly before a level that cannot fit).
    :raises BoardTooLargeError: more than 64 holes.
    :raises GoalError: a finish hole out of range, or a start with no pegs.
    :raises PegsolverError: a flag not a bool, progress or on_step not a function; bad threads,
        memory, seconds, workers (1 to MAX_WORKERS), spill or cluster, workers and cluster
        both, or a node limit; a memory budget below a first stage a thread (1 MiB, more for
        boards of over 127 jumps) and 1 MiB for the tables, or (with no cluster) past this
        machine's memory.
    :raises SpillError: a spill directory that is not writable, or (to resume) holds no
        run or another board's or version's.
    :raises ClusterError, CoreMissingError: a cluster that does not answer, Dask missing; no compiled enumeration.
    """
    _check_places(resume, spill, workers, cluster)
    check_flags(reduced=reduced, keep_positions=keep_positions, force=force, positions_only=positions_only)
    check_callables(progress=progress, on_step=on_step)
    budget_given = memory_bytes is not None or (isinstance(limit, Limit) and limit.memory_bytes is not None)
    limit = enum_limit(limit, threads, memory_bytes, seconds, no_nodes="analyse")
    board, finish = check_problem(board, finish, positions_only, limit, workers, cluster)
    shape, start = board.shape, board.pegs_mask
    threads, memory_bytes = limit.threads, limit.memory_bytes
    assert threads is not None and memory_bytes is not None  # enum_limit fills both in
    t0 = time.monotonic()
    # a finish no position reaches (another position class) fixes no symmetry: counts only forward
    fixed = fixed_by_count(shape, start, finish)
    group = symmetry_group(shape, fixed, reduced)
    stage_cap = min(memory_bytes // 4, STAGE_CAP)  # staged children: a quarter of the budget at most
    # every run starts: the bound is loose; the run stops cleanly before a level that cannot fit
    bound = estimate_bytes(shape, start, len(group), keep_positions, stage_cap)
    deadline = t0 + limit.seconds if limit.seconds else None
    result = Analysis(board.with_pegs(start), finish, len(group), threads, bound_bytes=bound,
                      budget_bytes=memory_bytes, positions_only=positions_only)
    if limit.cancel is not None and limit.cancel.is_set():   # set already: no run (a cluster takes seconds)
        result.stopped, result.message = Reason.CANCELLED, "stopped by a cancel before the start"
    else:
        run = make_run(shape, group, limit, deadline, keep_positions, spill, resume, workers, cluster,
                       stage_bytes(shape, level_bounds(shape, start, len(group)), stage_cap), finish, budget_given)
        run.on_step, run.cancel = on_step, limit.cancel
        result.budget_bytes = run.budget   # a cluster's own when none was given
        _count(result, run, keep_positions, progress)
        result.peak_bytes = run.peak
    return _settle(result, t0)


def _settle(result: Analysis, t0: float) -> Analysis:
    # the totals a run's end gives: final ones, or none when the forward levels were not all made
    if result.finish is not None and (not result.stopped or result.forward_complete):
        result.solutions = result.finishes.get(result.finish, 0)
    if result.stopped and not result.forward_complete:  # partial sums would read as final figures
        result.games = None
        result.finishes = {}
    result.seconds = time.monotonic() - t0
    if not result.stopped:
        result.message = f"complete: {plural(len(result.levels), 'level')}, {plural(result.total, 'position')}"
    return result


def _check_places(resume: object, spill: object, workers: object, cluster: object) -> None:
    # where a run goes, checked as the command line checks its flags
    if not isinstance(resume, bool):
        raise PegsolverError(f"resume is True or False, not {resume!r}: give the directory as spill=DIR, resume=True")
    if spill is not None and (not isinstance(spill, (str, os.PathLike)) or not os.fspath(spill).strip()):
        raise PegsolverError(f"spill is a directory (a str or os.PathLike), not {spill!r}")
    if workers is not None and cluster is not None:
        raise PegsolverError("workers starts a cluster here and cluster joins one: give one of them")
    if workers is not None:
        check_workers(workers)
    if cluster is not None and (not isinstance(cluster, str) or not cluster.strip()):
        raise PegsolverError(f"cluster is a scheduler's address like 'tcp://HOST:8786', not {cluster!r}")


def check_workers(workers: object, name: str = "workers") -> int:
    """A number of Dask worker processes to start on this machine: a whole number from 1 to
    MAX_WORKERS, and at most WORKERS_PER_CPU for each CPU this process may use (they share
    the CPUs, so more only slows their start: each process imports Dask).

    :raises PegsolverError: anything else; the message names ``name`` (``--workers`` on the command line).
    """
    count = as_whole(workers)
    if count is None or not 1 <= count <= MAX_WORKERS:
        raise PegsolverError(f"{name} must be a whole number from 1 to {MAX_WORKERS}, not {workers!r}")
    cpus = memory.usable_cpus()
    if count > WORKERS_PER_CPU * cpus:
        raise PegsolverError(f"{name} {count} is more than {WORKERS_PER_CPU} worker processes a CPU, and this "
                             f"process may use {plural(cpus, 'CPU')} (at most {WORKERS_PER_CPU * cpus} workers): "
                             "they share the CPUs, so more only slow the start; a cluster (--cluster, cluster=) "
                             "runs on more machines")
    return count


def _check_budget(budget: int, threads: int, shape: Shape, here: bool, unit: str) -> None:
    # at least a first stage a thread (``unit``: a Dask worker runs one) and the first
    # levels' tables; on this machine (``here``), no more than it has
    if here:
        memory.check_fits_here(budget, f"a memory budget of {size_text(budget)}")
    stage = memory.first_stage_bytes(shape)
    least = threads * stage + memory.MIN_STAGE
    if budget < least:
        raise PegsolverError(f"a memory budget of {size_text(budget)} is below the {size_text(least)} that "
                             f"an enumeration of {shape.name!r} on {plural(threads, unit)} needs at least "
                             f"(a stage of {size_text(stage)} a {unit}, and the tables)")


def check_problem(board: Board | str, finish: int | str | None, positions_only: bool = False,
                  limit: Limit | None = None, workers: int | None = None,
                  cluster: str | None = None) -> tuple[Board, int | None]:
    """The start (read once) and the finish hole of an enumeration, checked as :func:`analyse`
    checks them, so that a caller can refuse bad input before its own work (the command
    line's memory note). With ``limit``, its memory budget (3/4 of the memory available
    when it has none) is checked too, for its threads, or ``workers`` or ``cluster``.
    :raises: as :func:`analyse` for these arguments."""
    board = resolve_position(board)
    shape = board.shape
    hole = finish_hole(shape, finish)
    if positions_only and hole is not None:
        raise PegsolverError("a positions-only run counts no solutions: give a finish or positions_only=True, "
                             "not both")
    if shape.size > enum_sizes().max_holes:
        raise BoardTooLargeError(f"board {shape.name!r} has {shape.size} holes; the enumeration takes at most "
                                 f"{enum_sizes().max_holes}")
    require_pegs(shape, board.pegs_mask)
    if limit is not None:   # a trial's too small budget got the note "it will likely stop" first
        full = enum_limit(limit, None, None, None, no_nodes="analyse")
        assert full.memory_bytes is not None and full.threads is not None   # enum_limit fills both in
        _check_budget(full.memory_bytes, full.threads, shape, cluster is None, "worker" if workers or cluster
                      else "thread")
    return board, hole


def _count(result: Analysis, run: LevelRun, keep_positions: bool, progress: Callable[[int, int], None] | None) -> None:
    # the run's levels into result, and what an out-of-core run stored; the run let go after
    try:
        count_levels(result, run, keep_positions, progress)
    finally:
        run.close()
    result.level_stats = getattr(run, "level_stats", [])
    result.disk_bytes = getattr(run, "disk_peak", 0)
    result.workers = getattr(run, "nworkers", 0)


def finish_hole(shape: Shape, finish: int | str | None) -> int | None:
    """A one-peg finish of ``shape`` as a hole index: by name, or by index (a Python or
    numpy integer); None stays None.

    :raises GoalError: anything else, or an index off the board.
    :raises UnknownHoleError: a name that is no hole of the board.
    """
    if isinstance(finish, str):
        finish = parse_hole(shape, finish)
    elif finish is not None:
        index = as_whole(finish)   # numpy integers too; None for anything else
        if index is None or not 0 <= index < shape.size:
            raise GoalError(f"finish must be a hole index from 0 to {shape.size - 1}, not {finish!r}")
        finish = index
    return finish


def make_run(shape: Shape, group: list[Perm], limit: Limit, deadline: float | None, keep_positions: bool,
             spill: str | os.PathLike[str] | None, resume: bool, workers: int | None, cluster: str | None,
             stage: int, finish: int | None, budget_given: bool = True) -> LevelRun:
    """The engine for a run: tables in memory (the default), partitions on disk (``spill``),
    or partitions on a Dask cluster (``workers`` or ``cluster``; without ``budget_given``, a
    cluster at an address takes its workers' memory as the budget)."""
    assert limit.threads is not None and limit.memory_bytes is not None
    if workers is not None or cluster is not None:
        from .engine.cluster import DaskRun
        return DaskRun(shape, group, limit.memory_bytes, deadline, workers=workers, address=cluster, spill=spill,
                       resume=resume, keep_levels=keep_positions, board_name=shape.name, finish=finish,
                       budget_given=budget_given)
    if spill is not None:
        return PartitionedRun(shape, group, limit.threads, limit.memory_bytes, deadline, spill=os.fspath(spill),
                              resume=resume, keep_levels=keep_positions, board_name=shape.name, finish=finish)
    if resume:
        raise PegsolverError("resume needs the spill directory of the run to resume")
    return LevelRun(shape, group, limit.threads, limit.memory_bytes, deadline, stage)


class AnalysisStopped(PegsolverError):
    """A whole-board run stopped before the end; ``reason`` is one of ``STOP_REASONS``."""

    def __init__(self, message: str, reason: str, partial: SolutionCounts | None = None):
        super().__init__(message)
        self.reason = reason
        self.partial = partial   # solution_counts: the vacancies finished before the stop

    def __reduce__(self) -> tuple[type[AnalysisStopped], tuple[str, str, SolutionCounts | None]]:
        # pickled with its reason (a process pool sends a worker's exception back so)
        return type(self), (str(self), self.reason, self.partial)


def solution_counts(shape: Shape | Board | str, threads: int | None = None, memory_bytes: int | None = None,
                   seconds: float | None = None, progress: Callable[[int], None] | None = None, force: bool = False,
                   limit: Limit | None = None) -> SolutionCounts:
    """Number of solutions of every single-vacancy -> single-peg problem of a board.

    :returns: a :class:`SolutionCounts`, a dict: ``result[(vacancy, finish)]`` solutions for every
        pair of holes (0: unsolvable), with its text and JSON.
        Vacancies that a symmetry maps onto one already counted are not enumerated again.
    :param progress: called as ``progress(vacancy)`` before each enumeration.
    :raises AnalysisStopped: a run stopped (memory, time, Ctrl-C, a cancel); ``reason`` says which, and
        ``partial`` holds the vacancies counted before it.
    :raises PegsolverError: a time limit that is not a positive, finite number of seconds, or
        ``progress`` not a function or None.
    :raises GoalError: a board of one hole, where a vacancy leaves no peg.
    Other errors as :func:`analyse`.
    """
    if not isinstance(shape, Shape):
        shape = resolve_board(shape).shape
    check_callables(progress=progress)
    if shape.size < 2:
        raise GoalError(f"board {shape.name!r} has 1 hole: a table of solution counts needs at least 2 "
                        "(the vacancy and a peg)")
    limit = enum_limit(limit, threads, memory_bytes, seconds, no_nodes="solution_counts")
    counts = SolutionCounts(shape)
    deadline = time.monotonic() + limit.seconds if limit.seconds else None
    for v in range(shape.size):
        if (v, 0) in counts:
            continue
        if progress:
            progress(v)
        left = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        a = analyse(Board(shape, shape.full_mask & ~(1 << v)), keep_positions=False, force=force,
                    limit=limit.replace(seconds=left))
        if a.stopped:
            raise AnalysisStopped(f"the solution counts stopped at vacancy {hole_name(shape, v)} ({a.message}); "
                                  f"{len(counts) // shape.size} "
                                  f"of {shape.size} vacancies were done", a.stopped, counts)
        for p in shape.symmetries:
            if (p[v], 0) not in counts:
                for f in range(shape.size):
                    counts[(p[v], p[f])] = a.finishes.get(f, 0)
    return counts


def __getattr__(name: str) -> object:
    if name == "solution_table":  # the old name, before "table" kept one meaning
        import warnings
        warnings.warn("pegsolver.analysis.solution_table is now solution_counts", DeprecationWarning, stacklevel=2)
        return solution_counts
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
