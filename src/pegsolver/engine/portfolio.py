"""The ``auto`` strategy: the proofs, then a portfolio of searches with growing budgets.

No single search order suits every board: depth-first search in one fixed jump order
solves the English board in a thousand nodes and stalls for minutes on triangle 11, which
the guided search solves at once; only the beam solves diamond 41. So ``auto`` runs the
members below round after round, cheapest first, each with a node budget that doubles every round (the
classic schedule for restarting deterministic searches of unknown length: the total work
is at most a constant times the work of the member that answers with the smallest
budget):

- ``symmetry`` in each static jump order (or only the one asked for), forward, and in
  table order backward (by complement duality, for a finish that names its holes);
- ``guided``, forward and backward, with larger budgets;
- ``beam``, forward and backward, its width doubling every round from 500 (its work grows
  with the width);
- ``symmetry`` in a random jump order, a new order at every restart, with the budgets of
  Luby's universal sequence (M. Luby, A. Sinclair, D. Zuckerman, "Optimal speedup of Las
  Vegas algorithms", Information Processing Letters 47, 1993), since each restart is a
  fresh random try. Its seeds are fixed, so a run is reproducible.

A member that finishes within its budget settles the problem: a solution, or a proof
(every depth-first member is exhaustive, and a beam that never cut a level is too). As the
budgets grow without bound, some member always finishes, so ``auto`` is complete: the
exhaustive search comes last by itself. The first member to settle the problem answers;
``Stats.member`` names it, and the counters sum the work of every run.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace

from ..model.board import Board
from ..model.geometry import Jump
from ..model.goal import Goal, plural
from .compile import ORDERS
from .outcome import Reason
from .search import Run, dual, from_dual
from .solution import Solution, empty_stats, unsolved
from .stopping import interrupt_name

BASE_NODES = 20_000      # a weight-1 member's budget in round 0
BEAM_FIRST_WIDTH = 500   # the beam's width in round 0
BEAM_MAX_WIDTH = 1 << 22  # wider beams need gigabytes; past this the beam drops out
RANDOM_SEED = 1          # the random orders' seeds are RANDOM_SEED + restart number


@dataclass(frozen=True)
class Member:
    """One search of the portfolio: a core strategy, a jump order, a direction, and its
    share of each round's node budget (``weight`` times the round's base)."""

    strategy: str
    order: str | None = None
    backward: bool = False
    weight: int = 1
    random_order: bool = False

    @property
    def name(self) -> str:
        words = [self.strategy]
        if self.random_order:
            words.append("random order")
        elif self.order:
            words.append(f"order {self.order}")
        if self.backward:
            words.append("backward")
        return " ".join(words)


def members(goal: Goal, order: str | None = None, backward: bool = False) -> list[Member]:
    """The portfolio for ``goal``, in the order each round runs it.

    :param order: only this static order for the static-order members (default: all).
    :param backward: only the backward members (the caller asked for backward search).
    """
    named = goal.finish is not None
    orders = [order] if order else list(ORDERS)
    forward = [Member("guided", weight=4), Member("beam")]
    forward += [Member("symmetry", o, weight=3 if order else 1) for o in orders]
    forward.append(Member("symmetry", random_order=True))
    back = [Member("guided", backward=True, weight=2), Member("beam", backward=True),
            Member("symmetry", order or "table", backward=True)] if named else []
    # Each round runs its cheapest members first (a stable sort: forward before backward);
    # the beam, whose work grows with its width, last.
    chosen = back if backward else forward + back
    return sorted(chosen, key=lambda m: (m.strategy == "beam", m.weight))


def luby(i: int) -> int:
    """Term ``i`` (from 1) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, ..."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


@dataclass(frozen=True)
class Progress:
    """Where the portfolio stands, given to ``solve(progress=...)`` before each run:
    the member about to run, the round, the runs, nodes and seconds so far, and the fewest
    pegs of a dead end met so far (None before any). A search by moves gives one every
    quarter second or so (``by_moves`` True): what it is making as ``member``, round 0,
    the positions it expanded as ``nodes``."""

    member: str
    round: int
    runs: int
    nodes: int
    seconds: float
    fewest_left: int | None
    by_moves: bool = False


@dataclass
class Tally:
    """Work summed over the portfolio's runs."""

    tests: int = 0
    nodes: int = 0
    dead_ends: int = 0
    table_hits: int = 0
    pagoda_prunes: int = 0
    runs: int = 0
    table_entries: int = 0  # the largest of any run (each run has its own table)
    table_bytes: int = 0
    fewest_left: int | None = None  # the fewest pegs of a dead end any run met
    closest: list[Jump] = field(default_factory=list)  # the jumps to it (forward runs only)

    def add(self, answer: Solution) -> None:
        s = answer.stats
        if answer.closest:
            left = answer.start.peg_count - len(answer.closest)
            if self.fewest_left is None or left < self.fewest_left:
                self.fewest_left, self.closest = left, answer.closest
        self.tests += s.tests
        self.nodes += s.nodes
        self.dead_ends += s.dead_ends
        self.table_hits += s.table_hits
        self.pagoda_prunes += s.pagoda_prunes
        self.runs += 1
        self.table_entries = max(self.table_entries, s.table_entries)
        self.table_bytes = max(self.table_bytes, s.table_bytes)


def solve_auto(board: Board, goal: Goal, run: Run, backward: bool = False) -> Solution:
    """Run the portfolio on a problem the proofs did not settle.

    :param run: the caller's settings; its limit bounds all the runs together (nodes
        summed, seconds of wall time), its order and beam width bound the members'.
    :returns: the first member's answer that settles the problem, with ``stats.member``
        naming it; or, stopped by a limit or Ctrl-C, an unsolved answer that says what ran.
    """
    t0 = time.perf_counter()
    tally = Tally()
    widest: dict[str, int] = {}  # member name -> the largest budget or width it ran with
    try:
        return _portfolio(board, goal, run, backward, t0, tally, widest)
    except KeyboardInterrupt:  # between two runs (in one, the core stops itself)
        return _stopped(board, goal, run, tally, t0, Reason.INTERRUPTED, widest)


def _portfolio(board: Board, goal: Goal, run: Run, backward: bool, t0: float, tally: Tally,
               widest: dict[str, int]) -> Solution:
    limit = run.limit
    plan = members(goal, run.order if isinstance(run.order, str) else None, backward)
    # a start with no vacancy has no dual (its complement is empty): forward members only
    dual_problem = dual(board, goal) if goal.finish is not None and board.vacancies() else None
    if dual_problem is None:
        plan = [m for m in plan if not m.backward] or [Member("symmetry")]
    beam_cap = min(run.beam_width, BEAM_MAX_WIDTH) if run.beam_width else BEAM_MAX_WIDTH
    dropped: set[Member] = set()
    n_jumps = len(board.shape.jumps)
    rnd = 0
    while True:
        live = [m for m in plan if m not in dropped]
        if not live:  # every member dropped out (beams over memory): nothing else to try
            return _stopped(board, goal, run, tally, t0, Reason.MEMORY_LIMIT, widest)
        for m in live:
            budget: int | None = BASE_NODES * m.weight * (luby(rnd + 1) if m.random_order else 1 << rnd)
            width = None
            if m.strategy == "beam":
                width = min(BEAM_FIRST_WIDTH << rnd, beam_cap)
                if widest.get(m.name) == width:  # ran at its cap already
                    dropped.add(m)
                    continue
                budget = None  # the width bounds a beam's work
            left = limit.after(tally.nodes, time.perf_counter() - t0)  # the caller's limits bound all runs
            if left is None:
                ran_out = Reason.NODE_LIMIT if limit.nodes is not None and tally.nodes >= limit.nodes \
                    else Reason.TIME_LIMIT
                return _stopped(board, goal, run, tally, t0, ran_out, widest)
            if left.nodes is not None:
                budget = left.nodes if budget is None else min(budget, left.nodes)
            if run.progress:
                run.progress(Progress(m.name, rnd, tally.runs, tally.nodes, time.perf_counter() - t0,
                                      tally.fewest_left))
            order = tuple(random.Random(RANDOM_SEED + rnd).sample(range(n_jumps), n_jumps)) \
                if m.random_order else m.order
            member_run = replace(run, strategy=m.strategy, order=order, beam_width=width or run.beam_width,
                                 limit=left.replace(nodes=budget))
            if m.backward:
                assert dual_problem is not None  # backward members are planned only with a dual problem
                answer = from_dual(board, goal, member_run.search(*dual_problem))
            else:
                answer = member_run.search(board, goal)
            tally.add(answer)
            bound = width or budget
            assert bound is not None  # a beam has its width, every other member a node budget
            widest[m.name] = bound
            reason = answer.reason
            if reason.settles:  # solved, or exhausted: proved impossible
                return _answered(answer, m, tally, t0)
            if reason.ends_run:
                return _stopped(board, goal, run, tally, t0, reason, widest)
            if reason is Reason.MEMORY_LIMIT:
                dropped.add(m)
            # the node or time limit, or a beam run empty: the next round (or the deadline) decides
        rnd += 1


def _answered(answer: Solution, m: Member, tally: Tally, t0: float) -> Solution:
    stats = replace(answer.stats, strategy="auto", tests=tally.tests, nodes=tally.nodes,
                    dead_ends=tally.dead_ends, table_hits=tally.table_hits, pagoda_prunes=tally.pagoda_prunes,
                    seconds=time.perf_counter() - t0, member=m.name, runs=tally.runs)
    explanation = answer.explanation
    if not answer.solved:
        explanation = f"{explanation} (by the {m.name} search)"
    return replace(answer, stats=stats, explanation=explanation)


def _stopped(board: Board, goal: Goal, run: Run, tally: Tally, t0: float, reason: Reason,
             widest: dict[str, int]) -> Solution:
    stats = replace(empty_stats("auto", run.backend, run.symmetries(board, goal)),
                    tests=tally.tests, nodes=tally.nodes, dead_ends=tally.dead_ends, table_hits=tally.table_hits,
                    pagoda_prunes=tally.pagoda_prunes, seconds=time.perf_counter() - t0, runs=tally.runs,
                    table_entries=tally.table_entries, table_bytes=tally.table_bytes)
    tried = ", ".join(f"{name} to {'width' if name.startswith('beam') else 'nodes'} {n:,}"
                      for name, n in widest.items())
    cause = {Reason.INTERRUPTED: f"{interrupt_name()} stopped", Reason.MEMORY_LIMIT: "the memory budget stopped",
             Reason.CANCELLED: "a cancel stopped"}.get(reason, f"the {reason} stopped")
    ran = f"after {plural(tally.runs, 'search')} ({tried}) and {plural(tally.nodes, 'node')}" if tally.runs \
        else "before its first search"
    text = f"{cause} the portfolio {ran}; nothing proved"
    if reason in (Reason.TIME_LIMIT, Reason.NODE_LIMIT):
        text += "; a larger limit lets the budgets grow further"
    answer = unsolved(board, goal, reason, stats, text)
    answer.closest = tally.closest
    return answer
