"""solve(minimize="moves"): the searches by moves (engine.fewest_moves, and over 64 holes
the beams of engine.core_moves) answered as a Solution, with the best solution found
when a limit stops the proof."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from ..errors import BoardTooLargeError
from ..model.board import Board
from ..model.geometry import Jump
from ..model.goal import Goal
from ..model.notation import group_moves
from ..proofs.merson import region_bound
from .fewest_moves import (
    BEAM_HOLES,
    BEAM_SECONDS,
    MAX_HOLES,
    Report,
    count_finishes,
    fewest_moves,
    move_group,
)
from .limits import Limit
from .moves_answer import MovesAnswer
from .outcome import Reason, Stats
from .portfolio import Progress
from .solution import BEAM_MOVES_STRATEGY, MOVES_STRATEGY, Solution, empty_stats, unsolved
from .stopping import interrupt_name

STOPS = {Reason.NODE_LIMIT: "the node limit", Reason.TIME_LIMIT: "the time limit",
         Reason.MEMORY_LIMIT: "the memory budget"}   # and Reason.INTERRUPTED: interrupt_name()
INCUMBENT_SECONDS = 5.0         # at most, for any solution when a limit stops the proof and the beams find none
PROOF_SHARE = 2 / 3             # of the node and time limits for the proof; the beams get the rest
RESERVE_SHARE = 1 / 10          # of them, kept from the beams for a search for any solution if they find none


def any_solution(a: MovesAnswer, limit: Limit, incumbent: Callable[[Limit], Solution], stats: Stats,
                 found_text: str) -> tuple[list[Jump], str, Stats]:
    """When the searches by moves found no solution and were not interrupted: ``incumbent``
    (a search for any solution) within what ``limit`` leaves after ``a``, at most
    INCUMBENT_SECONDS. Returns its jumps (empty if none), the words saying who found them
    (``found_text`` unchanged when it did not run) and ``stats`` with its work added. When
    Ctrl-C, SIGTERM or a cancel stopped it, ``a.reason`` becomes that stop: the caller stops too."""
    if a.reason.ends_run or limit.nodes is not None and a.expanded >= limit.nodes:
        return [], found_text, stats
    # at least 0.1 s (the searches before may overrun their share a little), less under a shorter limit
    least = 0.1 if limit.seconds is None else min(0.1, limit.seconds * RESERVE_SHARE)
    rest = limit.replace(nodes=None if limit.nodes is None else limit.nodes - a.expanded,
                         seconds=min(INCUMBENT_SECONDS, max(least, (limit.seconds or math.inf) - a.seconds)),
                         memory_bytes=None)
    found = incumbent(rest)
    if found.reason.ends_run:   # a table of problems must not go on to the next
        a.reason = found.reason
    jumps = found.jumps if found.solved else []
    return jumps, f"; best solution found by {found_by(found.stats)}", add_work(stats, found.stats)


def found_by(stats: Stats) -> str:
    """Words naming a search for any solution, told apart from the beams by moves (a trial
    read the portfolio's beam member as one of those beams)."""
    return f"the {stats.member or stats.strategy} strategy's search for any solution (by jumps, not moves)"


def add_work(stats: Stats, f: Stats) -> Stats:
    """``stats`` with the work of a search for any solution (``f``) added; the table
    counters stay the searches by moves'."""
    return replace(stats, runs=stats.runs + f.runs, seconds=stats.seconds + f.seconds, nodes=stats.nodes + f.nodes,
                   tests=stats.tests + f.tests, dead_ends=stats.dead_ends + f.dead_ends,
                   pagoda_prunes=stats.pagoda_prunes + f.pagoda_prunes)


def solve_fewest_moves(board: Board, goal: Goal, limit: Limit, proofs: bool,
                       incumbent: Callable[[Limit], Solution],
                       progress: Callable[[Progress], None] | None = None) -> Solution:
    """:func:`pegsolver.solve` with ``minimize="moves"``: the proofs by class and pagoda
    first (when ``proofs``); over MAX_HOLES holes, beams by moves alone
    (engine.core_moves.solve_by_beams); else :func:`fewest_moves` with PROOF_SHARE of the
    node and time limits. If a limit stops it, beams by moves get the rest of the limits
    (see fewest_moves' ``beam``); if they find nothing, ``incumbent`` (a search for any
    solution) gets what is left, at most INCUMBENT_SECONDS, so that the answer holds the
    best solution found. ``progress`` gets a Progress every quarter second or so while
    levels or beams are made (``member``: what is being made; ``round`` 0).

    :raises BoardTooLargeError: more than BEAM_HOLES holes.
    """
    from .search import impossibility  # the proofs live beside the searches
    if board.shape.size > BEAM_HOLES:
        raise BoardTooLargeError(f"board {board.shape.name!r} has {board.shape.size} holes; the search by moves "
                                 f"takes at most {BEAM_HOLES} (the 128-bit search core)")
    count_finishes(board.shape, goal)   # a goal without a known finish is refused before the proofs
    stats = _stats_before_search(board, goal, "core")
    proof = impossibility(board, goal) if proofs else None
    if proof is not None:
        return unsolved(board, goal, proof[0], stats, proof=proof[1])

    def tell(what: str, nodes: int, seconds: float) -> None:
        if progress is not None:
            progress(Progress(what, 0, 1, nodes, seconds, None, by_moves=True))
    report: Report | None = tell if progress is not None else None
    if board.shape.size > MAX_HOLES:   # past the levels by moves: beams only
        from .core_moves import solve_by_beams  # it builds on this module's answers
        return solve_by_beams(board, goal, limit, stats, incumbent, report)
    share = limit.replace(nodes=None if limit.nodes is None else max(1, int(limit.nodes * PROOF_SHARE)),
                          seconds=None if limit.seconds is None else limit.seconds * PROOF_SHARE)
    # the beams get the rest less RESERVE_SHARE (with --seconds 5 the search for any solution got
    # 0.1 s after the beams, and answered none once in four where it takes 0.03 s)
    left = None if share.nodes is None or limit.nodes is None else \
        limit.nodes - share.nodes - int(limit.nodes * RESERVE_SHARE)
    seconds = None if share.seconds is None or limit.seconds is None else \
        limit.seconds - share.seconds - min(INCUMBENT_SECONDS, limit.seconds * RESERVE_SHARE)
    beam = None if left == 0 else Limit(nodes=left, seconds=seconds)   # --nodes 1: all for the proof
    a = fewest_moves(board, goal, share, beam=beam, progress=report)
    stats = replace(stats, symmetries=a.symmetries, tests=a.chains, nodes=a.expanded, seconds=a.seconds, runs=1,
                    table_entries=a.positions, table_bytes=a.nbytes)
    levels = (f"forward levels {', '.join(f'{n:,}' for n in a.forward)}; "
              f"backward {', '.join(f'{n:,}' for n in a.backward)}")
    if a.reason is Reason.SOLVED:
        how = (f"bidirectional breadth-first search by moves, met at {a.lower_bound}" if not a.beam_width else
               f"a beam by moves ({a.beam_width:,} positions a level) found a solution as short as the lower "
               f"bound proved after a limit stopped the search by moves ({bound_source(a)})")
        if a.pruned_to:
            passes = (f"{a.pruned_to} moves " if not a.pruned_from or a.pruned_from >= a.pruned_to else
                      f"{a.pruned_from} moves, then one more each time up to {a.pruned_to}, ")
            how = (f"after a limit stopped the search by moves, the search again with its levels pruned by the "
                   f"Merson regions to at most {passes}" + (f"met at {a.lower_bound}" if not a.beam_width
                   else f"found none, so the {a.lower_bound} moves a beam by moves ({a.beam_width:,} positions a "
                   f"level) found are the fewest"))
        return Solution(board.with_pegs(board.pegs_mask), goal, True, Reason.SOLVED, a.jumps, stats,
                        f"{how}: {levels}", optimal=True, lower_bound=a.lower_bound)
    if a.reason is Reason.EXHAUSTED:
        return unsolved(board, goal, Reason.EXHAUSTED, stats, f"no sequence of moves reaches the goal: {levels}")
    best, found_text = a.jumps, f"; best solution found by a beam by moves ({a.beam_width:,} positions a level)"
    if not best:
        best, found_text, stats = any_solution(a, limit, incumbent, stats, found_text)
    if best and len(group_moves(best)) == a.lower_bound:   # as few moves as proved possible: optimal
        return Solution(board.with_pegs(board.pegs_mask), goal, True, Reason.SOLVED, best, stats,
                        f"a solution found by search has as few moves as proved necessary ({bound_source(a)}): "
                        f"{levels}", optimal=True, lower_bound=a.lower_bound)
    beams = (f"; the beams after it were stopped by {_beam_stop(a.beam_stop, limit)}"
             if a.beam_stop in STOPS and a.beam_stop is not a.reason else "")
    # a solution found is the answer (solved); the reason says what stopped the proof of its moves
    return Solution(board.with_pegs(board.pegs_mask), goal, bool(best), a.reason, best, stats,
                    f"stopped by {STOPS.get(a.reason) or a.reason.cause} before the fewest moves were proved "
                    f"(every solution has at least {a.lower_bound}, {bound_source(a)}){found_text if best else ''}"
                    f"{beams}; "
                    f"{levels}",
                    optimal=False, lower_bound=a.lower_bound)


def bound_source(a: MovesAnswer) -> str:
    """Where ``a.lower_bound`` comes from, in words: the searches pruned by the Merson
    regions after the beams, the regions themselves, or the levels by moves (a trial
    could not tell which when the answer said "by its levels, or by the Merson regions")."""
    if a.deepened and a.deepened == a.lower_bound:
        return f"by searches pruned by the Merson regions that found none of {a.lower_bound - 1} moves or fewer"
    if a.regions_bound == a.lower_bound and a.regions_bound:
        return "by the Merson regions"
    return "by the levels by moves: no position is on both sides"


def interrupted_before_moves(board: Board, goal: Goal, backend: str) -> Solution:
    """The answer to Ctrl-C before the search by moves began (in the proofs): what the
    Merson regions prove at once, with the symmetries the search would have used."""
    stats = _stats_before_search(board, goal, backend)
    bound = 0 if goal.fewest_pegs else region_bound(board.shape, board.pegs_mask, goal.finish_or_none(), goal.pegs)
    sol = unsolved(board, goal, Reason.INTERRUPTED, stats,
                   f"stopped by {interrupt_name()} before the search by moves began (every solution has at "
                   f"least {bound}, by the Merson regions)")
    sol.optimal, sol.lower_bound = False, bound
    return sol


def _beam_stop(stop: Reason, limit: Limit) -> str:
    # what stopped the beams after the proof, in words: with no time limit given, their time is
    # their own share (fewest_moves' beam, BEAM_SECONDS), not "the time limit"
    if stop is Reason.TIME_LIMIT and limit.seconds is None:
        return (f"their share of the time (a quarter of the proof's, at least {BEAM_SECONDS:g} s; "
                "--seconds gives them the rest of its own)")
    return STOPS[stop]


def _stats_before_search(board: Board, goal: Goal, backend: str) -> Stats:
    # no work yet, and the symmetries the search would use (as solve() gives them)
    return empty_stats(_strategy(board), backend, len(move_group(board.shape, [board.pegs_mask], goal)))


def _strategy(board: Board) -> str:
    # the levels by moves up to MAX_HOLES holes, beams by moves past them
    return MOVES_STRATEGY if board.shape.size <= MAX_HOLES else BEAM_MOVES_STRATEGY
