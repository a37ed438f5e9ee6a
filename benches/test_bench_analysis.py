"""Whole-board enumeration benches: the English board's levels and solution counts, one
thread against all threads (the speedup goes in extra_info), and triangle 5's table."""
import time

import pytest

from pegsolver import find_variant
from pegsolver.analysis import analyse, default_threads, solution_table

ENGLISH_TOTAL = 23_475_688
ENGLISH_SOLUTIONS = 40_861_647_040_079_968


def english_count(threads):
    board = find_variant("english").board()
    a = analyse(board, keep_positions=False, threads=threads)
    assert a.total == ENGLISH_TOTAL and a.finishes[board.shape.index[(3, 3)]] == ENGLISH_SOLUTIONS
    return a


@pytest.mark.benchmark(group="enumeration english")
def test_english_enumeration_and_solution_count(benchmark):
    # Forward enumeration with counts (no positions kept): every level, the complete
    # games and the solutions to each finish. Timed with every thread; one run with a
    # single thread gives the speedup.
    threads = default_threads()
    t0 = time.perf_counter()
    single = english_count(1)
    one_thread = time.perf_counter() - t0
    a = benchmark.pedantic(lambda: english_count(threads), rounds=3, iterations=1)
    benchmark.extra_info.update(positions=a.total, solutions=ENGLISH_SOLUTIONS, games=a.games,
                                peak_bytes=a.peak_bytes, threads=threads, seconds_one_thread=one_thread,
                                peak_bytes_one_thread=single.peak_bytes,
                                speedup=one_thread / benchmark.stats.stats.median if benchmark.stats else None)


@pytest.mark.benchmark(group="enumeration english")
def test_english_winning_positions(benchmark):
    # Forward levels kept, then met with the backward levels (here the same levels:
    # the centre problem is its own complement).
    board = find_variant("english").board()
    a = benchmark.pedantic(lambda: analyse(board, board.shape.index[(3, 3)]), rounds=1, iterations=1)
    assert a.winning == 1_679_072
    benchmark.extra_info.update(positions=a.total, winning=a.winning, peak_bytes=a.peak_bytes, threads=a.threads)


@pytest.mark.benchmark(group="enumeration triangle5")
def test_triangle5_solution_table(benchmark):
    shape = find_variant("triangle5").board().shape
    table = benchmark.pedantic(lambda: solution_table(shape), rounds=3, iterations=1)
    assert sum(table.values()) == 438_984
    benchmark.extra_info.update(solutions=sum(table.values()))
