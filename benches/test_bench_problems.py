"""The standard problem set (pegsolver/problems.toml) under pytest-benchmark: one group
per problem, one bench per strategy variant of ``pegsolver.apps.bench.BENCH_STRATEGIES``,
the counters in ``extra_info``. ``pegsolver bench`` runs the same pairs.

Measuring (``--benchmark-enable``), each run has ``pegsolver bench``'s default limits
and fast runs get several rounds. Under ``--benchmark-disable`` (the CI smoke run and the
test suite) each pair runs once with a small node limit, so the whole file takes seconds.
Every result is checked: a solution is replayed independently, an unsolved run must
have stopped at a limit (or be the beam's incomplete answer), and no answer may
contradict the problem set's ``expect``.
"""
import pytest

from pegsolver import Limit
from pegsolver.apps.bench import (
    BENCH_STRATEGIES,
    DEFAULT_NODES,
    DEFAULT_SECONDS,
    LIMIT_REASONS,
    PROOF_REASONS,
    load_problems,
    not_applicable,
    run_one,
    warm_up,
)
from replay import assert_solves

PROBLEM_SET = load_problems()
SMOKE_LIMIT = Limit(nodes=20_000)
LIMIT = Limit(nodes=DEFAULT_NODES, seconds=DEFAULT_SECONDS)
ROUND_SECONDS = 0.2  # runs faster than this get repeated up to MAX_ROUNDS times
MAX_ROUNDS = 20
_warm: set[str] = set()


def check(problem, strategy, result, sol):
    assert not result.unexpected, result.unexpected
    if sol.solved:
        assert_solves(sol, finish=sol.goal.finish, pegs_left=sol.goal.pegs)
    elif problem.expect == "impossible" and sol.reason in PROOF_REASONS:
        pass
    else:  # the set's problems are solvable or proved: only a limit (or a narrow beam) may stop a run
        allowed = LIMIT_REASONS + (("beam",) if BENCH_STRATEGIES[strategy]["strategy"] == "beam" else ())
        assert sol.reason in allowed, sol.reason


@pytest.mark.parametrize("strategy", list(BENCH_STRATEGIES))
@pytest.mark.parametrize("problem", [pytest.param(p, id=p.name, marks=pytest.mark.benchmark(group=p.name))
                                     for p in PROBLEM_SET.problems])
def test_problem(benchmark, problem, strategy):
    why = not_applicable(problem, strategy)
    if why:
        pytest.skip(why)
    if problem.name not in _warm:  # one-time costs (symmetries, pagoda LPs) go to no strategy
        warm_up(problem)
        _warm.add(problem.name)
    limit = SMOKE_LIMIT if benchmark.disabled else LIMIT
    rounds = 1
    if not benchmark.disabled:
        probe, _ = run_one(problem, strategy, limit)
        rounds = max(1, min(MAX_ROUNDS, int(ROUND_SECONDS / max(probe.seconds, 1e-6))))
    runs = []
    benchmark.pedantic(lambda: runs.append(run_one(problem, strategy, limit)), rounds=rounds, iterations=1)
    result, sol = runs[-1]
    check(problem, strategy, result, sol)
    benchmark.extra_info.update(
        problem_set_version=PROBLEM_SET.version, reason=result.reason, tests=result.tests, nodes=result.nodes,
        table_entries=result.table_entries, table_bytes=result.table_bytes, pagoda_prunes=result.pagoda_prunes,
        search_seconds_min=min(r.search_seconds for r, _ in runs), node_limit=limit.nodes,
        seconds_limit=limit.seconds)
