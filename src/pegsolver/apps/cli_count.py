"""Whole-board commands: ``count`` (every position, level by level, and solution counts) and
``table`` (the survey of every single-vacancy -> single-peg problem)."""
from __future__ import annotations

import json
import sys
import time
from collections import Counter

from .. import analysis
from ..engine import limits
from ..engine.outcome import Reason
from ..errors import PegsolverError
from ..model.goal import plural
from ..model.notation import hole_name, jump_name, parse_hole
from ..solver import Limit
from ..survey import MARKS, survey_vacancies
from .cli_args import EXIT_INTERRUPTED, EXIT_SOLVED, EXIT_UNSOLVED, add_board_args, add_vacant_arg, load_start
from .columns import align_columns
from .progress import progress_bar


def add_table_parser(sub) -> None:
    """The ``table`` command's options."""
    t = sub.add_parser("table", help="solve or disprove every single-vacancy -> single-peg problem of a board",
                       description="For every single-vacancy start and every one-peg finish: solved (and "
                                   "replayed), or proved impossible by position class, pagoda function or "
                                   "exhaustive search. Marks: S solved, c class, p pagoda, x exhausted search, "
                                   "? stopped at the time limit (nothing proved).")
    add_board_args(t)
    t.add_argument("--seconds", type=float, default=120.0, metavar="S",
                   help="time limit of one problem's search (the auto portfolio); 0 for none (default: 120)")


def cmd_table(args) -> int:
    board, _ = load_start(args)
    shape = board.shape
    seconds = limits.check_seconds(args.seconds, "--seconds", zero_is_none=True)
    name = lambda h: hole_name(shape, h, args.notation)  # noqa: E731
    t0 = time.perf_counter()
    with progress_bar("problems", shape.size ** 2) as bar:
        entries = survey_vacancies(board, seconds, progress=lambda done, total: bar.advance())
    seconds = time.perf_counter() - t0
    counts = Counter(e.reason for e in entries)
    if args.json:
        print(json.dumps({
            "board": shape.name, "seconds": seconds, "counts": dict(counts),
            "entries": [{"vacancy": name(e.vacancy), "finish": name(e.finish), "reason": e.reason,
                         "jumps": [jump_name(shape, j, args.notation) for j in e.jumps],
                         "nodes": e.nodes, "seconds": e.seconds,
                         "mapped_from": None if e.mapped_from is None else [name(h) for h in e.mapped_from]}
                        for e in entries]}))
    else:
        width = max(len(name(h)) for h in range(shape.size)) + 1
        grid = {(e.vacancy, e.finish): MARKS.get(e.reason, "?") for e in entries}
        grid.update({(v, f): " " for v in range(shape.size) for f in range(shape.size) if (v, f) not in grid})
        print(f"board: {shape.name}; rows: vacancy, columns: finish; "
              "S solved, c position class, p pagoda, x exhausted search, ? not settled")
        print(" " * width + "".join(f"{name(f):>{width}}" for f in range(shape.size)))
        for v in range(shape.size):
            print(f"{name(v):>{width}}" + "".join(f"{grid[(v, f)]:>{width}}" for f in range(shape.size)))
        print(", ".join(f"{k}: {c}" for k, c in sorted(counts.items())) + f"; {seconds:.1f} s")
    if entries and entries[-1].reason is Reason.INTERRUPTED:
        print(f"interrupted by Ctrl-C after {len(entries) - 1} of {shape.size ** 2} problems", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_SOLVED if all(e.reason in MARKS for e in entries) else EXIT_UNSOLVED


def add_count_parser(sub) -> None:
    """The ``count`` subcommand's arguments."""
    c = sub.add_parser("count", help="enumerate every reachable position: levels, winning positions, solutions",
                       description="Enumerate every position reachable from the start, level by level (one level "
                                   "per jump), up to the symmetries that fix the start and finish; count the jump "
                                   "sequences reaching each, the complete games, and with --finish the winning "
                                   "positions and the solutions. --table: the number of solutions of every "
                                   "single-vacancy -> single-peg problem. Exit code: 0 complete, 1 stopped by a "
                                   "limit, 2 bad input (including a board too large for the memory budget), "
                                   "130 Ctrl-C.")
    add_board_args(c)
    add_vacant_arg(c)
    c.add_argument("--finish", metavar="HOLE", help="one-peg finish: also count winning positions and solutions")
    c.add_argument("--table", action="store_true",
                   help="solutions of every single-vacancy -> single-peg problem instead of one start")
    c.add_argument("--unreduced", action="store_true", help="count every position, not symmetry classes")
    c.add_argument("--threads", type=int, metavar="N",
                   help="threads, a power of two up to 64 (default: the CPUs available, rounded down to one)")
    c.add_argument("--memory-gb", type=float, metavar="GB",
                   help="memory budget in GiB (default: 3/4 of the memory available)")
    c.add_argument("--seconds", type=float, default=0.0, metavar="S", help="time limit; 0 for none (default)")
    c.add_argument("--force", action="store_true",
                   help="run even when the up-front estimate is over the memory budget")


def cmd_count(args) -> int:
    board, _ = load_start(args)
    shape = board.shape
    name = lambda h: hole_name(shape, h, args.notation)  # noqa: E731
    memory = None if args.memory_gb is None else \
        limits.check_memory(args.memory_gb, "--memory-gb", low=limits.MIB, unit=limits.GIB)
    limit = Limit(seconds=limits.check_seconds(args.seconds, "--seconds", zero_is_none=True), memory_bytes=memory,
                  threads=None if args.threads is None else limits.check_threads(args.threads, "--threads"))
    if args.table:
        if args.finish or args.vacant:
            raise PegsolverError("--table covers every vacancy and finish; drop --vacant and --finish")
        if args.unreduced:
            raise PegsolverError("--unreduced does not apply to --table, which counts solutions, not positions; "
                                 "drop one of them")
        try:
            with progress_bar("vacancies", shape.size) as bar:
                table = analysis.solution_counts(shape, progress=lambda v: bar.advance(), limit=limit,
                                                 force=args.force)
        except analysis.AnalysisStopped as stop:
            print(f"pegsolver: {stop}", file=sys.stderr)
            return EXIT_INTERRUPTED if stop.reason is Reason.INTERRUPTED else EXIT_UNSOLVED
        return print_solution_table(shape, table, args.json, name)
    finish = parse_hole(shape, args.finish, args.notation) if args.finish else None
    with progress_bar("levels", board.peg_count) as bar:
        def progress(k, n):
            bar.advance()
            bar.status(f"{n:,} positions after {k} jumps")
        result = analysis.analyse(board, finish, reduced=not args.unreduced, progress=progress,
                                  keep_positions=finish is not None, limit=limit, force=args.force)
    if args.json:
        print(json.dumps(result.to_json(name)))
    else:
        print_analysis(result, name)
    if result.stopped is Reason.INTERRUPTED:
        return EXIT_INTERRUPTED
    return EXIT_UNSOLVED if result.stopped else EXIT_SOLVED


def print_analysis(a, name) -> None:
    shape = a.start.shape
    vacant = " ".join(name(h) for h in a.start.vacancies())
    kind = (f"one per symmetry class ({a.symmetries} symmetries fix the start{' and finish' if a.finish else ''})"
            if a.symmetries > 1 else "every position (no symmetry used)")
    print(f"board: {shape.name} ({plural(shape.size, 'hole')}), vacant: {vacant or 'none'}; positions counted: {kind}")

    def num(x):
        return "?" if x is None else f"{x:,}"
    headers = ["jumps", "pegs", "positions", "dead ends", "sequences"] + (["winning"] if a.finish is not None else [])
    rows = [[str(lv.jumps), str(lv.pegs), num(lv.positions), num(lv.dead_ends), num(lv.sequences)]
            + ([num(lv.winning)] if a.finish is not None else []) for lv in a.levels]
    print(align_columns(headers, rows, ("right",) * len(headers)))
    print(f"total positions: {a.total:,}")
    if a.winning is not None:
        print(f"winning positions (on some solution to {name(a.finish)}): {a.winning:,}")
    if a.finish is not None and a.solutions is not None:
        print(f"solutions ending at {name(a.finish)}: {a.solutions:,}")
    if a.finishes:
        print("solutions by finish: " + ", ".join(f"{name(h)} {n:,}" for h, n in sorted(a.finishes.items())))
    elif not a.stopped:
        print("no one-peg finish")
    if a.games is not None:
        print(f"complete games (played until no jump is left): {a.games:,}")
    print(f"{a.message}; {a.seconds:.2f} s, {a.threads} thread(s), peak {a.peak_bytes / 2**20:,.0f} MiB")


def print_solution_table(shape, table, as_json, name) -> int:
    if as_json:
        print(json.dumps({"board": shape.name, "solutions": {
            name(v): {name(f): table[(v, f)] for f in range(shape.size) if table[(v, f)]}
            for v in range(shape.size)}, "total": sum(table.values())}))
        return EXIT_SOLVED
    rows = [[name(v), f"{sum(table[(v, f)] for f in range(shape.size)):,}"]
            + [f"{table[(v, f)]:,}" if table[(v, f)] else "" for f in range(shape.size)] for v in range(shape.size)]
    print(f"board: {shape.name}; solutions of each vacancy (row) -> finish (column) problem; blank: none")
    print(align_columns(["vacancy", "all"] + [name(f) for f in range(shape.size)], rows,
                        ("right",) * (shape.size + 2)))
    print(f"total: {sum(table.values()):,} solutions; solvable pairs: {sum(1 for n in table.values() if n):,}")
    return EXIT_SOLVED
