"""French 37-hole board and triangles of side 1 to 5."""
import pytest

import pegsolver
from pegsolver import Goal, GoalError, Limit, solve
from replay import assert_solves

FRENCH_HOLES = {(r, c) for r in range(7) for c in range(7) if abs(r - 3) + abs(c - 3) <= 4}


def test_french_shape_and_standard_start():
    board = pegsolver.find_variant("french").board()
    assert set(board.shape.coords) == FRENCH_HOLES
    assert board.vacancies() == [board.hole("a3")]
    assert board.shape.coords[board.hole("a3")] == (2, 0)


def test_french_a3_to_anywhere_solves_and_replays():
    sol = solve("french")
    assert sol.goal == Goal.anywhere()
    assert_solves(sol)
    assert len(sol.jumps) == 35


def test_french_centre_stops_at_its_node_limit_within_its_table_budget():
    board = pegsolver.find_variant("french").board()
    start = board.with_pegs(board.shape.full_mask & ~(1 << board.hole("d4")))
    budget = 1 << 20
    sol = solve(start, Goal.anywhere(), limit=Limit(nodes=300_000, memory_bytes=budget), proofs=False)
    assert not sol.solved and sol.reason == "node limit"
    assert sol.stats.nodes == 300_000
    assert 0 < sol.stats.table_bytes <= budget
    assert sol.jumps == [] and sol.final == start


def test_time_limit_stops_a_search():
    board = pegsolver.find_variant("french").board()
    start = board.with_pegs(board.shape.full_mask & ~(1 << board.hole("d4")))
    sol = solve(start, Goal.anywhere(), limit=Limit(seconds=0.2), proofs=False)
    assert sol.reason == "time limit"
    assert 0.2 <= sol.stats.seconds < 2


def triangle_holes(n):
    return {(r, c) for r in range(n) for c in range(r + 1)}


def test_triangle_numbering_runs_row_by_row_from_the_apex():
    board = pegsolver.find_variant("triangle5").board()
    assert set(board.shape.coords) == triangle_holes(5)
    assert [board.hole_name(h) for h in range(15)] == [str(i) for i in range(1, 16)]
    assert board.shape.coords[board.hole("4")] == (2, 0)
    assert board.shape.coords[board.hole("13")] == (4, 2)


def test_triangle5_hole4_vacant_has_exactly_four_jumps():
    board = pegsolver.find_variant("triangle5").board()
    board = board.with_pegs(board.shape.full_mask & ~(1 << board.hole("4")))
    starts = sorted(board.hole_name(j.from_hole) for j in board.legal_jumps())
    assert starts == sorted(["1", "6", "11", "13"])
    assert all(board.hole_name(j.to_hole) == "4" for j in board.legal_jumps())


@pytest.mark.parametrize("vacancy", range(15))
def test_triangle5_every_single_vacancy_reduces_to_one_peg(vacancy):
    board = pegsolver.find_variant("triangle5").board()
    start = board.with_pegs(board.shape.full_mask & ~(1 << vacancy))
    assert_solves(solve(start, Goal.anywhere()))


@pytest.mark.parametrize("side", [2, 3])
def test_small_triangles_cannot_finish_with_one_peg(side):
    board = pegsolver.find_variant(f"triangle{side}").board()
    for vacancy in range(board.shape.size):
        start = board.with_pegs(board.shape.full_mask & ~(1 << vacancy))
        for strategy in pegsolver.STRATEGIES:
            sol = solve(start, Goal.anywhere(), strategy=strategy, proofs=False)
            assert not sol.solved and sol.reason == "exhausted"
            assert sol.stats.seconds < 0.5


def test_triangle1_single_vacancy_leaves_no_peg_to_finish_with():
    board = pegsolver.find_variant("triangle1").board()
    assert board.shape.size == 1 and board.peg_count == 0
    with pytest.raises(GoalError, match="the start has no pegs"):
        solve(board)
