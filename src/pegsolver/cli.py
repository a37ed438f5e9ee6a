"""Command line: ``pegsolver solve english``. Errors in the input exit with code 2."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .board import Board
from .compile import DEFAULT_STRATEGY, STRATEGIES, STRATEGY_HELP
from .errors import CoreMissingError, PegsolverError
from .geometry import GRIDS, SQUARE
from .goal import Goal
from .notation import parse_hole
from .solver import BACKENDS, DEFAULT_TABLE_BYTES, Limit, default_goal, solve
from .variants import find_variant

EXIT_SOLVED, EXIT_UNSOLVED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
DEFAULT_SECONDS = 60.0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pegsolver", description="Peg solitaire solver.")
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="find a solution, or show there is none",
                       description="Solve a board from its start to a goal. Exit code: 0 solved, "
                                   "1 no solution (proved or limit reached), 2 bad input, 130 Ctrl-C.")
    s.add_argument("variant", nargs="?", help="board variant: english, french, triangleN (default: english)")
    s.add_argument("--board", metavar="FILE", help="read the start position from a text file instead")
    s.add_argument("--grid", choices=GRIDS, default=SQUARE, help="grid of --board (default: square)")
    s.add_argument("--vacant", nargs="+", metavar="HOLE",
                   help="start with every hole filled except these (e.g. --vacant a3)")
    s.add_argument("--finish", nargs="+", metavar="HOLE",
                   help="goal: one peg at HOLE, the exact pattern of several holes, or 'any' for one peg anywhere")
    s.add_argument("--strategy", choices=list(STRATEGIES), default=DEFAULT_STRATEGY,
                   help="; ".join(f"{k}: {v}" for k, v in STRATEGY_HELP.items()) + f" (default: {DEFAULT_STRATEGY})")
    s.add_argument("--backend", choices=BACKENDS, default="core", help="core (compiled) or reference (pure Python)")
    s.add_argument("--nodes", type=int, metavar="N", help="stop after N positions (default: no limit)")
    s.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, metavar="S",
                   help=f"stop after S seconds; 0 for no limit (default: {DEFAULT_SECONDS:g})")
    s.add_argument("--table-mb", type=float, default=DEFAULT_TABLE_BYTES / 2**20, metavar="MB",
                   help=f"memory for the table of dead positions in MiB (default: {DEFAULT_TABLE_BYTES >> 20})")
    s.add_argument("--boards", action="store_true", help="print the board after each move")
    s.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return parser


def load_start(args) -> Board:
    if args.board:
        if args.variant:
            raise PegsolverError("give a variant name or --board FILE, not both")
        path = Path(args.board)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise PegsolverError(f"cannot read board file {args.board!r}: {e}") from e
        board = Board.from_text(text, grid=args.grid, name=path.stem)
    else:
        board = find_variant(args.variant or "english").board()
    if args.vacant:
        holes = [parse_hole(board.shape, h) for h in args.vacant]
        board = board.with_pegs(board.shape.full_mask & ~sum(1 << h for h in set(holes)))
        if board.pegs_mask == 0:
            raise PegsolverError("--vacant leaves no peg on the board")
    return board


def choose_goal(args, board: Board) -> Goal:
    if not args.finish:
        return default_goal(board, args.strategy)
    if len(args.finish) == 1 and args.finish[0].lower() in ("any", "anywhere"):
        return Goal.anywhere()
    holes = [parse_hole(board.shape, h) for h in args.finish]
    return Goal.at(holes[0]) if len(holes) == 1 else Goal.pattern(holes)


def print_text(sol, show_boards: bool) -> None:
    st = sol.stats
    shape = sol.start.shape
    vacant = " ".join(sol.start.hole_name(h) for h in sol.start.vacancies())
    print(f"board: {shape.name} ({shape.size} holes, {shape.grid} grid), vacant: {vacant or 'none'}")
    print(f"goal: {sol.goal.describe(shape)}")
    print(f"strategy: {st.strategy} ({STRATEGY_HELP[st.strategy]}), backend: {st.backend}, "
          f"symmetries used: {st.symmetries}")
    if sol.solved:
        print(f"solved: {len(sol.jumps)} jumps in {len(sol.moves)} moves")
        board = sol.start.with_pegs(sol.start.pegs_mask)
        if show_boards:
            print(board.to_text())
        for i, (move, name) in enumerate(zip(sol.moves, sol.move_names()), 1):
            print(f"{i:3d}. {name}")
            if show_boards:
                for j in move:
                    board.push(j)
                print(board.to_text() + "\n")
        print("final: " + " ".join(sol.final.hole_name(h) for h in sol.final.pegs()))
    elif sol.reason == "exhausted":
        print("no solution: every position reachable from the start was searched")
    else:
        print(f"not solved: stopped by {sol.reason} before a solution was found; nothing proved")
    print(f"stats: tests {st.tests:,}  nodes {st.nodes:,}  dead ends {st.dead_ends:,}  "
          f"table hits {st.table_hits:,}  table entries {st.table_entries:,}  "
          f"table {st.table_bytes / 2**20:.2f} MiB  seconds {st.seconds:.6f}")


def cmd_solve(args) -> int:
    board = load_start(args)
    goal = choose_goal(args, board)
    if args.nodes is not None and args.nodes < 1:
        raise PegsolverError(f"--nodes must be at least 1, not {args.nodes}")
    if args.seconds < 0:
        raise PegsolverError(f"--seconds must be 0 (no limit) or positive, not {args.seconds:g}")
    limit = Limit(nodes=args.nodes, seconds=args.seconds or None, table_bytes=int(args.table_mb * 2**20))
    sol = solve(board, goal, strategy=args.strategy, limit=limit, backend=args.backend)
    if args.json:
        print(json.dumps(sol.to_json()))
    else:
        print_text(sol, args.boards)
    if sol.solved:
        return EXIT_SOLVED
    return EXIT_INTERRUPTED if sol.reason == "interrupted" else EXIT_UNSOLVED


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return {"solve": cmd_solve}[args.command](args)
    except (PegsolverError, CoreMissingError) as e:
        print(f"pegsolver: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("pegsolver: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
