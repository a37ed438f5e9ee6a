"""``solve()``: find one solution, or report why there is none."""
from __future__ import annotations

import math
import operator
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import partial

from .engine import reference
from .engine.compile import (
    AUTO,
    DEFAULT_BEAM_WIDTH,
    DEFAULT_STRATEGY,
    MAX_BEAM_WIDTH,
    ORDERS,
    SOLVE_STRATEGIES,
    STRATEGIES,
    compile_problem,
    goal_symmetries,
)
from .engine.core import core_for
from .engine.outcome import CORE_STOPS, Reason
from .errors import GoalError, IllegalJumpError, PegsolverError
from .model.board import Board
from .model.geometry import Jump
from .model.goal import Goal
from .model.notation import group_moves, jump_name, move_name
from .model.notation import hole_name as name_of_hole
from .model.variants import find_variant
from .proofs import pagoda
from .proofs.classes import class_allows_pegs, class_finishes, has_classes, position_class

BACKENDS = ("core", "reference")
DEFAULT_TABLE_BYTES = 256 << 20
MAX_TABLE_BYTES = 1 << 40  # 1 TiB: more than any machine here; the kernel would refuse sooner
MAX_COUNT = 1 << 63


@dataclass(frozen=True)
class Limit:
    """Limits on one search.

    :param nodes: positions visited before stopping (None: no limit).
    :param seconds: wall-clock seconds before stopping (None: no limit).
    :param table_bytes: memory budget in bytes of the table of dead positions; the
        table starts small and doubles while the old and new tables fit in the budget
        together (so it never holds more than the budget), then replaces entries.
    """

    nodes: int | None = None
    seconds: float | None = None
    table_bytes: int = DEFAULT_TABLE_BYTES

    def __post_init__(self):
        # numpy integers and floats are taken too, stored as plain int and float
        nodes = None if self.nodes is None else as_whole(self.nodes)
        if self.nodes is not None and not (nodes is not None and 1 <= nodes < MAX_COUNT):
            raise PegsolverError(f"node limit must be a whole number from 1 to {MAX_COUNT - 1}, not {self.nodes!r}")
        seconds = None if self.seconds is None else as_seconds(self.seconds)
        if self.seconds is not None and seconds is None:
            raise PegsolverError(f"time limit must be a positive, finite number of seconds, not {self.seconds!r}")
        table = as_whole(self.table_bytes)
        if not (table is not None and 1024 <= table <= MAX_TABLE_BYTES):
            raise PegsolverError(f"table budget must be a whole number of bytes from 1024 to {MAX_TABLE_BYTES}, "
                                 f"not {self.table_bytes!r}")
        object.__setattr__(self, "nodes", nodes)
        object.__setattr__(self, "seconds", seconds)
        object.__setattr__(self, "table_bytes", table)


def as_whole(x) -> int | None:
    """``x`` as an int (numpy integers too, via ``operator.index``); None for anything
    else, bools included."""
    if isinstance(x, bool):
        return None
    try:
        return operator.index(x)
    except TypeError:
        return None


def as_seconds(x) -> float | None:
    """``x`` as positive, finite seconds (ints, floats, numpy numbers); None otherwise."""
    if isinstance(x, (bool, str, bytes)):
        return None
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if 0 < x < math.inf else None


@dataclass(frozen=True)
class Stats:
    """Work done by one search. ``tests`` counts canMove checks (the seed's noOfTests);
    ``nodes`` positions visited; ``dead_ends`` positions with no legal jump;
    ``table_hits`` positions answered by the table; ``table_entries`` dead positions
    stored; ``table_bytes`` table memory in bytes; ``seconds`` wall time of the search
    loop (for ``"auto"``, of its whole portfolio); ``symmetries`` the size of the symmetry
    group used (1 = none); ``pagoda_prunes`` positions dropped because a pagoda function
    fell below the goal's; ``direction`` ``"forward"``, or ``"backward"`` when the dual
    problem was searched;
    ``member`` the portfolio member that answered (strategy ``"auto"``, e.g. ``"guided
    backward"``; empty otherwise) and ``runs`` the searches made (every counter above sums
    them; the table counters are the answering run's)."""

    strategy: str
    backend: str
    symmetries: int
    tests: int
    nodes: int
    dead_ends: int
    table_hits: int
    table_entries: int
    table_bytes: int
    seconds: float
    pagoda_prunes: int = 0
    direction: str = "forward"
    member: str = ""
    runs: int = 1


@dataclass
class Solution:
    """The answer of :func:`solve`.

    ``solved`` is True when ``jumps`` lead from ``start`` to the goal; otherwise ``reason``
    (a :class:`~pegsolver.outcome.Reason`, equal to its words) says why not:
    ``"position class"`` or ``"pagoda"`` (proved impossible before any search;
    ``explanation`` says how), ``"exhausted"`` (proved: the search found no solution),
    ``"node limit"``, ``"time limit"``, ``"memory limit"`` (the beam's levels outgrew the
    memory budget), ``"beam"`` (the beam strategy kept too few positions to find a
    solution) or ``"interrupted"`` (Ctrl-C); these last five prove nothing.
    Truthy exactly when solved.

    For ``Goal.fewest()``: solved when ``jumps`` end in a position with the fewest pegs the
    start can be reduced to, proved (``explanation`` says how); unsolved under a limit,
    ``jumps`` may still hold the best finish found. ``closest``: the jumps to the dead end
    with the fewest pegs a depth-first search met (empty after a proof, a beam or a
    backward search).
    """

    start: Board
    goal: Goal
    solved: bool
    reason: Reason  # a plain string of its words is taken too
    jumps: list[Jump]
    stats: Stats
    explanation: str = ""
    closest: list[Jump] = field(default_factory=list)
    final: Board = field(init=False)

    def __post_init__(self):
        self.reason = Reason(self.reason)  # ValueError for words that are no reason
        board = self.start.with_pegs(replay(self.start, self.jumps))  # checks what the core returned
        board.history = list(self.jumps)
        if self.solved and self.goal.fewest_pegs:
            if board.legal_jumps():  # a jump left would leave fewer pegs
                raise RuntimeError("internal error: the fewest-pegs finish found still has a jump")
        elif self.solved and not self.goal.reached(board.pegs_mask):
            raise RuntimeError("internal error: the solution found does not reach the goal")
        self.final = board  # closest is replayed where it becomes an answer's jumps (fewest pegs)

    def __bool__(self) -> bool:
        return self.solved

    @property
    def moves(self) -> list[list[Jump]]:
        """Jumps grouped into moves (consecutive jumps by one peg)."""
        return group_moves(self.jumps)

    def jump_names(self, style: str = "algebraic") -> list[str]:
        """Jumps in notation (``"d2-d4"``; style ``"numeric"``: ``"42-44"``)."""
        return [jump_name(self.start.shape, j, style) for j in self.jumps]

    def move_names(self, style: str = "algebraic") -> list[str]:
        """Moves in notation (``"a4-c4-c2"``)."""
        return [move_name(self.start.shape, m, style) for m in self.moves]

    def to_json(self, style: str = "algebraic") -> dict:
        """The answer as JSON-ready data (keys listed in README.md)."""
        shape = self.start.shape
        hole_name = partial(name_of_hole, style=style)
        return {
            "solved": self.solved,
            "reason": self.reason,
            "explanation": self.explanation,
            "board": shape.name,
            "start": self.start.to_text(),
            "vacant": [hole_name(shape, h) for h in self.start.vacancies()],
            "goal": self.goal.to_json(shape, style),
            "jumps": self.jump_names(style),
            "moves": self.move_names(style),
            "final": [hole_name(shape, h) for h in self.final.pegs()] if self.solved or self.jumps else None,
            "stats": asdict(self.stats),
        }


def replay(start: Board, jumps: list[Jump]) -> int:
    """The pegs (bitboard) after ``jumps`` from ``start``, each jump checked against the rules
    with bit operations.

    :raises IllegalJumpError: a jump that is not one of the board's, or not legal where it is
        played (the message names the jump, its place and why).
    """
    allowed = start.shape.jump_set
    pegs = start.pegs_mask
    for k, j in enumerate(jumps, 1):
        fo = (1 << j.from_hole) | (1 << j.over)
        fot = fo | (1 << j.to_hole)
        if j not in allowed or pegs & fot != fo:
            why = start.with_pegs(pegs).why_illegal(j)
            raise IllegalJumpError(f"illegal jump {k} ({jump_name(start.shape, j)}): {why}")
        pegs ^= fot
    return pegs


def resolve_board(board: Board | str) -> Board:
    """A Board, or the start of the variant with this name."""
    if isinstance(board, str):
        return find_variant(board).board()
    if not isinstance(board, Board):
        raise PegsolverError(f"expected a Board or a variant name, not {type(board).__name__}")
    return board


def default_goal(board: Board, strategy: str) -> Goal:
    """The variant's standard goal; the seed strategy keeps the seed's (one peg anywhere)."""
    if strategy == "seed" or board.variant is None:
        return Goal.anywhere()
    return board.variant.goal(board.shape)


def class_obstacle(board: Board, goal: Goal) -> str | None:
    """Why position classes forbid the problem, in words, or None if they allow it."""
    shape = board.shape
    if not has_classes(shape):
        return None
    kind = "de Bruijn's 16 classes" if shape.grid == "square" else "Bell's 4 triangular classes"
    if goal.finish is not None:
        if position_class(shape, board.pegs_mask) != position_class(shape, goal.finish_mask()):
            return (f"the start and the finish {goal.describe(shape)} are in different position classes "
                    f"({kind}), and no jump changes a position's class")
        return None
    if goal.pegs == 1 and not class_finishes(shape, board.pegs_mask):
        return (f"no single hole is in the start's position class ({kind}), so no jump sequence "
                f"can leave one peg anywhere")
    if goal.pegs > 1 and not class_allows_pegs(shape, board.pegs_mask, goal.pegs):
        return (f"no set of {goal.pegs} holes is in the start's position class ({kind}), so no jump "
                f"sequence can leave {goal.pegs} pegs")
    return None


def pagoda_obstacle(board: Board, goal: Goal) -> str | None:
    """A pagoda proof that the problem is impossible, in words, or None."""
    shape = board.shape
    if goal.finish is not None:
        finishes = [goal.finish_mask()]
    elif goal.pegs == 1:
        finishes = [1 << h for h in class_finishes(shape, board.pegs_mask)]
    else:
        return None
    proofs = [pagoda.certificate(shape, board.pegs_mask, f) for f in finishes]
    if not finishes or not all(proofs):
        return None
    w = proofs[0]
    where = goal.describe(shape) if goal.finish is not None else f"one peg on any of {len(finishes)} holes"
    return (f"a pagoda function is worth {pagoda.value(w, board.pegs_mask)} on the start and "
            f"{pagoda.value(w, finishes[0])} on the finish, and no jump raises it, so the start cannot reach "
            f"{where} (pagoda functions: Berlekamp, Conway & Guy, Winning Ways, ch. 23)")


def impossibility(board: Board, goal: Goal) -> tuple[Reason, str] | None:
    """(reason, explanation) when a position class or pagoda argument rules the problem out."""
    text = class_obstacle(board, goal)
    if text:
        return Reason.POSITION_CLASS, text
    text = pagoda_obstacle(board, goal)
    return (Reason.PAGODA, text) if text else None


def solve(board: Board | str, goal: Goal | None = None, strategy: str = DEFAULT_STRATEGY,
          limit: Limit | None = None, backend: str = "core", proofs: bool = True,
          order: str | None = None, backward: bool = False, beam_width: int | None = None,
          progress: Callable | None = None) -> Solution:
    """Search for a sequence of jumps from ``board`` to ``goal``.

    :param board: a :class:`Board` (its current pegs are the start) or a variant name.
    :param goal: a :class:`Goal`, or a hole name for one peg there; default: the
        variant's standard goal (for the seed strategy the seed's: one peg anywhere).
        ``Goal.fewest()`` asks for the fewest pegs the start can be reduced to: the
        answer is solved only when every smaller count is proved impossible.
    :param strategy: ``"auto"`` (the default: proofs, then a portfolio of the others with
        growing budgets, see :mod:`pegsolver.portfolio`) or one of ``STRATEGIES`` (see
        ``compile.STRATEGY_HELP``), which runs that one search alone.
    :param limit: nodes, seconds and table memory; None: no limits, default table.
        With ``"auto"`` the nodes and seconds bound all its searches together.
        Ctrl-C also stops the search: the result then says ``"interrupted"`` (no
        KeyboardInterrupt is raised).
    :param backend: ``"core"`` (compiled) or ``"reference"`` (pure Python, slow).
    :param proofs: first test position classes and pagoda functions and answer at once
        when they forbid the problem, and prune the search with pagoda functions when the
        goal names its holes; False searches with neither (to measure the search alone).
    :param order: the static jump order to try (``compile.ORDERS``); default: the
        strategy's (``"auto"``: every order). Not used by the seed scan or the guided sort.
    :param backward: search the dual problem instead, by complement duality: from the
        complement of the finish to the complement of the start; its jumps in reverse
        order solve the original (the goal must name its holes).
    :param beam_width: positions the ``"beam"`` strategy keeps per level (1 to 2**32 - 1;
        None: 20,000); its memory (levels kept for the path, plus one level's children and
        their keys: about 30 bytes a child) counts against ``limit.table_bytes``.
        ``"auto"`` doubles its beam's width every round up to this (None: until the
        memory budget stops it).
    :param progress: with ``"auto"``, called before each of its searches with a
        :class:`pegsolver.portfolio.Progress` (for a status line).
    :returns: a :class:`Solution`, solved or with the reason it is not.
    :raises UnknownVariantError: unknown variant name.
    :raises GoalError: a goal that cannot apply (more pegs than the start, ...).
    :raises BoardTooLargeError: more holes than the compiled core takes (128).
    :raises CoreMissingError: the compiled core is not built.
    :raises PegsolverError: unknown strategy or backend, or a beam width out of range.
    """
    board = resolve_board(board)
    width = None if beam_width is None else as_whole(beam_width)
    if beam_width is not None and (width is None or not 1 <= width <= MAX_BEAM_WIDTH):
        raise PegsolverError(f"beam width must be a whole number from 1 to {MAX_BEAM_WIDTH}, not {beam_width!r}")
    if strategy not in SOLVE_STRATEGIES:
        raise PegsolverError(f"unknown strategy {strategy!r}; expected one of {', '.join(SOLVE_STRATEGIES)}")
    if order is not None and order not in ORDERS:
        raise PegsolverError(f"unknown jump order {order!r}; expected one of {', '.join(ORDERS)}")
    if backend not in BACKENDS:
        raise PegsolverError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if limit is not None and not isinstance(limit, Limit):
        raise PegsolverError(f"limit must be a pegsolver.Limit or None, not {type(limit).__name__}")
    limit = limit or Limit()
    if isinstance(goal, str):  # a hole name: one peg there
        goal = Goal.at(goal)
    if goal is not None and not isinstance(goal, Goal):
        raise PegsolverError(f"goal must be a pegsolver.Goal, a hole name or None, not {type(goal).__name__}")
    shape = board.shape
    goal = (goal or default_goal(board, strategy)).resolve(shape)
    goal.check(shape, board.pegs_mask)
    if backward and goal.finish is None:
        raise GoalError("backward search needs a goal that names its holes (a finish hole or pattern)")
    run = Run(strategy, limit, backend, proofs, order, width, progress)
    try:
        if goal.fewest_pegs:
            from .engine.fewest import solve_fewest  # it calls solve() for each peg count
            return solve_fewest(board, run)
        return run.solve(board, goal, backward)
    except KeyboardInterrupt:  # Ctrl-C outside the core's loop (proofs, compiling): same answer
        return unsolved(board, goal, Reason.INTERRUPTED,
                        empty_stats(strategy, backend, run.symmetries(board, goal), backward))


@dataclass(frozen=True)
class Run:
    """How to search, once ``solve``'s arguments are checked: the strategy, limits, backend,
    whether to use proofs, the static order and the beam width."""

    strategy: str
    limit: Limit
    backend: str = "core"
    proofs: bool = True
    order: str | tuple[int, ...] | None = None
    beam_width: int | None = None  # None: DEFAULT_BEAM_WIDTH, or no cap for "auto"
    progress: Callable | None = None

    def solve(self, board: Board, goal: Goal, backward: bool = False) -> Solution:
        """The answer for a resolved, checked goal: proofs, then the search. The proofs'
        time (a linear program per finish) comes out of the search's time limit."""
        t0 = time.perf_counter()
        proof = impossibility(board, goal) if self.proofs else None
        if proof:  # a proof is stated for the problem as asked, not its dual
            stats = empty_stats(self.strategy, self.backend, self.symmetries(board, goal), backward)
            return unsolved(board, goal, proof[0], stats, proof[1])
        run = self
        if self.limit.seconds is not None:
            left = self.limit.seconds - (time.perf_counter() - t0)
            if left <= 0:
                stats = empty_stats(self.strategy, self.backend, self.symmetries(board, goal), backward)
                return unsolved(board, goal, Reason.TIME_LIMIT, stats,
                                "the time limit ran out during the proofs, before any search; nothing proved")
            run = replace(self, limit=replace(self.limit, seconds=left))
        if run.strategy == AUTO:
            from .engine.portfolio import solve_auto  # the portfolio runs this class's searches
            return solve_auto(board, goal, run, backward)
        if backward:
            dual_board, dual_goal = dual(board, goal)
            return from_dual(board, goal, run.search(dual_board, dual_goal))
        return run.search(board, goal)

    def symmetries(self, board: Board, goal: Goal) -> int:
        """Size of the symmetry group the strategy keys positions by (1: none)."""
        uses = self.strategy == AUTO or STRATEGIES[self.strategy][2]
        return len(goal_symmetries(board.shape, goal)) if uses else 1

    def search(self, board: Board, goal: Goal) -> Solution:
        """One search of the strategy, forward, without the up-front proofs (pagoda
        pruning still follows ``proofs``)."""
        shape = board.shape
        prune = self.proofs and goal.finish is not None and STRATEGIES[self.strategy][0] != 0  # not the seed's
        problem = compile_problem(shape, board.pegs_mask, goal, self.strategy,
                                  pagoda.pruning_set(shape, goal.finish_mask()) if prune else (), self.order,
                                  self.beam_width or DEFAULT_BEAM_WIDTH)
        limit = self.limit
        if self.backend == "core":
            core = core_for(shape.size, shape.name)
            out = core.search(problem.jumps, problem.slots, problem.perms, problem.start,
                              problem.goal_holes, problem.goal_count, problem.nholes,
                              problem.strategy_code, problem.use_table, limit.nodes or 0,
                              limit.seconds or 0.0, limit.table_bytes,
                              weights=problem.weights, iso_weight=problem.iso_weight,
                              pagodas=problem.pagodas, thresholds=problem.thresholds,
                              beam_width=problem.beam_width)
        else:
            out = reference.search(problem, limit.nodes or 0, limit.seconds or 0.0)
        stats = Stats(
            strategy=self.strategy, backend=self.backend, symmetries=len(problem.perms) + 1,
            tests=out["tests"], nodes=out["nodes"], dead_ends=out["dead_ends"],
            table_hits=out["table_hits"], table_entries=out["table_entries"],
            table_bytes=out["table_bytes"], seconds=out["seconds"], pagoda_prunes=out["pagoda_prunes"])
        jumps = [shape.jumps[problem.order[j]] for j in out["path"]]
        closest = [shape.jumps[problem.order[j]] for j in out["best_path"]]
        reason = Reason.SOLVED if out["solved"] else CORE_STOPS[out["stop"]]
        return Solution(board.with_pegs(board.pegs_mask), goal, out["solved"], reason, jumps, stats,
                        reason.explanation, closest)


def empty_stats(strategy: str, backend: str, symmetries: int = 1, backward: bool = False) -> Stats:
    """Stats of an answer that searched nothing (a proof, or Ctrl-C before the search)."""
    return Stats(strategy=strategy, backend=backend, symmetries=symmetries, tests=0, nodes=0, dead_ends=0,
                 table_hits=0, table_entries=0, table_bytes=0, seconds=0.0,
                 direction="backward" if backward else "forward", runs=0)


def unsolved(board: Board, goal: Goal, reason: Reason, stats: Stats, explanation: str | None = None) -> Solution:
    """An answer without a solution; the explanation defaults to the stop's."""
    return Solution(board.with_pegs(board.pegs_mask), goal, False, reason, [], stats,
                    reason.explanation if explanation is None else explanation)


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


__all__ = ["Limit", "Stats", "Solution", "solve", "goal_symmetries"]
