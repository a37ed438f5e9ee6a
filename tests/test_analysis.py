"""Whole-board enumeration: published figures, and an independent brute force on small
boards (plain Python over the hole coordinates, sharing nothing with the core)."""
import json
import re
import signal
import time
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interrupting
from pegsolver import Board, Shape, find_variant
from pegsolver.analysis import analyse, solution_counts
from pegsolver.apps.cli import main
from pegsolver.errors import BoardTooLargeError, GoalError, PegsolverError
from pegsolver.model.notation import parse_hole

# OEIS A112737: English board, centre start, positions after n jumps up to symmetry.
ENGLISH_LEVELS = [1, 1, 2, 8, 39, 171, 719, 2757, 9751, 31312, 89927, 229614, 517854, 1022224, 1753737,
                  2598215, 3312423, 3626632, 3413313, 2765623, 1930324, 1160977, 600372, 265865, 100565,
                  32250, 8688, 1917, 348, 50, 7, 2]


@pytest.fixture(scope="module")
def english():
    board = find_variant("english").board()
    return analyse(board, parse_hole(board.shape, "d4"))


def test_english_published_figures(english):
    assert english.stopped is None and english.forward_complete
    assert [lv.positions for lv in english.levels] == ENGLISH_LEVELS
    assert english.total == 23_475_688
    assert english.winning == 1_679_072                      # OEIS A112738
    assert english.solutions == 40_861_647_040_079_968       # Bell, arXiv:0903.3696
    assert english.games == 577_116_156_815_309_849_672      # Durango Bill, Peg33.html
    names = {find_variant("english").board().shape.coords[h] for h in english.finishes}
    assert names == {(0, 3), (3, 0), (3, 3), (3, 6), (6, 3)}  # d1 a4 d4 g4 d7 (design.md)


def test_english_level_sets_are_numpy_arrays(english):
    shape = english.start.shape
    for k in (0, 5, 31):
        arr = english.positions(k)
        assert arr.dtype == np.uint64 and len(arr) == english.levels[k].positions
        assert all(int(x).bit_count() == 32 - k for x in arr[:100])
        assert np.all(arr[:-1] < arr[1:])  # sorted, distinct
        win = english.winning_positions(k)
        assert len(win) == english.levels[k].winning and np.isin(win, arr).all()
    assert [int(x) for x in english.positions(0)] == [shape.full_mask & ~(1 << parse_hole(shape, "d4"))]
    with pytest.raises(PegsolverError, match="not kept"):
        english.positions(32)
    assert len(english.positions(np.int64(5))) == english.levels[5].positions
    for bad in (1.0, "1", True):
        with pytest.raises(PegsolverError, match="whole number of jumps"):
            english.positions(bad)
        with pytest.raises(PegsolverError, match="whole number of jumps"):
            english.winning_positions(bad)


def test_triangle5_published_figures():
    shape = find_variant("triangle5").board().shape
    a = analyse(Board(shape, shape.full_mask & ~1))  # hole 1, a corner
    assert sum(a.finishes.values()) == 29_760
    table = solution_counts(shape)
    assert sum(table.values()) == 438_984
    assert all(any(table[(v, f)] for f in range(15)) for v in range(15))  # every vacancy solvable


def brute_force(shape, start):
    """Levels of distinct positions, symmetry classes, sequences and complete games,
    by plain recursion over coordinates."""
    coords = shape.coords
    where = {rc: i for i, rc in enumerate(coords)}
    steps = [(0, 1), (1, 0), (0, -1), (-1, 0)] + ([(1, 1), (-1, -1)] if shape.grid == "triangle" else [])
    jumps = []
    for (r, c), a in where.items():
        for dr, dc in steps:
            b, t = where.get((r + dr, c + dc)), where.get((r + 2 * dr, c + 2 * dc))
            if b is not None and t is not None:
                jumps.append((a, b, t))

    def children(p):
        return [p ^ (1 << a | 1 << b | 1 << t) for a, b, t in jumps if p >> a & 1 and p >> b & 1 and not p >> t & 1]

    @lru_cache(None)
    def games(p):
        kids = children(p)
        return 1 if not kids else sum(games(k) for k in kids)

    levels, level = [], {start}
    while level:
        levels.append(level)
        level = {k for p in level for k in children(p)}
    return levels, games(start)


@st.composite
def small_boards(draw):
    grid = draw(st.sampled_from(["square", "triangle"]))
    if grid == "square":
        rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
        cells = [(r, c) for r in range(rows) for c in range(cols)]
    else:
        side = draw(st.integers(3, 5))
        cells = [(r, c) for r in range(side) for c in range(r + 1)]
    shape = Shape(grid, tuple(cells))
    vacant = draw(st.lists(st.integers(0, shape.size - 1), min_size=1, max_size=2, unique=True))
    return Board(shape, shape.full_mask & ~sum(1 << v for v in vacant))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards(), st.sampled_from([1, 2]))
def test_matches_brute_force(board, threads):
    shape = board.shape
    levels, games = brute_force(shape, board.pegs_mask)
    plain = analyse(board, reduced=False, threads=threads)
    assert [lv.positions for lv in plain.levels] == [len(lv) for lv in levels]
    assert plain.games == games
    for k, lv in enumerate(levels):
        assert set(plain.positions(k).tolist()) == lv
    reduced = analyse(board, threads=threads)
    group = [p for p in shape.symmetries if shape.map_mask(p, board.pegs_mask) == board.pegs_mask]
    classes = [{min(shape.map_mask(p, x) for p in group) for x in lv} for lv in levels]
    assert [lv.positions for lv in reduced.levels] == [len(c) for c in classes]
    assert reduced.games == games and reduced.finishes == plain.finishes
    assert [lv.sequences for lv in reduced.levels] == [lv.sequences for lv in plain.levels]


def reaches(shape, finish):
    """Plain Python: whether a position can still end with one peg at ``finish``."""
    @lru_cache(None)
    def wins(p):
        if p == 1 << finish:
            return True
        return any(wins(p ^ (1 << x | 1 << y | 1 << z)) for x, y, z in shape.jumps
                   if p >> x & 1 and p >> y & 1 and not p >> z & 1)
    return wins


def test_winning_positions_match_brute_force():
    shape = find_variant("triangle5").board().shape
    board = Board(shape, shape.full_mask & ~(1 << 3))
    finish = 3  # back to the vacancy: 51,452 solutions (durangobill.com/PegSolitaire.html)
    a = analyse(board, finish, reduced=False)
    levels, _ = brute_force(shape, board.pegs_mask)
    wins = reaches(shape, finish)
    for k, lv in enumerate(levels):
        assert set(a.winning_positions(k).tolist()) == {p for p in lv if wins(p)}
    assert a.solutions == a.finishes[finish] == 51_452


def test_winning_positions_for_every_finish_match_brute_force():
    # including finishes in another position class than the start (no backward pass)
    shape = find_variant("triangle5").board().shape
    board = Board(shape, shape.full_mask & ~1)
    levels, _ = brute_force(shape, board.pegs_mask)
    for finish in range(shape.size):
        wins = reaches(shape, finish)
        a = analyse(board, finish, reduced=False)
        expected = [{p for p in lv if wins(p)} for lv in levels]
        assert [set(a.winning_positions(k).tolist()) for k in range(len(levels))] == expected
        assert a.winning == sum(map(len, expected))
        assert (a.solutions == 0) == (not expected[-1])


def test_a_start_that_is_already_the_finish():
    one = Board(Shape("square", ((0, 0),)), 1)
    a = analyse(one, 0)
    assert (a.total, a.winning, a.solutions, a.games) == (1, 1, 1, 1)


def test_winning_is_none_when_positions_are_not_kept():
    a = analyse("triangle5", finish=0, keep_positions=False)
    assert a.winning is None and a.solutions == a.finishes[0] and sum(a.finishes.values()) == 29_760


def test_a_run_over_its_bound_starts_and_stops_cleanly_at_the_budget():
    # Issue 14: no refusal up front (the bound is loose); the run keeps the levels it finished.
    a = analyse(find_variant("french").board(), memory_bytes=64 << 20, keep_positions=False)
    assert a.stopped == "memory limit" and a.bound_bytes > a.budget_bytes == 64 << 20
    assert len(a.levels) > 5 and a.peak_bytes <= 64 << 20 and "memory budget" in a.message


def test_memory_and_time_limits_stop_cleanly():
    board = find_variant("french").board()
    a = analyse(board, memory_bytes=64 << 20, force=True, keep_positions=False)
    assert a.stopped == "memory limit" and len(a.levels) > 3 and "budget" in a.message
    assert a.peak_bytes <= 64 << 20
    b = analyse(find_variant("english").board(), seconds=0.2, threads=1)
    assert b.stopped == "time limit" and b.winning is None


@pytest.mark.parametrize("threads,tables", [
    (1, r"a table for level \d+ \([\d,]+ positions expected\) does"),
    (2, r"2 tables for level \d+ \(one a thread, [\d,]+ positions expected in each\) do")])
def test_a_table_past_the_budget_is_told_with_the_threads_sharing_it(threads, tables):
    # a trial read one thread's table as the whole level's, and "peak 205 MiB allocated of a
    # budget of 204.8 MiB" as past the budget
    a = analyse("french", memory_bytes=64 << 20, keep_positions=False, threads=threads)
    assert re.fullmatch(f"stopped: {tables} not fit in the memory budget of 64 MiB", a.message)
    peak = re.search(r"peak ([\d.]+) MiB allocated of a budget of 64 MiB$", a.to_text())
    assert peak and peak[1] == f"{a.peak_bytes / 2**20:.4g}" and float(peak[1]) <= 64


@pytest.mark.parametrize("mib", [9, 10, 11, 13])
def test_a_small_budget_with_two_threads_stops_at_once(mib):
    # These budgets once looped for ever: a stage capped less than a block above its size
    # "grew" by nothing, so the level never merged. The run must stop at the budget.
    a = analyse(find_variant("english").board(), memory_bytes=mib << 20, threads=2, seconds=30)
    assert a.stopped == "memory limit" and "memory budget" in a.message
    assert 5 < len(a.levels) < 23 and a.peak_bytes <= mib << 20


@pytest.mark.parametrize("kwargs,match", [
    (dict(threads=3), "power of two"), (dict(threads=0), "power of two"),
    (dict(memory_bytes=10), "from 1 MiB"), (dict(memory_bytes=1 << 70), "from 1 MiB"),
    (dict(threads=128), "power of two"), (dict(seconds=-1), "time limit"),
    (dict(memory_bytes=2 << 20, threads=2), "below the 3 MiB that an enumeration of 'english' on 2 threads needs"),
    (dict(memory_bytes=1 << 49), "a memory budget of 512 TiB is more than this machine's memory"),
    (dict(finish=99), "finish must be a hole"), (dict(finish=True), "finish must be a hole"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises((PegsolverError, GoalError), match=match):
        analyse(find_variant("english").board(), **kwargs)


def test_finish_as_a_numpy_integer_and_table_time_limit_checked():
    a = analyse("triangle5", finish=np.int64(0), keep_positions=False)
    assert a.finish == 0 and sum(a.finishes.values()) == 29_760
    with pytest.raises(PegsolverError, match="time limit"):
        solution_counts("triangle5", seconds=-1)


def test_boards_over_64_holes_are_refused():
    with pytest.raises(BoardTooLargeError, match="at most 64"):
        analyse(find_variant("triangle11").board())


def test_cli_count(capsys):
    assert main(["count", "triangle5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["levels"][0] == 1 and out["total"] == sum(out["levels"]) and sum(out["finishes"].values()) == 29_760
    # the text's sequences column too (a trial found it missing): the last level's are the solutions
    assert out["sequences"][0] == 1 and out["sequences"][-1] == 29_760 and len(out["sequences"]) == 14
    assert main(["count", "triangle5", "--table"]) == 0
    assert "438,984" in capsys.readouterr().out
    assert main(["count", "french", "--memory-gb", "0.0625"]) == 1  # stopped cleanly at the budget
    assert "memory budget of 64 MiB" in capsys.readouterr().out
    assert main(["count", "english", "--threads", "3"]) == 2


def test_cli_count_ctrl_c():
    proc = interrupting.start(["count", "french", "--force", "--memory-gb", "8"])
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = interrupting.finish(proc, 30)
    assert proc.returncode == 130, err
    assert "stopped by Ctrl-C" in out and "Traceback" not in err


def test_a_board_of_more_jumps_than_a_first_stage_has_blocks():
    # 336 jumps: the first stages once held 256 blocks, and generate refused them (a traceback)
    a = analyse("rect8x8-diagonal", threads=2, seconds=1, keep_positions=False)
    # the budget is a share of the memory free: with a large run beside it, the 7th level's
    # table may pass it before the second is out
    assert a.stopped in ("time limit", "memory limit") and len(a.levels) >= 4, a.message
    assert [lv.positions for lv in a.levels[:4]] == [1, 5, 42, 459]   # from c1, with its one symmetry
    # a first stage of a block a jump, twice over, a thread
    with pytest.raises(PegsolverError, match=r"below the 6\.266 MiB .* \(a stage of 2\.633 MiB a thread"):
        analyse("rect8x8-diagonal", threads=2, memory_bytes=4 << 20)


def test_a_node_limit_is_refused_by_the_enumerations_not_ignored():
    # analyse ran the whole English enumeration under Limit(nodes=10) (a new user's find)
    from pegsolver import Limit
    for call in (lambda: analyse("english", limit=Limit(nodes=10)),
                 lambda: solution_counts("triangle5", limit=Limit(nodes=10))):
        with pytest.raises(PegsolverError, match=r"takes no node limit \(Limit\(nodes=10\)\).*seconds or memory_bytes"):
            call()
    assert analyse("triangle5", limit=Limit(seconds=60)).total == 1544   # the other limits are taken


def test_a_finish_in_another_position_class_keeps_the_start_s_symmetries():
    # such a finish has no winning position: fixing it too only made the count larger
    # (English to c1 counted every position, 8 times the classes)
    from pegsolver.moves import count_moves
    from pegsolver.proofs.classes import classes_differ
    board = find_variant("triangle6").board()
    assert classes_differ(board.shape, board.pegs_mask, 1 << 1) and not classes_differ(board.shape, board.pegs_mask, 1)
    free = analyse(board)
    out = analyse(board, finish=1)
    assert (out.symmetries, out.total, out.solutions) == (free.symmetries, free.total, 0) == (2, 146_435, 0)
    assert analyse(board, finish=0).symmetries == 2
    by_moves = count_moves(board, finish=1)
    assert by_moves.forward == count_moves(board).forward and by_moves.impossible
