"""``pegsolver bench``: the strategies compared on the problem set."""
from __future__ import annotations

import argparse
import json
import sys

from ..engine import limits
from ..engine.stopping import interrupt_name
from ..errors import PegsolverError
from . import bench
from . import bench_report as report
from .cli_args import EXIT_INTERRUPTED, EXIT_SOLVED, EXIT_UNSOLVED, Subparsers
from .cli_values import number, whole
from .output_paths import check_output_file
from .progress import progress_bar


def add_bench_parser(sub: Subparsers) -> None:
    """The ``bench`` subcommand's arguments."""
    n = sub.add_parser("bench", help="compare the search strategies on the standard problem set",
                       description="Solve each problem of the standard set with each strategy variant under a "
                                   "limit per run, and print a table per problem: tests, nodes, table entries, "
                                   "table memory, wall seconds and speed relative to the seed search. Exit code: "
                                   "0 done (runs stopped by a limit included), 1 an answer contradicting the "
                                   "problem set, 2 bad input, 130 Ctrl-C (what finished is printed).")
    n.add_argument("--problems", nargs="+", action="extend", metavar="NAME",
                   help="problems to run, by name (default: all; --list)")
    n.add_argument("--strategies", nargs="+", action="extend", metavar="NAME",
                   help=f"strategy variants to run (default: all): {', '.join(bench.BENCH_STRATEGIES)}")
    n.add_argument("--nodes", type=whole, default=bench.DEFAULT_NODES, metavar="N",
                   help=f"stop a run after N positions; 0 for no limit (default: {bench.DEFAULT_NODES:,})")
    n.add_argument("--seconds", type=number, default=bench.DEFAULT_SECONDS, metavar="S",
                   help=f"stop a run after S seconds; 0 for no limit (default: {bench.DEFAULT_SECONDS:g})")
    out = n.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print every result as one JSON object")
    out.add_argument("--summary", action="store_true",
                     help="print only a markdown table: per problem the fastest strategy and its speed "
                          "relative to the seed search and the pure-Python reference")
    out.add_argument("--list", action="store_true", help="list the problems and strategy variants, run nothing")
    n.add_argument("--csv", metavar="FILE", help="also write one CSV row per run to FILE")
    n.add_argument("--plot", metavar="FILE", help="also draw work and time per strategy in FILE (.png, .svg, .pdf)")


def cmd_bench(args: argparse.Namespace) -> int:
    problem_set = bench.load_problems()
    if args.list:
        idle = [flag for flag, value in (("--problems", args.problems), ("--strategies", args.strategies),
                                         ("--csv", args.csv), ("--plot", args.plot)) if value is not None]
        if idle:   # refused, not ignored, as solve refuses options that would do nothing
            raise PegsolverError(f"--list runs nothing, so {' and '.join(idle)} would do nothing: drop --list to run")
        for p in problem_set.problems:
            print(f"{p.name}: {p.describe()} (expected: {p.expect}{', small' if p.small else ''})\n  {p.source}")
        print(f"problem set v{problem_set.version}\nstrategies:")
        for name, kwargs in bench.BENCH_STRATEGIES.items():
            print(f"  {name}: solve({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})")
        return EXIT_SOLVED
    limit = bench.default_limit(nodes=limits.check_nodes(args.nodes, "--nodes", zero_is_none=True),
                                seconds=limits.check_seconds(args.seconds, "--seconds", zero_is_none=True))
    plan = bench.plan_bench(args.problems, args.strategies, problem_set)
    if not plan.runs:  # every chosen pair skipped: say why instead of an empty report
        raise PegsolverError("nothing to run: " + "; ".join(f"{k.strategy} on {k.problem}: {k.why}"
                                                            for k in plan.skipped))
    # Output files are checked before the runs, so that a long bench is not lost at the end.
    csv_path = check_output_file(args.csv, "CSV file") if args.csv is not None else None
    plot_path = check_output_file(args.plot, "chart", report.PLOT_SUFFIXES) if args.plot is not None else None
    if csv_path and plot_path and csv_path.resolve() == plot_path.resolve():
        raise PegsolverError(f"--csv and --plot name the same file {args.csv!r}: one would overwrite the other")
    with progress_bar("bench", len(plan.runs)) as bar:
        run = bench.run_bench(plan, limit, before=lambda p, s: bar.status(f"{p} / {s}"),
                              after=lambda r: bar.advance())
    if args.json:
        print(json.dumps(run.to_json()))
    elif args.summary:
        print(report.summary_markdown(run))
    else:
        print(report.tables(run, problem_set))
    if csv_path:
        report.write_csv(run, csv_path)
    if plot_path:
        report.write_plot(run, plot_path)
    if run.interrupted:
        print(f"stopped by {interrupt_name()} after {len(run.results)} of {run.planned} runs", file=sys.stderr)
        return EXIT_INTERRUPTED
    for r in run.unexpected:
        print(f"pegsolver: {r.problem} with {r.strategy}: {r.unexpected}", file=sys.stderr)
    return EXIT_UNSOLVED if run.unexpected else EXIT_SOLVED
