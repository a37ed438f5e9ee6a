"""Beams by moves in the search core: short solutions on boards of up to 128 holes, and the
only search by moves past the 64 holes of the levels by moves (engine.move_levels).

Each level holds the positions one move (one or more consecutive jumps by one peg) further
from the start; past ``width`` positions a level keeps those with the fewest pegs plus
REGION_WEIGHT for each full Merson region (a full region needs a move of its own), and
drops positions a pagoda function rules out. The first level with the goal gives a
solution; when no level was cut before it, the levels were complete and it has the fewest
moves. Otherwise the lower bound is the Merson regions' (proofs.merson.region_bound).
Widths grow fourfold from FIRST_WIDTH until a limit, MOST_WIDTH or a proof. Beam search
is B. Lowerre's ("The Harpy Speech Recognition System", 1976); counting full regions for
moves is G. I. Bell's ("Solving Triangular Peg Solitaire", J. Integer Sequences 11, 2008).
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ..model.board import Board
from ..model.geometry import Jump, Shape
from ..model.goal import Goal, plural
from ..proofs.merson import merson_regions, region_bound
from ..proofs.pagoda import pruning_set
from .compile import compile_problem, goal_symmetries
from .core import search_codes
from .fewest_moves import Report
from .fewest_solve import INCUMBENT_SECONDS, STOPS, add_work, found_by
from .limits import Limit
from .move_beam import MOST_WIDTH, REGION_WEIGHT
from .moves_answer import MovesAnswer
from .outcome import STOP_MEANINGS, Reason, Stats
from .search import core_search
from .solution import Solution, unsolved

FIRST_WIDTH = 1 << 12     # positions a level of the first beam keeps
LEAST_WIDTH = 1 << 4      # and at least, when the memory takes no wider one
FIRST_SHARE = 1 / 3       # of the node and time limits for a search for any solution before the beams
DEFAULT_BEAM_BYTES = 4 << 30


@dataclass
class BeamRun:
    """One beam by moves: ``jumps`` a solution (empty if none) of ``moves`` moves;
    ``complete``: no level was cut before it ended, so ``moves`` is the fewest from this
    start (and no jumps: no solution at all); ``reason``: SOLVED, EXHAUSTED, BEAM (levels
    were cut and it ran out of positions) or the limit that stopped it; ``nodes``
    positions expanded, ``chains`` jumps followed in chains, ``nbytes`` its peak bytes,
    ``kept`` the positions its levels kept."""

    jumps: list[Jump]
    moves: int | None
    complete: bool
    reason: Reason
    nodes: int
    chains: int
    seconds: float
    nbytes: int
    kept: int


def region_matrix(shape: Shape, bits: np.ndarray | None, nholes: int) -> np.ndarray:
    """The Merson regions of ``shape`` as a (regions, nholes) int32 0/1 matrix, holes at
    ``bits`` (the core's hole numbering, see compile.on_grid) when given."""
    regions = merson_regions(shape)
    out = np.zeros((len(regions), nholes), dtype=np.int32)
    where = bits if bits is not None else np.arange(shape.size)
    for r, mask in enumerate(regions):
        out[r, [where[h] for h in range(shape.size) if mask >> h & 1]] = 1
    return out


def beam_once(board: Board, goal: Goal, width: int, limit: Limit) -> BeamRun:
    """One beam of ``width`` positions a level from ``board`` to ``goal`` (pagoda pruning
    when the goal names its finish), within ``limit`` (memory: the beam's levels and
    children, default DEFAULT_BEAM_BYTES)."""
    shape = board.shape
    pagodas = pruning_set(shape, goal.finish_mask()) if goal.finish is not None else ()
    problem = compile_problem(shape, board.pegs_mask, goal, "beam", pagodas, beam_width=width)
    out = core_search(shape, problem, limit, search_codes().strategy_moves, DEFAULT_BEAM_BYTES,
                      merson=region_matrix(shape, problem.bits, problem.nholes), merson_weight=REGION_WEIGHT)
    jumps = [shape.jumps[problem.order[j]] for j in out["path"]]
    reason = Reason.SOLVED if out["solved"] else STOP_MEANINGS[out["stop"]]
    return BeamRun(jumps, out["moves"] if out["solved"] else None, not out["cut"], reason, out["nodes"],
                   out["tests"], out["seconds"], out["table_bytes"], out["table_entries"])


def beam_fewest_moves(board: Board, goal: Goal, limit: Limit, starts: list[int] | None = None,
                      progress: Report | None = None, spent: int = 0) -> MovesAnswer:
    """The fewest moves from ``board`` (or from any of ``starts``, bitboards) to ``goal``
    that beams by moves find, and the fewest proved: ``jumps`` the best solution found
    (from ``start``, by the beam of ``beam_width``), ``lower_bound`` proved over all the
    starts; ``reason`` SOLVED when the solution meets the bound, EXHAUSTED when no start
    has a solution, else what stopped the beams: a limit, INTERRUPTED, or BEAM when the
    widths ran out. ``limit``'s memory (default DEFAULT_BEAM_BYTES) bounds each beam; until
    a beam fits in it, the first widths shrink fourfold (down to LEAST_WIDTH). ``progress``
    is told of each beam before it runs (see engine.fewest_moves.fewest_moves). ``spent``:
    nodes of ``limit.nodes`` an earlier search used (all of them: no beam runs)."""
    t0 = time.monotonic()
    shape, starts = board.shape, starts or [board.pegs_mask]
    finish = goal.finish_or_none()
    # each start's proved fewest moves: exact once a beam from it was complete (None: no solution)
    bound: dict[int, int | None] = {s: region_bound(shape, s, finish, goal.pegs) for s in starts}
    settled: set[int] = set()
    answer = MovesAnswer(Reason.BEAM, 0, start=starts[0], symmetries=len(goal_symmetries(shape, goal)))
    best: int | None = None   # the fewest moves found (0: a start is the goal)
    width, fitted = FIRST_WIDTH, False
    while width <= MOST_WIDTH and answer.reason is Reason.BEAM:
        todo = [s for s in starts if s not in settled]
        for k, s in enumerate(todo):
            left = _left(limit, answer.expanded + spent, t0)
            if progress is not None:
                progress(f"beam of {width:,} positions a level, start {k + 1} of {len(todo)}",
                         answer.expanded, time.monotonic() - t0)
            run = beam_once(board.with_pegs(s), goal, width, left) if left is not None else None
            if run is None:
                used = answer.expanded + spent
                answer.reason = Reason.NODE_LIMIT if limit.nodes is not None and used >= limit.nodes \
                    else Reason.TIME_LIMIT
                break
            answer.expanded += run.nodes
            answer.chains += run.chains
            answer.positions += run.kept
            answer.nbytes = max(answer.nbytes, run.nbytes)
            if run.reason is Reason.MEMORY_LIMIT and not fitted and width > LEAST_WIDTH:
                break   # no beam has fitted yet: a narrower one
            fitted = True
            if not (run.reason.is_limit or run.reason.ends_run):
                answer.beams.append((width, run.moves))
            if run.moves is not None and (best is None or run.moves < best):
                best, answer.jumps, answer.start, answer.beam_width = run.moves, run.jumps, s, width
            if run.complete and run.reason in (Reason.SOLVED, Reason.EXHAUSTED):
                settled.add(s)
                bound[s] = run.moves
            elif run.reason.is_limit or run.reason.ends_run:
                answer.reason = run.reason
                break
        found = [b for b in bound.values() if b is not None]
        answer.lower_bound = min(found) if found else 0
        if not found and len(settled) == len(starts):
            answer.reason = Reason.EXHAUSTED
        elif best is not None and best == answer.lower_bound:
            answer.reason = Reason.SOLVED
        width = width * 4 if fitted else width // 4
    answer.seconds = time.monotonic() - t0
    return answer


def _left(limit: Limit, expanded: int, t0: float) -> Limit | None:
    # what the limits leave for the next beam, None when nothing
    nodes = None if limit.nodes is None else limit.nodes - expanded
    seconds = None if limit.seconds is None else limit.seconds - (time.monotonic() - t0)
    if nodes is not None and nodes <= 0 or seconds is not None and seconds <= 0:
        return None
    return limit.replace(nodes=nodes, seconds=seconds)


def solve_by_beams(board: Board, goal: Goal, limit: Limit, stats: Stats,
                   incumbent: Callable[[Limit], Solution], progress: Report | None = None) -> Solution:
    """:func:`pegsolver.solve` with ``minimize="moves"`` where the levels by moves cannot
    go (over 64 holes). First ``incumbent`` (a search for any solution) with FIRST_SHARE of
    the node and time limits, at most INCUMBENT_SECONDS: a large board's first beams can
    take longer than a short limit, or die out, and the answer should still hold a
    solution. Then :func:`beam_fewest_moves` with the rest, for fewer moves. The answer
    is the solution with the fewest moves of the two, proved minimal only when it meets
    the lower bound. ``stats``: the run's so far, completed here."""
    first = limit.replace(nodes=None if limit.nodes is None else max(1, int(limit.nodes * FIRST_SHARE)),
                          seconds=min(INCUMBENT_SECONDS, (limit.seconds or math.inf) * FIRST_SHARE),
                          memory_bytes=None)
    found = incumbent(first)
    start = board.with_pegs(board.pegs_mask)
    finish = goal.finish_or_none()
    if found.reason is Reason.EXHAUSTED:   # proved: no solution at all
        return unsolved(board, goal, Reason.EXHAUSTED, add_work(stats, found.stats),
                        f"no sequence of jumps reaches the goal ({found.explanation})")
    if found.reason.ends_run:   # Ctrl-C or a cancel: the beams do not start
        bound = region_bound(board.shape, board.pegs_mask, finish, goal.pegs)
        return Solution(start, goal, False, found.reason, [], add_work(stats, found.stats),
                        f"stopped by {found.reason.cause} before the fewest moves were proved (every solution "
                        f"has at least {bound}, by the full Merson regions)", optimal=False, lower_bound=bound)
    rest = limit.replace(seconds=None if limit.seconds is None else max(1e-3, limit.seconds - found.stats.seconds))
    report = progress
    if progress is not None:   # the status goes on from the first search's nodes and seconds
        def report(doing: str, nodes: int, seconds: float) -> None:
            progress(doing, nodes + found.stats.nodes, seconds + found.stats.seconds)
    a = beam_fewest_moves(board, goal, rest, progress=report, spent=found.stats.nodes)
    stats = add_work(replace(stats, symmetries=a.symmetries, tests=a.chains, nodes=a.expanded, seconds=a.seconds,
                             runs=1, table_entries=a.positions, table_bytes=a.nbytes), found.stats)
    if a.reason is Reason.EXHAUSTED:
        return unsolved(board, goal, Reason.EXHAUSTED, stats, "no sequence of moves reaches the goal: "
                        "beams by moves whose levels were never cut ran out of positions")
    beams = f"a beam by moves ({a.beam_width:,} positions a level)"
    # the beams' solution, or the first search's when it has fewer moves (a.upper_bound: the beams')
    best, moves, by = a.jumps, a.upper_bound, beams
    if found.solved and (moves is None or len(found.moves) < moves):
        best, moves, by = found.jumps, len(found.moves), found_by(found.stats)
    if a.reason is Reason.SOLVED or moves == a.lower_bound:
        how = ("the start is the goal" if a.lower_bound == 0 else
               f"{by} found a solution of {plural(a.lower_bound, 'move')}, proved minimal: " +
               ("its levels were never cut before the goal"
                if best is a.jumps and a.reason is Reason.SOLVED
                and a.lower_bound > region_bound(board.shape, board.pegs_mask, finish, goal.pegs)
                else "as few as the lower bound (the full Merson regions of the start, or one move)"))
        return Solution(start, goal, True, Reason.SOLVED, best, stats, how, optimal=True,
                        lower_bound=a.lower_bound)
    why = "the widths ran out" if a.reason is Reason.BEAM else f"stopped by {STOPS.get(a.reason) or a.reason.cause}"
    ran = ", ".join(f"{w:,} ({'no solution' if m is None else plural(m, 'move')})" for w, m in a.beams) or "none"
    return Solution(start, goal, bool(best), a.reason, best, stats,   # solved, not proved minimal
                    f"{why} before the fewest moves were proved (every solution has at least {a.lower_bound}, "
                    f"by the full Merson regions){'; best solution found by ' + by if best else ''}; beams "
                    f"finished (positions a level, the solution's moves): {ran}", optimal=False,
                    lower_bound=a.lower_bound)
