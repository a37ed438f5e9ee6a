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


@pytest.mark.parametrize("order", [1, -1])
def test_every_rank_unranks_to_its_key_in_either_order(order):
    # all 792 positions of 5 pegs on 12 holes, in numeric (colex) order: each key is found
    # from the one before (sorted ranks) or from scratch (ranks going down)
    import itertools
    keys = sorted(sum(1 << h for h in c) for c in itertools.combinations(range(12), 5))
    ranks = np.arange(len(keys), dtype=np.uint64)[::order].copy()
    back = np.empty_like(ranks)
    enum_core().unrank_keys(ranks, 5, 12, back)
    assert back.tolist() == keys[::order]


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


def test_a_real_level_takes_a_few_bits_a_position(english_levels):
    # English from the centre, level 17, the largest (classes up to the 8 symmetries):
    # sorted ranks are close together, so their differences compress far below the 64
    # bits of a key; keys of mixed peg counts are stored unranked, in more bits.
    a = english_levels
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


def test_a_flipped_byte_in_a_stored_section_is_caught():
    # zstd's frame checksums: a byte changed on disk is an error, never other positions
    keys = np.arange(1, 2000, 3, dtype=np.uint64)
    data = encode(keys, keys * np.uint64(7)).data
    for at in range(len(data) - 1, len(data) // 5, -7):
        bad = bytearray(data)
        bad[at] ^= 0x10
        with pytest.raises(PegsolverError, match="corrupt"):
            decode(bytes(bad))


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


def english_spec():
    from pegsolver.engine.levels import symmetry_group
    from pegsolver.engine.shards import BoardSpec
    from pegsolver.model.variants import find_variant
    shape = find_variant("english").shape()
    group = symmetry_group(shape, [(1 << shape.size) - 1 ^ 1 << 16], True)
    return BoardSpec.of(shape, group)


@pytest.mark.parametrize("hi", [None, 1])
def test_a_run_keeps_high_count_words_only_when_a_count_passes_2_64(hi):
    # the English start reached 5 + 2**64 * hi ways: its children (not summed in a run) are
    # reached as many ways
    from pegsolver.engine.shards import expand_partition, run_piece
    start = np.array([(1 << 33) - 1 ^ 1 << 16], np.uint64)
    runs: list[bytes] = []
    piece = (start, np.array([5], np.uint64), None if hi is None else np.array([hi], np.uint64))
    expand_partition(english_spec(), piece, True, 2, 1 << 20, runs.append)
    keys, lo, his = zip(*(run_piece(r, 0, 4) for r in runs))
    # 4 jumps, 1 class: 4 children of one key, not summed
    assert len(set(np.concatenate(keys).tolist())) == 1 and sum(len(k) for k in keys) == 4
    assert all(np.all(x == 5) for x in lo)
    assert all(h is None for h in his) if hi is None else all(np.all(h == 1) for h in his)


def test_runs_of_a_real_level_read_back_by_any_shards_and_take_a_few_bytes_a_child(english_levels):
    # English level 12 (517,854 positions) expanded into runs of 64 shards: every range of
    # shards reads back the children of those shards, which make level 13; compressed, a
    # child takes well under the 16 bytes of its key and count
    from pegsolver.engine.shards import expand_partition, run_piece, run_shards
    a = english_levels
    parents, level = a.positions(12), a.positions(13)
    runs: list[bytes] = []
    work = expand_partition(english_spec(), (parents, np.ones(len(parents), np.uint64), None), True, 6, 4 << 20,
                            runs.append)
    assert len(runs) > 1
    cuts = [0, 1, 7, 8, 30, 63, 64]
    whole = []
    for r in runs:
        pieces = [run_piece(r, x, y) for x, y in zip(cuts, cuts[1:])]
        one = run_piece(r, 0, 64)
        assert np.array_equal(np.concatenate([p[0] for p in pieces]), one[0])
        assert np.array_equal(np.concatenate([p[1] for p in pieces]), one[1])
        assert len(one[0]) == run_shards(r)[-1] and one[2] is None
        whole.append(one[0])
    children = np.concatenate(whole)
    assert len(children) == work.children
    assert np.array_equal(np.unique(children), np.sort(level))
    assert sum(len(r) for r in runs) < 8 * len(children)


@pytest.fixture(scope="module")
def english_levels():
    return analyse("english", keep_positions=True, threads=1)


def test_byte_shuffle_is_the_transpose_of_the_words_bytes():
    from pegsolver.engine.partition import shuffle_words, unshuffle_words
    words = np.random.default_rng(3).integers(0, 2**64 - 1, 1001, dtype=np.uint64, endpoint=True)
    shuffled = shuffle_words(words)
    assert np.array_equal(shuffled, words.view(np.uint8).reshape(-1, 8).T.ravel())   # little-endian words
    assert np.array_equal(unshuffle_words(shuffled.tobytes(), len(words)), words)
    with pytest.raises(PegsolverError, match="corrupt"):
        unshuffle_words(shuffled.tobytes()[:-1], len(words))


def test_a_merge_sums_every_key_across_packed_runs():
    # runs of random children (keys cut into 8 shards by their top 3 bits, counts near
    # 2**64 so that sums carry into the high word): the merge of shards 2 to 6 gives each
    # of their keys once, sorted, with the sum of its counts
    from pegsolver.engine import shards
    rng = np.random.default_rng(11)
    want: dict[int, int] = {}
    runs = []
    for _ in range(3):
        keys = np.sort(rng.integers(1, 64, 300, dtype=np.uint64)) << np.uint64(58)
        keys |= rng.integers(1, 4, 300, dtype=np.uint64)
        lo = rng.integers(2**63, 2**64 - 1, 300, dtype=np.uint64, endpoint=True)
        offsets = np.append(np.searchsorted(keys >> np.uint64(61), np.arange(8, dtype=np.uint64)), len(keys))
        runs.append(shards.pack_run((keys, lo, None), offsets.astype(np.int64)))
        for k, c in zip(keys.tolist(), lo.tolist()):
            want[k] = want.get(k, 0) + c
    (keys, lo, hi), total, _ = shards.merge_runs([shards.run_piece(r, 2, 7) for r in runs], True, 1 << 30)
    inside = {k: c for k, c in want.items() if 2 <= k >> 61 < 7}
    assert keys.tolist() == sorted(inside) and total == sum(inside.values())
    assert hi is not None
    assert [a + (b << 64) for a, b in zip(lo.tolist(), hi.tolist())] == [inside[k] for k in sorted(inside)]
