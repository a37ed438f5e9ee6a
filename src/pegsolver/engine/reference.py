"""Pure-Python reference search: an explicit backend and the oracle for the core.

It reads the same :class:`~pegsolver.compile.Problem` and returns the same dict as the
compiled core, with the same counters: tests, nodes, dead ends and table hits agree
exactly whenever the core's table has room for every dead position (small boards).
Slow: use it on boards of a few dozen holes and short searches.
"""
from __future__ import annotations

import time

from .compile import Problem

STOP_NONE, STOP_NODES, STOP_SECONDS, STOP_INTERRUPT, STOP_BEAM = 0, 1, 2, 3, 5
STRATEGY_SEED, STRATEGY_GUIDED, STRATEGY_BEAM = 0, 2, 3  # as in pegcore; everything else is the dfs


class _Stop(Exception):
    pass


def search(problem: Problem, node_limit: int = 0, seconds: float = 0.0) -> dict:
    """Run the search in Python; see ``pegcore._search64.search`` for the result keys.

    The beam strategy's memory is not bounded here (the core's is).
    """
    n = problem.nholes
    m2 = [(1 << int(f)) | (1 << int(o)) for f, o, _ in problem.jumps]
    m3 = [a | (1 << int(t)) for a, (_, _, t) in zip(m2, problem.jumps)]
    slots = [[int(j) for j in row] for row in problem.slots]
    perms = [[int(x) for x in p] for p in problem.perms]
    goal_mask = sum(1 << int(h) for h in problem.goal_holes)
    goal_count = problem.goal_count
    weights = [int(w) for w in problem.weights]
    iso_weight = int(problem.iso_weight)
    pagodas = [([int(w) for w in row], int(t)) for row, t in zip(problem.pagodas, problem.thresholds)]
    beside = [0] * n  # the holes a peg on each hole could jump over
    for f, o, _ in problem.jumps:
        beside[int(f)] |= 1 << int(o)
    dead: set[int] = set()
    counters = dict(tests=0, nodes=0, dead_ends=0, table_hits=0, pagoda_prunes=0)
    path: list[int] = []
    t0 = time.monotonic()
    deadline = t0 + seconds if seconds > 0 else None
    stop = STOP_NONE

    def reached(pegs: int) -> bool:
        return pegs == goal_mask if goal_mask else pegs.bit_count() == goal_count

    def canonical(pegs: int) -> int:
        best = pegs
        for p in perms:
            img = 0
            for h in range(n):
                if pegs >> h & 1:
                    img |= 1 << p[h]
            best = min(best, img)
        return best

    def visit() -> None:
        if node_limit and counters["nodes"] >= node_limit:
            raise _Stop(STOP_NODES)
        if deadline and counters["nodes"] % 1024 == 0 and time.monotonic() >= deadline:
            raise _Stop(STOP_SECONDS)
        counters["nodes"] += 1

    def below_a_pagoda(pegs: int) -> bool:
        for row, threshold in pagodas:
            if sum(w for h, w in enumerate(row) if pegs >> h & 1) < threshold:
                counters["pagoda_prunes"] += 1
                return True
        return False

    def in_table_order(pegs: int):
        # Tests each jump as the loop reaches it, as the core's dfs does.
        for j in range(len(m2)):
            counters["tests"] += 1
            if pegs & m3[j] == m2[j]:
                yield j

    def score(pegs: int) -> int:
        """The guided score: iso_weight per isolated peg plus the weights of the pegs."""
        held = [h for h in range(n) if pegs >> h & 1]
        isolated = sum(1 for h in held if not pegs & beside[h])
        return iso_weight * isolated + sum(weights[h] for h in held)

    def by_score(pegs: int):
        # Tests every jump first; sorted() is stable, so ties keep jump-table order.
        counters["tests"] += len(m2)
        legal = [j for j in range(len(m2)) if pegs & m3[j] == m2[j]]
        yield from sorted(legal, key=lambda j: score(pegs ^ m3[j]))

    children = by_score if problem.strategy_code == STRATEGY_GUIDED else in_table_order

    fewest_seen = {"pegs": None, "path": []}

    def dead_end(pegs: int) -> None:
        # the fewest pegs of a dead end met, and the jumps to it, as the core keeps them
        counters["dead_ends"] += 1
        if fewest_seen["pegs"] is None or pegs.bit_count() < fewest_seen["pegs"]:
            fewest_seen["pegs"], fewest_seen["path"] = pegs.bit_count(), list(path)

    def dfs(pegs: int) -> bool:
        visit()
        if pegs.bit_count() <= goal_count:
            return reached(pegs)
        if below_a_pagoda(pegs):
            return False
        key = canonical(pegs) if problem.use_table else pegs
        if problem.use_table and key in dead:
            counters["table_hits"] += 1
            return False
        moved = False
        for j in children(pegs):
            moved = True
            path.append(j)
            if dfs(pegs ^ m3[j]):
                return True
            path.pop()
        if not moved:
            dead_end(pegs)
        if problem.use_table:
            dead.add(key)
        return False

    def seed(pegs: int) -> bool:
        visit()
        moved = False
        for h in range(n):
            if not pegs >> h & 1:
                continue
            for j in slots[h]:
                counters["tests"] += 1
                if j >= 0 and pegs & m3[j] == m2[j]:
                    moved = True
                    path.append(j)
                    if seed(pegs ^ m3[j]):
                        return True
                    path.pop()
        if not moved:
            dead_end(pegs)
        return reached(pegs)

    def beam(start: int) -> bool:
        # Level by level; within a level the first child generated of each symmetry
        # class stands for it, and a cut keeps the lowest scores (ties: first generated).
        nonlocal stop, entries
        depth = start.bit_count() - goal_count
        if depth <= 0:
            counters["nodes"] += 1
            return reached(start)
        levels = [[(start, 0, 0, -1)]]  # (pegs, score, parent index, jump)
        cut = False
        while True:
            last = len(levels) == depth
            kids, seen = [], set()
            for i, (pegs, _, _, _) in enumerate(levels[-1]):
                visit()
                counters["tests"] += len(m2)
                legal = [j for j in range(len(m2)) if pegs & m3[j] == m2[j]]
                if not legal:
                    counters["dead_ends"] += 1
                for j in legal:
                    child = pegs ^ m3[j]
                    if last:
                        if reached(child):
                            path.append(j)
                            for level in reversed(levels[1:]):
                                path.append(level[i][3])
                                i = level[i][2]
                            path.reverse()
                            return True
                        continue
                    if below_a_pagoda(child):
                        continue
                    key = canonical(child)
                    if key in seen:
                        counters["table_hits"] += 1
                        continue
                    seen.add(key)
                    kids.append((child, score(child), i, j))
            if last:
                stop = STOP_BEAM if cut else STOP_NONE
                return False
            if len(kids) > problem.beam_width:
                cut = True
                best = sorted(range(len(kids)), key=lambda k: (kids[k][1], k))[:problem.beam_width]
                kids = [kids[k] for k in sorted(best)]
            entries += len(kids)
            if not kids:
                stop = STOP_BEAM if cut else STOP_NONE
                return False
            levels.append(kids)

    start = sum(1 << int(h) for h in problem.start)
    solved = False
    entries = 0
    try:
        run = {STRATEGY_SEED: seed, STRATEGY_BEAM: beam}.get(problem.strategy_code, dfs)
        solved = run(start)
    except _Stop as e:
        stop = e.args[0]
    except KeyboardInterrupt:
        stop = STOP_INTERRUPT
    return {
        "solved": solved,
        "stop": stop,
        "path": path if solved else [],
        **counters,
        "table_entries": entries if problem.strategy_code == STRATEGY_BEAM else len(dead),
        "table_bytes": 0,
        "table_replaced": 0,
        "seconds": time.monotonic() - t0,
        "best_pegs": None if problem.strategy_code == STRATEGY_BEAM else fewest_seen["pegs"],
        "best_path": [] if problem.strategy_code == STRATEGY_BEAM else fewest_seen["path"],
    }
