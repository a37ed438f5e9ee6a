"""Merson regions chosen for each position (proofs.merson.region_choice): every region is
closed, checked from hole coordinates; the choice never counts fewer regions than the fixed
one; and the pruned search it drives proves a lower bound on triangle 9 that the fixed
regions made costly (OEIS A127500: 16 moves for side 9)."""
import numpy as np
import pytest

from pegsolver import find_variant
from pegsolver.engine.limits import Limit
from pegsolver.engine.move_bounds import bound_from_starts, bound_to_finish
from pegsolver.engine.outcome import Reason
from pegsolver.moves import shortest_over_board
from pegsolver.proofs.merson import full_regions, merson_regions, most_regions, region_choice
from replay import UNIT_STEPS


def _closed(shape, holes):
    # every line of three holes whose middle is in ``holes`` has an end in it
    cells = {shape.coords[h] for h in holes}
    board = set(shape.coords)
    for r, c in cells:
        for dr, dc in UNIT_STEPS[shape.rules]:
            ends = (r - dr, c - dc), (r + dr, c + dc)
            if all(e in board for e in ends) and not any(e in cells for e in ends):
                return False
    return True


def _holes(mask):
    return [h for h in range(mask.bit_length()) if mask >> h & 1]


@pytest.mark.parametrize("side, paths, hexagons, packings", [(5, 3, 0, 1), (8, 3, 3, 3), (9, 3, 6, 6),
                                                             (10, 3, 10, 8)])
def test_the_choices_are_closed_regions_and_packings_are_maximal(side, paths, hexagons, packings):
    shape = find_variant(f"triangle{side}").board().shape
    choice = region_choice(shape)
    assert (len(choice.paths), len(choice.larger), len(choice.packings)) == (paths, hexagons, packings)
    for m in choice.singles:
        assert _closed(shape, _holes(m)) and m.bit_count() == 1
    for path in choice.paths:   # the edges less their corners, each two neighbours a region
        assert len(path) == side - 2
        for x, y in zip(path, path[1:]):
            assert _closed(shape, [x, y])
    used = [h for m in choice.singles for h in _holes(m)] + [h for p in choice.paths for h in p]
    assert len(used) == len(set(used))
    for m in choice.larger:
        assert m.bit_count() == 7 and _closed(shape, _holes(m)) and not set(_holes(m)) & set(used)
    for packing in choice.packings:
        taken = 0
        for i in packing:
            assert not choice.larger[i] & taken
            taken |= choice.larger[i]
        assert all(m & taken for m in choice.larger)   # maximal: every other one overlaps


@pytest.mark.parametrize("name", ["triangle5", "triangle7", "triangle9", "triangle10", "english", "wiegleb"])
def test_the_choice_never_counts_fewer_regions_than_the_fixed_one(name):
    shape = find_variant(name).board().shape
    rng = np.random.default_rng(7)
    keys = np.zeros(5000, dtype=np.uint64)
    for h in range(shape.size):
        keys |= (rng.random(len(keys)) < rng.choice([0.5, 0.8, 0.95])).astype(np.uint64) << np.uint64(h)
    fixed = full_regions(merson_regions(shape, larger=True), keys)
    chosen = most_regions(region_choice(shape), lambda m: (keys & np.uint64(m)) == np.uint64(m), len(keys))
    assert (chosen >= fixed).all()
    assert (chosen > fixed).any() == name.startswith("triangle")   # no paths longer than a pair elsewhere


@pytest.mark.parametrize("name", ["triangle6", "triangle9", "triangle10", "english", "wiegleb"])
def test_the_core_counts_as_numpy_does(name):
    # the compiled count (engine.move_bounds) against proofs.merson.most_regions, both ways,
    # on positions of every density, for a finish hole, any one peg, and any three pegs
    shape = find_variant(name).board().shape
    rng = np.random.default_rng(11)
    keys = rng.integers(0, 1 << 63, 4000, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, 4000, dtype=np.uint64)
    for _ in range(2):
        keys &= rng.integers(0, 1 << 63, 4000, dtype=np.uint64) * np.uint64(2) | np.uint64(1)
        keys |= np.where(rng.random(4000) < 0.5, keys >> np.uint64(1), np.uint64(0))
    keys &= np.uint64(shape.full_mask)
    choice = region_choice(shape)

    def full(m):
        return (keys & np.uint64(m)) == np.uint64(m)
    for finish, pegs in ((1 << 4, 1), (None, 1), (None, 3)):
        if finish is not None:
            expect = most_regions(choice, lambda m: full(m) & bool(m & ~finish), len(keys))
        else:
            expect = most_regions(choice, full, len(keys)) - np.minimum(
                most_regions(choice, lambda m: full(m) & (m.bit_count() <= pegs), len(keys)), pegs)
        assert (bound_to_finish(shape, finish, pegs)(keys) == expect).all()
    unfilled = most_regions(choice, lambda m: ~full(m), len(keys))
    assert (bound_from_starts(shape, [shape.full_mask])(keys) == unfilled).all()
    assert len(set(unfilled.tolist())) > 3


def test_a_vacancy_on_an_edge_moves_the_pairs_past_it():
    # triangle 9's left edge, less its corners, is 7 holes: 3 fixed pairs and one hole left
    # over. A vacancy in the first pair leaves 6 in a row: still 3 pairs, not 2
    shape = find_variant("triangle9").board().shape
    first = region_choice(shape).paths[0]
    start = shape.full_mask & ~(1 << first[0])
    keys = np.array([start], dtype=np.uint64)
    fixed = full_regions(merson_regions(shape, larger=True), keys)[0]
    assert bound_to_finish(shape, 1 << 4)(keys)[0] == fixed + 1 == 3 + 9 + 1   # corners, pairs, a hexagon
    # backward: from the full board less a corner, an empty edge costs its 3 pairs
    empty_edge = shape.full_mask & ~sum(1 << h for h in first)
    since = bound_from_starts(shape, [shape.full_mask & ~1])(np.array([empty_edge], dtype=np.uint64))
    assert since[0] == 3


def test_triangle9_has_no_solution_of_13_moves_in_a_second_pruned_search():
    # with the fixed regions this took 8 s and a forward level of 948,569 positions; the
    # regions chosen for each position keep every level under 7,000
    a = shortest_over_board("triangle9", Limit(memory_bytes=1 << 30), at_most=13)
    assert a.reason is Reason.BOUNDED and a.lower_bound == 14 and not a.jumps
    assert max(a.forward) < 7_000
