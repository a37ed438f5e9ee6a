"""The compile step: a shape, a start and a goal become the plain arrays the core reads."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .geometry import Shape
from .goal import Goal

# name -> (core strategy code, use the table, use symmetry); codes match pegcore.
STRATEGIES: dict[str, tuple[int, bool, bool]] = {
    "seed": (0, False, False),
    "dfs": (1, False, False),
    "table": (1, True, False),
    "symmetry": (1, True, True),
}
STRATEGY_HELP = {
    "seed": "the seed article's search: row-by-row scan, directions W N E S, no table",
    "dfs": "depth-first search in jump-table order, no table",
    "table": "dfs + a table of positions proven dead",
    "symmetry": "dfs + table, positions keyed up to the symmetries that fix the goal",
}
DEFAULT_STRATEGY = "symmetry"


@dataclass(frozen=True)
class Problem:
    """Arrays for one search (see ``pegcore._search64.search`` for their meaning)."""

    jumps: np.ndarray        # (n_jumps, 3) int32: from, over, to
    slots: np.ndarray        # (n_holes, n_dir) int32: jump index or -1
    perms: np.ndarray        # (n_sym, n_holes) int32, identity left out
    start: np.ndarray        # (n_pegs,) int32
    goal_holes: np.ndarray   # (k,) int32, empty for "goal_count pegs anywhere"
    goal_count: int
    nholes: int
    strategy_code: int
    use_table: bool


def goal_symmetries(shape: Shape, goal: Goal) -> list[tuple[int, ...]]:
    """The board's symmetries that map the goal onto itself (identity first)."""
    if goal.finish is None:
        return list(shape.symmetries)
    target = goal.finish_mask()
    return [p for p in shape.symmetries if shape.map_mask(p, target) == target]


def compile_problem(shape: Shape, start_mask: int, goal: Goal, strategy: str) -> Problem:
    code, use_table, use_sym = STRATEGIES[strategy]
    perms = goal_symmetries(shape, goal)[1:] if use_sym else []
    n = shape.size
    return Problem(
        jumps=np.array(shape.jumps, dtype=np.int32).reshape(-1, 3),
        slots=np.array(shape.slots, dtype=np.int32).reshape(n, len(shape.directions)),
        perms=np.array(perms, dtype=np.int32).reshape(-1, n),
        start=np.array([h for h in range(n) if start_mask >> h & 1], dtype=np.int32),
        goal_holes=np.array(sorted(goal.finish or ()), dtype=np.int32),
        goal_count=goal.pegs,
        nholes=n,
        strategy_code=code,
        use_table=use_table,
    )
