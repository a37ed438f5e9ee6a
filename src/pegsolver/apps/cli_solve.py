"""``pegsolver solve``: one problem, its answer as text or JSON, and its SVG."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine import limits
from ..engine.compile import DEFAULT_BEAM_WIDTH, DEFAULT_STRATEGY, ORDERS, SOLVE_STRATEGIES, STRATEGY_HELP
from ..engine.fewest_moves import count_finishes
from ..engine.outcome import Reason
from ..engine.solution import Solution
from ..errors import GoalError, PegsolverError
from ..model.goal import plural
from ..model.notation import hole_name
from ..solver import BACKENDS, DEFAULT_TABLE_BYTES, Limit, check_beam_width, solve
from . import svg
from .cli_args import (
    EXIT_INTERRUPTED,
    EXIT_SOLVED,
    EXIT_UNSOLVED,
    Subparsers,
    add_board_args,
    add_vacant_arg,
    choose_goal,
    load_start,
    print_problem,
)
from .cli_values import number, whole
from .output_paths import check_output_file
from .progress import Rate, progress_bar

if TYPE_CHECKING:
    from ..engine.portfolio import Progress
    from ..model.board import Board
    from ..model.goal import Goal

DEFAULT_SECONDS = 60.0


def add_solve_parser(sub: Subparsers) -> None:
    """The ``solve`` command's options."""
    s = sub.add_parser("solve", help="find a solution, or show there is none",
                       description="Solve a board from its start to a goal. Exit code: 0 solved (with "
                                   "--fewest-moves: a solution found, proved minimal or not), 1 no solution "
                                   "(proved or limit reached), 2 bad input, 130 Ctrl-C.")
    add_board_args(s)
    add_vacant_arg(s)
    s.add_argument("--finish", nargs="+", action="extend", metavar="HOLE",
                   help="goal: one peg at HOLE, the exact pattern of several holes, 'any' for one peg anywhere "
                        "(--pegs K for K pegs anywhere), or 'fewest': the fewest pegs the start can be reduced "
                        "to, proved; given twice, the holes join one pattern")
    s.add_argument("--pegs", type=whole, metavar="K", help="with --finish any (or no --finish): leave K pegs anywhere")
    s.add_argument("--strategy", choices=list(SOLVE_STRATEGIES), default=DEFAULT_STRATEGY,
                   help="; ".join(f"{k}: {v}" for k, v in STRATEGY_HELP.items()) + f" (default: {DEFAULT_STRATEGY})")
    s.add_argument("--backward", action="store_true",
                   help="search backward by complement duality: from the complement of the finish to the "
                        "complement of the start (needs --finish HOLE or a pattern)")
    s.add_argument("--backend", choices=BACKENDS, default="core", help="core (compiled) or reference (pure Python)")
    s.add_argument("--order", choices=ORDERS, help="static jump order to try (default: the strategy's); "
                                                   "down/up/right/left: jumps landing toward that side first")
    s.add_argument("--beam-width", type=whole, metavar="W",  # no default: given or not matters
                   help=f"positions the beam keeps per level, with --strategy beam or auto (default: "
                        f"{DEFAULT_BEAM_WIDTH:,}); its memory counts against --table-mb")
    s.add_argument("--nodes", type=whole, metavar="N", help="stop after N positions (default: no limit)")
    s.add_argument("--seconds", type=number, default=DEFAULT_SECONDS, metavar="S",
                   help=f"stop after S seconds; 0 for no limit (default: {DEFAULT_SECONDS:g})")
    s.add_argument("--table-mb", type=number, metavar="MB",  # no default: given or not matters
                   help=f"memory for the table of dead positions (or the beam's levels) in MiB "
                        f"(default: {DEFAULT_TABLE_BYTES >> 20})")
    s.add_argument("--no-proofs", dest="proofs", action="store_false",
                   help="no position-class or pagoda proofs and no pagoda pruning: search alone")
    s.add_argument("--fewest-moves", action="store_true",
                   help="a solution with the fewest moves (consecutive jumps by one peg), proved minimal by "
                        "breadth-first search by moves from both ends; under a limit, the best found and the "
                        "fewest proved possible. Its levels take up to --table-mb of memory (default 4096)")
    s.add_argument("--boards", action="store_true", help="print the board after each move (text output only)")
    s.add_argument("--svg", metavar="FILE", help="also draw the solution in FILE as SVG: one board per move")


def cmd_solve(args: argparse.Namespace) -> int:
    # Options that would do nothing here are refused, not silently ignored.
    if args.fewest_moves:
        check_fewest_moves_args(args)
    if args.beam_width is not None and args.strategy not in ("beam", "auto"):
        raise PegsolverError(f"--beam-width applies to --strategy beam (or auto), not to --strategy {args.strategy}")
    if args.boards and args.json:
        raise PegsolverError("--boards draws the boards in the text output; --json has none: use one of them")
    if args.order is not None and args.strategy == "seed":
        raise PegsolverError("--order does nothing with --strategy seed: the seed scans holes row by row")
    if args.table_mb is not None and args.strategy in ("seed", "dfs"):
        raise PegsolverError(f"--table-mb does nothing with --strategy {args.strategy}, which keeps no table")
    if args.table_mb is not None and args.backend == "reference":
        raise PegsolverError("--table-mb does nothing with --backend reference, whose table has no bound")
    if args.beam_width is not None:
        check_beam_width(args.beam_width, "--beam-width: the beam width")
    board, file_goal = load_start(args)
    goal = choose_goal(args, board, file_goal).resolve(board.shape)
    goal.check(board.shape, board.pegs_mask)  # before the header: a refused goal prints only its error
    if args.fewest_moves and goal.fewest_pegs:
        given = "--finish fewest" if args.finish else "the board file's finish = \"fewest\""
        raise GoalError(f"--fewest-moves needs a finish (--finish HOLE, a pattern or 'any'), not {given}")
    if args.fewest_moves:   # too many finishes to start from: refused before the header
        count_finishes(board.shape, goal)
    if args.backward and goal.finish is None:
        raise GoalError("--backward needs a finish that names its holes (--finish HOLE or a pattern)")
    memory = None if args.table_mb is None else \
        limits.check_memory(args.table_mb, "--table-mb", high=limits.MAX_SEARCH_BYTES, unit=limits.MIB)
    limit = Limit(nodes=None if args.nodes is None else limits.check_nodes(args.nodes, "--nodes"),
                  seconds=limits.check_seconds(args.seconds, "--seconds", zero_is_none=True), memory_bytes=memory)
    # before a long search, not after
    svg_path = check_output_file(args.svg, "SVG file", (".svg",)) if args.svg is not None else None
    if not args.json:
        print_problem(board, goal, args.notation)
    with progress_bar("searching") as bar:  # a status line, on a terminal only
        per_second = Rate()

        def progress(p: Progress) -> None:
            fewest = "" if p.fewest_left is None else f", fewest pegs met {p.fewest_left}"
            r = per_second.update(p.nodes, p.seconds)
            rate = "" if r is None else f", {r:,.0f} nodes/s"
            rnd = "" if p.by_moves else f"round {p.round}, "   # the portfolio's rounds count from 0
            bar.status(f"{rnd}{p.member}, {p.nodes:,} nodes{rate}{fewest}")
        sol = solve(board, goal, strategy=args.strategy, limit=limit, backend=args.backend, proofs=args.proofs,
                    order=args.order, backward=args.backward, beam_width=args.beam_width, progress=progress,
                    minimize="moves" if args.fewest_moves else None)
    if svg_path:
        write_solution_svg(svg_path, sol, args.notation)
    if args.json:
        print(json.dumps(sol.to_json(args.notation)))
    else:
        print(sol.to_text(args.notation, args.boards))
        if sol.reason is not None and sol.reason.proves_impossible and standard_finish_kept(args, board, file_goal):
            print(f"note: the finish is {board.shape.name}'s standard one; another vacancy often needs "
                  "another finish: give --finish HOLE, --finish any or --pegs K")
    if sol.reason is Reason.INTERRUPTED:   # also when --fewest-moves found a solution before Ctrl-C
        return EXIT_INTERRUPTED
    return EXIT_SOLVED if sol.solved else EXIT_UNSOLVED


def standard_finish_kept(args: argparse.Namespace, board: Board, file_goal: Goal | None) -> bool:
    """Whether ``--vacant`` changed the start while the goal stayed the variant's standard finish
    (no ``--finish``, ``--pegs`` or file goal): the case that reads as a surprise when impossible."""
    chosen = args.finish or getattr(args, "pegs", None) is not None or file_goal is not None
    return bool(getattr(args, "vacant", None)) and not chosen and board.default_goal is not None \
        and args.strategy != "seed"


def check_fewest_moves_args(args: argparse.Namespace) -> None:
    """--fewest-moves with an option only another search has: refused, naming the option."""
    why = ("--fewest-moves searches by moves itself (from both ends; over 64 holes by beams), and only a "
           "search by moves proves the fewest moves")
    for given, option in ((args.strategy != DEFAULT_STRATEGY, f"--strategy {args.strategy}"),
                          (args.backward, "--backward"), (args.backend != "core", f"--backend {args.backend}"),
                          (args.order is not None, "--order"), (args.beam_width is not None, "--beam-width")):
        if given:
            raise PegsolverError(f"{option} cannot be used with --fewest-moves: {why}")


def write_solution_svg(path: Path, sol: Solution, style: str) -> None:
    """Draw a solution (or, unsolved, its start and the reason) in an SVG file.

    :raises OutputFileError: the file cannot be written.
    """
    shape = sol.start.shape
    vacant = " ".join(hole_name(shape, h, style) for h in sol.start.vacancies()) or "no hole"
    heading = f"{shape.name}: {vacant} vacant, goal {sol.goal.describe(shape, style)}"
    proved = "" if sol.lower_bound is None else (", proved minimal" if sol.optimal
                                                  else f", proved >= {sol.lower_bound} moves")
    if sol.jumps:
        done = "" if sol.solved else f"best found, not solved ({sol.reason}): "
        text = svg.solution_svg(sol.start, sol.jumps, f"{heading}: {done}{plural(len(sol.jumps), 'jump')} in "
                                f"{plural(len(sol.moves), 'move')}{proved}", style)
    else:
        why = f"impossible ({sol.reason})" if sol.reason.proves_impossible else f"not solved ({sol.reason})"
        text = svg.board_svg(sol.start, f"{heading}: {why}{proved}", style)
    svg.write_svg(path, text)
