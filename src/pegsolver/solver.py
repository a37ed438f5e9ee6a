"""``solve()``: find one solution, or report why there is none. The public module: it checks
the arguments, runs the engine and returns its :class:`Solution`."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from .engine.compile import AUTO, DEFAULT_STRATEGY, ORDERS, SOLVE_STRATEGIES
from .engine.core import search_codes
from .engine.limits import (
    DEFAULT_SEARCH_BYTES,
    MAX_SEARCH_BYTES,
    Limit,
    check_callables,
    check_flags,
    check_memory,
    check_one_thread,
)
from .engine.outcome import Reason, Stats
from .engine.search import Run
from .engine.solution import Solution, empty_stats, unsolved
from .errors import GoalError, PegsolverError
from .model.board import Board
from .model.goal import Goal
from .model.numbers import as_whole
from .model.variants import find_variant

if TYPE_CHECKING:
    from .engine.portfolio import Progress

BACKENDS = ("core", "reference")
DEFAULT_TABLE_BYTES = DEFAULT_SEARCH_BYTES  # old names, kept for scripts
MAX_TABLE_BYTES = MAX_SEARCH_BYTES


def resolve_board(board: Board | str) -> Board:
    """A Board, or the start of the variant with this name."""
    if isinstance(board, str):
        return find_variant(board).board()
    if not isinstance(board, Board):
        raise PegsolverError(f"expected a Board or a variant name, not {type(board).__name__}")
    return board


def resolve_position(board: Board | str) -> Board:
    """:func:`resolve_board`, as a copy of the position read once: another thread may play on
    the caller's board meanwhile, and a search must not mix two readings of it (a trial's
    solve raised IllegalJumpError on legal input). The survey keeps the caller's board itself.
    """
    board = resolve_board(board)
    return board.with_pegs(board.pegs_mask)


def read_goal(goal: object) -> Goal | None:
    """A goal argument as a Goal: a hole name is one peg there; None stays None.

    :raises PegsolverError: anything else.
    """
    if isinstance(goal, str):
        return Goal.at(goal)
    if goal is not None and not isinstance(goal, Goal):
        raise PegsolverError(f"goal must be a pegsolver.Goal, a hole name or None, not {type(goal).__name__}")
    return goal


def default_goal(board: Board, strategy: str) -> Goal:
    """The variant's standard goal; the seed strategy keeps the seed's (one peg anywhere)."""
    if strategy == "seed" or board.default_goal is None:
        return Goal.anywhere()
    return board.default_goal


def check_beam_width(width: object, name: str = "beam width", strategy: str = "beam") -> int:
    """A beam width: positions kept per level, 1 to the core's widest (2**32 - 1), for
    ``strategy`` (the beam or auto: the others keep no beam).

    :raises PegsolverError: anything else; the message names ``name`` and the value.
    """
    if strategy not in ("beam", AUTO):
        raise PegsolverError(f"beam_width applies to strategy 'beam' (or {AUTO!r}), not to {strategy!r}")
    most = search_codes().max_beam_width
    whole = as_whole(width)
    if whole is None or not 1 <= whole <= most:
        raise PegsolverError(f"{name} must be a whole number from 1 to {most}, not {width!r}")
    return whole


def interrupted(board: Board, goal: Goal, run: Run, backward: bool, minimize: str | None) -> Solution:
    """The answer to Ctrl-C before any search ran (in the proofs, or compiling)."""
    if minimize == "moves":
        from .engine.fewest_solve import interrupted_before_moves
        return interrupted_before_moves(board, goal, run.backend)
    return unsolved(board, goal, Reason.INTERRUPTED,
                    empty_stats(run.strategy, run.backend, run.symmetries(board, goal), backward))


def check_options(strategy: str, order: str | None, backend: str, progress: object, proofs: object,
                  backward: object) -> None:
    """solve()'s options, each one of its known values.

    :raises PegsolverError: an unknown strategy, order or backend, an order with the seed
        scan (which has none), a progress that is not callable, or proofs or backward not a bool.
    """
    check_callables(progress=progress)
    check_flags(proofs=proofs, backward=backward)
    if strategy not in SOLVE_STRATEGIES:
        raise PegsolverError(f"unknown strategy {strategy!r}; expected one of {', '.join(SOLVE_STRATEGIES)}")
    if order is not None and order not in ORDERS:
        raise PegsolverError(f"unknown jump order {order!r}; expected one of {', '.join(ORDERS)}")
    if order is not None and strategy == "seed":
        raise PegsolverError("a jump order does nothing with strategy 'seed': the seed scans holes row by row")
    if backend not in BACKENDS:
        raise PegsolverError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")


def check_minimize(minimize: object, strategy: str, backend: str, order: str | None, backward: bool,
                   beam_width: int | None) -> None:
    """``minimize`` is None or "moves", and with "moves" no option asks for another search.

    :raises PegsolverError: an unknown value, or an option the search by moves cannot honour
        (it alone proves the fewest moves).
    """
    if minimize is None:
        return
    if minimize != "moves":
        raise PegsolverError(f"minimize must be None or 'moves', not {minimize!r}")
    why = "it searches by moves itself, breadth-first both ways, and only that proves the fewest moves"
    if strategy != AUTO:
        raise PegsolverError(f"the fewest moves cannot be proved with strategy {strategy!r}: {why} "
                             f"(leave the strategy at {AUTO!r})")
    for given, name in ((backend != "core", f"backend {backend!r}"), (order is not None, "a jump order"),
                        (backward, "backward"), (beam_width is not None, "a beam width")):
        if given:
            raise PegsolverError(f"the fewest moves cannot be searched with {name}: {why}")


def search_limit(limit: Limit | None) -> Limit:
    """``limit`` checked for a search: memory at most 1 TiB, one thread (None: no limits).

    :raises PegsolverError: not a Limit, more memory than that, or threads other than 1.
    """
    Limit.check(limit)
    limit = limit or Limit()
    if limit.memory_bytes is not None:
        check_memory(limit.memory_bytes, "a search's memory budget", high=MAX_SEARCH_BYTES)
    check_one_thread(limit)
    return limit


def solve(board: Board | str, goal: Goal | str | None = None, strategy: str = DEFAULT_STRATEGY,
          limit: Limit | None = None, backend: str = "core", proofs: bool = True,
          order: str | None = None, backward: bool = False, beam_width: int | None = None,
          progress: Callable[[Progress], None] | None = None, minimize: str | None = None) -> Solution:
    """Search for a sequence of jumps from ``board`` to ``goal``.

    :param board: a :class:`Board` (its current pegs are the start) or a variant name.
    :param goal: a :class:`Goal`, or a hole name for one peg there; default: the
        variant's standard goal (for the seed strategy the seed's: one peg anywhere).
        ``Goal.fewest()`` asks for the fewest pegs the start can be reduced to: the
        answer is solved only when every smaller count is proved impossible.
    :param strategy: ``"auto"`` (the default: proofs, then a portfolio of the others with
        growing budgets, see :mod:`pegsolver.engine.portfolio`) or one of ``STRATEGIES``
        (see ``engine.compile.STRATEGY_HELP``), which runs that one search alone.
    :param limit: a :class:`Limit`: nodes, seconds and memory in bytes (for the table of
        dead positions, or the beam's levels; at most 1 TiB; default 256 MiB); threads
        must be None or 1. None: no limits, the default memory.
        With ``"auto"`` the nodes and seconds bound all its searches together.
        Ctrl-C also stops the search: the result says ``"interrupted"`` (no exception);
        ``Limit(cancel=c)`` and ``c.set()`` from another thread: ``"cancelled"``.
    :param backend: ``"core"`` (compiled) or ``"reference"`` (pure Python, slow).
    :param proofs: first test position classes and pagoda functions and answer at once
        when they forbid the problem, and prune the search with pagoda functions when the
        goal names its holes; False searches with neither (to measure the search alone).
    :param order: the static jump order to try (``compile.ORDERS``); default: the strategy's
        (``"auto"``: every order); the guided sort breaks ties in it; refused with ``"seed"``.
    :param backward: search the dual problem instead, by complement duality: from the
        complement of the finish to the complement of the start; its jumps in reverse
        order solve the original (the goal must name its holes).
    :param beam_width: positions the ``"beam"`` strategy keeps per level (1 to 2**32 - 1;
        None: 20,000): the levels kept and one level's children, about 30 bytes a child, in
        ``limit.memory_bytes``. ``"auto"`` doubles its beam's width each round up to this
        (None: up to the memory budget).
    :param progress: with ``"auto"``, called before each of its searches with a
        :class:`pegsolver.engine.portfolio.Progress` (for a status line); with
        ``minimize="moves"``, every quarter second or so while its levels or beams grow
        (``member`` says what is being made, ``round`` is 0). The other strategies run one
        search in the core, which reports nothing on the way: it is not called.
    :param minimize: None (any solution), or ``"moves"``: a solution with the fewest moves
        (a move: consecutive jumps by one peg), proved minimal by bidirectional breadth-first
        search by moves (:mod:`pegsolver.engine.fewest_moves`); ``optimal`` and
        ``lower_bound`` say what was proved (a solution found before a limit stopped the
        proof is solved, not optimal). Levels take up to ``limit.memory_bytes`` (default
        4 GiB). Needs the default strategy and backend, a goal that names its finish (or K
        pegs anywhere), and no order, beam width or backward search.
    :returns: a :class:`Solution`, solved or with the reason it is not.
    :raises UnknownVariantError: unknown variant name.
    :raises GoalError: a goal that cannot apply (more pegs than the start, ...).
    :raises BoardTooLargeError: more holes than the compiled core takes (128).
    :raises CoreMissingError: the compiled core is not built.
    :raises PegsolverError: unknown strategy or backend, a beam width out of range or for a
        strategy other than beam or auto, arguments of the wrong type (progress not callable,
        proofs or backward not a bool), a limit that is not a Limit, a memory budget over
        1 TiB or threads other than 1.
    """
    board = resolve_position(board)
    check_options(strategy, order, backend, progress, proofs, backward)
    width = None if beam_width is None else check_beam_width(beam_width, strategy=strategy)
    limit = search_limit(limit)
    check_minimize(minimize, strategy, backend, order, backward, beam_width)
    goal = read_goal(goal)
    shape = board.shape
    goal = (goal or default_goal(board, strategy)).resolve(shape)
    goal.check(shape, board.pegs_mask)
    if backward and goal.finish is None:
        raise GoalError("backward search needs a goal that names its holes (a finish hole or pattern)")
    run = Run(strategy, limit, backend, proofs, order, width, progress)
    try:
        if minimize == "moves":
            from .engine.fewest_solve import solve_fewest_moves
            from .engine.portfolio import solve_auto  # no proofs again, but pagoda pruning as ``proofs`` says
            return solve_fewest_moves(board, goal, limit, proofs,
                                      lambda rest: solve_auto(board, goal, replace(run, limit=rest)), progress)
        if goal.fewest_pegs:
            from .engine.fewest import solve_fewest  # it calls solve() for each peg count
            return solve_fewest(board, run)
        return run.solve(board, goal, backward)
    except KeyboardInterrupt:  # Ctrl-C outside the core's loop (proofs, compiling): same answer
        return interrupted(board, goal, run, backward, minimize)


__all__ = ["Limit", "Stats", "Solution", "Reason", "solve", "resolve_board", "default_goal", "AUTO"]

# Names this module held before the engine/proofs layout: still importable, with a warning.
_MOVED = {
    "impossibility": "engine.search", "Run": "engine.search", "dual": "engine.search",
    "from_dual": "engine.search", "replay": "engine.solution", "empty_stats": "engine.solution",
    "unsolved": "engine.solution", "class_obstacle": "proofs.obstacles", "pagoda_obstacle": "proofs.obstacles",
    "as_whole": "engine.limits", "as_seconds": "engine.limits", "goal_symmetries": "engine.compile",
}


def __getattr__(name: str) -> object:
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    import warnings
    new = f"{__package__}.{_MOVED[name]}"
    warnings.warn(f"pegsolver.solver.{name} has moved to {new}", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(new), name)
