"""Pruning and ordering measured: the same problems with proofs/pagodas on and off, and
with each jump ordering, so the value of each technique is a number in extra_info."""
import pytest

import pegsolver
from pegsolver import Goal, Limit, solve

NODE_LIMIT = 5_000_000


def start(name, vacancy=None):
    board = pegsolver.find_variant(name).board()
    if vacancy:
        board = board.with_pegs(board.shape.full_mask & ~(1 << board.hole(vacancy)))
    return board


# name -> (start, goal, node limit): solvable ones get room to finish either way
PROBLEMS = {
    "english d4->d1": (start("english"), Goal.at("d1"), 100_000_000),
    "english d4->a4": (start("english"), Goal.at("a4"), 100_000_000),
    "french d4->any (no one-peg finish)": (start("french", "d4"), Goal.anywhere(), NODE_LIMIT),
    "diamond e5->any (no one-peg finish)": (start("diamond", "e5"), Goal.anywhere(), NODE_LIMIT),
    "triangle4 corner->any": (start("triangle4"), Goal.anywhere(), NODE_LIMIT),
}


@pytest.mark.benchmark(group="proofs and pagoda pruning")
@pytest.mark.parametrize("problem", sorted(PROBLEMS))
@pytest.mark.parametrize("proofs", [True, False], ids=["proofs-on", "proofs-off"])
def test_proofs(benchmark, problem, proofs):
    board, goal, nodes = PROBLEMS[problem]
    sol = benchmark.pedantic(lambda: solve(board, goal, limit=Limit(nodes=nodes), proofs=proofs),
                             rounds=1, iterations=1)
    if proofs:  # proofs may only ever answer what the search confirms
        assert sol.solved or sol.reason in ("position class", "pagoda", "exhausted")
    else:
        assert sol.reason in ("solved", "exhausted", "node limit")
    benchmark.extra_info.update(reason=sol.reason, tests=sol.stats.tests, nodes=sol.stats.nodes,
                                pagoda_prunes=sol.stats.pagoda_prunes, node_limit=nodes)


@pytest.mark.benchmark(group="jump ordering")
@pytest.mark.parametrize("name", ["english", "french", "wiegleb", "triangle11"])
@pytest.mark.parametrize("strategy", ["symmetry", "ordered", "guided"])
def test_ordering(benchmark, name, strategy):
    sol = benchmark.pedantic(lambda: solve(name, strategy=strategy, limit=Limit(nodes=NODE_LIMIT)),
                             rounds=1, iterations=1)
    assert sol.solved or sol.reason == "node limit"
    benchmark.extra_info.update(reason=sol.reason, tests=sol.stats.tests, nodes=sol.stats.nodes,
                                node_limit=NODE_LIMIT)


@pytest.mark.benchmark(group="direction")
@pytest.mark.parametrize("problem", ["english d4->d1", "english d4->a4"])
@pytest.mark.parametrize("backward", [False, True], ids=["forward", "backward"])
def test_direction(benchmark, problem, backward):
    board, goal, nodes = PROBLEMS[problem]
    sol = benchmark.pedantic(lambda: solve(board, goal, limit=Limit(nodes=nodes), backward=backward),
                             rounds=1, iterations=1)
    assert sol.solved
    benchmark.extra_info.update(direction=sol.stats.direction, tests=sol.stats.tests, nodes=sol.stats.nodes)
