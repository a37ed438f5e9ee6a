"""Benchmarks of the compiled core (pytest-benchmark).

Targets for a 2-core machine of this project's class: the seed strategy runs at least
200 million canMove tests per second (``extra_info["tests_per_second"]``, from the core's
own loop time), and English centre -> centre through the Python API takes under 5 ms
(the bench median). Counters are exact and go in ``extra_info``.
"""
import pytest

import pegsolver
from pegsolver import Goal, solve
from replay import assert_solves


def run(benchmark, fn, rounds=20):
    """Benchmark fn, return its last result; record the fastest core loop time."""
    results = []

    def call():
        results.append(fn())
        return results[-1]

    benchmark.pedantic(call, rounds=rounds, warmup_rounds=1, iterations=1)
    sol = results[-1]
    best = min(r.stats.seconds for r in results)
    benchmark.extra_info.update(tests=sol.stats.tests, nodes=sol.stats.nodes,
                                table_entries=sol.stats.table_entries, core_seconds_min=best,
                                tests_per_second=sol.stats.tests / best if best else None)
    return sol


@pytest.mark.benchmark(group="english-centre")
@pytest.mark.parametrize("strategy", ["seed", "dfs", "table", "symmetry", "ordered", "guided"])
def test_english(benchmark, strategy):
    # seed keeps the seed's goal (one peg anywhere); the others go centre to centre
    sol = run(benchmark, lambda: solve("english", strategy=strategy))
    assert_solves(sol)
    if strategy == "seed":
        assert sol.stats.tests == 391_859


@pytest.mark.benchmark(group="english-centre")
def test_english_reference_seed(benchmark):
    sol = run(benchmark, lambda: solve("english", strategy="seed", backend="reference"), rounds=3)
    assert sol.stats.tests == 391_859


@pytest.mark.benchmark(group="french-a3")
def test_french_a3(benchmark):
    sol = run(benchmark, lambda: solve("french"), rounds=5)
    assert_solves(sol)


@pytest.mark.benchmark(group="triangle5")
def test_triangle5_all_vacancies(benchmark):
    board = pegsolver.find_variant("triangle5").board()
    starts = [board.with_pegs(board.shape.full_mask & ~(1 << h)) for h in range(15)]

    class All:  # sums the counters of the 15 solves
        def __init__(self, sols):
            self.sols = sols
            self.stats = type("S", (), {k: sum(getattr(s.stats, k) for s in sols)
                                        for k in ("tests", "nodes", "table_entries", "seconds")})

    result = run(benchmark, lambda: All([solve(s, Goal.anywhere()) for s in starts]), rounds=5)
    for sol in result.sols:
        assert_solves(sol)


@pytest.mark.benchmark(group="api-overhead")
@pytest.mark.parametrize("strategy", ["auto", "symmetry"])
def test_python_layer_cost(benchmark, strategy):
    # English centre: both do one search of 1,217 nodes. For symmetry, extra_info
    # "overhead_ms" is what the Python layer and the core's set-up add to the core's own loop
    # (the median call less the fastest loop; issue 13 asks for at most 0.1 ms); auto's median
    # less symmetry's is what the portfolio adds.
    board = pegsolver.find_variant("english").board()
    sol = run(benchmark, lambda: solve(board, strategy=strategy), rounds=200)
    assert_solves(sol)
    assert sol.stats.nodes == 1217
    if not benchmark.disabled and strategy == "symmetry":
        median = benchmark.stats.stats.median
        benchmark.extra_info["overhead_ms"] = (median - benchmark.extra_info["core_seconds_min"]) * 1e3
