"""The guided strategy: children tried lowest score first (isolated pegs, then distance
from the centre). It solves boards the plain orders do not reach in reasonable time,
in both core widths, and agrees with the pure-Python reference."""
import pytest

import pegsolver
from pegsolver import Goal, Limit, solve
from pegsolver.engine.compile import ISOLATED_WEIGHT, STRATEGIES, STRATEGY_HELP, compile_problem, hole_weights
from pegsolver.engine.core import core64, core128
from pegsolver.model.notation import parse_hole
from replay import assert_solves

LIMIT = Limit(nodes=1_000_000)


def test_registered_as_strategy_code_2():
    code, use_table, use_sym, order, weights = STRATEGIES["guided"]
    assert (code, use_table, use_sym, order, weights) == (2, True, True, "table", "centre")
    assert "guided" in STRATEGY_HELP


def test_weights_grow_away_from_the_centre():
    shape = pegsolver.find_variant("english").board().shape
    w = hole_weights(shape, "centre")
    centre = parse_hole(shape, "d4")
    assert w[centre] == 0 and all(x > 0 for i, x in enumerate(w) if i != centre)
    assert max(w) == w[parse_hole(shape, "c1")] == round(100 * 10 ** 0.5)
    p = compile_problem(shape, shape.full_mask, Goal.anywhere(), "guided")
    assert list(p.weights if p.bits is None else p.weights[p.bits]) == w and p.iso_weight == ISOLATED_WEIGHT
    other = compile_problem(shape, shape.full_mask, Goal.anywhere(), "symmetry")
    assert not other.weights.any() and other.iso_weight == 0


@pytest.mark.parametrize("side", [11, 12])  # 66 and 78 holes: the 128-bit core
def test_triangle_from_the_corner(side):
    board = pegsolver.find_variant(f"triangle{side}").board()
    sol = solve(board, Goal.anywhere(), strategy="guided", limit=LIMIT)
    assert_solves(sol)
    assert sol.stats.nodes < 100_000


def test_wiegleb_centre_to_centre():
    board = pegsolver.find_variant("wiegleb").board()
    e5 = parse_hole(board.shape, "e5")
    sol = solve(board, Goal.at(e5), strategy="guided", limit=Limit(nodes=5_000_000))
    assert_solves(sol, finish=[e5])


def test_english_centre_to_centre():
    board = pegsolver.find_variant("english").board()
    d4 = parse_hole(board.shape, "d4")
    assert_solves(solve(board, strategy="guided", limit=LIMIT), finish=[d4])


@pytest.mark.parametrize("name,nodes", [("triangle6", 0), ("french", 1000), ("english", 1000)])
def test_reference_agrees(name, nodes):
    limit = Limit(nodes=nodes or None)
    core = solve(name, strategy="guided", limit=limit)
    ref = solve(name, strategy="guided", limit=limit, backend="reference")
    assert (core.reason, core.jumps) == (ref.reason, ref.jumps)
    for key in ("tests", "nodes", "dead_ends", "table_hits", "table_entries"):
        assert getattr(core.stats, key) == getattr(ref.stats, key), key


def test_every_jump_tested_once_per_position_expanded():
    # Guided scores every legal child before trying any, so each position it expands
    # (all but the table hits and the final one-peg position) tests the whole table.
    sol = solve("triangle6", strategy="guided")
    assert sol.solved
    expanded = sol.stats.nodes - sol.stats.table_hits - 1
    assert sol.stats.tests == len(sol.start.shape.jumps) * expanded


def test_64_and_128_bit_cores_agree():
    board = pegsolver.find_variant("english").board()
    p = compile_problem(board.shape, board.pegs_mask, board.default_goal, "guided")
    args = (p.jumps, p.slots, p.perms, p.start, p.goal_holes, p.goal_count, p.nholes,
            p.strategy_code, p.use_table, 50_000, 0.0, 16 << 20)
    a = core64().search(*args, weights=p.weights, iso_weight=p.iso_weight)
    b = core128().search(*args, weights=p.weights, iso_weight=p.iso_weight)
    assert b.pop("table_bytes") == 2 * a.pop("table_bytes")
    del a["seconds"], b["seconds"]
    assert a == b and a["stop"] == 1


def test_core_refuses_guided_without_weights():
    p = compile_problem(pegsolver.find_variant("english").board().shape, 1, Goal.anywhere(), "guided")
    with pytest.raises(ValueError, match="weights"):
        core64().search(p.jumps, p.slots, p.perms, p.start, p.goal_holes, p.goal_count, p.nholes,
                        p.strategy_code, p.use_table)
