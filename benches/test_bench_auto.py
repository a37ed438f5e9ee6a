"""The default strategy, auto, on every problem it must answer within 5 s of wall time:
the bench problem set, the corners of triangles 9..15, every class-feasible French
single-vacancy -> single-peg pair, Wiegleb, diamond 41 from every vacancy its class allows,
3-3-2-2 and English under each static order.

Each bench runs ``solve()`` with its defaults but a 5 s limit, records the member that
answered and the work (``extra_info``), replays every solution, and adds a row to the table
printed at the end of the session (benches/conftest.py). Under ``--benchmark-disable`` (the
test run's smoke pass) the problems auto does not yet settle run with a 1 s limit.
"""
import time

import pytest

import pegsolver
from pegsolver import Goal, Limit, solve
from pegsolver.apps.bench import load_problems
from pegsolver.engine.compile import ORDERS
from pegsolver.proofs.classes import class_finishes, position_class
from replay import assert_solves

SECONDS = 5.0
SMOKE_SECONDS = 1.0


def single_vacancy(variant, hole):
    board = pegsolver.find_variant(variant).board()
    return board.with_pegs(board.shape.full_mask & ~(1 << hole))


def cases():
    out = []
    for p in load_problems().problems:
        out.append(pytest.param(p.start(), p.goal(), {}, id=f"set-{p.name}"))
    for side in range(9, 16):
        out.append(pytest.param(pegsolver.find_variant(f"triangle{side}").board(), None, {},
                                id=f"triangle{side}-corner"))
    french = pegsolver.find_variant("french").board()
    shape = french.shape
    names = [pegsolver.model.notation.hole_name(shape, h) for h in range(shape.size)]
    for v in range(shape.size):
        for f in range(shape.size):
            if position_class(shape, shape.full_mask & ~(1 << v)) == position_class(shape, 1 << f):
                out.append(pytest.param(single_vacancy("french", v), Goal.at(f), {},
                                        id=f"french-{names[v]}-{names[f]}"))
    out.append(pytest.param(pegsolver.find_variant("wiegleb").board(), None, {}, id="wiegleb-centre"))
    out.append(pytest.param(pegsolver.find_variant("asymmetric").board(), None, {}, id="3-3-2-2-d5"))
    diamond = pegsolver.find_variant("diamond").board()
    shape = diamond.shape
    for v in range(shape.size):
        start = single_vacancy("diamond", v)
        if class_finishes(shape, start.pegs_mask):
            name = pegsolver.model.notation.hole_name(shape, v)
            # The apexes and the four holes beside the centre: no member settles them in
            # minutes (a beam of 400,000 neither); whether they can end with one peg at all
            # is open here.
            hard = shape.coords[v] in {(0, 4), (4, 0), (4, 8), (8, 4), (3, 4), (4, 3), (4, 5), (5, 4)}
            marks = [pytest.mark.xfail(strict=True, reason="not settled by auto within the limit")] if hard else []
            out.append(pytest.param(start, Goal.anywhere(), {}, id=f"diamond-{name}", marks=marks))
    for order in ORDERS:
        out.append(pytest.param(pegsolver.find_variant("english").board(), None, {"order": order},
                                id=f"english-order-{order}"))
    return out


@pytest.mark.benchmark(group="auto")
@pytest.mark.parametrize("start,goal,kwargs", cases())
def test_auto_answers(benchmark, request, start, goal, kwargs):
    hard = request.node.get_closest_marker("xfail") is not None
    seconds = SMOKE_SECONDS if hard and benchmark.disabled else SECONDS
    wall = []

    def run():
        t0 = time.perf_counter()
        sol = solve(start, goal, limit=Limit(seconds=seconds), **kwargs)
        wall.append(time.perf_counter() - t0)
        return sol

    sol = benchmark.pedantic(run, rounds=1, iterations=1)
    st = sol.stats
    benchmark.extra_info.update(reason=sol.reason, member=st.member, runs=st.runs, nodes=st.nodes,
                                tests=st.tests, wall_seconds=wall[-1])
    request.node.user_properties.append(("auto", (request.node.callspec.id, wall[-1], sol.reason, st.member,
                                                  st.runs, st.nodes)))
    assert sol.solved or sol.reason in ("position class", "pagoda", "exhausted"), sol.explanation
    if sol.solved:
        assert_solves(sol, finish=sol.goal.finish, pegs_left=sol.goal.pegs)
