"""Beams by moves in the search core (engine.core_moves), the search by moves over 64 holes:
solutions replayed by tests/replay.py, moves counted from coordinates, bounds checked
against the brute force of test_fewest_moves and the published triangle figures (OEIS
A127500: 5, 9, 9, 12, 13 for sides 4 to 8)."""
import json
import subprocess
import sys

import pytest

from pegsolver import Board, Goal, Limit, find_variant, solve
from pegsolver.engine.core_moves import beam_fewest_moves, beam_once
from pegsolver.engine.fewest_moves import fewest_moves
from pegsolver.engine.outcome import Reason
from pegsolver.moves import shortest_over_board
from pegsolver.proofs.merson import merson_regions, region_bound
from replay import UNIT_STEPS, replay_coords, replay_solution
from test_fewest_moves import brute_fewest_moves, moves_of


def _board(name, vacant):
    board = find_variant(name).board()
    return board.with_pegs(board.shape.full_mask & ~(1 << vacant))


@pytest.mark.parametrize("name, vacancies, width, least_complete", [("triangle5", range(15), 1 << 16, 15 * 15)])
def test_beams_against_the_brute_force_fewest_moves_of_every_finish(name, vacancies, width, least_complete):
    # complete beams (no level cut) give the fewest moves exactly, cut ones no fewer
    board0 = find_variant(name).board()
    shape = board0.shape
    complete = 0
    for v in vacancies:
        start = shape.full_mask & ~(1 << v)
        brute = brute_fewest_moves(board0, [h for h in range(shape.size) if start >> h & 1])
        for f in range(shape.size):
            run = beam_once(board0.with_pegs(start), Goal.at(f), width, Limit())
            complete += run.complete
            assert run.moves == brute.get(f) if run.complete else run.moves is None or run.moves >= brute[f], (v, f)
            if run.jumps:
                final = replay_coords(shape.rules, shape.coords, [shape.coords[h] for h in range(shape.size)
                                                                  if start >> h & 1],
                                      [(shape.coords[j.from_hole], shape.coords[j.to_hole]) for j in run.jumps])
                assert final == {shape.coords[f]}
                assert moves_of(shape.coords, run.jumps) == run.moves
            if f in brute:   # the Merson regions' bound never passes the fewest moves
                assert region_bound(shape, start, 1 << f) <= brute[f]
    assert complete >= least_complete


def test_narrow_beams_find_solutions_no_shorter_than_the_fewest():
    board = _board("triangle5", 0)
    brute = brute_fewest_moves(board, [h for h in range(board.shape.size) if board.pegs_mask >> h & 1])
    for width in (1, 4, 64):
        run = beam_once(board, Goal.anywhere(1), width, Limit())
        assert not run.complete
        if run.jumps:
            assert run.moves >= min(brute.values())
            assert moves_of(board.shape.coords, run.jumps) == run.moves
        else:
            assert run.reason is Reason.BEAM


@pytest.mark.parametrize("side, fewest", [(4, 5), (5, 9)])   # 6: test_triangle_beams in benches
def test_shortest_over_board_by_beams_proves_the_published_figure(side, fewest):
    board = find_variant(f"triangle{side}").board()
    shape = board.shape
    starts = [shape.full_mask & ~(1 << h) for h in range(shape.size)]
    a = beam_fewest_moves(board, Goal.anywhere(1), Limit(seconds=120), starts=starts)
    assert a.reason is Reason.SOLVED and a.lower_bound == fewest == a.upper_bound
    assert moves_of(shape.coords, a.jumps) == fewest


def test_triangle11_by_beams_replays_within_its_bounds():
    board = find_variant("triangle11").board()
    sol = solve(board, minimize="moves", limit=Limit(nodes=200_000))   # the first beam, and part of the next
    # a solution found: solved, not optimal, and the reason is what stopped the proof
    assert sol.solved and sol.reason is Reason.NODE_LIMIT and not sol.optimal
    assert sol.jumps, "a beam of 4,096 positions a level finds a solution"
    final = replay_solution(sol)
    assert len(final) == 1
    moves = moves_of(board.shape.coords, sol.jumps)
    assert moves == len(sol.moves)
    # A127500: S(11) >= 19 for the shortest over all vacancies; the bound proved here is lower
    assert sol.lower_bound == region_bound(board.shape, board.pegs_mask, None) < 19 <= moves
    assert sol.stats.strategy == "fewest-moves-beams"
    # the stop names the beam that ran to its end, and the solution's moves
    assert sol.explanation.endswith(f"beams finished (positions a level, the solution's moves): 4,096 ({moves} moves)")


def test_triangle11_shortest_over_board_takes_one_vacancy_per_class():
    a = shortest_over_board("triangle11", Limit(nodes=300_000))
    assert a.reason is Reason.NODE_LIMIT and a.expanded <= 300_000
    shape = find_variant("triangle11").board().shape
    assert a.start in {shape.full_mask & ~(1 << h) for h in range(shape.size)}
    if a.jumps:
        assert a.upper_bound >= 19 and a.upper_bound >= a.lower_bound


def test_beams_obey_the_node_limit_and_memory():
    board = find_variant("triangle11").board()
    sol = solve(board, minimize="moves", limit=Limit(nodes=500))
    assert sol.reason is Reason.NODE_LIMIT and sol.stats.nodes <= 500
    sol = solve(board, minimize="moves", limit=Limit(memory_bytes=1 << 20))
    assert sol.reason is Reason.MEMORY_LIMIT and sol.solved == bool(sol.jumps) and not sol.optimal


def test_cli_fewest_moves_on_triangle11_reports_bounds_in_json():
    out = subprocess.run([sys.executable, "-m", "pegsolver", "solve", "triangle11", "--fewest-moves",
                          "--nodes", "200000", "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr   # a solution found, not proved minimal
    answer = json.loads(out.stdout)
    assert answer["solved"] is True and answer["reason"] == "node limit"
    assert answer["optimal"] is False and answer["lower_bound"] >= 1
    assert answer["stats"]["strategy"] == "fewest-moves-beams"
    assert len(answer["moves"]) >= 19


@pytest.mark.parametrize("side, hexagons", [(6, 0), (7, 1), (10, 3), (11, 3)])
def test_larger_regions_are_closed_disjoint_hexagons(side, hexagons):
    # checked from coordinates: every line of three holes whose middle is in a region has an end in it
    shape = find_variant(f"triangle{side}").board().shape
    regions = merson_regions(shape, larger=True)
    assert regions[:len(merson_regions(shape))] == merson_regions(shape)
    holes = set(shape.coords)
    for m in regions:
        cells = {shape.coords[h] for h in range(shape.size) if m >> h & 1}
        for r, c in cells:
            for dr, dc in UNIT_STEPS[shape.rules]:
                ends = (r - dr, c - dc), (r + dr, c + dc)
                if all(e in holes for e in ends):
                    assert any(e in cells for e in ends), (side, sorted(cells))
    assert sum(m.bit_count() for m in regions) == len({h for m in regions for h in range(shape.size) if m >> h & 1})
    assert sum(m.bit_count() == 7 for m in regions) == hexagons


def test_region_bound_with_a_hexagon_stays_below_the_proved_fewest_moves():
    board = find_variant("triangle7").board()
    shape = board.shape
    start = shape.full_mask & ~(1 << 1)
    proved = fewest_moves(board.with_pegs(start), Goal.anywhere(1))
    assert proved.reason is Reason.SOLVED and proved.lower_bound == 12
    # 10 full regions: 3 corners, a hexagon and 2 pairs along each edge (along the edge with the
    # vacancy, the 2 pairs past it), less one corner that may keep the peg
    assert region_bound(shape, start, None) == 9


# Our triangle-11 figure (README, Fewest moves): 22 moves, found by a beam of 1,000,000
# positions a level; the published bounds are 19 <= S(11) <= 28 (OEIS A127500).
T11_IN_22 = ("7-2, 1-4, 16-7-2, 6-1-4, 13-11, 15-6-13, 25-12, 29-16-18-9-2-7-9, 28-15-13, 42-25-14, 45-28, "
             "53-36-21-19-8-10-19, 31-16-7-18-20-33, 61-42-44, 66-45-43-26-28-43, 63-42-25, 46-29-31-33-18-31, "
             "49-30-32-51-49, 58-37-39-41, 60-39, 56-58-60, 65-44-42-40-38-59-61-63-65")


# Triangle 10 in 18 moves (the published fewest, OEIS A127500), from vacancy 4 to one peg
# at 8: found by a beam of 1,000,000 positions a level (README, Fewest moves).
T10_IN_18 = ("1-4, 7-2, 16-7, 6-1-4-11, 29-16-7, 31-16, 13-11-22, 15-13, 48-29-16, 28-15-6-4-11-22, 50-31, "
             "25-12-5-14-25-40-23-38, 46-48-31, 34-19-21-34-32-30-47, 52-50-48-46-29-16-18, 36-34, "
             "54-52-33-35-52, 55-36-53-51-32-17-19-8")


# Triangle 9 in 16 moves (the published fewest, OEIS A127500), from vacancy 2 to one peg
# at 11: found by a beam of 400,000 positions a level (README, Fewest moves).
T9_IN_16 = ("7-2, 1-4, 16-7-2, 24-11, 41-24, 19-17-32, 39-24, 29-16-7-18-31, 43-41-24-39-22-24, "
            "10-19-32-17, 21-10, 6-1-4-6-15, 45-43, 27-44-42-27-14-5-12-14, 36-21-10-19-34-32, "
            "37-39-41-24-11")


@pytest.mark.parametrize("side, text, vacancy, finish, count", [(11, T11_IN_22, 2, 65, 22),
                                                                 (10, T10_IN_18, 4, 8, 18),
                                                                 (9, T9_IN_16, 2, 11, 16)])
def test_long_triangle_solutions_replay(side, text, vacancy, finish, count):
    shape = find_variant(f"triangle{side}").board().shape
    coords = shape.coords   # numeric hole k is coords[k - 1]: row by row from the top
    moves = [[int(h) for h in move.split("-")] for move in text.split(", ")]
    jumps = [(coords[a - 1], coords[b - 1]) for move in moves for a, b in zip(move, move[1:])]
    start = [coords[h] for h in range(shape.size) if h != vacancy - 1]
    assert len(moves) == count and len(jumps) == shape.size - 2   # one peg left
    assert all(a[-1] != b[0] for a, b in zip(moves, moves[1:]))    # no move continues the one before
    assert replay_coords(shape.rules, coords, start, jumps) == {coords[finish - 1]}


def test_a_stopped_proof_takes_the_regions_bound_when_higher():
    # triangle 10 in 32 MiB: the levels prove little, the regions 16 (published: 18, OEIS A127500)
    a = shortest_over_board("triangle10", Limit(memory_bytes=32 << 20))
    assert a.reason is Reason.MEMORY_LIMIT
    shape = find_variant("triangle10").board().shape
    assert a.regions_bound == min(region_bound(shape, shape.full_mask & ~(1 << h), None)
                                  for h in range(shape.size)) == 16
    assert a.lower_bound == 16 <= 18
    start = shape.full_mask & ~(1 << 1)   # vacancy 2 (a corner vacancy leaves no one-peg finish)
    sol = solve(find_variant("triangle10").board().with_pegs(start), minimize="moves",
                limit=Limit(memory_bytes=32 << 20, nodes=2000))
    assert not sol.optimal and sol.lower_bound == region_bound(shape, start, None) > 10
    assert "by the Merson regions" in sol.explanation


def test_a_start_that_is_the_goal_takes_no_move_over_64_holes():
    board = Board.from_text("\n".join(["o" + "." * 8] + ["." * 9] * 8))   # 81 holes, one peg
    sol = solve(board, Goal.anywhere(1), minimize="moves")
    assert sol.solved and sol.optimal and sol.lower_bound == 0 and sol.jumps == []
    assert sol.explanation == "the start is the goal"


def test_text_after_a_limit_over_64_holes_says_what_was_proved_and_found():
    sol = solve(find_variant("triangle11").board(), minimize="moves", limit=Limit(nodes=200_000))
    text = sol.to_text()
    assert "strategy: fewest-moves-beams" in text
    assert "not proved minimal: stopped by the node limit before the fewest moves were proved" in text
    assert "\nsolved: " in text and "not solved" not in text
    assert "best solution found by a beam by moves" in text and "nothing proved" not in text


def test_when_the_beams_find_nothing_a_search_for_any_solution_gets_the_rest(monkeypatch):
    from pegsolver.engine import core_moves
    from pegsolver.engine.moves_answer import MovesAnswer
    monkeypatch.setattr(core_moves, "beam_fewest_moves", lambda *args, **kwargs: MovesAnswer(Reason.BEAM, 14))
    board = find_variant("square9-diagonal").board()
    sol = solve(board, minimize="moves", limit=Limit(seconds=20))
    assert not sol.optimal and sol.lower_bound == 14 and sol.jumps
    assert "best solution found by the" in sol.explanation
    # the search for any solution's work is counted with the beams' (it checked jumps: tests)
    assert sol.stats.runs >= 2 and sol.stats.tests > 0 and sol.stats.nodes > 0
    assert len(replay_solution(sol)) == 1


def test_a_short_limit_past_64_holes_still_ends_with_a_solution():
    # triangle 14: the first beam (4,096 positions a level) dies out in about 4 s, and a
    # search for any solution given only what the beams left (0.5 s of 5) found nothing;
    # now it runs first, with a third of the limit (2 s: it needs under 1 s on a quiet machine,
    # and 1 s was too little with two other test runs beside it)
    sol = solve(find_variant("triangle14").board(), minimize="moves", limit=Limit(seconds=6))
    assert sol.jumps and not sol.optimal and sol.reason is Reason.TIME_LIMIT
    # named as a search for any solution: a trial read "the beam search" as one of the beams by moves
    assert "best solution found by the" in sol.explanation and sol.stats.runs >= 2
    assert "strategy's search for any solution (by jumps, not moves); beams finished" in sol.explanation
    assert len(replay_solution(sol)) == 1
    assert len(sol.moves) >= sol.lower_bound


def test_a_tight_memory_budget_narrows_the_first_beams():
    # 4,096 positions a level need more than 1 MiB on triangle 8: narrower beams run instead
    board = find_variant("triangle8").board()
    start = board.shape.full_mask & ~(1 << 1)
    a = beam_fewest_moves(board.with_pegs(start), Goal.anywhere(1), Limit(memory_bytes=1 << 20, nodes=300_000))
    assert a.jumps and a.beam_width < 4096 and a.nbytes <= 1 << 20
    assert a.reason is Reason.MEMORY_LIMIT and a.upper_bound >= 13   # OEIS A127500: 13 over all vacancies


@pytest.mark.parametrize("name", ["triangle6", "square9-diagonal"])
def test_ctrl_c_in_the_search_for_any_solution_stops_the_answer(monkeypatch, name):
    # after a limit stopped the search by moves with nothing found, Ctrl-C in the search for
    # any solution makes the answer INTERRUPTED (a table of problems stopped going on to the
    # next problem, which answered "time limit"), up to 64 holes and past them
    from pegsolver.engine import core_moves, fewest_solve, portfolio
    from pegsolver.engine.moves_answer import MovesAnswer
    from pegsolver.engine.solution import empty_stats, unsolved
    nothing = MovesAnswer(Reason.TIME_LIMIT, 5)
    monkeypatch.setattr(fewest_solve, "fewest_moves", lambda *args, **kwargs: nothing)
    monkeypatch.setattr(core_moves, "beam_fewest_moves", lambda *args, **kwargs: nothing)
    monkeypatch.setattr(portfolio, "solve_auto", lambda board, goal, run, backward=False:
                        unsolved(board, goal, Reason.INTERRUPTED, empty_stats("auto", "core")))
    board = find_variant(name).board()
    sol = solve(board, minimize="moves", limit=Limit(seconds=30))
    # past 64 holes the search for any solution runs first: the bound is then the regions'
    bound = 5 if name == "triangle6" else region_bound(board.shape, board.pegs_mask, sol.goal.finish_or_none(),
                                                        sol.goal.pegs)
    assert sol.reason is Reason.INTERRUPTED and not sol.jumps and sol.lower_bound == bound
    assert "stopped by Ctrl-C before the fewest moves were proved" in sol.to_text()


@pytest.mark.parametrize("nodes", [1, 2, 7])
def test_a_node_limit_over_64_holes_is_never_passed(nodes):
    # the first search took the only node and the beams were still given one (2 of 1)
    sol = solve("triangle11", minimize="moves", limit=Limit(nodes=nodes))
    assert sol.reason == "node limit" and sol.stats.nodes <= nodes and not sol.optimal
    assert sol.lower_bound == 16   # the full Merson regions, said also when no beam ran
