"""The compile step: a shape, a start and a goal become the plain arrays the core reads."""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..errors import PegsolverError
from ..model.geometry import SQUARE, Shape
from ..model.goal import Goal

if TYPE_CHECKING:
    import numpy.typing as npt

    # read from the core on first use (__getattr__ below); declared for type checkers, which
    # took STRATEGIES for an object: name -> (strategy code, use table, use symmetry, order, weights)
    STRATEGIES: dict[str, tuple[int, bool, bool, str, str]]
    MAX_BEAM_WIDTH: int

Pagoda = tuple[int, ...]  # a pagoda function: one integer weight per hole
Order = str | tuple[int, ...]  # a name of ORDERS, or a permutation of the board's jump indices



class StrategySpec(NamedTuple):
    """What a strategy runs: the core's search (its own name for a strategy code, see
    core.search_codes()), whether it keeps the table of dead positions and keys positions
    up to symmetry, its static jump order and its hole weights."""

    search: str
    use_table: bool
    use_symmetry: bool
    order: str
    weights: str


STRATEGY_SPECS: dict[str, StrategySpec] = {
    "seed": StrategySpec("seed", False, False, "table", "none"),
    "dfs": StrategySpec("dfs", False, False, "table", "none"),
    "table": StrategySpec("dfs", True, False, "table", "none"),
    "symmetry": StrategySpec("dfs", True, True, "table", "none"),
    "ordered": StrategySpec("dfs", True, True, "outside-in", "none"),
    "guided": StrategySpec("guided", True, True, "table", "centre"),
    "beam": StrategySpec("beam", False, True, "table", "centre"),
}
STRATEGY_HELP = {
    "auto": ("proofs, then a portfolio of the other strategies (guided, beam, static and random orders, "
             "forward and backward) restarted with growing budgets until one answers or proves"),
    "seed": "the seed article's search: row-by-row scan, directions W N E S, no table",
    "dfs": "depth-first search in jump-table order, no table",
    "table": "dfs + a table of positions proven dead",
    "symmetry": "dfs + table, positions keyed up to the symmetries that fix the goal",
    "ordered": "symmetry + jumps tried outside-in: pegs far from the centre first, landing nearer it first",
    "guided": ("symmetry + at each position the children tried best first: fewest isolated pegs, "
               "then pegs nearest the centre"),
    "beam": ("level by level, keeping the best --beam-width positions of each (scored as guided, merged "
             "up to symmetry); a proof only when no level was cut"),
}
# "auto" is no search of its own: the proofs, then a portfolio of the strategies above
# with growing budgets (pegsolver.engine.portfolio).
AUTO = "auto"
SOLVE_STRATEGIES = (AUTO, *STRATEGY_SPECS)
DEFAULT_STRATEGY = AUTO
# Positions the beam keeps per level unless told otherwise: wide enough for diamond
# 41 d2 -> f2 (found with 20,000), small enough to take well under a second.
DEFAULT_BEAM_WIDTH = 20_000

# The guided strategy's score of a position: ISOLATED_WEIGHT per isolated peg (a peg with
# no peg beside it along a line it could jump on) plus, per peg, its distance from the
# centre in hundredths of a hole spacing (GUIDE_SCALE). Integers, so that the core and
# the reference break ties identically. ISOLATED_WEIGHT was tuned by hand on triangles
# 9-12, Wiegleb, English and French: 100 (one isolated peg weighs as much as a peg one
# spacing further out) solved T9, T11 and T12 fastest of the values tried.
ISOLATED_WEIGHT = 100
GUIDE_SCALE = 100


@dataclass(frozen=True)
class Problem:
    """Arrays for one search (see ``pegcore._search64.search`` for their meaning)."""

    order: npt.NDArray[np.int32]       # (n_jumps,): row k of jumps is shape.jumps[order[k]]
    jumps: npt.NDArray[np.int32]       # (n_jumps, 3): from, over, to, in the order tried
    slots: npt.NDArray[np.int32]       # (n_holes, n_dir): jump index or -1
    perms: npt.NDArray[np.int32]       # (n_sym, n_holes), identity left out
    start: npt.NDArray[np.int32]       # (n_pegs,)
    goal_holes: npt.NDArray[np.int32]  # (k,), empty for "goal_count pegs anywhere"
    goal_count: int
    nholes: int
    search: str                        # the core's search: seed, dfs, guided or beam
    use_table: bool
    weights: npt.NDArray[np.int64]     # (n_holes,): the guided score's weight of a peg on each hole
    iso_weight: int                    # the guided score's weight of an isolated peg (0 unless guided)
    pagodas: npt.NDArray[np.int64]     # (n_pag, n_holes): pagoda functions to prune with
    thresholds: npt.NDArray[np.int64]  # (n_pag,): their values on the goal
    beam_width: int = 0                # positions kept per level (beam strategy only)
    bits: npt.NDArray[np.int32] | None = None   # (n_holes,): each hole's bit in the core (see on_grid)

    @property
    def strategy_code(self) -> int:
        """The core's code for :attr:`search` (read from the core: it must be built)."""
        from .core import search_codes
        code: int = getattr(search_codes(), f"strategy_{self.search}")
        return code


@lru_cache(maxsize=512)
def goal_symmetries(shape: Shape, goal: Goal) -> tuple[tuple[int, ...], ...]:
    """The board's symmetries that map the goal onto itself (identity first); kept per
    (shape, goal)."""
    if goal.finish is None:
        return tuple(shape.symmetries)
    target = goal.finish_mask()
    return tuple(p for p in shape.symmetries if shape.map_mask(p, target) == target)


def centre_distance(shape: Shape) -> list[float]:
    """Euclidean distance of each hole from the centroid of the board (in hole spacings)."""
    if shape.grid == SQUARE:
        points = [(float(r), float(c)) for r, c in shape.coords]
    else:  # skew coordinates drawn on the plane
        points = [(r * math.sqrt(3) / 2, c - r / 2) for r, c in shape.coords]
    cy = sum(p[0] for p in points) / len(points)
    cx = sum(p[1] for p in points) / len(points)
    return [round(math.hypot(y - cy, x - cx), 9) for y, x in points]


# Static jump orders: "table" (by start hole, row by row), "outside-in" (pegs far from
# the centre first, landing nearer it first), and by landing hole toward one side.
ORDERS = ("table", "outside-in", "down", "up", "right", "left")


def jump_order(shape: Shape, order: Order) -> list[int]:
    """Indices into ``shape.jumps`` in the order a search tries them (ties: table order).

    :param order: a name of ``ORDERS``, or a permutation of ``range(len(shape.jumps))``
        (the portfolio's random orders).
    :raises PegsolverError: an order not in ``ORDERS``, or not a permutation.
    """
    jumps = shape.jumps
    if not isinstance(order, str):
        if sorted(order) != list(range(len(jumps))):
            raise PegsolverError(f"a jump order must list each of the board's {len(jumps)} jumps once")
        return list(order)
    if order == "table":
        return list(range(len(jumps)))
    if order == "outside-in":
        d = centre_distance(shape)
        return sorted(range(len(jumps)), key=lambda k: (-d[jumps[k].from_hole], d[jumps[k].to_hole], k))
    # Landing holes swept from one side: "down" takes the bottom row first, right to left.
    side = {"down": (0, -1), "up": (0, 1), "right": (1, -1), "left": (1, 1)}.get(order)
    if side is None:
        raise PegsolverError(f"unknown jump order {order!r}; expected one of {', '.join(ORDERS)}")
    axis, sign = side

    def key(k: int) -> tuple[int, int, int]:
        r, c = shape.coords[jumps[k].to_hole]
        return (sign * r, sign * c, k) if axis == 0 else (sign * c, sign * r, k)
    return sorted(range(len(jumps)), key=key)


def hole_weights(shape: Shape, kind: str) -> list[int]:
    """Integer weight of a peg on each hole for the guided score (all 0 for ``"none"``)."""
    if kind == "none":
        return [0] * shape.size
    return [round(GUIDE_SCALE * d) for d in centre_distance(shape)]


def compile_problem(shape: Shape, start_mask: int, goal: Goal, strategy: str, pagodas: Iterable[Sequence[int]] = (),
                    order: Order | None = None, beam_width: int = DEFAULT_BEAM_WIDTH) -> Problem:
    """The arrays of one search. All but the start are kept per (shape, goal, strategy,
    pagodas, order, beam width) within a process, read-only, so that repeated calls from
    Python cost little (a random order is a new key each time: not kept).

    :raises PegsolverError: an unknown order, or an order that is no permutation of the jumps.
    """
    # pruning_set's tuples of ints are cache keys as they are; anything else is made one
    functions = pagodas if isinstance(pagodas, tuple) and all(type(w) is tuple for w in pagodas) else \
        tuple(tuple(int(x) for x in w) for w in pagodas)
    if isinstance(order, tuple) and len(order) > 0:  # random orders would only fill the cache
        fixed = _fixed_arrays.__wrapped__(shape, goal, strategy, functions, order, beam_width)
    else:
        fixed = _fixed_arrays(shape, goal, strategy, functions, order, beam_width)
    start = np.array([h for h in range(shape.size) if start_mask >> h & 1], dtype=np.int32)
    return replace(fixed, start=start if fixed.bits is None else fixed.bits[start])


# the widest board of each search core (pegcore._search64 and _search128: MAX_HOLES)
CORE_BITS = (64, 128)


def grid_bits(shape: Shape) -> list[int] | None:
    """Each hole's bit when the board is laid on its grid row by row (bit = row * width +
    column, counted from the first hole; skew coordinates on triangles). Every jump of one
    direction is then the same shift of the position, so the core finds a direction's legal
    jumps with one group of shifts: 4 groups on the English board instead of 12. The order
    of the holes is kept (holes are numbered row by row), so positions compare as before.

    :returns: the bits, or None when the layout needs more bits than the core that the
        board's number of holes selects (Wiegleb 45 and diamond 41 need 73 or more).
    """
    top, left = shape.coords[0][0], min(c for _, c in shape.coords)
    width = max(c for _, c in shape.coords) - left + 1
    cells = [(r - top) * width + c - left for r, c in shape.coords]
    bits = [b - cells[0] for b in cells]
    core = next(n for n in (*CORE_BITS, shape.size) if shape.size <= n)
    return bits if bits[-1] < core else None


def on_grid(problem: Problem, bits: Sequence[int]) -> Problem:
    """``problem`` with its holes renumbered to ``bits`` (see grid_bits): the bits between
    holes are holes of no jump, never with a peg, and every symmetry fixes them."""
    where = np.asarray(bits, dtype=np.int32)
    n = int(where[-1]) + 1
    slots = np.full((n, problem.slots.shape[1]), -1, dtype=np.int32)
    slots[where] = problem.slots
    perms = np.tile(np.arange(n, dtype=np.int32), (len(problem.perms), 1))
    perms[:, where] = where[problem.perms]
    weights = np.zeros(n, dtype=np.int64)
    weights[where] = problem.weights
    pagodas = np.zeros((len(problem.pagodas), n), dtype=np.int64)
    pagodas[:, where] = problem.pagodas
    return replace(problem, jumps=where[problem.jumps], slots=slots, perms=perms, goal_holes=where[problem.goal_holes],
                   nholes=n, weights=weights, pagodas=pagodas, bits=where)


@lru_cache(maxsize=512)
def _fixed_arrays(shape: Shape, goal: Goal, strategy: str, pagodas: tuple[Pagoda, ...], order: Order | None,
                  beam_width: int) -> Problem:
    search, use_table, use_sym, order_name, weights_kind = STRATEGY_SPECS[strategy]
    perms = goal_symmetries(shape, goal)[1:] if use_sym else ()
    n = shape.size
    tried = jump_order(shape, order or order_name)
    rank = {k: i for i, k in enumerate(tried)}
    slots = [[rank[j] if j >= 0 else -1 for j in row] for row in shape.slots]
    problem = Problem(
        order=np.array(tried, dtype=np.int32),
        jumps=np.array([shape.jumps[k] for k in tried], dtype=np.int32).reshape(-1, 3),
        slots=np.array(slots, dtype=np.int32).reshape(n, len(shape.directions)),
        perms=np.array(perms, dtype=np.int32).reshape(-1, n),
        start=np.zeros(0, dtype=np.int32),  # per call: compile_problem sets it
        goal_holes=np.array(goal.finish_holes(), dtype=np.int32),
        goal_count=goal.pegs,
        nholes=n,
        search=search,
        use_table=use_table,
        weights=np.array(hole_weights(shape, weights_kind), dtype=np.int64),
        iso_weight=ISOLATED_WEIGHT if weights_kind != "none" else 0,
        pagodas=np.array(pagodas, dtype=np.int64).reshape(-1, n),
        thresholds=np.array([sum(w[h] for h in goal.finish_holes()) for w in pagodas], dtype=np.int64),
        beam_width=beam_width if search == "beam" else 0,
    )
    bits = grid_bits(shape)
    if bits is not None and bits[-1] >= n:   # not already a plain grid
        problem = on_grid(problem, bits)
    for value in vars(problem).values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False  # shared by every call with the same key
    return problem


def __getattr__(name: str) -> object:
    # Names whose values are the core's, read from it when first asked for (importing this
    # module does not load the core).
    from .core import search_codes
    if name == "MAX_BEAM_WIDTH":  # the widest beam the core takes
        return search_codes().max_beam_width
    if name == "STRATEGIES":  # name -> (the core's strategy code, use table, use symmetry, order, weights)
        value = {name: (getattr(search_codes(), f"strategy_{s.search}"), *s[1:]) for name, s in STRATEGY_SPECS.items()}
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
