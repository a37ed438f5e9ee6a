"""Whole-board commands: ``count`` (every position, level by level, and solution counts) and
``table`` (the survey of every single-vacancy -> single-peg problem)."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from .. import analysis
from ..engine import limits
from ..engine.level_memory import available_memory, check_fits_here, estimate_bytes
from ..engine.limits import size_text
from ..engine.outcome import Reason
from ..engine.spill import tree_bytes
from ..engine.stopping import interrupt_name
from ..errors import PegsolverError
from ..model.board import Board
from ..model.geometry import Hole
from ..model.goal import Goal, plural
from ..model.notation import hole_name, parse_hole
from ..moves import count_moves
from ..solver import Limit
from ..survey import survey_vacancies
from .cli_args import (
    EXIT_INTERRUPTED,
    EXIT_SOLVED,
    EXIT_UNSOLVED,
    Subparsers,
    add_board_args,
    add_vacant_arg,
    load_start,
    means_anywhere,
)
from .cli_values import Once, number, whole
from .progress import progress_bar

PEAK_BOUND_RATIO = 9   # estimate_bytes is 3 to 9 times a count's peak on the boards measured


def add_table_parser(sub: Subparsers) -> None:
    """The ``table`` command's options."""
    t = sub.add_parser("table", help="solve or disprove every single-vacancy -> single-peg problem of a board",
                       description="For every single-vacancy start and every one-peg finish: solved (and "
                                   "replayed), or proved impossible by position class, pagoda function or "
                                   "exhaustive search. Marks: S solved, c class, p pagoda, x exhausted search, "
                                   "? not settled (a limit or Ctrl-C stopped it: nothing proved; after "
                                   "Ctrl-C the pairs not begun are blank); with --fewest-moves, N: the "
                                   "fewest moves, proved; L-U: at least L proved, a solution of U found; >=N: "
                                   "at least N proved, no solution found. Exit code 0 when every pair is "
                                   "settled, else 1.")
    add_board_args(t)
    t.add_argument("--seconds", type=number, default=120.0, metavar="S",
                   help="time limit of one problem's search (the auto portfolio); 0 for none (default: 120)")
    t.add_argument("--table-mb", type=number, metavar="MB",
                   help="memory of one problem's search in MiB (the search by moves' levels with "
                        "--fewest-moves; default 4096, else the table's 256)")
    t.add_argument("--fewest-moves", action="store_true",
                   help="each problem's fewest moves (consecutive jumps by one peg), proved; and the board's "
                        "shortest problem")


def cmd_table(args: argparse.Namespace) -> int:
    board, file_goal = load_start(args)
    # what a board file gives that the table does not use (a trial's vacant = [4] went unsaid)
    unused = [w for w, given in (("start", getattr(args, "file_start", False)), ("[goal]", file_goal is not None))
              if given]
    if unused:
        print(f"pegsolver: note: the table covers every vacancy and finish; the board file's "
              f"{' and '.join(unused)} {'is' if len(unused) == 1 else 'are'} not used", file=sys.stderr)
    seconds = limits.check_seconds(args.seconds, "--seconds", zero_is_none=True)
    memory = None if args.table_mb is None else \
        limits.check_memory(args.table_mb, "--table-mb", high=limits.MAX_SEARCH_BYTES, unit=limits.MIB)
    with progress_bar("problems", board.shape.size ** 2) as bar:
        survey = survey_vacancies(board, progress=lambda done, total: bar.advance(),
                                  limit=Limit(seconds=seconds, memory_bytes=memory),
                                  minimize="moves" if args.fewest_moves else None)
    print(json.dumps(survey.to_json(args.notation)) if args.json else survey.to_text(args.notation))
    if survey.stopped_at_once:
        print(f"stopped by {interrupt_name()} in the search over every pair at once, before any of the "
              f"{board.shape.size ** 2} problems", file=sys.stderr)
        return EXIT_INTERRUPTED
    if survey.interrupted:
        print(f"stopped by {interrupt_name()} after {len(survey) - 1} of {board.shape.size ** 2} problems; "
              f"problem {len(survey)}, interrupted, is not settled", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_SOLVED if survey.settled else EXIT_UNSOLVED


def add_count_parser(sub: Subparsers) -> None:
    """The ``count`` subcommand's arguments."""
    c = sub.add_parser("count", help="enumerate every reachable position: levels, winning positions, solutions",
                       description="Enumerate every position reachable from the start, level by level (one level "
                                   "per jump), up to the symmetries that fix the start and finish; count the jump "
                                   "sequences reaching each, the complete games, and with --finish the winning "
                                   "positions and the solutions. --table: the number of solutions of every "
                                   "single-vacancy -> single-peg problem. Exit code: 0 complete, 1 stopped by a "
                                   "limit (the memory budget included: the levels finished are printed), 2 bad input, "
                                   "130 Ctrl-C.")
    add_board_args(c)
    add_vacant_arg(c)
    c.add_argument("--finish", metavar="HOLE", action=Once,
                   help="one-peg finish: also count winning positions and solutions ('any': no finish)")
    c.add_argument("--by", choices=("jumps", "moves"), default="jumps",
                   help="levels by jumps (the default), or by moves (consecutive jumps by one peg): the positions "
                        "first reached in n moves, forward and, with a finish (--finish, or the board's own), "
                        "backward, and the fewest moves between them")
    c.add_argument("--table", action="store_true",
                   help="solutions of every single-vacancy -> single-peg problem instead of one start")
    c.add_argument("--unreduced", action="store_true", help="count every position, not symmetry classes")
    c.add_argument("--threads", type=whole, metavar="N",
                   help="threads, a power of two up to 64 (default: the CPUs available, rounded down to a "
                        "power of two)")
    c.add_argument("--memory-gb", type=number, metavar="GB",
                   help="memory budget in GiB (default: 3/4 of the memory available)")
    c.add_argument("--seconds", type=number, default=0.0, metavar="S", help="time limit; 0 for none (default)")
    c.add_argument("--force", action="store_true",
                   help="kept for scripts; changes nothing: every run starts, and stops cleanly before a "
                        "level that cannot fit in the memory budget")
    c.add_argument("--positions-only", action="store_true",
                   help="keep no counts (half the memory and disk): positions and dead ends, no solutions")
    c.add_argument("--spill", metavar="DIR",
                   help="out of core: keep each level as compressed partitions in DIR (also the checkpoint)")
    c.add_argument("--resume", metavar="DIR",
                   help="continue the run stored in DIR from its last finished level (give --memory-gb and "
                        "--threads again: they may differ from the first run's)")
    c.add_argument("--workers", type=whole, metavar="N",
                   help="run the partitions on a Dask LocalCluster of N worker processes started here, "
                        "sharing --memory-gb (each spills to disk past 70%% of its share)")
    c.add_argument("--cluster", metavar="ADDRESS",
                   help="run the partitions on the Dask scheduler at ADDRESS (tcp://HOST:8786)")


RATE_SECONDS = 0.05   # a level made in less time gets no rate in the progress line


def usage_text(spill: object) -> str:
    """This process's resident memory now, and what the spill directory holds."""
    try:
        with open("/proc/self/statm") as f:
            rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        text = f"{limits.size_text(rss)} resident"
    except (OSError, ValueError, IndexError):
        text = "memory unknown"
    if isinstance(spill, str):
        text += f", {limits.size_text(tree_bytes(Path(spill)))} on disk"
    return text


def note_past_memory(board: Board, limit: Limit, keep: bool) -> None:
    """A note before a count in memory whose peak is likely past the budget: a trial's
    `count wiegleb` (about 95 G positions) ran a minute and 5.4 GB before it stopped. The
    board must have passed analysis.check_problem (a board over 64 holes got a note before
    its refusal, one with no pegs a traceback)."""
    budget = limit.memory_bytes or available_memory() * 3 // 4
    # the full group's bound is the smallest: a note only where even it is far past the budget
    bound = estimate_bytes(board.shape, board.pegs_mask, len(board.shape.symmetries), keep)
    if bound > PEAK_BOUND_RATIO * budget:
        print(f"pegsolver: note: this count may need up to {size_text(bound)} (a bound from position classes, "
              f"{PEAK_BOUND_RATIO} times the peak at most on the boards measured), past the memory budget of "
              f"{size_text(budget)}: it will likely stop at a level that does not fit. --spill DIR, or a Dask "
              "cluster, goes past memory", file=sys.stderr)


def where_to_run(args: argparse.Namespace) -> dict[str, Any]:
    """analyse()'s spill, resume, workers and cluster from --spill, --resume, --workers, --cluster."""
    for flag, value in (("--spill", args.spill), ("--resume", args.resume)):
        if value is not None and not value.strip():
            raise PegsolverError(f"{flag} needs a directory, not an empty name")
    if args.spill and args.resume and args.spill != args.resume:
        raise PegsolverError(f"--spill {args.spill} and --resume {args.resume} name two directories; "
                             f"--resume DIR alone continues the run in DIR")
    if args.workers is not None and args.cluster:
        raise PegsolverError("--workers starts a cluster here and --cluster joins one: give one of them")
    if args.workers is not None:
        analysis.check_workers(args.workers, "--workers")
    if (args.workers is not None or args.cluster) and args.threads is not None:
        raise PegsolverError("--threads applies to runs in this process; a cluster runs one task a worker")
    if args.finish and not means_anywhere(args.finish) and args.positions_only:
        raise PegsolverError("--positions-only counts no solutions, which --finish asks for: drop one of them")
    if args.table and args.positions_only:
        raise PegsolverError("--table counts solutions, which --positions-only does not keep: drop one of them")
    if args.table and (args.spill or args.resume or args.workers is not None or args.cluster):
        raise PegsolverError("--table runs in memory; --spill, --resume, --workers and --cluster apply to one start")
    return {"spill": args.resume or args.spill, "resume": bool(args.resume), "workers": args.workers,
            "cluster": args.cluster, "positions_only": args.positions_only}


def one_hole(board: Board, goal: Goal) -> Hole | None:
    """The hole of a one-peg finish on one named hole; None for any other goal."""
    if goal.pegs != 1 or goal.finish is None or goal.fewest_pegs:
        return None
    holes = goal.resolve(board.shape).finish_holes()
    return holes[0] if len(holes) == 1 else None


def count_finish(args: argparse.Namespace, board: Board, file_goal: Goal | None) -> Hole | None:
    """The finish a count aims at: ``--finish``, else a board file's one-peg finish on one
    hole (a note on stderr when the file's goal is another kind, which counts cannot use)."""
    if means_anywhere(args.finish):
        return None   # one peg anywhere: no finish to aim at, as solve reads the word
    if args.finish:
        return parse_hole(board.shape, args.finish, args.notation)
    if file_goal is None:
        return None
    hole = one_hole(board, file_goal)
    if hole is None and file_goal != Goal.anywhere():
        print("pegsolver: note: counts aim at one peg on one hole; the board file's [goal] is not used "
              "(give --finish HOLE for one)", file=sys.stderr)
    return hole


def count_by_moves(args: argparse.Namespace, board: Board, limit: Limit, file_goal: Goal | None) -> int:
    """``count --by moves``: the levels by moves, forward and backward, printed."""
    if args.table:
        raise PegsolverError("--table counts the solutions of every problem by jumps; by moves, "
                             "pegsolver table BOARD --fewest-moves gives every problem's fewest moves")
    given = [flag for flag, on in (("--spill", args.spill), ("--resume", args.resume),
                                   ("--workers", args.workers is not None), ("--cluster", args.cluster),
                                   ("--positions-only", args.positions_only), ("--threads", args.threads))
             if on]
    if given:
        raise PegsolverError(f"{given[0]} does not apply to --by moves, which runs in memory on one thread")
    finish = count_finish(args, board, file_goal)
    if finish is None and not args.finish and file_goal is None and board.default_goal is not None:
        finish = one_hole(board, board.default_goal)   # the board's standard finish
    with progress_bar("moves", eta=False) as bar:
        def progress(direction: str, moves: int, positions: int) -> None:
            bar.status(f"{direction}: {positions:,} positions first reached in {plural(moves, 'move')}; "
                       f"{usage_text(None)}")
        result = count_moves(board, finish, reduced=not args.unreduced, limit=limit, progress=progress)
    print(json.dumps(result.to_json(args.notation)) if args.json else result.to_text(args.notation))
    if result.stopped is Reason.INTERRUPTED:
        return EXIT_INTERRUPTED
    return EXIT_UNSOLVED if result.stopped else EXIT_SOLVED


def cmd_count(args: argparse.Namespace) -> int:
    board, file_goal = load_start(args)
    shape = board.shape

    def name(h: Hole) -> str:
        return hole_name(shape, h, args.notation)
    memory = None if args.memory_gb is None else \
        limits.check_memory(args.memory_gb, "--memory-gb", low=limits.MIB, unit=limits.GIB)
    if memory is not None and not args.cluster:
        check_fits_here(memory, f"--memory-gb {args.memory_gb}")
    limit = Limit(seconds=limits.check_seconds(args.seconds, "--seconds", zero_is_none=True), memory_bytes=memory,
                  threads=None if args.threads is None else limits.check_threads(args.threads, "--threads"))
    place = where_to_run(args)
    if args.by == "moves":
        return count_by_moves(args, board, limit, file_goal)
    if args.table:
        if args.finish or args.vacant:
            raise PegsolverError("--table covers every vacancy and finish; drop --vacant and --finish")
        if file_goal is not None:
            print("pegsolver: note: --table covers every vacancy and finish; the board file's [goal] is not used",
                  file=sys.stderr)
        if args.unreduced:
            raise PegsolverError("--unreduced does not apply to --table, which counts solutions, not positions; "
                                 "drop one of them")
        try:
            with progress_bar("vacancies", shape.size) as bar:
                table = analysis.solution_counts(shape, progress=lambda v: bar.advance(), limit=limit,
                                                 force=args.force)
        except analysis.AnalysisStopped as stop:   # what was finished, then why it stopped
            if stop.partial is not None and args.json:
                print(json.dumps({**stop.partial.to_json(args.notation), "stopped": stop.reason,
                                  "message": str(stop)}))
            elif stop.partial:
                print(stop.partial.to_text(args.notation))
            print(f"pegsolver: {stop}", file=sys.stderr)
            return EXIT_INTERRUPTED if stop.reason is Reason.INTERRUPTED else EXIT_UNSOLVED
        print(json.dumps(table.to_json(args.notation)) if args.json else table.to_text(args.notation))
        return EXIT_SOLVED
    finish = count_finish(args, board, file_goal)
    # refused before the memory note (a trial's crash on no pegs, a budget too small)
    analysis.check_problem(board, finish, limit=limit, workers=place["workers"], cluster=place["cluster"])
    if not any(place.values()):
        note_past_memory(board, limit, finish is not None)
    with progress_bar("levels", board.peg_count, eta=False) as bar:  # levels differ too much in size
        last = [time.monotonic()]

        def progress(k: int, n: int) -> None:
            now = time.monotonic()
            # no rate for the levels a resume reads back in microseconds (a trial saw 494 M a second)
            rate = f", {n / (now - last[0]):,.0f} a second" if now - last[0] >= RATE_SECONDS else ""
            last[0] = now
            bar.advance()
            bar.status(f"{n:,} positions after {k} jumps{rate}; {usage_text(place['spill'])}")

        def on_step(k: int, step: str, done: int, total: int, seconds: float) -> None:
            left = f", about {seconds * (total - done) / done:,.0f} s left in this step" if done else ""
            what = f"winning positions: {done} of {total} levels met" if step == "winning" else \
                f"level {k}: {step}, {done} of {plural(total, 'partition')}"
            bar.status(f"{what}{left}; {usage_text(place['spill'])}")
        result = analysis.analyse(board, finish, reduced=not args.unreduced, progress=progress, on_step=on_step,
                                  keep_positions=finish is not None, limit=limit, force=args.force, **place)
    print(json.dumps(result.to_json(name)) if args.json else result.to_text(args.notation))
    if result.stopped is Reason.INTERRUPTED:
        return EXIT_INTERRUPTED
    return EXIT_UNSOLVED if result.stopped else EXIT_SOLVED
