"""Reports of a strategy benchmark (:class:`~pegsolver.apps.bench_results.BenchRun`): a table per
problem, a markdown summary, CSV and a chart.

Speed ratios are wall-clock seconds of the baseline (or the reference) divided by the
run's; ``>=`` marks a lower bound, when the baseline was stopped by a limit before it
settled the problem. A ratio is only given for a run that settled its problem (solved,
or proved it impossible), and not when both runs were answered by a proof with no search
(their seconds are noise).
"""
from __future__ import annotations

import csv
import math
import os
from collections.abc import Callable
from dataclasses import asdict, fields
from pathlib import Path

from ..columns import align_columns, markdown_columns
from ..engine.outcome import Reason
from ..errors import OutputFileError
from ..model.goal import plural
from .bench_problems import ProblemSet
from .bench_results import BenchRun, RunResult
from .bench_strategies import BASELINE, REFERENCE
from .output_paths import check_output_file

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
DASH = "-"


def result_text(r: RunResult) -> str:
    """A run's outcome in a few words; a run stopped by a limit never reads as solved."""
    if r.unexpected:
        return f"UNEXPECTED: {r.unexpected}"
    if r.solved:
        return f"solved ({r.jumps} jumps)"
    if r.settled:
        return f"proved: {r.reason}"
    if r.reason == Reason.BEAM:
        return "not found (beam too narrow)"
    return f"stopped: {r.reason}"


def _ratio(x: float) -> str:
    if x >= 10:
        return f"{x:,.0f}x"
    return f"{x:.1f}x" if x >= 0.995 else f"{x:.2g}x"


def memory_text(n: int) -> str:
    """Bytes in KiB below one MiB, else in MiB."""
    return f"{n / 2**20:,.1f} MiB" if n >= 2**20 else f"{n / 2**10:,.0f} KiB"


def compact(v: float, unit: str = "") -> str:
    """A short label for a chart cell: 392k, 3.4M; 850us, 12ms, 0.53s."""
    if unit == "s":
        if v < 1e-3:
            return f"{v * 1e6:.0f}us"
        return f"{v * 1e3:.0f}ms" if v < 0.1 else f"{v:.2f}s"
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= size:
            return f"{v / size:.3g}{suffix}"
    return f"{v:.0f}"


def speedup(r: RunResult, base: RunResult | None) -> str:
    """``base``'s seconds over ``r``'s, as text; ``-`` when no ratio can be given."""
    if base is None or not r.settled or not (base.settled or base.hit_limit):
        return DASH
    if r.nodes == 0 and base.nodes == 0:   # both answered by a proof, no search: the ratio is noise
        return DASH
    # Sub-microsecond times (a proof answered at once) would give absurd ratios.
    ratio = base.seconds / max(r.seconds, 1e-6)
    return _ratio(ratio) if base.settled else ">=" + _ratio(ratio)


def problem_table(run: BenchRun, problem: str) -> str:
    """The plain-text table of one problem's runs."""
    base = run.find(problem, BASELINE)
    # The reference's table is a Python set whose size it does not measure.
    rows = [[r.strategy, result_text(r), f"{r.tests:,}", f"{r.nodes:,}", f"{r.table_entries:,}",
             memory_text(r.table_bytes) if r.backend == "core" else DASH, f"{r.seconds:.4f}", speedup(r, base)]
            for r in run.for_problem(problem)]
    headers = ["strategy", "result", "tests", "nodes", "table entries", "table memory", "seconds",
               f"vs {BASELINE}"]
    return align_columns(headers, rows, ("left", "left", "right", "right", "right", "right", "right", "right"))


def limit_text(run: BenchRun) -> str:
    parts = []
    if run.limit.nodes is not None:
        parts.append(plural(run.limit.nodes, "node"))
    if run.limit.seconds is not None:
        parts.append(f"{run.limit.seconds:g} s")
    parts.append(f"{run.limit.table_bytes / 2**20:g} MiB of table")
    return ", ".join(parts)


def tables(run: BenchRun, problem_set: ProblemSet | None = None) -> str:
    """Every problem's table, with a heading naming the problem, then the totals."""
    out = []
    described = {p.name: p for p in problem_set.problems} if problem_set else {}
    for name in run.problems():
        p = described.get(name)
        heading = f"{name}: {p.describe()} (expected: {p.expect})" if p else name
        skipped = [s.strategy for s in run.skipped if s.problem == name]
        stopped = run.unfinished_for(name)
        out.append(heading + "\n" + problem_table(run, name)
                   + (f"\nnot run: {', '.join(skipped)} (does not apply)" if skipped else "")
                   + (f"\nnot run: {', '.join(stopped)} (the bench was stopped)" if stopped else ""))
    out.append(footer(run))
    return "\n\n".join(out)


def footer(run: BenchRun) -> str:
    rss = f"; process peak RSS {run.peak_rss_bytes / 2**20:,.0f} MiB" if run.peak_rss_bytes else ""
    took = f"{run.seconds:.1f}" if run.seconds >= 1 else f"{run.seconds:.3f}"   # not "0.0 s"
    return (f"problem set v{run.version}; {len(run.results)} of {run.planned} runs in {took} s; "
            f"limits per run: {limit_text(run)}. seconds: wall time of solve(); table memory: the run's table "
            f"(or beam levels) from Stats.table_bytes, not the process's RSS{rss}.")


def best_run(results: list[RunResult]) -> RunResult | None:
    """The fastest run of the compiled core that settled its problem (ties: the earlier
    strategy), or None. The pure-Python reference is what the best is compared with."""
    settled = [r for r in results if r.settled and not r.unexpected and r.backend == "core"]
    return min(settled, key=lambda r: r.seconds) if settled else None


def summary_markdown(run: BenchRun) -> str:
    """A markdown table: per problem the fastest strategy, its seconds, and how many
    times faster it is than the seed baseline and the pure-Python reference."""
    rows = []
    for name in run.problems():
        results = run.for_problem(name)
        best = best_run(results)
        if best is None:
            rows.append([name, "none settled it within the limits", DASH, DASH, DASH, DASH])
            continue
        if all(r.nodes == 0 for r in results if r.settled and r.backend == "core"):   # no race to win
            rows.append([name, "every strategy: a proof, no search", result_text(best), DASH, DASH, DASH])
            continue
        ref = run.find(name, REFERENCE)
        stopped = run.unfinished_for(name)   # the fastest of those that ran, not of all
        partial = f" (of {len(results)} run; {len(stopped)} not: stopped)" if stopped else ""
        rows.append([name, best.strategy + partial, result_text(best), f"{best.seconds:.4f}",
                     speedup(best, run.find(name, BASELINE)), speedup(best, ref)])
    headers = ["problem", "fastest strategy", "result", "seconds", f"vs {BASELINE}", f"vs {REFERENCE}"]
    caption = (f"Problem set v{run.version}, limits per run {limit_text(run)}; seconds are wall time of "
               f"`solve()`; `>=` means the other run was stopped by a limit; `{DASH}`: not run, not settled, or both "
               f"answered by a proof with no search (no ratio to give).")
    return caption + "\n\n" + markdown_columns(headers, rows)


def write_csv(run: BenchRun, path: str | os.PathLike[str]) -> Path:
    """One row per run: the problem set version then every :class:`RunResult` field.

    :raises OutputFileError: the file cannot be written.
    """
    p = check_output_file(path, "CSV file")
    names = ["version"] + [f.name for f in fields(RunResult)]
    try:
        with open(p, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=names)
            w.writeheader()
            for r in run.results:
                w.writerow({"version": run.version, **asdict(r)})
    except OSError as e:
        raise OutputFileError(f"cannot write the CSV file {str(p)!r}: {e.strerror or e}") from None
    return p


def write_plot(run: BenchRun, path: str | os.PathLike[str]) -> Path:
    """A chart of work (canMove tests) and wall time per strategy and problem: two
    heat maps on log scales, rows problems, columns strategies. A cell that did not
    settle its problem is marked ``>`` (stopped by a limit, its value is a lower bound;
    or the beam found nothing); a blank cell was not run, and one marked ``stopped`` was not
    run because the bench was stopped first.

    :raises OutputFileError: the file cannot be written, or its suffix is not
        ``.png``, ``.svg`` or ``.pdf``.
    """
    p = check_output_file(path, "chart", PLOT_SUFFIXES)
    import numpy as np
    from matplotlib.figure import Figure  # no pyplot: no display or global state needed

    problems = run.problems()
    strategies = [s for s in run.strategies if any(r.strategy == s for r in run.results)]
    fig = Figure(figsize=(max(9.0, 2.5 + 1.4 * len(strategies)), max(4.0, 2.0 + 0.42 * len(problems))),
                 layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    # (RunResult field, title, cell label, smallest value drawn: log scales have no 0)
    panels: tuple[tuple[str, str, Callable[[float], str], float], ...] = (
        ("tests", "work: canMove tests (seed: 4 directions a peg; others: every jump a node)", compact, 1.0),
        ("seconds", "time: wall seconds", lambda v: compact(v, "s"), 1e-6))
    for ax, (key, title, fmt, floor) in zip(axes, panels):
        grid = np.full((len(problems), len(strategies)), np.nan)
        for r in run.results:
            if r.strategy in strategies:
                grid[problems.index(r.problem), strategies.index(r.strategy)] = math.log10(max(getattr(r, key), floor))
        image = ax.imshow(np.ma.masked_invalid(grid), cmap="viridis_r", aspect="auto")
        fig.colorbar(image, ax=ax, label=f"log10 {key}", shrink=0.8)
        for r in run.results:
            if r.strategy not in strategies:
                continue
            i, j = problems.index(r.problem), strategies.index(r.strategy)
            dark = image.norm(grid[i, j]) > 0.55  # viridis_r is dark at the top of its range
            ax.text(j, i, ("" if r.settled else ">") + fmt(getattr(r, key)), ha="center", va="center",
                    fontsize=6, color="white" if dark else "black")
        for name, strategy in run.unfinished:
            if name in problems and strategy in strategies:
                ax.text(strategies.index(strategy), problems.index(name), "stopped", ha="center", va="center",
                        fontsize=5, color="gray")
        ax.set_title(title, fontsize=9, wrap=True)
        ax.set_xticks(range(len(strategies)), strategies, rotation=60, ha="right", fontsize=7)
        ax.set_yticks(range(len(problems)), problems, fontsize=7)
    fig.suptitle(f"pegsolver bench, problem set v{run.version}, limits per run: {limit_text(run)}; "
                 "'>' not settled (stopped by a limit: a lower bound)", fontsize=8)
    try:
        fig.savefig(p, dpi=150)
    except OSError as e:
        raise OutputFileError(f"cannot write the chart {str(p)!r}: {e.strerror or e}") from None
    return p
