"""English 33-hole board: the published figures and the seed article's count."""
import pytest

import pegsolver
from pegsolver import Goal, solve
from replay import assert_solves

ENGLISH_HOLES = {(r, c) for r in range(7) for c in range(7) if 2 <= r <= 4 or 2 <= c <= 4}


def test_english_shape_is_the_33_hole_cross():
    board = pegsolver.find_variant("english").board()
    assert set(board.shape.coords) == ENGLISH_HOLES
    assert board.shape.coords[board.hole("d4")] == (3, 3)
    assert board.vacancies() == [board.hole("d4")]
    assert len(board.shape.jumps) == 76


def test_centre_to_centre_solves_and_replays():
    sol = solve("english")
    d4 = sol.start.hole("d4")
    assert sol.goal == Goal.at(d4)
    assert_solves(sol, finish=[d4])
    assert len(sol.jumps) == 31
    assert sum(len(m) for m in sol.moves) == 31


@pytest.mark.parametrize("backend", ["core", "reference"])
def test_seed_strategy_makes_391859_tests(backend):
    # The seed article: row-major scan, W N E S, one peg anywhere, no table.
    sol = solve("english", strategy="seed", backend=backend)
    assert sol.goal == Goal.anywhere()
    assert sol.stats.tests == 391_859
    assert_solves(sol)


@pytest.mark.parametrize("strategy", ["dfs", "table", "symmetry"])
def test_every_strategy_solves_centre_to_centre(strategy):
    sol = solve("english", strategy=strategy)
    assert_solves(sol, finish=[sol.start.hole("d4")])


def test_counters_are_deterministic():
    a, b = solve("english").stats, solve("english").stats
    assert (a.tests, a.nodes, a.table_hits, a.table_entries) == (b.tests, b.nodes, b.table_hits, b.table_entries)


def test_symmetry_cuts_work_but_not_the_answer():
    plain = solve("english", strategy="table")
    sym = solve("english", strategy="symmetry")
    assert plain.solved and sym.solved
    assert sym.stats.symmetries == 8 and plain.stats.symmetries == 1
    assert sym.stats.nodes < plain.stats.nodes


def test_off_centre_goal_uses_only_the_symmetries_that_fix_it():
    board = pegsolver.find_variant("english").board()
    sol = solve(board, Goal.at(board.hole("d7")))  # only the mirror through column d fixes d7
    assert sol.stats.symmetries == 2
    assert_solves(sol, finish=[board.hole("d7")])
