"""The 128-bit core: same answers and counters as the 64-bit core on small boards,
solutions that replay on boards of 65..128 holes, and the 128-hole limit."""
import random

import pytest

import pegsolver
from pegsolver import Board, BoardTooLargeError, Goal, Limit, Shape, solve
from pegsolver.engine.compile import compile_problem
from pegsolver.engine.core import core64, core128, core_for
from pegsolver.solver import default_goal
from replay import assert_solves

TABLE_BYTES = 64 << 20  # large enough that no table here stops growing (a 4-times growth needs 5 times its size)

ENGLISH_ROWS = ["  ooo  ", "  ooo  ", "ooooooo", "ooo.ooo", "ooooooo", "  ooo  ", "  ooo  "]


def run(core, board, goal, strategy, nodes=0):
    """core.search on the compiled problem, as solver.solve calls it."""
    p = compile_problem(board.shape, board.pegs_mask, goal, strategy)
    return core.search(p.jumps, p.slots, p.perms, p.start, p.goal_holes, p.goal_count,
                       p.nholes, p.strategy_code, p.use_table, nodes, 0.0, TABLE_BYTES)


def assert_same(board, goal, strategy, nodes=0):
    a = run(core64(), board, goal, strategy, nodes)
    b = run(core128(), board, goal, strategy, nodes)
    # Keys are twice as wide, so the same number of slots takes twice the bytes.
    assert b.pop("table_bytes") == 2 * a.pop("table_bytes")
    del a["seconds"], b["seconds"]
    assert a == b
    return a


def test_modules():
    assert core64().MAX_HOLES == 64 and core128().MAX_HOLES == 128
    assert core_for(1) is core64() and core_for(64) is core64()
    assert core_for(65) is core128() and core_for(128) is core128()


@pytest.mark.parametrize("strategy", ["seed", "dfs", "table", "symmetry"])
def test_english_same_as_64(strategy):
    board = pegsolver.find_variant("english").board()
    out = assert_same(board, default_goal(board, strategy), strategy)
    assert out["solved"]
    if strategy == "seed":
        assert out["tests"] == 391_859


def test_english_node_limit_same_as_64():
    board = pegsolver.find_variant("english").board()
    out = assert_same(board, Goal.at(board.hole("d4")), "dfs", nodes=5000)
    assert out["stop"] == 1 and out["nodes"] == 5000


def random_problem(rng):
    """A rectangle or triangle with a few holes removed and a few vacancies."""
    grid = rng.choice(["square", "triangle"])
    if grid == "square":
        cells = [(r, c) for r in range(rng.randint(3, 5)) for c in range(rng.randint(3, 6))]
    else:
        side = rng.randint(4, 7)
        cells = [(r, c) for r in range(side) for c in range(r + 1)]
    holes = rng.sample(cells, len(cells) - rng.randint(0, 2))
    shape = Shape(grid, tuple(holes))
    pegs = shape.full_mask
    for h in rng.sample(range(shape.size), rng.randint(1, 3)):
        pegs &= ~(1 << h)
    if rng.random() < 0.5:
        goal = Goal.anywhere(rng.randint(1, 2))
    else:
        goal = Goal.at(rng.randrange(shape.size))
    return Board(shape, pegs), goal


@pytest.mark.parametrize("seed", range(12))
def test_random_small_boards_same_as_64(seed):
    board, goal = random_problem(random.Random(seed))
    for strategy in ("seed", "dfs", "table", "symmetry"):
        assert_same(board, goal, strategy, nodes=200_000)


def shifted_english():
    """English cross below a separate row of 41 empty holes: 74 holes, holes 41..73."""
    text = "\n".join(["." * 41, ""] + [" " * 17 + row for row in ENGLISH_ROWS])
    return Board.from_text(text, name="shifted english")


@pytest.mark.parametrize("strategy", ["seed", "dfs"])
def test_english_across_bit_64_matches_the_english_search(strategy):
    # The empty row never takes part, so the cross is searched exactly as on its own.
    board = shifted_english()
    assert board.shape.size == 74 and min(board.pegs()) == 41 and max(board.pegs()) == 73
    sol = solve(board, Goal.anywhere(), strategy=strategy)
    plain = solve("english", Goal.anywhere(), strategy=strategy)
    assert_solves(sol)
    assert (sol.stats.nodes, sol.stats.dead_ends) == (plain.stats.nodes, plain.stats.dead_ends)
    if strategy == "seed":
        assert sol.stats.tests == plain.stats.tests == 391_859
    coords, plain_coords = board.shape.coords, plain.start.shape.coords
    moved = [(coords[j.from_hole], coords[j.to_hole]) for j in sol.jumps]
    assert moved == [((r + 2, c + 17), (r2 + 2, c2 + 17))
                     for (r, c), (r2, c2) in ((plain_coords[j.from_hole], plain_coords[j.to_hole])
                                              for j in plain.jumps)]


@pytest.mark.parametrize("strategy", ["table", "symmetry"])
def test_english_across_bit_64_to_the_centre(strategy):
    board = shifted_english()
    centre = board.shape.index[(5, 20)]
    assert_solves(solve(board, Goal.at(centre), strategy=strategy), finish=[centre])


@pytest.mark.parametrize("side,pegs_left", [(12, 3), (12, 4), (15, 10)])
def test_large_triangles_solve_and_replay(side, pegs_left):
    sol = solve(f"triangle{side}", Goal.anywhere(pegs_left), strategy="symmetry",
                limit=Limit(nodes=2_000_000))
    assert sol.start.shape.size == side * (side + 1) // 2 > 64
    assert sol.stats.symmetries == 6
    assert_solves(sol, pegs_left=pegs_left)


def test_65_to_128_holes_are_accepted():
    sol = solve(Board.from_text("o" * 64 + "."), limit=Limit(nodes=1000))
    assert sol.start.shape.size == 65 and sol.stats.nodes > 0
    row = Board.from_text("." * 125 + "oo.")  # 128 holes; finish on the last one
    sol = solve(row, Goal.at(127), strategy="seed")
    assert_solves(sol, finish=[127])


def test_more_than_128_holes_are_refused():
    with pytest.raises(BoardTooLargeError, match="136 holes; the largest board supported has 128"):
        solve("triangle16")
    with pytest.raises(BoardTooLargeError, match="129 holes; the compiled core takes at most 128"):
        core_for(129)
    with pytest.raises(BoardTooLargeError, match="'big' has 200 holes; the compiled core takes at most 128"):
        core_for(200, "big")
