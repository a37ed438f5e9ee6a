"""What a bench returns: a :class:`RunResult` per (problem, strategy) pair run, the
pairs planned and skipped, and the whole :class:`BenchRun` with its JSON form.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..solver import Limit
from .bench_problems import BenchProblem, ProblemSet
from .bench_strategies import BENCH_STRATEGIES


@dataclass(frozen=True)
class RunResult:
    """One problem solved (or not) by one strategy variant.

    ``reason`` is :attr:`Solution.reason` (``"solved"``, a proof, or the limit that
    stopped the run); ``settled`` is True when the run solved the problem or proved it
    impossible; ``hit_limit`` when a node, time or memory limit stopped it. Counters
    are :class:`~pegsolver.Stats`': ``tests`` canMove checks, ``nodes`` positions,
    ``table_entries`` positions stored, ``table_bytes`` the memory in bytes of the
    search's table of dead positions (or the beam's levels; 0 for the reference,
    whose table is a Python set), ``pagoda_prunes``, ``dead_ends``, ``table_hits``, ``runs``
    (the searches made: more than 1 for ``auto``) and ``member`` (the member of ``auto``
    that answered). ``seconds`` is the wall time of the
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
    dead_ends: int = 0
    table_hits: int = 0
    runs: int = 1
    member: str = ""


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
    runs that finished, and ``unfinished`` the (problem, strategy) pairs planned but not
    run: the stopped one and those after it); ``seconds`` is the wall time of the whole bench;
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
    unfinished: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    peak_rss_bytes: int | None = None

    def problems(self) -> list[str]:
        """Problem names with at least one result, in order run."""
        return list(dict.fromkeys(r.problem for r in self.results))

    def for_problem(self, problem: str) -> list[RunResult]:
        return [r for r in self.results if r.problem == problem]

    def unfinished_for(self, problem: str) -> list[str]:
        """The strategies a stop left unrun on ``problem``."""
        return [s for p, s in self.unfinished if p == problem]

    def find(self, problem: str, strategy: str) -> RunResult | None:
        return next((r for r in self.results if r.problem == problem and r.strategy == strategy), None)

    @property
    def unexpected(self) -> list[RunResult]:
        return [r for r in self.results if r.unexpected]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: the problem set version, the limits, every result and skip."""
        return {
            "version": self.version,
            "limit": {"nodes": self.limit.nodes, "seconds": self.limit.seconds,
                      "table_bytes": self.limit.table_bytes},
            "strategies": {name: BENCH_STRATEGIES[name] for name in self.strategies},
            "planned": self.planned,
            "interrupted": self.interrupted,
            "unfinished": [{"problem": p, "strategy": s} for p, s in self.unfinished],
            "seconds": self.seconds,
            "peak_rss_bytes": self.peak_rss_bytes,
            "results": [asdict(r) for r in self.results],
            "skipped": [asdict(s) for s in self.skipped],
        }

