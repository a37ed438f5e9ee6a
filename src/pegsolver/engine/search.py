"""One search of a checked problem (:class:`Run`): the up-front proofs, then the compiled
core (or the pure-Python reference), forward or on the dual problem."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..model.board import Board
from ..model.geometry import Shape
from ..model.goal import Goal
from ..proofs import pagoda
from ..proofs.obstacles import Proof, class_proof, pagoda_proof
from . import reference
from .compile import AUTO, DEFAULT_BEAM_WIDTH, STRATEGY_SPECS, Order, Problem, compile_problem, goal_symmetries
from .core import core_for, search_codes
from .limits import DEFAULT_SEARCH_BYTES, Limit
from .outcome import STOP_MEANINGS, Reason, Stats
from .reference import SearchResult
from .solution import Solution, empty_stats, unsolved
from .stopping import stop_in_import

if TYPE_CHECKING:
    from .portfolio import Progress


def impossibility(board: Board, goal: Goal) -> tuple[Reason, Proof] | None:
    """(reason, proof) when a position class or pagoda argument rules the problem out."""
    proof = class_proof(board, goal)
    if proof:
        return Reason.POSITION_CLASS, proof
    try:
        proof = pagoda_proof(board, goal)
    except ImportError as e:   # HiGHS loads on first use: solve() then answers the stop with what it has
        stop_in_import(e)
        raise
    return (Reason.PAGODA, proof) if proof else None


@dataclass(frozen=True)
class Run:
    """How to search, once ``solve``'s arguments are checked: the strategy, limits, backend,
    whether to use proofs, the static order and the beam width."""

    strategy: str
    limit: Limit
    backend: str = "core"
    proofs: bool = True
    order: Order | None = None
    beam_width: int | None = None  # None: DEFAULT_BEAM_WIDTH, or no cap for "auto"
    progress: Callable[[Progress], None] | None = None

    def solve(self, board: Board, goal: Goal, backward: bool = False) -> Solution:
        """The answer for a resolved, checked goal: proofs, then the search. The proofs'
        time (a linear program per finish) comes out of the search's time limit."""
        t0 = time.perf_counter()
        proof = impossibility(board, goal) if self.proofs else None
        if proof:  # a proof is stated for the problem as asked, not its dual
            stats = empty_stats(self.strategy, self.backend, self.symmetries(board, goal), backward)
            return unsolved(board, goal, proof[0], stats, proof=proof[1])
        left = self.limit.after(0, time.perf_counter() - t0)
        if left is None:
            stats = empty_stats(self.strategy, self.backend, self.symmetries(board, goal), backward)
            return unsolved(board, goal, Reason.TIME_LIMIT, stats,
                            "the time limit ran out during the proofs, before any search; nothing proved")
        run = self if left is self.limit else replace(self, limit=left)
        if run.strategy == AUTO:
            from .portfolio import solve_auto  # the portfolio runs this class's searches
            return solve_auto(board, goal, run, backward)
        if backward and board.pegs_mask != board.shape.full_mask:   # a full board has no dual (and no jump)
            dual_board, dual_goal = dual(board, goal)
            return from_dual(board, goal, run.search(dual_board, dual_goal))
        return run.search(board, goal)

    def symmetries(self, board: Board, goal: Goal) -> int:
        """Size of the symmetry group the strategy keys positions by (1: none)."""
        uses = self.strategy == AUTO or STRATEGY_SPECS[self.strategy].use_symmetry
        return len(goal_symmetries(board.shape, goal)) if uses else 1

    def search(self, board: Board, goal: Goal) -> Solution:
        """One search of the strategy, forward, without the up-front proofs (pagoda
        pruning still follows ``proofs``)."""
        shape = board.shape
        prune = self.proofs and goal.finish is not None and STRATEGY_SPECS[self.strategy].search != "seed"
        problem = compile_problem(shape, board.pegs_mask, goal, self.strategy,
                                  pagoda.pruning_set(shape, goal.finish_mask()) if prune else (), self.order,
                                  self.beam_width or DEFAULT_BEAM_WIDTH)
        limit = self.limit
        out: SearchResult
        if self.backend == "core":
            out = core_search(shape, problem, limit, problem.strategy_code, DEFAULT_SEARCH_BYTES)
        else:
            out = reference.search(problem, limit.nodes or 0, limit.seconds or 0.0, limit.halt)
        stats = Stats(
            strategy=self.strategy, backend=self.backend, symmetries=len(problem.perms) + 1,
            tests=out["tests"], nodes=out["nodes"], dead_ends=out["dead_ends"],
            table_hits=out["table_hits"], table_entries=out["table_entries"],
            table_bytes=out["table_bytes"], seconds=out["seconds"], pagoda_prunes=out["pagoda_prunes"])
        jumps = [shape.jumps[problem.order[j]] for j in out["path"]]
        closest = [shape.jumps[problem.order[j]] for j in out["best_path"]]
        reason = Reason.SOLVED if out["solved"] else STOP_MEANINGS[out["stop"]]
        return Solution(board.with_pegs(board.pegs_mask), goal, out["solved"], reason, jumps, stats,
                        reason.explanation, closest)


def core_search(shape: Shape, problem: Problem, limit: Limit, strategy: int, default_bytes: int,
                **extra: Any) -> SearchResult:
    """``problem`` run by the compiled core of ``shape``'s width as search code ``strategy``
    (core.search_codes()), within ``limit`` (memory: default_bytes unless set); ``extra``:
    more of the core's keyword arguments. Its "stop" is the stop's name, not its code."""
    found = core_for(shape.size, shape.name).search(
        problem.jumps, problem.slots, problem.perms, problem.start, problem.goal_holes, problem.goal_count,
        problem.nholes, strategy, problem.use_table, limit.nodes or 0, limit.seconds or 0.0,
        limit.memory_or(default_bytes), weights=problem.weights, iso_weight=problem.iso_weight,
        pagodas=problem.pagodas, thresholds=problem.thresholds, beam_width=problem.beam_width, halt=limit.halt,
        **extra)
    found["stop"] = search_codes().stops[found["stop"]]   # the core's stop code, by its name
    out: SearchResult = found
    return out


def dual(board: Board, goal: Goal) -> tuple[Board, Goal]:
    """The dual problem by complement duality: a jump sequence from S to F, read
    backward, leads from the complement of F to the complement of S (the goal must name
    its holes)."""
    full = board.shape.full_mask
    return (board.with_pegs(full & ~goal.finish_mask()),
            Goal.pattern(h for h in range(board.shape.size) if not board.pegs_mask >> h & 1))


def from_dual(board: Board, goal: Goal, answer: Solution) -> Solution:
    """The answer to the original problem from its dual's (jumps in reverse order)."""
    return Solution(board.with_pegs(board.pegs_mask), goal, answer.solved, answer.reason, answer.jumps[::-1],
                    replace(answer.stats, direction="backward"), answer.explanation)
