"""Benchmarks of the board catalogue's harder problems, with node counts in extra_info."""
import pytest

from pegsolver import Goal, Limit, solve
from replay import assert_solves

NODE_LIMIT = 20_000_000


def record(benchmark, sol):
    benchmark.extra_info.update(tests=sol.stats.tests, nodes=sol.stats.nodes,
                                table_entries=sol.stats.table_entries, node_limit=NODE_LIMIT,
                                core_seconds=sol.stats.seconds)


@pytest.mark.benchmark(group="catalogue")
@pytest.mark.parametrize("name,strategy", [
    ("wiegleb", "ordered"), ("wiegleb", "guided"), ("triangle11", "guided"), ("triangle12", "guided"),
    ("english-diagonal", "symmetry"), ("asymmetric", "ordered"), ("square6", "symmetry"),
    ("wiegleb", "beam"), ("diamond", "beam")])
def test_catalogue_solve(benchmark, name, strategy):
    sol = benchmark.pedantic(lambda: solve(name, strategy=strategy, limit=Limit(nodes=NODE_LIMIT)),
                             rounds=1, iterations=1)
    assert_solves(sol, finish=sol.goal.finish)
    record(benchmark, sol)


@pytest.mark.benchmark(group="triangle14")
def test_triangle14_beam(benchmark):
    sol = benchmark.pedantic(lambda: solve("triangle14", strategy="beam", beam_width=2000), rounds=1, iterations=1)
    assert_solves(sol)
    record(benchmark, sol)
    benchmark.extra_info["beam_width"] = 2000


DIAMOND_LIMIT = 3_000_000


@pytest.mark.benchmark(group="diamond d2->f2")
@pytest.mark.parametrize("strategy,width", [("beam", 20_000), ("beam", 5_000), ("guided", 0), ("ordered", 0)])
def test_diamond_off_centre(benchmark, strategy, width):
    # Depth-first strategies stop at the node limit unsolved; the beam solves it.
    kw = {"beam_width": width} if width else {}
    sol = benchmark.pedantic(lambda: solve("diamond", Goal.at("f2"), strategy=strategy,
                                           limit=Limit(nodes=DIAMOND_LIMIT), **kw), rounds=3, iterations=1)
    if strategy == "beam":
        assert_solves(sol, finish=sol.goal.finish)
    else:
        assert sol.reason == "node limit"
    record(benchmark, sol)
    benchmark.extra_info.update(solved=sol.solved, beam_width=width, node_limit=DIAMOND_LIMIT)
