"""Single-vacancy tables: for every start with one hole empty and every one-peg finish,
a solution or a proof that there is none.

Each pair is settled by the cheapest argument that works: position class, a pagoda
certificate, then search: a short guided search (finds most solutions fast), short
symmetry searches in four other jump orders, then the symmetry search with pagoda pruning
in table order, which either finds a solution or exhausts every position and so proves
none exists. Pairs that a board symmetry maps onto each other
are solved once; so are a pair and its dual: by complement duality (playing from S to F
is playing backward from the complement of F to the complement of S), vacancy v -> finish
f and vacancy f -> finish v stand or fall together, and one's jumps in reverse order are
the other's solution. Every mapped solution is replayed again.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .board import Board
from .geometry import Hole, Jump
from .goal import Goal
from .solver import Limit, Solution, solve

GUIDED_FIRST_SECONDS = 1.0
# Then short searches in other static orders: a solution one order misses for minutes
# another may find at once (French d3 -> d5: 4.4M nodes landing downward first, over a
# billion in table order).
ORDER_SECONDS = 2.0
PORTFOLIO = ("down", "up", "right", "left")
# One-letter marks for the printed table.
MARKS = {"solved": "S", "position class": "c", "pagoda": "p", "exhausted": "x"}


@dataclass
class Entry:
    """How one (vacancy, finish) pair was settled: ``reason`` is ``"solved"``,
    ``"position class"``, ``"pagoda"``, ``"exhausted"`` or a stop reason (``"time
    limit"`` etc., nothing proved); ``nodes`` and ``seconds`` are the work spent."""

    vacancy: Hole
    finish: Hole
    reason: str
    jumps: list[Jump] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    mapped_from: tuple[Hole, Hole] | None = None


def _known(shape, done: dict, v: Hole, f: Hole) -> Entry | None:
    """The entry for (v, f) derived from one already settled, by symmetry or duality."""
    n = shape.size
    for perm in shape.symmetries:
        inverse = {perm[h]: h for h in range(n)}
        for dual in (False, True):
            seen = done.get((perm[f], perm[v]) if dual else (perm[v], perm[f]))
            if seen is None or seen.reason not in MARKS:
                continue
            jumps = [Jump(inverse[j.from_hole], inverse[j.over], inverse[j.to_hole]) for j in seen.jumps]
            if dual:  # the same jumps in reverse order join the complements
                jumps = jumps[::-1]
            return Entry(v, f, seen.reason, jumps, mapped_from=(seen.vacancy, seen.finish))
    return None


def _settle(start: Board, goal: Goal, seconds: float | None) -> tuple[Solution, int]:
    """The answer for one pair and the nodes spent on it."""
    nodes = 0
    tries = [("guided", None, GUIDED_FIRST_SECONDS)] + [("symmetry", o, ORDER_SECONDS) for o in PORTFOLIO]
    for strategy, order, limit in tries:
        sol = solve(start, goal, strategy=strategy, limit=Limit(seconds=limit), order=order)
        nodes += sol.stats.nodes
        if sol.reason != "time limit":
            return sol, nodes
    sol = solve(start, goal, strategy="symmetry", limit=Limit(seconds=seconds))  # finds one or proves none
    return sol, nodes + sol.stats.nodes


def _replay(board: Board, v: Hole, f: Hole, jumps: list[Jump]) -> None:
    """Check a (possibly mapped) solution: legal jumps ending with one peg on f."""
    b = board.with_pegs(board.shape.full_mask & ~(1 << v))
    for j in jumps:
        b.push(j)  # raises IllegalJumpError on a bad mapping
    if b.pegs_mask != 1 << f:
        raise RuntimeError(f"internal error: the solution for vacancy {v} does not end on hole {f}")


def single_vacancy_table(board: Board, seconds_per_problem: float | None = 120.0,
                         progress: Callable[[int, int], None] | None = None) -> list[Entry]:
    """Settle every (single vacancy, single-peg finish) pair of ``board``'s shape.

    :param seconds_per_problem: time limit of the final search of one pair (None: none).
    :param progress: called as ``progress(done, total)`` after each pair.
    :returns: one :class:`Entry` per pair, vacancy-major, n_holes x n_holes of them; after
        Ctrl-C, the pairs settled so far and the interrupted one last.
    """
    shape = board.shape
    n = shape.size
    full = shape.full_mask
    done: dict[tuple[Hole, Hole], Entry] = {}
    out = []
    for v in range(n):
        for f in range(n):
            entry = _known(shape, done, v, f)
            if entry is None:
                t0 = time.perf_counter()
                sol, nodes = _settle(board.with_pegs(full & ~(1 << v)), Goal.at(f), seconds_per_problem)
                entry = Entry(v, f, sol.reason, sol.jumps, nodes, time.perf_counter() - t0)
            if entry.reason == "solved":
                _replay(board, v, f, entry.jumps)
            done[(v, f)] = entry
            out.append(entry)
            if progress:
                progress(len(out), n * n)
            if entry.reason == "interrupted":  # Ctrl-C ends the whole table
                return out
    return out
