"""Fewest-moves benches: the English centre game's 18 moves proved (target: at most 10 s on
one thread), its tables by moves (a minute: with PEGSOLVER_LONG_BENCHES=1), the triangles'
shortest problems (OEIS A127500: 5, 9, 9, 12, 13, 16, 18 for sides 4 to 10) and French
c1 -> e1 (our figure: 20). Triangle 8 and up and French take minutes and gigabytes and
need PEGSOLVER_LONG_BENCHES=1; the
memory each may take is PEGSOLVER_MOVES_GB (default 10; French needs 11, and
triangle 9 with none of at most 15 moves, which proves its 16, needs 19 and an hour). Where the memory
stops the proof, beams by moves give an upper bound (upper_bound in extra_info). Beams by
moves in the search core alone (engine.core_moves, the search by moves over 64 holes) of
BEAM_WIDTH positions a level, one from each vacancy class: triangles 6 to 8 (the published
figures), and with PEGSOLVER_LONG_BENCHES=1 triangles 9 to 11 (wider beams; triangle 11:
the published bounds are 19 <= S(11) <= 28), and the published fewest of triangles 9 and 10
found by one wide beam each (PEGSOLVER_LONG_BENCHES=1). The search pruned by the Merson regions
(shortest_over_board's at_most): none shorter than the published figure for triangles 6 and
7, and with PEGSOLVER_LONG_BENCHES=1 for 8 to 10, and the figure found and proved by
searching up to it; triangle 9 at least 14 (none of at most 13 moves), and with
PEGSOLVER_LONG_BENCHES=1 at least 15; triangle 10 at least 17; with PEGSOLVER_LONG_BENCHES=1
triangle 8 settled in 600 MiB by the searches pruned one move deeper at a time after the beams.
The same in pieces, one class of finish holes a piece (shortest_by_finish): triangles 6 and 7
found and proved with no cap, and with PEGSOLVER_LONG_BENCHES=1 none shorter than the
published figure for triangles 8 to 10 (each piece within PEGSOLVER_MOVES_GB).
Work counters (positions expanded, chains of jumps) go in extra_info."""
import os

import pytest

from pegsolver import Goal, Limit, find_variant, solve
from pegsolver.engine.core_moves import beam_once
from pegsolver.engine.outcome import Reason
from pegsolver.moves import count_moves, shortest_by_finish, shortest_over_board

LONG = pytest.mark.skipif(os.environ.get("PEGSOLVER_LONG_BENCHES") != "1",
                          reason="minutes: set PEGSOLVER_LONG_BENCHES=1")
SHORTEST = {4: 5, 5: 9, 6: 9, 7: 12, 8: 13, 9: 16, 10: 18}   # OEIS A127500
MOVES_GB = float(os.environ.get("PEGSOLVER_MOVES_GB", "10"))
BEAM_WIDTH = 20_000
PUBLISHED_T11 = (19, 28)   # OEIS A127500; G. I. Bell, J. Integer Sequences 11 (2008)


@pytest.mark.benchmark(group="fewest moves")
def test_english_centre_18_moves(benchmark):
    sol = benchmark.pedantic(solve, args=("english",), kwargs={"minimize": "moves"}, rounds=3, iterations=1)
    assert sol.optimal and sol.lower_bound == 18 == len(sol.moves)
    benchmark.extra_info.update(moves=18, expanded=sol.stats.nodes, chains=sol.stats.tests)


@LONG   # a minute; tests/test_fewest_moves.py checks the same tables against Bell's in every test run
@pytest.mark.benchmark(group="fewest moves")
def test_english_tables_by_moves(benchmark):
    result = benchmark.pedantic(count_moves, args=("english", "d4"), rounds=1, iterations=1)
    assert result.forward.total == result.backward.total == 23_475_688 and result.fewest_moves == 18
    benchmark.extra_info.update(forward=result.forward.sizes, backward=result.backward.sizes)


def _shortest(benchmark, side):
    limit = Limit(memory_bytes=int(MOVES_GB * 2**30))
    answer = benchmark.pedantic(shortest_over_board, args=(f"triangle{side}", limit), kwargs={"beam": Limit()},
                                rounds=1, iterations=1)
    benchmark.extra_info.update(reason=str(answer.reason), lower_bound=answer.lower_bound,
                                upper_bound=answer.upper_bound, beam_width=answer.beam_width,
                                expanded=answer.expanded, chains=answer.chains,
                                forward=answer.forward, backward=answer.backward, seconds=answer.seconds)
    if answer.reason is Reason.SOLVED:
        assert answer.lower_bound == SHORTEST[side]
    else:   # out of memory or time: the bounds must hold the published figure between them
        assert answer.lower_bound <= SHORTEST[side] <= (answer.upper_bound or SHORTEST[side])
        pytest.xfail(f"triangle {side}: proved >= {answer.lower_bound} ({answer.reason}); published {SHORTEST[side]}")


@pytest.mark.benchmark(group="fewest moves triangles")
@pytest.mark.parametrize("side", [4, 5, 6, 7])
def test_triangle_shortest(benchmark, side):
    _shortest(benchmark, side)


@LONG
@pytest.mark.benchmark(group="fewest moves triangles")
@pytest.mark.parametrize("side", [8, 9, 10])
def test_triangle_shortest_long(benchmark, side):
    _shortest(benchmark, side)


def _within(benchmark, side, at_most):
    # the search from every vacancy to every one-peg finish, its levels pruned by the Merson
    # regions to solutions of at most at_most moves
    limit = Limit(memory_bytes=int(MOVES_GB * 2**30))
    answer = benchmark.pedantic(shortest_over_board, args=(f"triangle{side}", limit), kwargs={"at_most": at_most},
                                rounds=1, iterations=1)
    _record(benchmark, answer, at_most, forward=answer.forward, backward=answer.backward)
    return answer


def _record(benchmark, answer, at_most, **more):
    # a search by moves' outcome and work counters, in extra_info
    benchmark.extra_info.update(at_most=at_most, reason=str(answer.reason), lower_bound=answer.lower_bound,
                                upper_bound=answer.upper_bound, expanded=answer.expanded, chains=answer.chains,
                                peak_bytes=answer.nbytes, pruned=answer.pruned, seconds=answer.seconds, **more)


@pytest.mark.benchmark(group="fewest moves triangles pruned")
@pytest.mark.parametrize("side", [6, 7])
def test_triangle_none_shorter(benchmark, side):
    # no solution of S - 1 moves: the published minimum is a lower bound
    answer = _within(benchmark, side, SHORTEST[side] - 1)
    assert answer.reason is Reason.BOUNDED and answer.lower_bound == SHORTEST[side]


@LONG
@pytest.mark.benchmark(group="fewest moves triangles pruned")
@pytest.mark.parametrize("side", [8, 9, 10])
@pytest.mark.parametrize("way", ["whole", "pieces"])   # one search, or one a class of finish holes
def test_triangle_none_shorter_long(benchmark, side, way):
    answer = (_within if way == "whole" else _pieces)(benchmark, side, SHORTEST[side] - 1)
    if answer.reason.is_limit:
        pytest.xfail(f"triangle {side} ({way}): stopped by {answer.reason} at {answer.lower_bound}")
    assert answer.reason is Reason.BOUNDED and answer.lower_bound == SHORTEST[side]


@pytest.mark.benchmark(group="fewest moves triangles pruned")
def test_triangle9_at_least_14(benchmark):
    # the published 16 is not proved here; pruned to at most 13 moves, seconds prove 14
    answer = _within(benchmark, 9, 13)
    assert answer.reason is Reason.BOUNDED and answer.lower_bound == 14


@pytest.mark.benchmark(group="fewest moves triangles pruned")
def test_triangle10_at_least_17(benchmark):
    # the regions bound every start by 16: pruned to at most 16, almost nothing is left
    answer = _within(benchmark, 10, 16)
    assert answer.reason is Reason.BOUNDED and answer.lower_bound == 17


@LONG
@pytest.mark.benchmark(group="fewest moves triangles pruned")
def test_triangle8_settled_by_deepening_long(benchmark):
    # 600 MiB stops the levels at 11 (the regions prove 11 too); the beams find 13 in half of
    # their 60 s; searches pruned to at most 11, then 12, find none: 13 proved in the budget
    # where the whole search takes 11.5 GB. The pass for 12 takes about 10 s on a quiet
    # machine: the time is ample, so that a busy one settles it too
    answer = benchmark.pedantic(shortest_over_board, args=("triangle8", Limit(memory_bytes=600 << 20)),
                                kwargs={"beam": Limit(seconds=60)}, rounds=1, iterations=1)
    benchmark.extra_info.update(reason=str(answer.reason), lower_bound=answer.lower_bound,
                                pruned_from=answer.pruned_from, pruned_to=answer.pruned_to,
                                expanded=answer.expanded, chains=answer.chains, seconds=answer.seconds)
    assert answer.reason is Reason.SOLVED and answer.lower_bound == SHORTEST[8] == answer.upper_bound
    assert answer.pruned_to == SHORTEST[8] - 1 and answer.pruned_from < answer.pruned_to


@LONG
@pytest.mark.benchmark(group="fewest moves triangles pruned")
def test_triangle9_at_least_15_long(benchmark):
    # pruned to at most 14: 806 s and 12.3 GB with the fixed regions, 281 s and 4.9 GB with the
    # regions chosen for each position (README); 15 would settle 16
    answer = _within(benchmark, 9, 14)
    if answer.reason.is_limit:
        pytest.xfail(f"triangle 9: stopped by {answer.reason} at {answer.lower_bound}")
    assert answer.reason is Reason.BOUNDED and answer.lower_bound == 15


@LONG
@pytest.mark.benchmark(group="fewest moves triangles pruned")
@pytest.mark.parametrize("side", [8, 9, 10])
def test_triangle_fewest_within_bound_long(benchmark, side):
    # a solution of S moves found, and (searched up to S) none shorter: S proved
    answer = _within(benchmark, side, SHORTEST[side])
    if answer.reason.is_limit:
        pytest.xfail(f"triangle {side}: stopped by {answer.reason} at {answer.lower_bound}")
    assert answer.reason is Reason.SOLVED and answer.lower_bound == answer.upper_bound == SHORTEST[side]


@LONG
@pytest.mark.benchmark(group="fewest moves french")
def test_french_c1_to_e1(benchmark):
    # the proof stops at the memory budget with 20 moves proved necessary (no position shared
    # by forward level i and backward level j for i + j < 20); a beam then finds 20
    start = find_variant("french").board().with_vacant("c1")
    limit = Limit(memory_bytes=int(max(MOVES_GB, 11) * 2**30))
    sol = benchmark.pedantic(solve, args=(start, "e1"), kwargs={"minimize": "moves", "limit": limit},
                             rounds=1, iterations=1)
    benchmark.extra_info.update(reason=str(sol.reason), lower_bound=sol.lower_bound, moves=len(sol.moves),
                                expanded=sol.stats.nodes, chains=sol.stats.tests, explanation=sol.explanation)
    assert sol.optimal and sol.lower_bound == 20 == len(sol.moves)


def _beams(side, width):
    # one beam from each vacancy class to one peg anywhere: (fewest moves found, its vacancy, runs)
    board = find_variant(f"triangle{side}").board()
    shape = board.shape
    limit = Limit(memory_bytes=8 << 30)
    runs = {h: beam_once(board.with_pegs(shape.full_mask & ~(1 << h)), Goal.anywhere(1), width, limit)
            for h in shape.hole_classes()}
    found = {h: r.moves for h, r in runs.items() if r.moves is not None}
    best = min(found, key=found.get)
    return found[best], best, runs


def _bench_beams(benchmark, side, width):
    moves, hole, runs = benchmark.pedantic(_beams, args=(side, width), rounds=1, iterations=1)
    benchmark.extra_info.update(width=width, moves=moves, vacancy=hole,
                                per_vacancy={h: r.moves for h, r in runs.items()},
                                expanded=sum(r.nodes for r in runs.values()),
                                chains=sum(r.chains for r in runs.values()),
                                peak_bytes=max(r.nbytes for r in runs.values()))
    return moves


@pytest.mark.benchmark(group="fewest moves beams")
@pytest.mark.parametrize("side", [6, 7, 8])
def test_triangle_beams(benchmark, side):
    assert _bench_beams(benchmark, side, BEAM_WIDTH) == SHORTEST[side]


@LONG
@pytest.mark.benchmark(group="fewest moves beams")
@pytest.mark.parametrize("side", [9, 10])
def test_triangle_beams_long(benchmark, side):
    assert _bench_beams(benchmark, side, 10 * BEAM_WIDTH) >= SHORTEST[side]


@LONG
@pytest.mark.benchmark(group="fewest moves beams")
def test_triangle11_beams(benchmark):
    # below the published upper bound: 22 moves at 200,000 positions a level (our figure)
    low, high = PUBLISHED_T11
    assert low <= _bench_beams(benchmark, 11, 10 * BEAM_WIDTH) < high


@LONG
@pytest.mark.benchmark(group="fewest moves beams")
@pytest.mark.parametrize("side, vacancy, width", [(9, 2, 400_000), (10, 4, 1_000_000)])
def test_published_fewest_found(benchmark, side, vacancy, width):
    # the published fewest (OEIS A127500) found by one wide beam from the vacancy (numeric
    # notation) whose solution the tests replay; found, not proved (the Merson regions prove less)
    board = find_variant(f"triangle{side}").board()
    start = board.with_pegs(board.shape.full_mask & ~(1 << (vacancy - 1)))
    run = benchmark.pedantic(beam_once, args=(start, Goal.anywhere(1), width, Limit(memory_bytes=8 << 30)),
                             rounds=1, iterations=1)
    benchmark.extra_info.update(width=width, vacancy=vacancy, moves=run.moves, expanded=run.nodes,
                                chains=run.chains, peak_bytes=run.nbytes)
    assert run.moves == SHORTEST[side]


def _pieces(benchmark, side, at_most):
    # one search a class of finish holes, in rounds of growing moves (engine.move_pieces)
    limit = Limit(memory_bytes=int(MOVES_GB * 2**30))
    answer = benchmark.pedantic(shortest_by_finish, args=(f"triangle{side}", limit), kwargs={"at_most": at_most},
                                rounds=1, iterations=1)
    _record(benchmark, answer, at_most, pieces={f: (str(a.reason), a.lower_bound, a.upper_bound, a.expanded)
                                                for f, a in answer.pieces})
    return answer


@pytest.mark.benchmark(group="fewest moves triangles in pieces")
@pytest.mark.parametrize("side", [6, 7])
def test_triangle_in_pieces(benchmark, side):
    answer = _pieces(benchmark, side, None)
    assert answer.reason is Reason.SOLVED and answer.lower_bound == answer.upper_bound == SHORTEST[side]

