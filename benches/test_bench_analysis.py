"""Whole-board enumeration benches: the English board's levels and solution counts on one
thread (in each build this processor loads: the chosen one and the others, with the probe
times that chose it) and on all threads (the speedup over one thread goes in extra_info),
and triangle 5's table. The smoke pass enumerates triangle 5 instead of English (smoke.py)."""
import importlib
import os

import pytest
import smoke

from pegsolver import find_variant
from pegsolver.analysis import analyse, default_threads, solution_counts
from pegsolver.engine import levels
from pegsolver.engine.core import enum_build_times

ENGLISH_TOTAL = 23_475_688
ENGLISH_SOLUTIONS = 40_861_647_040_079_968


def count(name, threads):
    board = find_variant(name).board()
    a = analyse(board, keep_positions=False, threads=threads)
    if name == "english":
        assert a.total == ENGLISH_TOTAL and a.finishes[board.shape.index[(3, 3)]] == ENGLISH_SOLUTIONS
    else:   # the smoke pass
        assert sum(a.finishes.values()) == smoke.SOLUTIONS
    return a


ONE_THREAD_MEDIAN = {}   # seconds, filled by the one-thread run for the speedup of the next


@pytest.mark.benchmark(group="enumeration english")
@pytest.mark.parametrize("build,threads", [("fast", "one"), ("_enum64", "one"), ("_enum64_v2", "one"),
                                          ("_enum64_bmi2", "one"), ("fast", "all")])
def test_english_enumeration_and_solution_count(benchmark, monkeypatch, build, threads):
    # Forward enumeration with counts (no positions kept): every level, the complete
    # games and the solutions to each finish; median of 3 rounds (the first round of a
    # process also pays the kernel for fresh pages). "fast" is the build enum_core
    # chooses by its probe; the others are each build forced, where this processor has it.
    if build != "fast":
        if build not in [name.split(".")[1] for name in enum_build_times()]:
            pytest.skip(f"{build} does not run on this processor or is not built")
        forced = importlib.import_module(f"pegcore.{build}")
        monkeypatch.setattr(levels, "enum_core", lambda: forced)
    n = 1 if threads == "one" else default_threads()
    name = smoke.board_name(benchmark)
    a = benchmark.pedantic(lambda: count(name, n), rounds=3, iterations=1)
    median = benchmark.stats.stats.median if benchmark.stats else None
    if build == "fast" and threads == "one":
        ONE_THREAD_MEDIAN["fast"] = median
    benchmark.extra_info.update(positions=a.total, solutions=sum(a.finishes.values()), games=a.games,
                                peak_bytes=a.peak_bytes, threads=n, build=levels.enum_core().__name__,
                                probe_seconds=enum_build_times())
    if threads == "all" and median and ONE_THREAD_MEDIAN.get("fast"):
        benchmark.extra_info["speedup_over_one_thread"] = ONE_THREAD_MEDIAN["fast"] / median


@pytest.mark.benchmark(group="enumeration english")
def test_english_winning_positions(benchmark):
    # Forward levels kept, then met with the backward levels (here the same levels:
    # the centre problem is its own complement).
    board = find_variant(smoke.board_name(benchmark)).board()
    finish = board.shape.index[(3, 3)] if board.shape.name == "english" else 0
    a = benchmark.pedantic(lambda: analyse(board, finish), rounds=1, iterations=1)
    if board.shape.name == "english":
        assert a.winning == 1_679_072
    else:   # the smoke pass: the backward levels meet the forward ones in every solution
        assert a.winning and a.solutions == analyse(board, keep_positions=False).finishes[0]
    benchmark.extra_info.update(positions=a.total, winning=a.winning, peak_bytes=a.peak_bytes, threads=a.threads)


@pytest.mark.benchmark(group="enumeration triangle5")
def test_triangle5_solution_table(benchmark):
    shape = find_variant("triangle5").board().shape
    table = benchmark.pedantic(lambda: solution_counts(shape), rounds=3, iterations=1)
    assert sum(table.values()) == 438_984
    benchmark.extra_info.update(solutions=sum(table.values()))


@pytest.mark.skipif(os.environ.get("PEGSOLVER_LONG_BENCHES") != "1", reason="minutes: set PEGSOLVER_LONG_BENCHES=1")
@pytest.mark.benchmark(group="enumeration french")
def test_french_centre_by_default(benchmark):
    # Issue 14: French from its centre runs with the default budget, no --force; every
    # level agrees with the published list (374,349,517 positions), and two pegs are the fewest.
    board = find_variant("french").board().with_vacant("d4")
    a = benchmark.pedantic(lambda: analyse(board, keep_positions=False), rounds=1, iterations=1)
    assert a.stopped is None and a.total == 374_349_517 and a.levels[-1].pegs == 2
    benchmark.extra_info.update(positions=a.total, peak_bytes=a.peak_bytes, budget_bytes=a.budget_bytes,
                                bound_bytes=a.bound_bytes, threads=a.threads, seconds=a.seconds)
