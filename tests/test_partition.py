"""A level partition's stored form: exact round trips, compact keys, clear errors."""
import math

import numpy as np
import pytest

from pegsolver import PegsolverError
from pegsolver.analysis import analyse
from pegsolver.engine.core import enum_core
from pegsolver.engine.partition import decode, encode


def colex_rank(key):
    # the rank written out from its definition: pegs c1 < ... < ck give sum C(ci, i)
    pegs = [h for h in range(64) if key >> h & 1]
    return sum(math.comb(c, i) for i, c in enumerate(pegs, start=1))


def round_trip(keys, lo=None, hi=None):
    stored = encode(keys, lo, hi)
    k, a, b = decode(stored.data)
    assert k.dtype == np.uint64 and np.array_equal(k, keys)
    for got, want in ((a, lo), (b, hi)):
        assert (got is None) == (want is None) and (want is None or np.array_equal(got, want))
    return stored


def test_round_trips_of_keys_and_counts():
    rng = np.random.default_rng(7)
    keys = np.unique(rng.integers(0, 2**63, 5000, dtype=np.uint64)) * np.uint64(2) + np.uint64(1)
    lo = rng.integers(0, 2**63, len(keys), dtype=np.uint64)
    hi = rng.integers(0, 3, len(keys), dtype=np.uint64)
    round_trip(keys)
    round_trip(keys, lo)
    full = round_trip(keys, lo, hi)
    assert full.positions == len(keys) and full.count_bytes > 0
    top = np.array([0, 1, 2**64 - 1], dtype=np.uint64)  # the extremes of a word
    round_trip(top, top, top)
    empty = round_trip(np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.uint64))
    assert empty.positions == 0 and empty.key_bits == 0.0


@pytest.mark.parametrize("holes,pegs", [(37, 18), (37, 1), (37, 36), (64, 32), (64, 64), (33, 0)])
def test_keys_of_one_peg_count_are_ranked_and_stored_by_rank(holes, pegs):
    rng = np.random.default_rng(holes * 100 + pegs)
    keys = np.unique(np.array([sum(1 << int(h) for h in rng.choice(holes, pegs, replace=False))
                               for _ in range(500)], dtype=np.uint64))
    ranks = np.empty_like(keys)
    assert enum_core().rank_keys(keys, ranks) == pegs
    assert [int(r) for r in ranks] == [colex_rank(int(k)) for k in keys]
    assert all(int(r) < math.comb(holes, pegs) for r in ranks)
    back = np.empty_like(ranks)
    enum_core().unrank_keys(ranks, pegs, holes, back)
    assert np.array_equal(back, keys)
    if len(keys) > 1:
        round_trip(keys, keys, keys)


def test_keys_of_mixed_peg_counts_are_not_ranked():
    keys = np.array([1, 3, 4, 7], dtype=np.uint64)  # 1, 2, 1 and 3 pegs
    assert enum_core().rank_keys(keys, np.empty_like(keys)) == -1
    round_trip(keys)


def test_a_rank_past_its_positions_is_corrupt():
    keys = np.array([0b011, 0b101], dtype=np.uint64)  # 2 pegs on 3 holes: ranks 0 and 1
    data = bytearray(encode(keys).data)
    data[7] = 2  # holes: 2, where only rank 0 is a position
    with pytest.raises(PegsolverError, match="corrupt: a rank past"):
        decode(bytes(data))


def test_a_real_level_takes_a_few_bits_a_position():
    # English from the centre, level 17, the largest (classes up to the 8 symmetries):
    # sorted ranks are close together, so their differences compress far below the 64
    # bits of a key; keys of mixed peg counts are stored unranked, in more bits.
    a = analyse("english", keep_positions=True, threads=1)
    keys = a.positions(17)
    stored = round_trip(keys)
    assert len(keys) == a.levels[17].positions == 3_626_632
    unranked = encode(np.append(keys, np.uint64(2**63 - 1)))
    assert stored.key_bits < 3 < unranked.key_bits


@pytest.mark.parametrize("keys,lo,hi,words", [
    (np.array([3, 2], dtype=np.uint64), None, None, "sorted and distinct"),
    (np.array([2, 2], dtype=np.uint64), None, None, "sorted and distinct"),
    (np.array([1, 2], dtype=np.int64), None, None, "1-d uint64 array"),
    (np.array([1, 2], dtype=np.uint64), np.array([1], dtype=np.uint64), None, "2 keys but 1 low count words"),
    (np.array([1, 2], dtype=np.uint64), None, np.array([1, 1], dtype=np.uint64), "need its low ones"),
])
def test_bad_partitions_are_refused(keys, lo, hi, words):
    with pytest.raises(PegsolverError, match=words):
        encode(keys, lo, hi)


def test_stored_data_that_is_not_a_partition_is_refused():
    data = encode(np.arange(1, 100, dtype=np.uint64)).data
    with pytest.raises(PegsolverError, match="shorter than its header"):
        decode(b"PEGP")
    with pytest.raises(PegsolverError, match="partition mark"):
        decode(b"XXXX" + data[4:])
    with pytest.raises(PegsolverError, match="format version 9"):
        decode(data[:4] + bytes([9]) + data[5:])
    with pytest.raises(PegsolverError, match="corrupt"):
        decode(data[:-3])
    with pytest.raises(PegsolverError, match="corrupt"):
        decode(data[:-6] + b"\0" * 6)
