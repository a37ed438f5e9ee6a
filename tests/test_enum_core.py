"""The enumeration core's parts, checked one by one against plain Python: the legal-jump
sets (both builds), counts past 2**64 (the wide path), a level built through many
small stage flushes, and a merge that stops at its deadline or when told."""
import importlib
import random
import time

import numpy as np
import pytest

import pegsolver.analysis as A
import pegsolver.engine.levels as L
from pegsolver import find_variant
from pegsolver.analysis import analyse
from pegsolver.engine import level_memory


def builds():
    """Every build of the core this machine can load (portable first)."""
    out = [importlib.import_module("pegcore._enum64")]
    for name, can in (("pegcore._enum64_v2", out[0].cpu_has_popcnt()), ("pegcore._enum64_bmi2", out[0].cpu_has_bmi2())):
        if can:
            try:
                out.append(importlib.import_module(name))
            except ImportError:
                pass
    return out


def moves(E, name):
    board = find_variant(name).board()
    shape = board.shape
    group = L.symmetry_group(shape, [board.pegs_mask], True)
    perms = np.array(group[1:], dtype=np.int32).reshape(-1, shape.size)
    jumps = np.array(shape.jumps, dtype=np.int32).reshape(-1, 3)
    return board, E.Moves(jumps, perms, shape.size), group


@pytest.mark.parametrize("E", builds(), ids=lambda E: E.__name__)
@pytest.mark.parametrize("name", ["english", "english-diagonal", "triangle6", "french", "wiegleb"])
def test_legal_jump_sets_match_the_jump_list(E, name):
    shape = find_variant(name).board().shape
    _, mv, _ = moves(E, name)
    rng = random.Random(7)
    for _ in range(500):
        pegs = rng.getrandbits(shape.size)
        expected = sorted(j for j, (a, o, t) in enumerate(shape.jumps)
                          if pegs >> a & 1 and pegs >> o & 1 and not pegs >> t & 1)
        assert mv.legal(pegs) == expected
        assert mv.legal(pegs, portable=True) == expected


def test_the_fast_build_is_the_one_loaded_where_it_runs():
    E = L.enum_core()
    assert E.FAST_JUMPS == (E.__name__.endswith("_bmi2"))
    if builds()[-1].__name__.endswith("_bmi2"):
        assert E.FAST_JUMPS


def canonical(group, shape, pegs):
    return min(shape.map_mask(p, pegs) for p in group)


@pytest.mark.parametrize("E", builds(), ids=lambda E: E.__name__)
def test_counts_past_2_64_are_carried_and_kept_wide(E):
    # The English start has four jumps into the centre, all one class: a start count
    # of 2**63 makes a child of count 2**65 (a carry), whose children need wide entries.
    board, mv, group = moves(E, "english")
    shape = board.shape
    start = board.pegs_mask
    parent = E.Level(True, 1 << 30, 16)
    parent.add(mv.canonical(start), 2 ** 63)
    st = E.Stage(1 << 20)
    st.reset(0, 2)
    work = E.Work()
    assert E.generate(mv, parent, 0, parent.slots_used, st, work) == parent.slots_used
    child = E.Level(True, 1 << 30, 16)
    assert E.insert(child, [st], 0)
    lo, hi = child.counts_arrays()
    assert child.n == 1 and child.wide
    assert int(lo[0]) + (int(hi[0]) << 64) == 4 * 2 ** 63 == child.total_count() == work.sequences

    with pytest.raises(ValueError, match="3 words"):
        E.generate(mv, child, 0, child.slots_used, st, E.Work())
    st.reset(0, 3)
    work = E.Work()
    E.generate(mv, child, 0, child.slots_used, st, work)
    grand = E.Level(True, 1 << 30, 16)
    assert E.insert(grand, [st], 0)
    # plain Python: every jump of the child, keyed by its smallest image
    (key,) = [int(k) for k in child.keys_array()]
    expected = {}
    for a, o, t in shape.jumps:
        if key >> a & 1 and key >> o & 1 and not key >> t & 1:
            c = canonical(group, shape, key ^ (1 << a | 1 << o | 1 << t))
            expected[c] = expected.get(c, 0) + 2 ** 65
    lo, hi = grand.counts_arrays()
    got = {int(k): int(a) + (int(b) << 64) for k, a, b in zip(grand.keys_array(), lo, hi)}
    assert got == expected
    assert work.sequences == sum(expected.values()) == grand.total_count()


@pytest.mark.parametrize("E", builds(), ids=lambda E: E.__name__)
def test_a_merge_stops_at_its_deadline_and_at_the_halt_flag(E):
    # A merge into fresh memory can take seconds: it looks for a stop as it goes.
    board, mv, _ = moves(E, "english")
    rng = random.Random(5)
    parent = E.Level(True, 1 << 30, 1 << 15)
    for _ in range(20_000):   # random positions: about 10 children each, past one look for a stop
        parent.add(rng.getrandbits(board.shape.size), 1)
    st = E.Stage(1 << 24)
    st.reset(0, 2)
    work = E.Work()
    assert E.generate(mv, parent, 0, parent.slots_used, st, work) == parent.slots_used
    assert work.children > 100_000
    with pytest.raises(TimeoutError):
        E.insert(E.Level(True, 1 << 30, 16), [st], 0, time.monotonic() - 1.0)
    halt = np.ones(1, dtype=np.uint8)
    with pytest.raises(InterruptedError):
        E.insert(E.Level(True, 1 << 30, 16), [st], 0, 0.0, halt)
    halt[0] = 0
    whole = E.Level(True, 1 << 30, 16)
    assert E.insert(whole, [st], 0, time.monotonic() + 600.0, halt)   # neither: all of it
    assert whole.total_count() == work.sequences


def test_a_run_whose_merge_passes_the_deadline_stops_by_the_time_limit(monkeypatch):
    real = L.enum_core()

    class Late:   # the core, every merge given a deadline already past
        def __getattr__(self, name):
            return getattr(real, name)

        def insert(self, out, stages, part, deadline=0.0, halt=None):
            return real.insert(out, stages, part, time.monotonic() - 1.0, halt)
    monkeypatch.setattr(L, "enum_core", Late)
    for threads in (1, 2):
        run = analyse("english", keep_positions=False, threads=threads)
        assert str(run.stopped) == "time limit" and "time limit" in run.message
        assert 0 < len(run.levels) < 32   # the levels before the first large merge


def test_a_level_built_through_many_small_flushes_is_the_same(monkeypatch):
    # Stages of 182 blocks (two a jump): each level's children are merged in many rounds.
    real, merges = L.enum_core(), []

    class Counted:   # the core, counting the merges into a level's partitions
        def __getattr__(self, name):
            return getattr(real, name)

        def insert(self, *args):
            merges.append(1)
            return real.insert(*args)
    monkeypatch.setattr(L, "enum_core", Counted)
    whole = analyse("triangle6", keep_positions=False, threads=1)
    rounds = 2 * len(merges)   # one merge a level and partition, on 2 threads
    monkeypatch.setattr(A, "STAGE_CAP", 512 << 10)
    monkeypatch.setattr(level_memory, "MIN_STAGE", 512 << 10)   # the first stages (first_stage_bytes)
    small = analyse("triangle6", keep_positions=False, threads=2)
    assert small.stopped is None and len(merges) - rounds / 2 > 2 * rounds   # many a level and partition
    assert [lv.positions for lv in small.levels] == [lv.positions for lv in whole.levels]
    assert [lv.sequences for lv in small.levels] == [lv.sequences for lv in whole.levels]
    assert small.games == whole.games and small.total > 50_000


def test_the_portable_build_gives_the_published_english_figures(monkeypatch):
    E = builds()[0]
    monkeypatch.setattr(L, "enum_core", lambda: E)
    a = analyse("english", keep_positions=False, threads=2)
    assert a.total == 23_475_688
    assert a.finishes[find_variant("english").board().shape.coords.index((3, 3))] == 40_861_647_040_079_968


@pytest.mark.parametrize("E", builds(), ids=lambda E: E.__name__)
def test_the_core_sorts_keys_as_numpy_does(E):
    rng = np.random.default_rng(5)
    cases = [np.array([], dtype=np.uint64), np.array([3], dtype=np.uint64),
             np.array([2**64 - 1, 0, 2**63, 5, 5], dtype=np.uint64), np.full(3000, 7, dtype=np.uint64)]
    cases += [rng.integers(0, 2**bits, size=n, dtype=np.uint64)
              for bits in (1, 10, 11, 37, 63) for n in (2, 999, 50_000)]
    cases.append(rng.integers(0, 2**63, size=50_000, dtype=np.uint64) * 2 + 1)   # bit 63 and bit 0 in use
    for keys in cases:
        want = np.sort(keys)
        E.sort_keys(keys)
        assert np.array_equal(keys, want)


def test_a_sort_stops_at_a_halt_or_the_deadline():
    E = builds()[0]
    keys = np.random.default_rng(6).integers(0, 2**40, size=3 << 20, dtype=np.uint64)
    with pytest.raises(InterruptedError):
        E.sort_keys(keys, 0.0, np.ones(1, dtype=np.uint8))
    with pytest.raises(TimeoutError):
        E.sort_keys(keys, time.monotonic() - 1.0)


def test_levels_not_kept_say_so():
    a = analyse("triangle5", keep_positions=False)
    with pytest.raises(A.PegsolverError, match="level 3 was not kept: no level was"):
        a.positions(3)
