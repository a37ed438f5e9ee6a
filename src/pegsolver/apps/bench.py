"""The strategy benchmark's runner: a standard problem set, solved with every search strategy.

``plan_bench()`` picks the (problem, strategy) pairs to run, from the problem set
(:mod:`~pegsolver.apps.bench_problems`, ``load_problems()``) and the strategy variants
(:mod:`~pegsolver.apps.bench_strategies`, ``BENCH_STRATEGIES``); ``run_bench()`` runs them
under a per-run :class:`~pegsolver.Limit`, returning a :class:`BenchRun` of
:class:`RunResult` (:mod:`~pegsolver.apps.bench_results`). Tables, CSV and the chart are
in :mod:`~pegsolver.apps.bench_report`.

The counters (``tests``, ``nodes``, ...) come from :class:`~pegsolver.Stats` and are
deterministic for a run that finishes or stops at a node limit; ``seconds`` is wall
time and varies. The seed strategy on ``english-any`` makes the seed article's 391,859
canMove tests.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable

from ..engine.outcome import Reason
from ..engine.stopping import stop_requested
from ..errors import BenchError
from ..solver import Limit, Solution, solve
from .bench_problems import EXPECTS, PROBLEM_KEYS, BenchProblem, ProblemSet, default_problems_path, load_problems
from .bench_results import BenchRun, Plan, RunResult, Skip
from .bench_strategies import BASE, BASELINE, BENCH_STRATEGIES, REFERENCE

# Per-run limits of `pegsolver bench`: the node limit stops the fast strategies (so
# their counters stay deterministic), the time limit the slow ones (pure Python, beam).
DEFAULT_NODES = 5_000_000
DEFAULT_SECONDS = 2.0
LIMIT_REASONS = tuple(r for r in Reason if r.is_limit)
PROOF_REASONS = tuple(r for r in Reason if r.proves_impossible)


def not_applicable(problem: BenchProblem, strategy: str) -> str | None:
    """Why a strategy variant does not run a problem, or None if it does."""
    kwargs = BENCH_STRATEGIES[strategy]
    if kwargs.get("backward") and problem.finish is None:
        return "backward search needs a finish that names its holes"
    if kwargs.get("backend") == "reference" and not problem.small:
        return "the pure-Python reference runs only the problems marked small"
    return None


def _select(given: str | Iterable[str] | None, known: list[str], what: str) -> list[str]:
    if given is None:
        return list(known)
    if isinstance(given, str):
        given = [given]
    names = [n.strip() for item in given for n in str(item).split(",") if n.strip()]
    if not names:
        raise BenchError(f"no {what} names given; choose from {', '.join(known)}")
    for n in names:
        if n not in known:
            raise BenchError(f"unknown {what} {n!r}; expected one of {', '.join(known)}")
    return list(dict.fromkeys(names))


def plan_bench(problems: str | Iterable[str] | None = None, strategies: str | Iterable[str] | None = None,
               problem_set: ProblemSet | None = None) -> Plan:
    """The pairs to run: each chosen problem with each chosen strategy that applies.

    :param problems: problem names (a list, or one comma-separated string); None: all.
    :param strategies: names of ``BENCH_STRATEGIES`` (likewise); None: all.
    :param problem_set: default: :func:`load_problems`.
    :raises BenchError: an unknown problem or strategy name, or none given.
    """
    problem_set = problem_set or load_problems()
    chosen = _select(problems, problem_set.names(), "problem")
    names = _select(strategies, list(BENCH_STRATEGIES), "strategy")
    runs: list[tuple[BenchProblem, str]] = []
    skipped: list[Skip] = []
    for p in problem_set.problems:
        if p.name not in chosen:
            continue
        for s in names:
            why = not_applicable(p, s)
            if why:
                skipped.append(Skip(p.name, s, why))
            else:
                runs.append((p, s))
    return Plan(problem_set, tuple(runs), tuple(skipped), tuple(names))


def default_limit(nodes: int | None = DEFAULT_NODES, seconds: float | None = DEFAULT_SECONDS) -> Limit:
    """The per-run limit of ``pegsolver bench`` (table budget: solve()'s default).

    :raises PegsolverError: a limit out of range (see :class:`~pegsolver.Limit`).
    :raises BenchError: neither a node nor a time limit (the seed search of a large
        board would never end).
    """
    if nodes is None and seconds is None:
        raise BenchError("a bench needs a node limit or a time limit per run; the seed search of a large "
                         "board would otherwise run for days")
    return Limit(nodes=nodes, seconds=seconds)


def check_outcome(problem: BenchProblem, sol: Solution) -> str:
    """How the answer contradicts the problem's ``expect``, or "" when it does not."""
    if sol.solved and problem.expect == "impossible":
        return "solved a problem the set lists as impossible"
    if sol.reason.proves_impossible and problem.expect == "solved":
        return f"answered {sol.reason!r} on a problem the set lists as solvable"
    return ""


def warm_up(problem: BenchProblem) -> None:
    """Fill the caches a first solve() pays for (the board's symmetries, the pagoda
    linear programs), so that no strategy's time includes them.

    :raises KeyboardInterrupt: Ctrl-C (or SIGTERM) came meanwhile; solve() answered it.
    """
    start, goal = problem.start(), problem.goal()
    sols = [solve(start, goal, limit=Limit(nodes=1))]
    if problem.finish is not None:
        sols.append(solve(start, goal, limit=Limit(nodes=1), backward=True))
    if any(sol.reason is Reason.INTERRUPTED for sol in sols):
        raise KeyboardInterrupt


def run_one(problem: BenchProblem, strategy: str, limit: Limit) -> tuple[RunResult, Solution]:
    """Solve one problem with one strategy variant; the result and the solution.

    :raises BenchError: an unknown strategy name.
    """
    if strategy not in BENCH_STRATEGIES:
        raise BenchError(f"unknown strategy {strategy!r}; expected one of {', '.join(BENCH_STRATEGIES)}")
    start, goal = problem.start(), problem.goal()
    t0 = time.perf_counter()
    sol = solve(start, goal, limit=limit, **BENCH_STRATEGIES[strategy])
    seconds = time.perf_counter() - t0
    st = sol.stats
    settled = sol.reason.settles
    result = RunResult(
        problem=problem.name, strategy=strategy, reason=sol.reason, solved=sol.solved, settled=settled,
        hit_limit=sol.reason.is_limit, jumps=len(sol.jumps) if sol.solved else 0,
        tests=st.tests, nodes=st.nodes, table_entries=st.table_entries, table_bytes=st.table_bytes,
        pagoda_prunes=st.pagoda_prunes, seconds=seconds, search_seconds=st.seconds, backend=st.backend,
        direction=st.direction, unexpected=check_outcome(problem, sol), dead_ends=st.dead_ends,
        table_hits=st.table_hits, runs=st.runs, member=st.member)
    return result, sol


def peak_rss_bytes() -> int | None:
    """The process's peak resident set size in bytes, or None where unknown."""
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # macOS says bytes, Linux KiB


def run_bench(plan: Plan, limit: Limit | None = None, before: Callable[[str, str], object] | None = None,
              after: Callable[[RunResult], object] | None = None) -> BenchRun:
    """Run a plan, pair by pair; Ctrl-C stops it and keeps the runs that finished.

    :param limit: per run (default: :func:`default_limit`).
    :param before: called as ``before(problem_name, strategy)`` before each run.
    :param after: called as ``after(result)`` after each run.
    :returns: a :class:`BenchRun` (``interrupted`` set if Ctrl-C stopped it; the
        interrupted run itself is left out).
    """
    limit = limit or default_limit()
    bench = BenchRun(plan.problem_set.version, limit, plan.strategies, len(plan.runs), skipped=plan.skipped)
    t0 = time.perf_counter()
    warmed: set[str] = set()
    try:
        for problem, strategy in plan.runs:
            if before:
                before(problem.name, strategy)
            if problem.name not in warmed:
                warm_up(problem)
                warmed.add(problem.name)
            result, _ = run_one(problem, strategy, limit)
            if result.reason is Reason.INTERRUPTED or stop_requested():  # solve() caught the signal
                raise KeyboardInterrupt
            bench.results.append(result)
            if after:
                after(result)
    except KeyboardInterrupt:
        bench.interrupted = True
        bench.unfinished = [(p.name, s) for p, s in plan.runs[len(bench.results):]]
    bench.seconds = time.perf_counter() - t0
    bench.peak_rss_bytes = peak_rss_bytes()
    return bench


# The problem set, the strategy variants and the result types live in apps.bench_problems,
# apps.bench_strategies and apps.bench_results; still importable from here.
__all__ = [
    "BASE", "BASELINE", "BENCH_STRATEGIES", "DEFAULT_NODES", "DEFAULT_SECONDS", "EXPECTS", "LIMIT_REASONS",
    "PROBLEM_KEYS", "PROOF_REASONS", "REFERENCE", "BenchProblem", "BenchRun", "Plan", "ProblemSet", "RunResult",
    "Skip", "check_outcome", "default_limit", "default_problems_path", "load_problems", "not_applicable",
    "peak_rss_bytes", "plan_bench", "run_bench", "run_one", "warm_up",
]
