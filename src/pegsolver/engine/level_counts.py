"""What a run of levels is counted for: each level's figures, the games, the solutions at
each one-peg finish, and the winning positions (those on a forward and a backward level
that meet: complement duality). engine.levels makes the levels."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..errors import Terminated
from ..proofs.classes import classes_differ
from .enumeration import Analysis, Level
from .levels import LevelRun, LevelSet, LevelStop, Perm
from .outcome import Reason
from .stopping import interrupt_guard, interrupt_name

if TYPE_CHECKING:
    from .levels import Keys


def count_finishes(result: Analysis, group: list[Perm], last: LevelSet) -> None:
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


def backward_levels(run: LevelRun, start: int, finish: int, keys: list[Keys], depth: int) -> list[Keys]:
    # Backward levels: forward from the complement of the finish (complement duality).
    # A finish in another position class than the start has no winning position at all.
    full = run.shape.full_mask
    dual = full & ~(1 << finish)
    shape = run.shape
    back: list[Keys]
    if classes_differ(shape, start, 1 << finish):
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
            back.append(run.keep(level))
    return back


def find_winning(result: Analysis, run: LevelRun, keys: list[Keys], back: list[Keys], depth: int) -> None:
    # each forward level meets the backward level of as many jumps to the finish
    winning: list[Keys] = []
    t0 = time.monotonic()
    for k in range(len(keys)):
        j = depth - k
        if (stop := run.stop_now()) is not None:   # a level's pass takes up to seconds
            raise stop
        if j < len(back):
            winning.append(run.meet(keys[k], back[j]))
        else:
            winning.append(np.empty(0, dtype=np.uint64))
        if run.on_step is not None:   # a trial's progress bar stood still through the pass (10 s on English)
            run.on_step(k, "winning", k + 1, len(keys), time.monotonic() - t0)
    result._winning = winning
    result.levels = [Level(lv.jumps, lv.pegs, lv.positions, lv.dead_ends, lv.sequences, len(winning[i]))
                     for i, lv in enumerate(result.levels)]


def count_levels(result: Analysis, run: LevelRun, keep_positions: bool,
                 progress: Callable[[int, int], None] | None = None) -> None:
    """Fill ``result`` (levels, games, finishes, winning positions) by running ``run`` from
    ``result.start`` to one peg; a stop (memory, time, Ctrl-C) keeps the levels finished and
    says why in ``result.stopped`` and ``result.message``."""
    start, finish = result.start.pegs_mask, result.finish
    counted = not result.positions_only
    depth = start.bit_count() - 1
    dead_ends: list[int] = []
    sequences: list[int | None] = []
    keys: list[Keys] = []
    games = 0  # jump sequences played until no jump is left
    level: LevelSet | None = None
    last: LevelSet | None = None
    forward = False   # every forward level finished: a stop after it leaves the totals final
    phase = ""        # what was being made after them
    try:
        with interrupt_guard():
            for k, level, work in run.levels(start, counted, depth):
                if work is not None:  # the expansion of level k-1 found its dead ends
                    dead_ends.append(work.dead_ends)
                    games += work.games
                if level.n == 0:
                    break
                # the next level's total is what its parents passed on (no pass over its table)
                sequences.append(None if not counted else level.total_count() if work is None else work.sequences)
                if keep_positions:
                    keys.append(run.keep(level))
                result.levels.append(Level(k, start.bit_count() - k, level.n, 0, sequences[-1]))
                if progress:
                    progress(k, level.n)
                last = level
            if last is not None and len(result.levels) == depth + 1:  # one peg left: every position is a dead end
                dead_ends.append(last.n)
                if counted:
                    games += sequences[-1] or 0
                    count_finishes(result, run.group, last)
            # the backward pass must not hold the last forward tables outside the budget
            level = last = None
            forward, phase = True, "the backward levels (from the finish's complement)"
            if finish is not None and keep_positions:
                back = backward_levels(run, start, finish, keys, depth)
                phase = "the winning pass"   # a trial's stop in the backward levels was told as in it
                find_winning(result, run, keys, back, depth)
    except LevelStop as stop:
        result.stopped, result.message = stop.reason, stop.message
    except KeyboardInterrupt as e:
        result.stopped = Reason.INTERRUPTED
        result.message = "stopped by SIGTERM" if isinstance(e, Terminated) else f"stopped by {interrupt_name()}"
    result.forward_complete = forward
    if result.stopped and forward:
        result.message += (f" in {phase}, after all {len(result.levels)} forward levels (positions, "
                           f"games and solutions are final; winning positions are not counted)")
    result.games = games if counted else None
    result.levels = [Level(lv.jumps, lv.pegs, lv.positions, dead_ends[i] if i < len(dead_ends) else None,
                           lv.sequences, lv.winning) for i, lv in enumerate(result.levels)]
    result._positions = keys
