"""Stored levels: bits a position for the keys and for the counts of every level, when
each level is one partition in its stored form (engine/partition.py), and the time to
encode them. Issue 14 asks for at most 4 bits a position for the keys of the French levels.

French from its centre takes minutes: it runs when PEGSOLVER_LONG_BENCHES=1 is set. The
smoke pass stores triangle 5's levels instead of the English ones (smoke.py).
"""
import os
import time

import numpy as np
import pytest
import smoke

import pegsolver
from pegsolver.analysis import analyse
from pegsolver.engine.levels import LevelRun, symmetry_group
from pegsolver.engine.partition import decode, encode

LONG = os.environ.get("PEGSOLVER_LONG_BENCHES") == "1"


def stored_levels(name, vacancy):
    """Per level: positions, key bytes, count bytes, seconds to encode; every level is
    checked to decode to what was stored."""
    board = pegsolver.find_variant(name).board().with_vacant(vacancy)
    shape, start = board.shape, board.pegs_mask
    run = LevelRun(shape, symmetry_group(shape, [start], True), 1, 16 << 30, None, 256 << 20)
    rows = []
    for _, level, _ in run.levels(start, True, start.bit_count() - 1):
        if level.n == 0:
            break
        keys = level.keys_array()
        lo, hi = level.counts_arrays()
        order = np.argsort(keys)
        keys, lo, hi = keys[order], lo[order], hi[order]
        wide = hi if hi.any() else None
        t0 = time.perf_counter()
        stored = encode(keys, lo, wide)
        seconds = time.perf_counter() - t0
        back = decode(stored.data)
        assert np.array_equal(back[0], keys) and np.array_equal(back[1], lo)
        rows.append((level.n, stored.key_bytes, stored.count_bytes, seconds))
    return rows


def record(benchmark, rows):
    positions = sum(r[0] for r in rows)
    key_bits = 8 * sum(r[1] for r in rows) / positions
    count_bits = 8 * sum(r[2] for r in rows) / positions
    benchmark.extra_info.update(
        positions=positions, key_bits=round(key_bits, 3), count_bits=round(count_bits, 3),
        key_bits_per_level=[round(8 * r[1] / r[0], 2) for r in rows],
        count_bits_per_level=[round(8 * r[2] / r[0], 2) for r in rows],
        encode_seconds=round(sum(r[3] for r in rows), 3))
    return positions, key_bits


@pytest.mark.benchmark(group="stored levels")
def test_english_levels_stored(benchmark):
    board = smoke.board_name(benchmark)
    vacancy = "d4" if board == "english" else "1"
    rows = benchmark.pedantic(lambda: stored_levels(board, vacancy), rounds=1, iterations=1)
    positions, key_bits = record(benchmark, rows)
    if board == "english":
        assert positions == 23_475_688  # OEIS A112737
        assert key_bits < 16
    else:   # the smoke pass: the levels the enumeration counts
        assert positions == analyse(board).total


@pytest.mark.skipif(not LONG, reason="minutes: set PEGSOLVER_LONG_BENCHES=1")
@pytest.mark.benchmark(group="stored levels")
def test_french_levels_stored(benchmark):
    rows = benchmark.pedantic(lambda: stored_levels("french", "d4"), rounds=1, iterations=1)
    positions, key_bits = record(benchmark, rows)
    assert positions == 374_349_517
