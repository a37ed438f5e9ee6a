"""The compiled core against the pure-Python reference on random small boards.

Both read the same compiled problem; they must agree on the answer and on every work
counter (the core's table never fills on boards this small), and every solution must
replay under the independent rules in replay.py.
"""
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pegsolver
from pegsolver import Board, Goal, Shape, solve
from pegsolver.engine.compile import ORDERS
from pegsolver.errors import CoreMissingError
from replay import assert_solves


@st.composite
def small_problems(draw):
    grid = draw(st.sampled_from(["square", "triangle"]))
    if grid == "square":
        rows, cols = draw(st.integers(1, 4)), draw(st.integers(2, 5))
        cells = [(r, c) for r in range(rows) for c in range(cols)]
    else:
        side = draw(st.integers(2, 5))
        cells = [(r, c) for r in range(side) for c in range(r + 1)]
    holes = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=16, unique=True))
    shape = Shape(grid, tuple(holes))
    pegs = draw(st.integers(1, shape.full_mask))
    n = pegs.bit_count()
    kind = draw(st.sampled_from(["anywhere", "at", "pattern"]))
    if kind == "anywhere":
        goal = Goal.anywhere(draw(st.integers(1, min(n, 2))))
    elif kind == "at":
        goal = Goal.at(draw(st.integers(0, shape.size - 1)))
    else:
        k = draw(st.integers(1, min(n, shape.size)))
        goal = Goal.pattern(draw(st.lists(st.integers(0, shape.size - 1), min_size=k, max_size=k, unique=True)))
    return Board(shape, pegs), goal


COUNTERS = ("tests", "nodes", "dead_ends", "table_hits", "table_entries")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_problems(), st.sampled_from(sorted(pegsolver.STRATEGIES)), st.sampled_from((None,) + ORDERS))
def test_core_and_reference_agree(problem, strategy, order):
    board, goal = problem
    order = None if strategy == "seed" else order   # the seed scan has no jump order to choose
    core = solve(board, goal, strategy=strategy, proofs=False, order=order)
    ref = solve(board, goal, strategy=strategy, backend="reference", proofs=False, order=order)
    assert core.solved == ref.solved
    assert core.jumps == ref.jumps
    for name in COUNTERS:
        assert getattr(core.stats, name) == getattr(ref.stats, name), name
    if core.solved:
        finish = sorted(goal.finish) if goal.finish is not None else None
        assert_solves(core, finish=finish, pegs_left=goal.pegs)
    else:
        assert core.reason == "exhausted"
    # Class and pagoda proofs and pagoda pruning may only ever claim what the exhaustive
    # search confirms; with them on, core and reference still agree on every counter.
    proved = solve(board, goal, strategy=strategy)
    assert proved.solved == core.solved
    assert proved.reason in ("solved", "exhausted", "position class", "pagoda")
    proved_ref = solve(board, goal, strategy=strategy, backend="reference")
    assert proved_ref.reason == proved.reason and proved_ref.jumps == proved.jumps
    for name in COUNTERS + ("pagoda_prunes",):
        assert getattr(proved.stats, name) == getattr(proved_ref.stats, name), name


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_problems(), st.integers(1, 4), st.booleans())
def test_narrow_beams_agree_and_claim_no_proof(problem, width, proofs):
    # Narrow beams cut levels: core and reference must cut the same positions, and an
    # unsolved answer after a cut must not be called a proof.
    board, goal = problem
    core = solve(board, goal, strategy="beam", beam_width=width, proofs=proofs)
    ref = solve(board, goal, strategy="beam", beam_width=width, proofs=proofs, backend="reference")
    assert (core.solved, core.reason, core.jumps) == (ref.solved, ref.reason, ref.jumps)
    for name in COUNTERS + ("pagoda_prunes",):
        assert getattr(core.stats, name) == getattr(ref.stats, name), name
    # the reference reports the bytes its kept levels took (it said 0 MiB for any beam)
    assert ref.stats.table_bytes > 0 or not ref.stats.table_entries
    if core.solved:
        finish = sorted(goal.finish) if goal.finish is not None else None
        assert_solves(core, finish=finish, pegs_left=goal.pegs)
    elif core.reason == "exhausted":
        assert not solve(board, goal, strategy="dfs", proofs=False)
    else:
        assert core.reason in ("beam", "position class", "pagoda")


@settings(max_examples=100, deadline=None)
@given(small_problems())
def test_symmetry_never_changes_the_answer(problem):
    board, goal = problem
    # (the beam never cuts a level on boards this small, so it is exhaustive too)
    answers = {solve(board, goal, strategy=s).solved for s in ("dfs", "table", "symmetry", "beam")}
    assert len(answers) == 1
    if goal.finish is not None and board.shape.size - board.peg_count >= 1:
        # complement duality: the backward search answers the same, and its solution replays
        back = solve(board, goal, backward=True)
        assert back.solved in answers and back.stats.direction == "backward"
        if back.solved:
            assert_solves(back, finish=sorted(goal.finish), pegs_left=goal.pegs)


def test_missing_core_says_how_to_build_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pegcore._search64", None)
    with pytest.raises(CoreMissingError, match="pip install"):
        solve("english")


@pytest.mark.parametrize("name", ["english", "triangle6", "asymmetric"])
@pytest.mark.parametrize("width", [1, 7, 60])
def test_beam_cuts_the_same_on_real_boards(name, width):
    # Real boards make every level wider than these beams, so every level is cut.
    core = solve(name, strategy="beam", beam_width=width)
    ref = solve(name, strategy="beam", beam_width=width, backend="reference")
    assert (core.solved, core.reason, core.jumps) == (ref.solved, ref.reason, ref.jumps)
    for counter in COUNTERS + ("pagoda_prunes",):
        assert getattr(core.stats, counter) == getattr(ref.stats, counter), counter
    assert core.reason in ("solved", "beam")
    if core.solved:
        assert_solves(core, finish=sorted(core.goal.finish) if core.goal.finish else None, pegs_left=1)


def test_the_reference_table_reports_its_memory():
    # it said 0.00 MiB beside thousands of entries
    sol = solve("triangle6", strategy="table", backend="reference", proofs=False)
    assert sol.stats.table_entries > 100 and sol.stats.table_bytes > 28 * sol.stats.table_entries
