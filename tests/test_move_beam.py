"""Beams by moves after a limit stops the proof of the fewest moves, the Merson regions that
rank their positions, and moves found again between two positions. Solutions are replayed
by tests/replay.py; bounds are checked against the brute force of test_fewest_moves."""
import random

import numpy as np

from pegsolver import Limit, find_variant, solve
from pegsolver.engine.move_beam import MERGE_COPIES, BeamLevels, pagoda_tables
from pegsolver.engine.move_levels import CHILD_BYTES, MOST, WORK_BYTES, Budget, MoveLevels, MoveSpace, expand
from pegsolver.engine.move_paths import one_move
from pegsolver.engine.outcome import Reason
from pegsolver.model.notation import parse_hole
from pegsolver.moves import shortest_over_board
from pegsolver.proofs.merson import full_regions, merson_regions
from pegsolver.proofs.pagoda import pruning_set, value
from replay import UNIT_STEPS, assert_solves, replay_coords, replay_solution
from test_fewest_moves import brute_fewest_moves, moves_of


def _corners(shape):
    # holes that no jump passes over, from coordinates: no line of three holes has them in the middle
    holes = set(shape.coords)
    return {h for h, (r, c) in enumerate(shape.coords)
            if not any((r + dr, c + dc) in holes and (r - dr, c - dc) in holes for dr, dc in UNIT_STEPS[shape.rules])}


def test_triangle_regions_are_its_corners_and_edge_pairs():
    shape = find_variant("triangle5").board().shape
    regions = merson_regions(shape)
    singles = {m.bit_length() - 1 for m in regions if m & (m - 1) == 0}
    assert singles == _corners(shape) and len(singles) == 3
    pairs = [m for m in regions if m & (m - 1)]
    assert len(pairs) == 3   # one pair on each edge of 5 holes (3 between the corners)
    for m in pairs:
        a, b = (shape.coords[h] for h in range(shape.size) if m >> h & 1)
        assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1   # neighbours
    assert sum(bin(m).count("1") for m in regions) == len({h for m in regions for h in range(shape.size)
                                                            if m >> h & 1})   # disjoint


def test_full_regions_never_exceed_the_moves_left():
    # every full region needs a move of its own, but a corner may keep the last peg
    board = find_variant("triangle5").board()
    shape = board.shape
    regions = merson_regions(shape)
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        pegs = sum(1 << h for h in rng.sample(range(shape.size), rng.randint(3, 8)))
        fewest = brute_fewest_moves(board, [h for h in range(shape.size) if pegs >> h & 1])
        if not fewest:
            continue
        full = int(full_regions(regions, np.array([pegs], dtype=np.uint64))[0])
        corner_full = any(m & (m - 1) == 0 and pegs & m for m in regions)
        assert min(fewest.values()) >= full - corner_full
        checked += 1
    assert checked >= 10


def test_one_move_finds_a_chain_of_jumps_again():
    board = find_variant("english").board()
    shape = board.shape
    h = {name: parse_hole(shape, name) for name in ("d2", "d3", "d4", "f3", "e3", "d5", "d6", "b3", "c3")}
    before = board.pegs_mask
    after = before ^ (1 << h["d2"] | 1 << h["d3"] | 1 << h["d4"])
    jumps = one_move(shape, before, after)
    assert [(j.from_hole, j.over, j.to_hole) for j in jumps] == [(h["d2"], h["d3"], h["d4"])]
    assert one_move(shape, before, before) is None
    assert one_move(shape, before, after ^ (1 << h["b3"])) is None   # two pegs moved


def test_a_beam_meets_the_bound_the_proof_reached_under_a_memory_limit():
    sol = solve("english", minimize="moves", limit=Limit(memory_bytes=64 << 20))
    assert sol.optimal and sol.lower_bound == 18 == len(sol.moves)
    assert "a beam by moves" in sol.explanation
    assert_solves(sol, finish=[parse_hole(sol.start.shape, "d4")])
    assert moves_of(sol.start.shape.coords, sol.jumps) == 18


def test_a_beam_gives_the_best_solution_found_under_a_node_limit():
    # the proof gets two thirds of the nodes (16 moves proved), the beams the rest
    sol = solve("english", minimize="moves", limit=Limit(nodes=300_000))
    assert not sol.optimal and sol.reason is Reason.NODE_LIMIT and sol.stats.nodes <= 300_000
    assert "best solution found by a beam by moves" in sol.explanation
    assert replay_solution(sol) == {sol.start.shape.coords[parse_hole(sol.start.shape, "d4")]}
    assert sol.lower_bound == 16 and moves_of(sol.start.shape.coords, sol.jumps) == len(sol.moves) == 18
    # the bound's source is named (a trial's answer named none for the levels' bound)
    assert "(every solution has at least 16, by the levels by moves: no position is on both sides)" in sol.explanation


def test_shortest_over_a_board_with_beams_gives_an_upper_bound():
    board = find_variant("triangle7").board()
    answer = shortest_over_board(board, Limit(memory_bytes=8 << 20), beam=Limit(seconds=5))
    assert answer.reason in (Reason.MEMORY_LIMIT, Reason.SOLVED) and answer.jumps
    assert answer.lower_bound <= 12 <= answer.upper_bound   # OEIS A127500: 12
    coords = board.shape.coords
    pegs = {coords[h] for h in range(board.shape.size) if answer.start >> h & 1}
    final = replay_coords(board.shape.rules, coords, pegs, [(coords[j.from_hole], coords[j.to_hole])
                                                             for j in answer.jumps])
    assert len(final) == 1 and moves_of(coords, answer.jumps) == answer.upper_bound


def test_pagoda_tables_value_keys_as_the_pagoda_functions_do():
    shape = find_variant("french").board().shape
    finish = 1 << parse_hole(shape, "e1")
    tables = pagoda_tables(shape, finish)
    assert tables
    rng = random.Random(7)
    keys = np.array([rng.getrandbits(shape.size) for _ in range(200)], dtype=np.uint64)
    for (table, need), weights in zip(tables, pruning_set(shape, finish)):
        assert need == value(weights, finish) > 0
        got = sum(table[b][(keys >> np.uint64(8 * b)) & np.uint64(0xFF)] for b in range(8))
        assert list(got) == [value(weights, int(k)) for k in keys]


def test_depths_of_many_keys_agree_with_depth_of_each():
    board = find_variant("english").board()
    space = MoveSpace(board.shape, [tuple(range(board.shape.size))])
    side = MoveLevels(space, [board.pegs_mask], backward=False)
    budget = Budget(None, None, 1 << 30)
    for _ in range(4):
        side.step(budget)
    keys = np.concatenate([side.level(n)[:5] for n in range(side.depth + 1)] + [np.array([3, 5], dtype=np.uint64)])
    assert list(side.depths_of(keys)) == [side.depth_of(int(k)) if side.depth_of(int(k)) is not None else -1
                                          for k in keys]
    assert sorted(set(side.depths_of(keys))) == [-1, 0, 1, 2, 3, 4]


def test_one_node_is_all_the_proof_gets():
    # a node limit too small to share: nothing is left for the beams or the jump search
    sol = solve("english", minimize="moves", limit=Limit(nodes=1))
    assert sol.stats.nodes == 1 and sol.reason is Reason.NODE_LIMIT and not sol.jumps


def test_count_by_moves_names_the_signal_that_stopped_it(monkeypatch):
    from pegsolver.engine import move_count
    from pegsolver.moves import count_moves

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(move_count.MoveLevels, "step", interrupted)
    result = count_moves("english", "d4")
    assert result.stopped is Reason.INTERRUPTED and result.signal == "Ctrl-C"
    assert "stopped: by Ctrl-C, after" in result.to_text() and result.to_json()["signal"] == "Ctrl-C"


def test_a_beam_level_is_held_in_a_few_widths_however_many_calls_make_it():
    # past twice the width, a level's parts are folded into the best width of them, as
    # the level's end would keep them (a 4 M beam of triangle 10 held 10 GB for a 4 GiB budget)
    board = find_variant("english").board()
    space = MoveSpace(board.shape, [tuple(range(board.shape.size))])
    beam = BeamLevels(space, [board.pegs_mask], width=5)
    keys = np.random.default_rng(7).integers(1, 1 << 33, size=30, dtype=np.uint64)
    few = [keys[:4], keys[4:9]]
    assert beam._fold(few) is few   # 9 keys: within twice the width, kept as they are
    folded = beam._fold([keys[:4], keys[4:9], keys[9:30]])
    assert len(folded) == 1 and len(folded[0]) == 5
    assert sorted(folded[0]) == sorted(keys[np.argsort(beam.rank(keys))[:5]])
    assert beam._made(folded) == MERGE_COPIES * folded[0].nbytes


def test_a_call_into_the_core_takes_the_children_the_budget_holds(monkeypatch):
    # a call's children are processed with copies (sorted, filtered, ranked): it takes no
    # more of them than the budget left holds at WORK_BYTES each (32 MiB peaked at 164 MB)
    board = find_variant("english").board()
    space = MoveSpace(board.shape, [tuple(range(board.shape.size))])
    asked = []
    real = space.E.move_children

    class Core:
        def __getattr__(self, name):
            return getattr(space.E, name)

        def move_children(self, mv, ch, keys, backward, most, hard, deadline, halt):
            asked.append((most, hard))
            return real(mv, ch, keys, backward, most, hard, deadline, halt)
    monkeypatch.setattr(space, "E", Core())
    kids, done = expand(space, np.array([space.canonical(board.pegs_mask)], dtype=np.uint64), False,
                        Budget(None, None, 1 << 20), held=1 << 19)
    assert asked == [((1 << 19) // WORK_BYTES, (1 << 19) // CHILD_BYTES)] and done == 1 and len(kids) == 4
    expand(space, np.array([space.canonical(board.pegs_mask)], dtype=np.uint64), False,
           Budget(None, None, 1 << 40), held=0)
    assert asked[-1][0] == MOST   # a large budget: the fixed cap
