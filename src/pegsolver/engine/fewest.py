"""``Goal.fewest()``: the fewest pegs a start can be reduced to, with the proof.

Every jump removes one peg, so a start that can reach k pegs can reach every count
between k and its own: "k pegs anywhere is impossible" settles every smaller count too.
The answer is therefore the smallest k whose "k pegs anywhere" is solvable, and its proof
is that k - 1 pegs is impossible. The position classes give a first bound at once (the
French centre start cannot end with one peg, so it starts at two); then a search for k
pegs either finds them, or exhausts every reachable position. An exhaustive depth-first
search also meets every dead end, and the fewest pegs reachable always lie at one (a
position with a jump left leads to fewer), so its closest dead end is the answer.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from ..model.board import Board
from ..model.geometry import Jump
from ..model.goal import Goal, plural
from .outcome import Reason, Stats
from .search import Run
from .solution import Solution, empty_stats, unsolved


def solve_fewest(board: Board, run: Run) -> Solution:
    """The fewest pegs ``board`` can be reduced to: a solved :class:`Solution` whose jumps
    end there, proved minimal; or, stopped by a limit, what was proved.

    :param run: how to search each peg count (strategy, limits, backend, proofs); the
        limits bound all the searches together.
    """
    t0 = time.perf_counter()
    goal = Goal.fewest()
    n = board.peg_count
    total = empty_stats(run.strategy, run.backend)
    proof = ""
    k = 1
    while True:
        sub = _remaining(run, total, t0)
        if sub is None:
            reason = Reason.TIME_LIMIT if run.limit.seconds and time.perf_counter() - t0 >= run.limit.seconds \
                else Reason.NODE_LIMIT
            return _stopped(board, goal, total, t0, reason, k, proof, None)
        answer = sub.solve(board, Goal.anywhere(k))
        total = _add(total, answer.stats)
        if answer.solved:
            why = (f"{plural(k - 1, 'peg')} cannot be reached: {proof}" if k > 1 else "one peg is the least possible")
            return _done(board, goal, answer.jumps, total, t0, f"{plural(k, 'peg')} is the fewest; {why}")
        if answer.reason is Reason.EXHAUSTED and answer.closest:
            left = n - len(answer.closest)
            return _done(board, goal, answer.closest, total, t0,
                         f"{plural(left, 'peg')} is the fewest: the search went through every position "
                         f"reachable from the start, and none has fewer pegs")
        if not answer.reason.proves_impossible:
            return _stopped(board, goal, total, t0, answer.reason, k, proof, answer)
        proof, k = answer.explanation, k + 1


def _remaining(run: Run, total: Stats, t0: float) -> Run | None:
    # the caller's limits less what the earlier peg counts spent (None: nothing left)
    left = run.limit.after(total.nodes, time.perf_counter() - t0)
    return None if left is None else replace(run, limit=left)


def _add(total: Stats, s: Stats) -> Stats:
    return replace(s, tests=total.tests + s.tests, nodes=total.nodes + s.nodes,
                   dead_ends=total.dead_ends + s.dead_ends, table_hits=total.table_hits + s.table_hits,
                   pagoda_prunes=total.pagoda_prunes + s.pagoda_prunes, runs=total.runs + s.runs)


def _done(board: Board, goal: Goal, jumps: Sequence[Jump], total: Stats, t0: float, explanation: str) -> Solution:
    stats = replace(total, seconds=time.perf_counter() - t0)
    return Solution(board.with_pegs(board.pegs_mask), goal, True, Reason.SOLVED, list(jumps), stats, explanation)


def _stopped(board: Board, goal: Goal, total: Stats, t0: float, reason: Reason, k: int, proof: str,
             answer: Solution | None) -> Solution:
    # what is proved (fewer than k impossible), the best finish found, and what ran
    known = f"fewer than {plural(k, 'peg')} is impossible ({proof}); " if k > 1 else ""
    best = answer.closest if answer is not None else []
    found = (f"the best finish found leaves {plural(board.peg_count - len(best), 'peg')}; " if best else "")
    text = f"{known}{found}{reason.cause} stopped the search for {plural(k, 'peg')}"
    text += f": {answer.explanation}" if answer is not None and answer.explanation else "; nothing more proved"
    stopped = unsolved(board, goal, reason, replace(total, seconds=time.perf_counter() - t0), text)
    return replace(stopped, jumps=list(best)) if best else stopped  # replace() replays the jumps
