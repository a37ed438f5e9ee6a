"""Fewest moves (a move: consecutive jumps by one peg): published figures, and a brute force
in plain Python over hole coordinates that shares nothing with the package."""
import json
from collections import deque

import numpy as np
import pytest

from pegsolver import Board, Goal, Limit, find_variant, solve
from pegsolver.apps.cli import main
from pegsolver.apps.hint import find_hint
from pegsolver.engine import fewest_moves as fewest_moves_module
from pegsolver.engine import move_levels
from pegsolver.engine.core import enum_core
from pegsolver.engine.move_bounds import bound_from_starts, bound_to_finish
from pegsolver.engine.move_paths import chains
from pegsolver.engine.outcome import Reason
from pegsolver.errors import BoardTooLargeError, GoalError, PegsolverError
from pegsolver.model.notation import parse_hole
from pegsolver.moves import count_moves, shortest_over_board
from pegsolver.survey import survey_vacancies
from replay import UNIT_STEPS, assert_solves, replay_coords

# G. I. Bell, "English Peg Solitaire" (his pages): the centre game by moves, forward levels
# B[n] and backward levels B[-n], one position per symmetry class.
BELL_FORWARD = [1, 1, 2, 9, 47, 263, 1452, 7772, 38150, 164297, 585567, 1641177, 3426496, 5111387, 5327135,
                3909899, 2093768, 843917, 255301, 57579, 10037, 1268, 148, 15]
BELL_BACKWARD = [1, 1, 16, 979, 14115, 126902, 632451, 1954152, 3770028, 4949879, 4796624, 3576434, 2113413,
                 1003420, 387982, 115922, 28134, 4589, 604, 37, 5]
# OEIS A127500 (G. I. Bell, J. Integer Sequences 11, 2008): the fewest moves over all
# single-vacancy -> single-peg problems of the triangle of side n, n = 4, 5, ...
SHORTEST_TRIANGLE = {4: 5, 5: 9, 6: 9, 7: 12}


def moves_of(coords, jumps):
    """Moves of a jump list, counted from coordinates: a jump starting where the last landed
    continues that move."""
    count, last = 0, None
    for j in jumps:
        if coords[j.from_hole] != last:
            count += 1
        last = coords[j.to_hole]
    return count


def move_successors(shape):
    """A function: the peg sets (of coordinates) one move after ``pegs``, every chain of
    jumps of one peg, with repeats."""
    holes = set(shape.coords)
    steps = UNIT_STEPS[shape.rules]

    def moves(pegs):
        for p in pegs:
            todo = [(pegs, p)]
            while todo:
                b, at = todo.pop()
                for dr, dc in steps:
                    over, to = (at[0] + dr, at[1] + dc), (at[0] + 2 * dr, at[1] + 2 * dc)
                    if over in b and to in holes and to not in b:
                        after = (b - {at, over}) | {to}
                        yield after
                        todo.append((after, to))
    return moves


def brute_fewest_moves(board, start_pegs):
    """{finish hole: fewest moves} for one-peg finishes, by breadth-first search over peg sets
    of coordinates, each move every chain of jumps of one peg."""
    coords = list(board.shape.coords)
    moves = move_successors(board.shape)
    first = frozenset(coords[h] for h in start_pegs)
    dist, queue = {first: 0}, deque([first])
    while queue:
        b = queue.popleft()
        for after in moves(b):
            after = frozenset(after)
            if after not in dist:
                dist[after] = dist[b] + 1
                queue.append(after)
    return {coords.index(next(iter(b))): d for b, d in dist.items() if len(b) == 1}


def test_english_centre_is_18_moves_proved():
    sol = solve("english", minimize="moves")
    assert sol.solved and sol.optimal and sol.lower_bound == 18
    assert_solves(sol, finish=[parse_hole(sol.start.shape, "d4")])
    assert moves_of(sol.start.shape.coords, sol.jumps) == 18 == len(sol.moves)
    data = sol.to_json()
    assert data["optimal"] is True and data["lower_bound"] == 18 and len(data["moves"]) == 18


def test_english_levels_by_moves_are_bells():
    result = count_moves("english", "d4")
    assert result.stopped is None
    assert result.forward.sizes == BELL_FORWARD and result.backward.sizes == BELL_BACKWARD
    assert result.forward.total == result.backward.total == 23_475_688   # OEIS A112737's total
    assert result.fewest_moves == result.backward.target_depth == 18


@pytest.mark.parametrize("side", sorted(SHORTEST_TRIANGLE))
def test_triangle_shortest_over_all_problems(side):
    board = find_variant(f"triangle{side}").board()
    answer = shortest_over_board(board)
    assert answer.reason is Reason.SOLVED and answer.lower_bound == SHORTEST_TRIANGLE[side]
    start = board.with_pegs(answer.start)
    assert start.peg_count == board.shape.size - 1
    sol_pegs = {board.shape.coords[h] for h in range(board.shape.size) if answer.start >> h & 1}
    final = replay_coords(board.shape.rules, board.shape.coords, sol_pegs,
                          [(board.shape.coords[j.from_hole], board.shape.coords[j.to_hole]) for j in answer.jumps])
    assert len(final) == 1
    assert moves_of(board.shape.coords, answer.jumps) == SHORTEST_TRIANGLE[side]


@pytest.mark.parametrize("name", ["triangle4", "triangle5"])
def test_every_problem_against_brute_force(name):
    board = find_variant(name).board()
    shape = board.shape
    survey = survey_vacancies(board, None, minimize="moves")
    assert survey.settled
    for v in range(shape.size):
        truth = brute_fewest_moves(board, [h for h in range(shape.size) if h != v])
        got = {e.finish: e for e in survey if e.vacancy == v}
        for f in range(shape.size):
            if f in truth:
                assert got[f].reason is Reason.SOLVED and got[f].optimal and got[f].moves == truth[f], (v, f)
                assert moves_of(shape.coords, got[f].jumps) == truth[f]
            else:
                assert got[f].reason.proves_impossible, (v, f)
    best = survey.shortest
    assert best is not None and best.moves == SHORTEST_TRIANGLE[int(name[-1])]


def test_one_problem_against_brute_force_with_its_levels():
    board = find_variant("triangle5").board()
    truth = brute_fewest_moves(board, [h for h in range(15) if h != 0])
    for f, d in truth.items():
        sol = solve(board, Goal.at(f), minimize="moves")
        assert sol.optimal and sol.lower_bound == d and moves_of(board.shape.coords, sol.jumps) == d
        levels = count_moves(board, f)
        assert levels.fewest_moves == levels.backward.target_depth == d


def test_a_limit_gives_a_lower_bound_and_never_optimal():
    sol = solve("english", minimize="moves", limit=Limit(memory_bytes=30 << 20))
    # solved exactly when a solution was found; never optimal; the reason is what stopped the proof
    assert sol.solved == bool(sol.jumps) and sol.optimal is False and sol.reason is Reason.MEMORY_LIMIT
    assert 1 <= sol.lower_bound <= 18
    if sol.jumps:   # the best solution found, replayed, and no shorter than proved possible
        assert len(sol.moves) >= sol.lower_bound
        assert_solves(sol)
        assert "not proved minimal: stopped by the memory budget" in sol.to_text()
    assert f"proved >= {sol.lower_bound}" in sol.to_text()
    sol = solve("english", minimize="moves", limit=Limit(nodes=1000))
    assert sol.reason is Reason.NODE_LIMIT and sol.optimal is False


@pytest.mark.parametrize("nodes", [15_000, 20_000])
def test_the_search_for_any_solution_under_a_node_limit_keeps_its_pagoda_pruning(nodes):
    # its tenth of the nodes (1,500 or 2,000) covers English with pagoda pruning (1,217 nodes),
    # not without it (2,145): a trial's --fewest-moves --nodes 20000 answered no solution
    sol = solve("english", minimize="moves", limit=Limit(nodes=nodes))
    assert sol.solved and sol.optimal is False and sol.reason is Reason.NODE_LIMIT
    assert sol.stats.nodes <= nodes and len(sol.moves) >= 18 >= sol.lower_bound
    assert_solves(sol)


def test_the_last_move_is_found_without_room_for_its_level():
    # 80 MiB holds the levels to 11 forward and 6 backward (66 MB), not 7 backward (97 MB):
    # the 18th move is then found by checking the children of the frontier against the other side
    from pegsolver.engine.fewest_moves import fewest_moves
    board = find_variant("english").board()
    answer = fewest_moves(board, board.default_goal.resolve(board.shape), Limit(memory_bytes=80 << 20))
    assert answer.reason is Reason.SOLVED and answer.lower_bound == 18
    assert (len(answer.forward) - 1) + (len(answer.backward) - 1) == 17   # one move short of meeting
    assert moves_of(board.shape.coords, answer.jumps) == 18
    sol = solve("english", minimize="moves", limit=Limit(memory_bytes=80 << 20))
    assert sol.optimal and len(sol.moves) == 18
    assert_solves(sol)


def test_ctrl_c_stops_with_the_bound_proved(monkeypatch):
    calls = []

    def check(self, held):
        calls.append(held)
        if len(calls) > 5:
            raise KeyboardInterrupt
    monkeypatch.setattr(move_levels.Budget, "check", check)
    sol = solve("english", minimize="moves")
    assert sol.reason is Reason.INTERRUPTED and not sol.optimal and sol.lower_bound >= 1


def test_impossible_problems_are_proved():
    french = find_variant("french").board()
    centre = french.with_pegs(french.shape.full_mask & ~(1 << parse_hole(french.shape, "d4")))
    sol = solve(centre, "d4", minimize="moves")   # the centre game has no solution: a class proof
    assert sol.reason.proves_impossible and not sol.solved
    assert sol.stats.symmetries == 8 == solve(centre, "d4").stats.symmetries  # those the search would use
    board = find_variant("triangle4").board()
    truth = brute_fewest_moves(board, [h for h in range(10) if h != 0])
    missing = next(f for f in range(10) if f not in truth)
    sol = solve(board, Goal.at(missing), minimize="moves", proofs=False)
    assert sol.reason is Reason.EXHAUSTED


def naive_moves(shape, pegs, backward=False):
    """The positions one move from (backward: before) a bitboard, by plain recursion over hole
    coordinates, every chain followed (exponential, for small tests only)."""
    coords = list(shape.coords)
    index = {c: h for h, c in enumerate(coords)}
    steps = UNIT_STEPS[shape.rules]
    found = set()

    def go(b, at):
        for dr, dc in steps:
            over, far = (at[0] + dr, at[1] + dc), (at[0] + 2 * dr, at[1] + 2 * dc)
            if over not in index or far not in index:
                continue
            o, f = 1 << index[over], 1 << index[far]
            if backward and not b & o and not b & f or not backward and b & o and not b & f:
                c = b ^ o ^ f ^ (1 << index[at])
                found.add(c)
                go(c, far)
    for h in range(shape.size):
        if pegs >> h & 1:
            go(pegs, coords[h])
    return found


def test_core_children_match_the_python_chains():
    board = find_variant("english").board()
    shape = board.shape
    E = enum_core()
    jumps = np.array(shape.jumps, dtype=np.int32).reshape(-1, 3)
    mv = E.Moves(jumps, np.empty((0, shape.size), np.int32), shape.size)
    ch = E.Chains(jumps, shape.size)
    rng = np.random.default_rng(5)
    for density in (0.3, 0.5, 0.8):
        for _ in range(100):
            pegs = sum(1 << h for h in range(shape.size) if rng.random() < density)
            keys = np.array([pegs], dtype=np.uint64)
            for backward in (False, True):
                core = sorted(E.move_children(mv, ch, keys, backward)[0].tolist())
                assert core == sorted(a for a, _ in chains(shape, pegs, backward))
                assert set(core) == naive_moves(shape, pegs, backward)
                for after, played in chains(shape, pegs, backward):   # each chain is one peg's jumps
                    assert all(x.to_hole == y.from_hole for x, y in zip(played, played[1:]))


def test_key_set():
    E = enum_core()
    s = E.KeySet()
    first = s.add_new(np.array([5, 3, 5, 0, 7, 3], dtype=np.uint64))
    assert first.tolist() == [5, 3, 0, 7] and len(s) == 4
    many = np.arange(1, 100_000, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    assert len(s.add_new(many)) == len(np.setdiff1d(many, first))   # grows past its first slots
    assert s.contains(np.array([5, 0, 11], dtype=np.uint64)).tolist() == [True, True, False]
    assert s.bytes_for(10 ** 6) > s.nbytes


def test_hint_in_the_middle_of_a_move():
    # six moves of a 10-move solution and the first jump of the seventh: the peg that just
    # jumped may go on in the same move, so 3 moves are left at best, not 4
    board = find_variant("triangle5").board()
    moves = solve(board, minimize="moves").moves
    assert len(moves) == 10 and len(moves[6]) > 1
    position = board.with_pegs(board.pegs_mask)
    for j in [j for m in moves[:6] for j in m] + [moves[6][0]]:
        position.push(j)
    position = position.with_pegs(position.pegs_mask)
    going = find_hint(position, board.default_goal, seconds=5, moving=moves[6][0].to_hole)
    assert going.moves_left == 3 and going.path[0].from_hole == moves[6][0].to_hole
    assert find_hint(position, board.default_goal, seconds=5).moves_left == 4


def test_square_board_stays_within_its_limits():
    # backward from 3 pegs on a sparse 64-hole board, chains of jumps are countless: the
    # core follows each position once per parent and hands back bounded batches
    import time
    t0 = time.monotonic()
    sol = solve("square8", Goal.anywhere(3), minimize="moves", limit=Limit(seconds=1.5, memory_bytes=64 << 20))
    assert not sol.optimal and sol.reason in (Reason.TIME_LIMIT, Reason.MEMORY_LIMIT)
    assert time.monotonic() - t0 < 60   # a hang guard: it took minutes and gigabytes before


def test_hint_tells_the_moves_left():
    board = find_variant("triangle5").board()
    hint = find_hint(board, board.default_goal, seconds=5)
    assert hint.moves_left == solve(board, minimize="moves").lower_bound and hint.path
    assert moves_of(board.shape.coords, hint.path) == hint.moves_left


@pytest.mark.parametrize("kwargs, words", [
    ({"strategy": "dfs"}, "strategy 'dfs'"), ({"backward": True}, "backward"),
    ({"backend": "reference"}, "backend 'reference'"), ({"beam_width": 10}, "beam width"),
])
def test_options_that_cannot_prove_are_refused(kwargs, words):
    with pytest.raises(PegsolverError, match=words):
        solve("english", minimize="moves", **kwargs)


def test_bad_minimize_and_goals():
    with pytest.raises(PegsolverError, match="minimize must be"):
        solve("english", minimize="jumps")
    with pytest.raises(GoalError, match="fewest pegs"):
        solve("english", Goal.fewest(), minimize="moves")
    with pytest.raises(GoalError, match="finishes"):
        solve("english", Goal.anywhere(8), minimize="moves")
    big = Board.from_text("\n".join(["o" * 9] * 8))   # 72 holes: beams by moves only (test_core_moves)
    sol = solve(big.with_pegs(big.pegs_mask & ~1), minimize="moves", limit=Limit(nodes=50))
    assert sol.reason is Reason.NODE_LIMIT and not sol.optimal and sol.stats.strategy == "fewest-moves-beams"
    with pytest.raises(BoardTooLargeError, match="64"):
        count_moves(big)


def test_cli(capsys):
    assert main(["solve", "triangle4", "--vacant", "2", "--finish", "3", "--fewest-moves", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["optimal"] is True and data["lower_bound"] == 5 and len(data["moves"]) == 5
    assert main(["count", "triangle5", "--by", "moves", "--finish", "1"]) == 0
    assert "fewest moves from the start to the finish: 10" in capsys.readouterr().out
    assert main(["table", "triangle4", "--fewest-moves"]) == 0
    assert "shortest: 5 moves" in capsys.readouterr().out
    for argv, words in ((["solve", "english", "--fewest-moves", "--strategy", "dfs"], "--strategy dfs"),
                        (["solve", "english", "--fewest-moves", "--finish", "fewest"], "fewest"),
                        (["count", "english", "--by", "moves", "--spill", "x"], "--spill"),
                        (["count", "english", "--by", "moves", "--table"], "table BOARD --fewest-moves")):
        assert main(argv) == 2
        assert words in capsys.readouterr().err


def test_pegs_anywhere_goal():
    board = find_variant("triangle5").board()
    sol = solve(board, Goal.anywhere(1), minimize="moves")
    assert sol.optimal
    truth = brute_fewest_moves(board, [h for h in range(15) if board.pegs_mask >> h & 1])
    assert sol.lower_bound == min(truth.values())


def test_every_split_between_forward_and_backward_agrees():
    # forward to 12 moves and the rest backward meets at 18 too: a check of the backward
    # moves against the forward ones (the default split is 11 and 7)
    from pegsolver.engine.fewest_moves import fewest_moves
    board = find_variant("english").board()
    answer = fewest_moves(board, board.default_goal.resolve(board.shape), forward_depth=12)
    assert answer.reason is Reason.SOLVED and answer.lower_bound == 18
    assert len(answer.forward) - 1 == 12 and len(answer.backward) - 1 == 6
    assert moves_of(board.shape.coords, answer.jumps) == 18


def test_count_by_moves_json_and_limits(capsys):
    assert main(["count", "triangle5", "--by", "moves", "--finish", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["by"] == "moves" and data["fewest_moves"] == data["fewest_moves_backward"] == 10
    assert data["forward_total"] == sum(data["forward"]) and data["backward_total"] == sum(data["backward"])
    stopped = count_moves("english", "d4", limit=Limit(memory_bytes=1 << 20))
    assert stopped.stopped is Reason.MEMORY_LIMIT
    assert "stopped: the memory budget of 1 MiB was used up" in stopped.to_text()
    assert stopped.to_json()["memory_budget_bytes"] == 1 << 20
    assert stopped.forward.sizes == BELL_FORWARD[:len(stopped.forward.sizes)]


def test_hint_words():
    from pegsolver.apps.hint import Hint
    from pegsolver.apps.play import moves_words
    hint = Hint(0, Goal.anywhere(), None, [], Reason.SOLVED)
    assert moves_words(hint) == ""
    hint.moves_at_least = 9
    assert moves_words(hint) == "; at least 9 moves left"
    hint.moves_left = 1
    assert moves_words(hint) == "; 1 move left at best"


def test_ctrl_c_during_the_proofs(monkeypatch):
    from pegsolver.engine import search

    def interrupted(board, goal):
        raise KeyboardInterrupt
    monkeypatch.setattr(search, "impossibility", interrupted)
    sol = solve("english", minimize="moves")
    assert sol.reason is Reason.INTERRUPTED and sol.stats.strategy == "fewest-moves"
    # what the Merson regions prove at once (8 on the English board: its corners and edge
    # pairs), and the 8 symmetries the search would have used, not "proved >= 0" and 1
    assert sol.optimal is False and sol.lower_bound == 8 and sol.stats.symmetries == 8
    assert "every solution has at least 8, by the Merson regions" in sol.to_text()
    sol = solve("triangle11", minimize="moves")   # over 64 holes: the beams' strategy
    assert sol.stats.strategy == "fewest-moves-beams" and sol.lower_bound == 16 and sol.stats.symmetries == 2


def test_count_by_moves_says_why_a_finish_is_out_of_reach():
    result = count_moves("english", "a3", limit=Limit(seconds=1))
    assert "position classes" in result.impossible and result.backward.sizes == []
    assert "cannot be reached from the start: the start" in result.to_text()


def test_table_of_a_board_without_solvable_problems():
    board = Board.from_text("o . o\n. . .\no . o")
    survey = survey_vacancies(board, None, minimize="moves")
    assert survey.settled and survey.shortest is None
    assert "shortest: none, no problem of this board can be solved" in survey.to_text()
    assert survey.to_json()["settled"] is True


def test_limits_hold_inside_one_parent_of_a_sparse_board():
    # rect7x7-diagonal: one position has millions of positions a move back, so the limits
    # are checked inside the core's call (this ran 109 s and 9 GB under --seconds 3)
    import time
    t0 = time.monotonic()
    sol = solve("rect7x7-diagonal", minimize="moves", limit=Limit(seconds=2))
    assert time.monotonic() - t0 < 10 and not sol.optimal and sol.lower_bound is not None
    assert sol.reason in (Reason.TIME_LIMIT, Reason.SOLVED)   # the beams that follow the proof keep the time too
    stopped = solve("rect7x7-diagonal", minimize="moves", limit=Limit(seconds=8, memory_bytes=64 << 20))
    assert stopped.reason is Reason.MEMORY_LIMIT and not stopped.optimal and stopped.stats.table_bytes <= 64 << 20
    E = enum_core()
    start = find_variant("english").board()
    space = move_levels.MoveSpace(start.shape, [tuple(range(33))])
    keys = np.array([space.canonical(start.pegs_mask)], dtype=np.uint64)
    with pytest.raises(MemoryError, match="more than 3 positions one move away"):
        E.move_children(space.mv, space.chains, keys, False, 0, 3)
    assert len(E.move_children(space.mv, space.chains, keys, False)[0]) == 4


def test_the_node_limit_is_not_overshot_by_a_level():
    sol = solve("english", minimize="moves", limit=Limit(nodes=1000))
    assert sol.stats.nodes <= 1000 and sol.reason is Reason.NODE_LIMIT and sol.lower_bound == 10


def test_ctrl_c_as_the_last_level_is_made_proves_no_more_than_was_checked(monkeypatch):
    # the English levels meet at 18 moves; Ctrl-C right after the 18th level is made, before it is
    # checked against the other side, must leave 18 proved (it said 19: the level counted unchecked)
    from pegsolver.engine import fewest_moves as fm
    steps = []

    class Interrupted(fm.MoveLevels):
        def step(self, *args, **kwargs):
            new = super().step(*args, **kwargs)
            steps.append(1)
            if len(steps) == 18:
                raise KeyboardInterrupt
            return new

    monkeypatch.setattr(fm, "MoveLevels", Interrupted)
    board = find_variant("english").board()
    a = fm.fewest_moves(board, Goal.at(parse_hole(board.shape, "d4")))
    assert a.reason is Reason.INTERRUPTED and a.lower_bound == 18


def test_ctrl_c_while_the_solution_is_found_again_keeps_the_levels_and_bound(monkeypatch):
    from pegsolver.engine import fewest_moves as fm

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(fm, "solution", interrupted)
    board = find_variant("english").board()
    a = fm.fewest_moves(board, Goal.at(parse_hole(board.shape, "d4")))
    assert a.reason is Reason.INTERRUPTED and a.lower_bound == 18 and not a.jumps
    assert sum(a.forward) > 0 and sum(a.backward) > 0


@pytest.mark.parametrize("vacant", [(0,), (0, 1, 12)])
def test_region_bounds_never_pass_the_true_moves(vacant):
    # Every position triangle 5 reaches from the start, with its moves from the start (breadth
    # first) and to each one-peg finish (over the graph of moves, fewest pegs first): the
    # Merson regions' bounds, both ways, are never above them, and not all zero. The second
    # start lacks a corner and a hole of two edge pairs: three regions, none full there.
    shape = find_variant("triangle5").shape()
    coords = list(shape.coords)
    succ = move_successors(shape)
    start = frozenset(c for i, c in enumerate(coords) if i not in vacant)
    graph, dist, queue = {}, {start: 0}, deque([start])
    while queue:
        b = queue.popleft()
        graph[b] = {frozenset(a) for a in succ(b)}
        for a in graph[b]:
            if a not in dist:
                dist[a] = dist[b] + 1
                queue.append(a)
    order = sorted(dist, key=len)
    keys = np.array([sum(1 << coords.index(c) for c in b) for b in order], dtype=np.uint64)
    since = bound_from_starts(shape, [int(keys[-1])])(keys)
    assert (since <= np.array([dist[b] for b in order])).all() and since.max() >= 2
    nearest, tight = np.full(len(order), 99), 0
    for f in range(shape.size):
        to_f = {}
        for b in order:   # children have fewer pegs: already done
            ways = [to_f[a] for a in graph[b] if to_f.get(a) is not None]
            to_f[b] = 0 if b == {coords[f]} else 1 + min(ways) if ways else None
        left = bound_to_finish(shape, 1 << f)(keys)
        known = np.array([to_f[b] is not None for b in order])
        truth = np.array([to_f[b] if to_f[b] is not None else 0 for b in order])
        assert (left[known] <= truth[known]).all()
        tight = max(tight, int(left[known].max(initial=0)))
        nearest = np.where(known, np.minimum(nearest, truth), nearest)
    anywhere = bound_to_finish(shape, None, 1)(keys)
    assert tight >= 3 and (anywhere[nearest < 99] <= nearest[nearest < 99]).all()


@pytest.mark.parametrize("side", sorted(SHORTEST_TRIANGLE))
def test_searching_within_a_bound_proves_it_or_finds_the_fewest(side):
    # Pruned by the regions to at most S - 1 moves, the search proves at least S; to at most
    # S, it finds a solution of S moves (replayed), proved the fewest.
    board = find_variant(f"triangle{side}").board()
    fewest = SHORTEST_TRIANGLE[side]
    below = shortest_over_board(board, at_most=fewest - 1)
    assert below.reason is Reason.BOUNDED and below.lower_bound == fewest and not below.jumps
    assert below.pruned > 0 or side == 4
    found = shortest_over_board(board, at_most=fewest)
    assert found.reason is Reason.SOLVED and found.lower_bound == fewest
    pegs = {board.shape.coords[h] for h in range(board.shape.size) if found.start >> h & 1}
    final = replay_coords(board.shape.rules, board.shape.coords, pegs,
                          [(board.shape.coords[j.from_hole], board.shape.coords[j.to_hole]) for j in found.jumps])
    assert len(final) == 1 and moves_of(board.shape.coords, found.jumps) == fewest
    if side < 7:   # the whole search made at least as many positions (7: seconds more)
        whole = shortest_over_board(board)
        assert sum(found.forward) + sum(found.backward) <= sum(whole.forward) + sum(whole.backward)


def test_a_bound_it_cannot_search_is_refused():
    for bad in (-1, 3.5, True, "9"):
        with pytest.raises(PegsolverError, match=f"whole number of moves, 0 or more, not {bad!r}"):
            shortest_over_board("triangle5", at_most=bad)
    with pytest.raises(ValueError, match="not -1"):   # the value first, the board's size after
        shortest_over_board("triangle11", at_most=-1)
    assert shortest_over_board("triangle5", at_most=np.int64(9)).lower_bound == 9
    with pytest.raises(BoardTooLargeError, match="66 holes.*at most 64"):
        shortest_over_board("triangle11", at_most=20)


def test_a_search_pruned_to_fewer_moves_settles_what_the_beams_found(monkeypatch):
    # 1,000 nodes stop the proof of triangle 6 from hole 1 (a corner) short of 10 moves;
    # the beams find 10; the search pruned to at most 9 finds none, so 10 is the fewest (no
    # beam can do better, whatever the load: the outcome does not depend on their time).
    # solve() says so: it shares a node limit with its beams, so it is stopped by memory,
    # 544 KiB (bytes the levels count, the same on every machine). Since each call into the
    # core takes only the children the budget holds, 576 KiB proves 10 outright and 512 KiB
    # leaves the pruned search no room.
    monkeypatch.setattr(fewest_moves_module, "BEAM_SECONDS", 0.5)
    board = find_variant("triangle6").board().with_vacant("1")
    a = fewest_moves_module.fewest_moves(board, Goal.anywhere(1), Limit(nodes=1000), beam=Limit())
    assert a.reason is Reason.SOLVED and a.lower_bound == a.upper_bound == 10 and a.pruned_to == 9
    assert a.beam_width and a.pruned > 0
    sol = solve(board, Goal.anywhere(1), minimize="moves", limit=Limit(memory_bytes=544 << 10))
    assert sol.optimal and sol.lower_bound == 10 == moves_of(board.shape.coords, sol.jumps)
    assert_solves(sol)
    assert "pruned by the Merson regions to at most 9 moves found none" in sol.explanation


def test_searches_pruned_one_move_deeper_at_a_time_raise_the_bound_a_limit_leaves():
    # 4 MiB stops triangle 7's proof at 9 moves (6 forward levels, 3 backward, the last move
    # checked); the beams find a solution in half their time and leave the rest to searches
    # pruned by the regions: none of at most 9, nor of 10 moves (at least 11, where the levels
    # proved 9 and the regions 8), then the pass for 11 runs out of the budget. The bytes are
    # counted, not measured, so the passes end the same way on every machine.
    board = find_variant("triangle7").board()
    a = shortest_over_board(board, Limit(memory_bytes=4 << 20), beam=Limit(seconds=6))
    assert a.reason is Reason.MEMORY_LIMIT and a.regions_bound == 8
    assert (len(a.forward) - 1) + (len(a.backward) - 1) + 1 < a.pruned_from == 9
    assert a.deepened == a.lower_bound == 11 <= SHORTEST_TRIANGLE[7] <= a.upper_bound
    # solve() names the passes as the bound's source: 2 MiB stops vacancy 2's proof short of 10
    sol = solve(board.with_vacant("2"), Goal.anywhere(1), minimize="moves",
                limit=Limit(memory_bytes=2 << 20, seconds=6))
    assert not sol.optimal and sol.lower_bound == 11 and sol.reason is Reason.MEMORY_LIMIT
    assert "at least 11, by searches pruned by the Merson regions that found none of 10 moves or fewer" \
        in sol.explanation
    assert_solves(sol)
    assert moves_of(board.shape.coords, sol.jumps) >= SHORTEST_TRIANGLE[7]


@pytest.fixture
def levels_asked(monkeypatch):
    """The most moves each search's levels are pruned to (None: not pruned), in order."""
    asked = []
    real = fewest_moves_module._levels

    def levels(space, starts, ends, goal, most):
        asked.append(most)
        return real(space, starts, ends, goal, most)
    monkeypatch.setattr(fewest_moves_module, "_levels", levels)
    return asked


def test_after_a_search_for_at_most_n_moves_stops_the_passes_look_for_fewer(levels_asked):
    # the search pruned to at most 11 moves has run and stopped at the budget (at least 9
    # proved); the beams find 12; passes for at most 9 and 10 find none. One for 11 again
    # would repeat the search that stopped, and one for more would answer what was not asked
    asked = levels_asked
    board = find_variant("triangle7").board()
    a = shortest_over_board(board, Limit(memory_bytes=4 << 20), beam=Limit(seconds=4), at_most=11)
    assert asked == [11, 9, 10] and a.pruned_from == 9 and a.deepened == a.lower_bound == 11
    assert a.reason is Reason.MEMORY_LIMIT and a.upper_bound >= SHORTEST_TRIANGLE[7]
    # the search for at most 10 alone, in 2 MiB: 7 forward levels and 2 backward, and its last
    # move, checked without being kept, settles 10 moves, so it is BOUNDED (it said a memory
    # stop, at least 11)
    alone = shortest_over_board(board, Limit(memory_bytes=2 << 20), at_most=10)
    assert alone.reason is Reason.BOUNDED and (len(alone.forward), len(alone.backward)) == (8, 3)


def test_a_memory_stop_is_followed_by_passes_pruned_harder(levels_asked):
    # triangle 7 (12 moves) in 48 MiB: within 12 moves the levels stop at the budget having
    # proved 11 (a trial: no cap proved 12); the pass pruned to 11 moves fits and proves 12
    asked = levels_asked
    a = shortest_over_board("triangle7", Limit(memory_bytes=48 << 20), at_most=12)
    assert asked == [12, 11] and a.reason is Reason.MEMORY_LIMIT and a.lower_bound == a.deepened == 12
    # with no cap, in 16 MiB, the levels prove 10; passes pruned to 10 and 11 moves fit, the one
    # to 12 does not (no solution is claimed)
    asked.clear()
    a = shortest_over_board("triangle7", Limit(memory_bytes=16 << 20))
    assert asked[:1] == [None] and asked[1:] == [10, 11, 12]
    assert a.reason is Reason.MEMORY_LIMIT and a.lower_bound == 12 and not a.jumps


def test_the_last_move_asked_for_is_checked_from_the_side_with_fewer_children(monkeypatch):
    # triangle 7 within 11 moves: after 8 forward levels and 2 backward, the 11th move is
    # only checked against the other side, never kept as a level. The backward frontier is
    # the smaller (140,849 against 279,684 positions), but from a few pegs a position has
    # tens of children backward and a handful forward, so the move is made forward
    sides = []
    real = fewest_moves_module._last_move

    def last_move(space, fw, bw, backward, budget):
        sides.append((backward, len(fw.frontier), len(bw.frontier), fw.fanout, bw.fanout))
        return real(space, fw, bw, backward, budget)
    monkeypatch.setattr(fewest_moves_module, "_last_move", last_move)
    a = shortest_over_board("triangle7", Limit(memory_bytes=1 << 30), at_most=11)
    assert a.reason is Reason.BOUNDED and a.lower_bound == 12
    assert (len(a.forward), len(a.backward)) == (9, 3)   # the backward level of 3 moves is not made
    [(backward, fw_size, bw_size, fw_fanout, bw_fanout)] = sides
    assert not backward and bw_size < fw_size and fw_size * fw_fanout < bw_size * bw_fanout


def test_a_pruned_search_that_drops_nothing_and_runs_out_proves_no_solution():
    # 3 x 3 with one corner empty has no one-peg finish: searched up to 100 moves, the
    # forward side runs out without the bound dropping a position there, which proves it
    board = Board.from_text("ooo\nooo\noo.")
    a = fewest_moves_module.fewest_moves(board, Goal.anywhere(1), at_most=100)
    assert a.reason is Reason.EXHAUSTED
    found = shortest_over_board("triangle5", at_most=9)
    assert found.reason is Reason.SOLVED and found.pruned_to == 9


@pytest.mark.parametrize("name,seconds", [("triangle8", 4), ("triangle11", 3)])
def test_a_search_by_moves_reports_its_progress(monkeypatch, name, seconds):
    # solve(progress=) with minimize="moves": the levels, the beams after the limit (and
    # over 64 holes the beams alone) say what they make, with the positions expanded so far
    monkeypatch.setattr(move_levels, "REPORT_SECONDS", 0.0)
    got = []
    sol = solve(find_variant(name).board(), minimize="moves", limit=Limit(seconds=seconds), progress=got.append)
    assert sol.reason is Reason.TIME_LIMIT and len(got) >= 2
    # over 64 holes a search for any solution runs first and reports as the portfolio does
    first = 0 if name == "triangle8" else next(i for i, p in enumerate(got) if p.member.startswith("beam of "))
    by_moves = got[first:]
    assert first > 0 or name == "triangle8"
    assert all(p.round == 0 and p.runs == 1 and p.fewest_left is None for p in by_moves)
    assert [p.seconds for p in got] == sorted(p.seconds for p in got)
    assert got[-1].nodes <= sol.stats.nodes and got[-1].nodes > 0
    assert any(p.member.startswith("beam of ") for p in got)
    if name == "triangle8":
        assert got[0].member == "forward level 1 from 1 position"
        assert any(p.member.startswith("backward level") for p in got)
        assert [p.nodes for p in got] == sorted(p.nodes for p in got)


def test_one_parent_with_thousands_of_moves_stays_within_the_memory_budget():
    # a sparse diagonal position 9,094 positions a move away: the core counts its children and
    # the set of chains it followed, so a budget for 1,000 children stops inside the parent
    shape = find_variant("rect7x7-diagonal").board().shape
    space = move_levels.MoveSpace(shape, [tuple(range(shape.size))])
    parent = np.array([0x191D54EC96F14], dtype=np.uint64)
    assert len(space.E.move_children(space.mv, space.chains, parent)[0]) == 9094
    small = move_levels.Budget(None, None, 1000 * move_levels.CHILD_BYTES)
    with pytest.raises(move_levels.MovesStop) as stop:
        move_levels.expand(space, parent, False, small, 0)
    assert stop.value.reason is Reason.MEMORY_LIMIT
    roomy = move_levels.Budget(None, None, 10**5 * move_levels.CHILD_BYTES)
    kids, done = move_levels.expand(space, parent, False, roomy, 0)
    assert done == 1 and len(kids) == 9094


def test_the_answer_says_what_stopped_the_beams_when_another_limit_stopped_the_proof(monkeypatch):
    # 24 MiB stops the proof; of 1.5 M nodes the beams get a third less a tenth, and use it up: the
    # answer names both limits (it named only the proof's). The beams' own time is made
    # long, so that on a slow machine their nodes, not their seconds, stop them.
    monkeypatch.setattr(fewest_moves_module, "BEAM_SECONDS", 600.0)
    sol = solve("english", minimize="moves", limit=Limit(memory_bytes=24 << 20, nodes=1_500_000))
    assert sol.reason is Reason.MEMORY_LIMIT and sol.stats.nodes == 623_211   # a tenth kept from the beams
    assert "stopped by the memory budget before" in sol.explanation
    assert "the beams after it were stopped by the node limit" in sol.explanation


def test_a_short_time_limit_keeps_time_for_any_solution_when_the_beams_find_none(monkeypatch):
    # diamond f2 in 5 s: the proof and the beams took it all, and the search for any solution
    # (0.03 s here) got 0.1 s and answered none once in four; now a tenth is kept from the beams.
    # The searches by moves are made to take all they are given and find nothing
    from pegsolver.engine import fewest_solve
    from pegsolver.engine.moves_answer import MovesAnswer
    given = []

    def nothing_found(board, goal, share, beam=None, progress=None):
        given.append(beam)
        return MovesAnswer(Reason.TIME_LIMIT, 14, seconds=share.seconds + beam.seconds)
    monkeypatch.setattr(fewest_solve, "fewest_moves", nothing_found)
    # 10 s: the stub takes no time, and the search for any solution gets 1 s (it failed with
    # 0.3 s with two other test runs beside it)
    sol = solve("diamond", Goal.at("f2"), minimize="moves", limit=Limit(seconds=10))
    assert given[0].seconds == pytest.approx(10 * (1 - 2 / 3 - 1 / 10))
    assert sol.solved and not sol.optimal and sol.reason is Reason.TIME_LIMIT and sol.lower_bound == 14
    assert_solves(sol, finish=[parse_hole(sol.start.shape, "f2")])
    assert "best solution found by the" in sol.explanation


def test_the_beams_own_share_of_time_is_not_called_the_time_limit():
    from pegsolver.engine.fewest_solve import _beam_stop
    assert _beam_stop(Reason.TIME_LIMIT, Limit()).startswith("their share of the time")
    assert _beam_stop(Reason.TIME_LIMIT, Limit(seconds=10)) == "the time limit"
    assert _beam_stop(Reason.NODE_LIMIT, Limit()) == "the node limit"


def test_a_stop_between_a_level_and_its_check_lists_only_the_levels_the_bound_stands_on(monkeypatch):
    # a trial's Ctrl-C came after a backward level was made and before it was checked: the
    # answer listed that level beside a bound that did not count it
    real = move_levels.MoveLevels.step
    calls = []

    def then_ctrl_c(self, budget, held_elsewhere=0):
        new = real(self, budget, held_elsewhere)
        calls.append(len(new))
        if len(calls) == 6:
            raise KeyboardInterrupt
        return new
    monkeypatch.setattr(move_levels.MoveLevels, "step", then_ctrl_c)
    board = find_variant("english").board()
    answer = fewest_moves_module.fewest_moves(board, Goal.at("d4").resolve(board.shape))
    assert answer.reason is Reason.INTERRUPTED and len(calls) == 6
    made = len(answer.forward) - 1 + len(answer.backward) - 1
    assert made == 5 and answer.lower_bound >= made + 1   # the sixth level, unchecked, is left out
    # (the bound is the Merson regions' here, 8, past what the levels checked prove)


def test_a_board_files_fewest_finish_is_named_when_fewest_moves_refuses_it(tmp_path, capsys):
    # the refusal spoke of 'fewest' as if --finish had said it; the file's [goal] did
    path = tmp_path / "f1.toml"
    path.write_text('board = """\nooooo\n"""\nvacant = ["c1"]\n[goal]\nfinish = "fewest"\n')
    assert main(["solve", str(path), "--fewest-moves"]) == 2
    assert 'not the board file\'s finish = "fewest"' in capsys.readouterr().err
    assert main(["solve", "english", "--fewest-moves", "--finish", "fewest"]) == 2
    assert "not --finish fewest" in capsys.readouterr().err


def test_shortest_over_a_board_without_solutions_bounds_nothing_in_its_json():
    # a trial: triangle 3 said optimal false and lower_bound 5 where solve says null for an
    # impossible goal; and the JSON named the start but not where the solution ends
    answer = shortest_over_board("triangle3")
    data = answer.to_json(find_variant("triangle3").shape())
    assert answer.reason is Reason.EXHAUSTED and data["optimal"] is None and data["lower_bound"] is None
    assert data["final"] is None and data["jumps"] == []
    shape = find_variant("triangle5").shape()
    data = shortest_over_board("triangle5").to_json(shape, "numeric")
    assert data["optimal"] is True and data["lower_bound"] == len(data["moves"]) == 9   # OEIS A127500
    at = [(r, k) for r in range(5) for k in range(r + 1)]   # numeric hole n is at[n - 1], row by row
    pegs = {h for h in range(1, 16)} - {int(h) for h in data["vacant"]}
    for jump in data["jumps"]:   # replayed from the names alone: from-to in numeric notation
        a, c = (int(h) for h in jump.split("-"))
        (ra, ka), (rc, kc) = at[a - 1], at[c - 1]
        b = at.index(((ra + rc) // 2, (ka + kc) // 2)) + 1
        assert a in pegs and b in pegs and c not in pegs
        pegs = pegs - {a, b} | {c}
    assert sorted(pegs) == [int(h) for h in data["final"]]


def test_a_start_that_is_a_finish_already_is_named_in_the_table_and_json():
    # a trial's board of two holes: from either vacancy the one peg left is the finish, in
    # 0 moves. The table named vacancy a1 -> finish a1 (a pair the position class rules
    # out: a placeholder) with no move count; the JSON named no vacancy nor final peg
    board = Board.from_text("o o")
    a = shortest_over_board(board, Limit(memory_bytes=1 << 28, seconds=20))
    data = a.to_json(board.shape)
    assert a.optimal and a.upper_bound == a.lower_bound == 0 and data["upper_bound"] == 0
    vacancy, = data["vacant"]
    assert data["final"] == ["b1" if vacancy == "a1" else "a1"]
    table = survey_vacancies(board, minimize="moves", limit=Limit(memory_bytes=1 << 28, seconds=20))
    best = table.to_json()["shortest"]
    assert best["moves"] == 0 and best["vacancy"] != best["finish"]
    counts = {(e["vacancy"], e["finish"]): e["move_count"] for e in table.to_json()["entries"]}
    assert counts == {("a1", "a1"): None, ("a1", "b1"): 0, ("b1", "a1"): 0, ("b1", "b1"): None}
