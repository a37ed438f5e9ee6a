"""Pure-Python reference search: an explicit backend and the oracle for the core.

It reads the same :class:`~pegsolver.engine.compile.Problem` and returns the same dict as the
compiled core, with the same counters: tests, nodes, dead ends and table hits agree
exactly whenever the core's table has room for every dead position (small boards).
Slow: use it on boards of a few dozen holes and short searches.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NotRequired, TypedDict

from .compile import Problem

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# The stops by the names the core gives its stop codes (core.search_codes().stops).
STOP_NONE, STOP_NODES, STOP_SECONDS, STOP_INTERRUPT, STOP_BEAM = "none", "nodes", "seconds", "interrupt", "beam"
STOP_CANCEL = "cancel"



def _set_bytes(keys: set[int]) -> int:
    # what Python holds for the dead-position set: its hash table and each int key
    return sys.getsizeof(keys) + sum(sys.getsizeof(k) for k in keys)


class SearchResult(TypedDict):
    """What one search returns, from the compiled core (``pegcore._search64.search``) and
    from this reference alike. Jumps are rows of :attr:`Problem.jumps`."""

    solved: bool
    stop: str                # the stop's name (outcome.STOP_MEANINGS); "none" when solved or exhausted
    path: list[int]          # the solution's jumps ([] unless solved)
    tests: int
    nodes: int
    dead_ends: int
    table_hits: int
    pagoda_prunes: int
    table_entries: int
    table_bytes: int
    table_replaced: int
    seconds: float
    best_pegs: int | None    # the fewest pegs of a dead end met (None for the beam, or none met)
    best_path: list[int]     # the jumps to that dead end
    moves: NotRequired[int | None]   # the compiled core only: the beam by moves' moves (None unless it)
    cut: NotRequired[bool]           # and whether a beam cut a level


BeamEntry = tuple[int, int, int, int]  # a position kept by the beam: (pegs, score, parent index, jump)


def _level_bytes(level: list[BeamEntry]) -> int:
    # what Python holds for a beam's level: the list, its tuples and their ints
    return sys.getsizeof(level) + sum(sys.getsizeof(e) + sum(sys.getsizeof(x) for x in e) for e in level)


class _Stop(Exception):
    pass


def search(problem: Problem, node_limit: int = 0, seconds: float = 0.0,
           halt: npt.NDArray[np.uint8] | None = None) -> SearchResult:
    """Run the search in Python; see ``pegcore._search64.search`` for the result keys and
    ``halt`` (another thread sets ``halt[0]`` to stop it; looked at with the clock).

    The beam strategy's memory is not bounded here (the core's is).
    """
    s = _Search(problem, node_limit, seconds, halt)
    start = sum(1 << int(h) for h in problem.start)
    solved = False
    try:
        run = {"seed": s.seed, "beam": s.beam}.get(problem.search, s.dfs)
        solved = run(start)
    except _Stop as e:
        s.stop = e.args[0]
    except KeyboardInterrupt:
        s.stop = STOP_INTERRUPT
    beam = problem.search == "beam"
    return {
        "solved": solved,
        "stop": s.stop,
        "path": s.path if solved else [],
        "tests": s.tests,
        "nodes": s.nodes,
        "dead_ends": s.dead_ends,
        "table_hits": s.table_hits,
        "pagoda_prunes": s.pagoda_prunes,
        "table_entries": s.entries if beam else len(s.dead),
        "table_bytes": s.beam_peak if beam else _set_bytes(s.dead),
        "table_replaced": 0,
        "seconds": time.monotonic() - s.t0,
        "best_pegs": None if beam else s.fewest_pegs,
        "best_path": [] if beam else s.fewest_path,
    }


class _Search:
    """One search: the problem's arrays as Python ints, the work counters, the path."""

    def __init__(self, problem: Problem, node_limit: int, seconds: float,
                 halt: npt.NDArray[np.uint8] | None = None) -> None:
        self.n = n = problem.nholes
        self.m2 = [(1 << int(f)) | (1 << int(o)) for f, o, _ in problem.jumps]  # from and over
        self.m3 = [a | (1 << int(t)) for a, (_, _, t) in zip(self.m2, problem.jumps)]  # and to
        self.slots = [[int(j) for j in row] for row in problem.slots]
        self.perms = [[int(x) for x in p] for p in problem.perms]
        self.goal_mask = sum(1 << int(h) for h in problem.goal_holes)
        self.goal_count = problem.goal_count
        self.weights = [int(w) for w in problem.weights]
        self.iso_weight = int(problem.iso_weight)
        self.pagodas = [([int(w) for w in row], int(t)) for row, t in zip(problem.pagodas, problem.thresholds)]
        self.beside = [0] * n  # the holes a peg on each hole could jump over
        for f, o, _ in problem.jumps:
            self.beside[int(f)] |= 1 << int(o)
        self.use_table = problem.use_table
        self.beam_width = problem.beam_width
        self.children: Callable[[int], Iterator[int]] = (
            self.by_score if problem.search == "guided" else self.in_table_order)
        self.node_limit = node_limit
        self.t0 = time.monotonic()
        self.deadline = self.t0 + seconds if seconds > 0 else None
        self.halt = halt
        self.dead: set[int] = set()
        self.path: list[int] = []
        self.tests = self.nodes = self.dead_ends = self.table_hits = self.pagoda_prunes = 0
        self.entries = 0  # positions the beam kept
        self.beam_held = 0   # bytes of the beam's levels kept, and the most they and a new level held
        self.beam_peak = 0
        self.stop = STOP_NONE
        self.fewest_pegs: int | None = None  # the fewest pegs of a dead end met, as the core keeps them
        self.fewest_path: list[int] = []     # and the jumps to it

    # ---- positions ---------------------------------------------------------------
    def reached(self, pegs: int) -> bool:
        return pegs == self.goal_mask if self.goal_mask else pegs.bit_count() == self.goal_count

    def canonical(self, pegs: int) -> int:
        best = pegs
        holes = range(self.n)
        for p in self.perms:
            img = 0
            for h in holes:
                if pegs >> h & 1:
                    img |= 1 << p[h]
            best = min(best, img)
        return best

    def below_a_pagoda(self, pegs: int) -> bool:
        for row, threshold in self.pagodas:
            if sum(w for h, w in enumerate(row) if pegs >> h & 1) < threshold:
                self.pagoda_prunes += 1
                return True
        return False

    def score(self, pegs: int) -> int:
        """The guided score: iso_weight per isolated peg plus the weights of the pegs."""
        beside, weights = self.beside, self.weights
        held = [h for h in range(self.n) if pegs >> h & 1]
        isolated = sum(1 for h in held if not pegs & beside[h])
        return self.iso_weight * isolated + sum(weights[h] for h in held)

    # ---- counting work -------------------------------------------------------------
    def visit(self) -> None:
        if self.node_limit and self.nodes >= self.node_limit:
            raise _Stop(STOP_NODES)
        if self.nodes % 1024 == 0:
            if self.halt is not None and self.halt[0]:
                raise _Stop(STOP_CANCEL)
            if self.deadline and time.monotonic() >= self.deadline:
                raise _Stop(STOP_SECONDS)
        self.nodes += 1

    def dead_end(self, pegs: int) -> None:
        self.dead_ends += 1
        if self.fewest_pegs is None or pegs.bit_count() < self.fewest_pegs:
            self.fewest_pegs, self.fewest_path = pegs.bit_count(), list(self.path)

    def legal(self, pegs: int) -> list[int]:
        """Every legal jump, each one tested."""
        m2, m3 = self.m2, self.m3
        self.tests += len(m2)
        return [j for j in range(len(m2)) if pegs & m3[j] == m2[j]]

    def in_table_order(self, pegs: int) -> Iterator[int]:
        # Tests each jump as the loop reaches it, as the core's dfs does.
        m2, m3 = self.m2, self.m3
        for j in range(len(m2)):
            self.tests += 1
            if pegs & m3[j] == m2[j]:
                yield j

    def by_score(self, pegs: int) -> Iterator[int]:
        # Tests every jump first; sorted() is stable, so ties keep jump-table order.
        m3 = self.m3
        yield from sorted(self.legal(pegs), key=lambda j: self.score(pegs ^ m3[j]))

    # ---- the strategies ------------------------------------------------------------------
    def dfs(self, pegs: int) -> bool:
        self.visit()
        if pegs.bit_count() <= self.goal_count:
            return self.reached(pegs)
        if self.below_a_pagoda(pegs):
            return False
        key = self.canonical(pegs) if self.use_table else pegs
        if self.use_table and key in self.dead:
            self.table_hits += 1
            return False
        moved = False
        for j in self.children(pegs):
            moved = True
            self.path.append(j)
            if self.dfs(pegs ^ self.m3[j]):
                return True
            self.path.pop()
        if not moved:
            self.dead_end(pegs)
        if self.use_table:
            self.dead.add(key)
        return False

    def seed(self, pegs: int) -> bool:
        self.visit()
        m2, m3 = self.m2, self.m3
        moved = False
        for h in range(self.n):
            if not pegs >> h & 1:
                continue
            for j in self.slots[h]:
                self.tests += 1
                if j >= 0 and pegs & m3[j] == m2[j]:
                    moved = True
                    self.path.append(j)
                    if self.seed(pegs ^ m3[j]):
                        return True
                    self.path.pop()
        if not moved:
            self.dead_end(pegs)
        return self.reached(pegs)

    def beam(self, start: int) -> bool:
        # Level by level; within a level the first child generated of each symmetry
        # class stands for it, and a cut keeps the lowest scores (ties: first generated).
        depth = start.bit_count() - self.goal_count
        if depth <= 0:
            self.nodes += 1
            return self.reached(start)
        levels: list[list[BeamEntry]] = [[(start, 0, 0, -1)]]
        cut = False
        while len(levels) < depth:
            kids = self._beam_children(levels[-1])
            if len(kids) > self.beam_width:
                cut = True
                best = sorted(range(len(kids)), key=lambda k: (kids[k][1], k))[:self.beam_width]
                kids = [kids[k] for k in sorted(best)]
            self.entries += len(kids)
            self.beam_held += _level_bytes(kids)
            if not kids:
                self.stop = STOP_BEAM if cut else STOP_NONE
                return False
            levels.append(kids)
        if self._beam_finish(levels):
            return True
        self.stop = STOP_BEAM if cut else STOP_NONE
        return False

    def _beam_children(self, level: list[BeamEntry]) -> list[BeamEntry]:
        """The next level: each class's first child generated, unless a pagoda prunes it."""
        kids: list[BeamEntry] = []
        seen: set[int] = set()
        for i, (pegs, _, _, _) in enumerate(level):
            self.visit()
            legal = self.legal(pegs)
            if not legal:
                self.dead_ends += 1
            for j in legal:
                child = pegs ^ self.m3[j]
                if self.below_a_pagoda(child):
                    continue
                key = self.canonical(child)
                if key in seen:
                    self.table_hits += 1
                    continue
                seen.add(key)
                kids.append((child, self.score(child), i, j))
        self.beam_peak = max(self.beam_peak, self.beam_held + _level_bytes(kids) + _set_bytes(seen))
        return kids

    def _beam_finish(self, levels: list[list[BeamEntry]]) -> bool:
        """Whether a jump from the last level reaches the goal; if so, the path to it."""
        for i, (pegs, _, _, _) in enumerate(levels[-1]):
            self.visit()
            legal = self.legal(pegs)
            if not legal:
                self.dead_ends += 1
            for j in legal:
                if self.reached(pegs ^ self.m3[j]):
                    self.path.append(j)
                    for level in reversed(levels[1:]):
                        self.path.append(level[i][3])
                        i = level[i][2]
                    self.path.reverse()
                    return True
        return False
