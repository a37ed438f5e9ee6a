"""The strategy benchmark: a standard problem set, solved with every search strategy.

``load_problems()`` reads the versioned problem set shipped in the package
(``problems.toml``); ``BENCH_STRATEGIES`` is the one table of strategy variants (name ->
``solve()`` keyword arguments); ``plan_bench()`` picks the (problem, strategy) pairs to
run and ``run_bench()`` runs them under a per-run :class:`~pegsolver.Limit`, returning a
:class:`BenchRun` of :class:`RunResult`. Tables, CSV, JSON and the chart are in
:mod:`pegsolver.report`.

The counters (``tests``, ``nodes``, ...) come from :class:`~pegsolver.Stats` and are
deterministic for a run that finishes or stops at a node limit; ``seconds`` is wall
time and varies. The seed strategy on ``english-any`` makes the seed article's 391,859
canMove tests.
"""
from __future__ import annotations

import sys
import time
import tomllib
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path

from ..engine.compile import AUTO, ORDERS, STRATEGIES
from ..engine.outcome import Reason
from ..errors import BenchError, PegsolverError
from ..model.board import Board
from ..model.goal import Goal
from ..model.variants import find_variant
from ..solver import Limit, Solution, solve

BASELINE = "seed"        # every speed ratio is taken against this variant
BASE = "symmetry"        # the single search whose variants (orders, backward, ...) are measured
REFERENCE = "reference"  # the pure-Python backend, run on small problems only
# Per-run limits of `pegsolver bench`: the node limit stops the fast strategies (so
# their counters stay deterministic), the time limit the slow ones (pure Python, beam).
DEFAULT_NODES = 5_000_000
DEFAULT_SECONDS = 2.0
LIMIT_REASONS = tuple(r for r in Reason if r.is_limit)
PROOF_REASONS = tuple(r for r in Reason if r.proves_impossible)
EXPECTS = ("solved", "impossible")
PROBLEM_KEYS = {"name", "board", "vacant", "finish", "expect", "small", "source"}


def _strategy_table() -> dict[str, dict]:
    # Built from compile.STRATEGIES and ORDERS so that a new strategy or jump order
    # shows up in the benchmark without an edit here.
    table: dict[str, dict] = {name: {"strategy": name} for name in (AUTO, *STRATEGIES)}
    base = BASE
    table[f"{base}-no-proofs"] = {"strategy": base, "proofs": False}
    own_orders = {spec[3] for spec in STRATEGIES.values()}  # already measured by a strategy
    for order in ORDERS:
        if order not in own_orders:
            table[f"{base}-{order}"] = {"strategy": base, "order": order}
    table[f"{base}-backward"] = {"strategy": base, "backward": True}
    table[REFERENCE] = {"strategy": base, "backend": "reference"}
    return table


# name -> keyword arguments of solve(), in the order the reports list them: the auto
# portfolio and every core strategy as solve() runs them (proofs on), then BASE without proofs,
# in each other static jump order, backward, and in the pure-Python reference backend.
BENCH_STRATEGIES: dict[str, dict] = _strategy_table()


@dataclass(frozen=True)
class BenchProblem:
    """One problem of the set: a variant's board, a start and a goal.

    ``vacant`` lists hole names empty at the start (None: the variant's start);
    ``finish`` is None for one peg anywhere, else the hole names left with pegs;
    ``expect`` is ``"solved"`` or ``"impossible"``; ``small`` marks problems the
    pure-Python reference runs; ``source`` says where the problem comes from.
    """

    name: str
    board: str
    vacant: tuple[str, ...] | None
    finish: tuple[str, ...] | None
    expect: str
    small: bool
    source: str

    def start(self) -> Board:
        """The start position.

        :raises UnknownVariantError: the board names no variant.
        :raises UnknownHoleError: a vacant hole is not on the board.
        """
        board = find_variant(self.board).board()
        if self.vacant is None:
            return board
        shape = board.shape
        empty = 0
        for h in self.vacant:
            empty |= 1 << board.hole(h)
        return board.with_pegs(shape.full_mask & ~empty)

    def goal(self) -> Goal:
        """One peg anywhere, one peg on a hole, or exactly a pattern of holes."""
        if self.finish is None:
            return Goal.anywhere()
        return Goal.at(self.finish[0]) if len(self.finish) == 1 else Goal.pattern(self.finish)

    def describe(self) -> str:
        """``english: d4 vacant -> d4`` style summary."""
        vacant = " ".join(self.vacant) if self.vacant else "standard start"
        finish = " ".join(self.finish) if self.finish else "one peg anywhere"
        return f"{self.board}: {vacant} vacant -> {finish}"


@dataclass(frozen=True)
class ProblemSet:
    """The versioned problem set: ``version`` (an int, bumped on any change) and problems."""

    version: int
    problems: tuple[BenchProblem, ...]
    path: str = ""

    def names(self) -> list[str]:
        return [p.name for p in self.problems]


def default_problems_path() -> Path:
    """Where the packaged problem set lives."""
    return Path(str(resources.files(__package__) / "problems.toml"))


def load_problems(path: str | Path | None = None) -> ProblemSet:
    """Read a problem set (default: the one in the package) and check every entry.

    :param path: a TOML file in the format of ``pegsolver/problems.toml``.
    :raises BenchError: the file cannot be read or parsed, or an entry is malformed
        (missing or unknown key, bad value, unknown board or hole, duplicate name);
        the message names the file and the problem.
    """
    path = Path(path) if path is not None else default_problems_path()
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise BenchError(f"cannot read the problem set {str(path)!r}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise BenchError(f"problem set {str(path)!r} is not valid TOML: {e}") from None
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BenchError(f"problem set {str(path)!r} needs a whole-number `version` of at least 1, not {version!r}")
    entries = data.get("problems")
    if not isinstance(entries, list) or not entries:
        raise BenchError(f"problem set {str(path)!r} has no [[problems]] entries")
    problems = []
    for k, entry in enumerate(entries, 1):
        problem = _read_problem(entry, f"problem set {str(path)!r}, problem {k}")
        if problem.name in (p.name for p in problems):
            raise BenchError(f"problem set {str(path)!r} lists the problem name {problem.name!r} twice")
        problems.append(problem)
    return ProblemSet(version, tuple(problems), str(path))


def _read_problem(entry, where: str) -> BenchProblem:
    if not isinstance(entry, dict):
        raise BenchError(f"{where}: expected a table of keys")
    if isinstance(entry.get("name"), str):
        where = f"{where} ({entry['name']!r})"
    unknown = set(entry) - PROBLEM_KEYS
    if unknown:
        raise BenchError(f"{where}: unknown key {sorted(unknown)[0]!r}; expected {', '.join(sorted(PROBLEM_KEYS))}")
    for key in ("name", "board", "finish", "expect", "source"):
        if key not in entry:
            raise BenchError(f"{where}: missing key {key!r}")
    for key in ("name", "board", "expect", "source"):
        if not isinstance(entry[key], str) or not entry[key].strip():
            raise BenchError(f"{where}: {key!r} must be a non-empty string, not {entry[key]!r}")
    if entry["expect"] not in EXPECTS:
        raise BenchError(f"{where}: expect must be one of {', '.join(EXPECTS)}, not {entry['expect']!r}")
    small = entry.get("small", False)
    if not isinstance(small, bool):
        raise BenchError(f"{where}: small must be true or false, not {small!r}")
    vacant = _holes(entry.get("vacant"), "vacant", where, allow_none=True)
    finish = entry["finish"]
    finish = None if finish == "any" else _holes(finish, "finish", where, allow_none=False)
    problem = BenchProblem(entry["name"], entry["board"], vacant, finish, entry["expect"], small,
                           " ".join(entry["source"].split()))
    try:  # board, holes and goal must all exist, so a bad entry fails on loading, not mid-run
        start = problem.start()
        problem.goal().check(start.shape, start.pegs_mask)
    except PegsolverError as e:
        raise BenchError(f"{where}: {e}") from None
    return problem


def _holes(value, key: str, where: str, allow_none: bool) -> tuple[str, ...] | None:
    if value is None and allow_none:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(h, str) for h in value):
        raise BenchError(f"{where}: {key!r} must be a hole name or a list of hole names, not {value!r}")
    return tuple(value)


@dataclass(frozen=True)
class RunResult:
    """One problem solved (or not) by one strategy variant.

    ``reason`` is :attr:`Solution.reason` (``"solved"``, a proof, or the limit that
    stopped the run); ``settled`` is True when the run solved the problem or proved it
    impossible; ``hit_limit`` when a node, time or memory limit stopped it. Counters
    are :class:`~pegsolver.Stats`': ``tests`` canMove checks, ``nodes`` positions,
    ``table_entries`` positions stored, ``table_bytes`` the memory in bytes of the
    search's table of dead positions (or the beam's levels; 0 for the reference,
    whose table is a Python set), ``pagoda_prunes``. ``seconds`` is the wall time of the
    ``solve()`` call (proofs, compiling and search), ``search_seconds`` the search loop's
    alone. ``unexpected`` is empty, or says how the answer contradicts the problem
    set's ``expect`` (a bug).
    """

    problem: str
    strategy: str
    reason: str
    solved: bool
    settled: bool
    hit_limit: bool
    jumps: int
    tests: int
    nodes: int
    table_entries: int
    table_bytes: int
    pagoda_prunes: int
    seconds: float
    search_seconds: float
    backend: str
    direction: str
    unexpected: str = ""


@dataclass(frozen=True)
class Skip:
    """A (problem, strategy) pair not run, and why."""

    problem: str
    strategy: str
    why: str


@dataclass(frozen=True)
class Plan:
    """The pairs a bench will run, in order (problem by problem), and those it skips."""

    problem_set: ProblemSet
    runs: tuple[tuple[BenchProblem, str], ...]
    skipped: tuple[Skip, ...]
    strategies: tuple[str, ...]


@dataclass
class BenchRun:
    """The results of :func:`run_bench`, in the order run.

    ``interrupted`` is True when Ctrl-C stopped the bench (``results`` then holds the
    runs that finished); ``seconds`` is the wall time of the whole bench;
    ``peak_rss_bytes`` the process's peak resident memory in bytes at the end (the
    largest of all runs and whatever ran before; None where the platform does not say).
    """

    version: int
    limit: Limit
    strategies: tuple[str, ...]
    planned: int
    results: list[RunResult] = field(default_factory=list)
    skipped: tuple[Skip, ...] = ()
    interrupted: bool = False
    seconds: float = 0.0
    peak_rss_bytes: int | None = None

    def problems(self) -> list[str]:
        """Problem names with at least one result, in order run."""
        return list(dict.fromkeys(r.problem for r in self.results))

    def for_problem(self, problem: str) -> list[RunResult]:
        return [r for r in self.results if r.problem == problem]

    def find(self, problem: str, strategy: str) -> RunResult | None:
        return next((r for r in self.results if r.problem == problem and r.strategy == strategy), None)

    @property
    def unexpected(self) -> list[RunResult]:
        return [r for r in self.results if r.unexpected]

    def to_json(self) -> dict:
        """JSON-ready data: the problem set version, the limits, every result and skip."""
        return {
            "version": self.version,
            "limit": {"nodes": self.limit.nodes, "seconds": self.limit.seconds,
                      "table_bytes": self.limit.table_bytes},
            "strategies": {name: BENCH_STRATEGIES[name] for name in self.strategies},
            "planned": self.planned,
            "interrupted": self.interrupted,
            "seconds": self.seconds,
            "peak_rss_bytes": self.peak_rss_bytes,
            "results": [asdict(r) for r in self.results],
            "skipped": [asdict(s) for s in self.skipped],
        }


def not_applicable(problem: BenchProblem, strategy: str) -> str | None:
    """Why a strategy variant does not run a problem, or None if it does."""
    kwargs = BENCH_STRATEGIES[strategy]
    if kwargs.get("backward") and problem.finish is None:
        return "backward search needs a finish that names its holes"
    if kwargs.get("backend") == "reference" and not problem.small:
        return "the pure-Python reference runs only the problems marked small"
    return None


def _select(given, known: list[str], what: str) -> list[str]:
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


def plan_bench(problems=None, strategies=None, problem_set: ProblemSet | None = None) -> Plan:
    """The pairs to run: each chosen problem with each chosen strategy that applies.

    :param problems: problem names (a list, or one comma-separated string); None: all.
    :param strategies: names of ``BENCH_STRATEGIES`` (likewise); None: all.
    :param problem_set: default: :func:`load_problems`.
    :raises BenchError: an unknown problem or strategy name, or none given.
    """
    problem_set = problem_set or load_problems()
    chosen = _select(problems, problem_set.names(), "problem")
    names = _select(strategies, list(BENCH_STRATEGIES), "strategy")
    runs, skipped = [], []
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
    linear programs), so that no strategy's time includes them."""
    start, goal = problem.start(), problem.goal()
    solve(start, goal, limit=Limit(nodes=1))
    if problem.finish is not None:
        solve(start, goal, limit=Limit(nodes=1), backward=True)


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
        direction=st.direction, unexpected=check_outcome(problem, sol))
    return result, sol


def peak_rss_bytes() -> int | None:
    """The process's peak resident set size in bytes, or None where unknown."""
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # macOS says bytes, Linux KiB


def run_bench(plan: Plan, limit: Limit | None = None, before=None, after=None) -> BenchRun:
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
    warmed = set()
    try:
        for problem, strategy in plan.runs:
            if before:
                before(problem.name, strategy)
            if problem.name not in warmed:
                warm_up(problem)
                warmed.add(problem.name)
            result, _ = run_one(problem, strategy, limit)
            if result.reason is Reason.INTERRUPTED:  # solve() caught Ctrl-C inside the search
                raise KeyboardInterrupt
            bench.results.append(result)
            if after:
                after(result)
    except KeyboardInterrupt:
        bench.interrupted = True
    bench.seconds = time.perf_counter() - t0
    bench.peak_rss_bytes = peak_rss_bytes()
    return bench
