"""Benchmarks of the board catalogue's harder problems, with node counts in extra_info."""
import pytest
from replay import assert_solves

from pegsolver import Limit, solve

NODE_LIMIT = 20_000_000


def record(benchmark, sol):
    benchmark.extra_info.update(tests=sol.stats.tests, nodes=sol.stats.nodes,
                                table_entries=sol.stats.table_entries, node_limit=NODE_LIMIT,
                                core_seconds=sol.stats.seconds)


@pytest.mark.benchmark(group="catalogue")
@pytest.mark.parametrize("name,strategy", [
    ("wiegleb", "ordered"), ("wiegleb", "guided"), ("triangle11", "guided"), ("triangle12", "guided"),
    ("english-diagonal", "symmetry"), ("asymmetric", "ordered"), ("square6", "symmetry")])
def test_catalogue_solve(benchmark, name, strategy):
    sol = benchmark.pedantic(lambda: solve(name, strategy=strategy, limit=Limit(nodes=NODE_LIMIT)),
                             rounds=1, iterations=1)
    assert_solves(sol, finish=sol.goal.finish)
    record(benchmark, sol)
