"""Independent replay of solutions, for the tests.

Shares nothing with pegsolver's jump table or core: it checks each jump from the hole
coordinates alone, with its own statement of the rules.
"""
ORTHOGONAL = {(0, 1), (0, -1), (1, 0), (-1, 0)}
UNIT_STEPS = {
    "orthogonal": ORTHOGONAL,
    "diagonal": ORTHOGONAL | {(1, 1), (1, -1), (-1, 1), (-1, -1)},
    # skew coordinates of the triangular grid: six neighbours
    "triangular": ORTHOGONAL | {(1, 1), (-1, -1)},
}
UNIT_STEPS["square"] = UNIT_STEPS["orthogonal"]
UNIT_STEPS["triangle"] = UNIT_STEPS["triangular"]


def replay_coords(rules, holes, pegs, jumps):
    """Play jumps given as ((r, c) from, (r, c) to) pairs; return the final peg set.

    Raises AssertionError naming the first jump that breaks the rules.
    """
    holes = set(holes)
    pegs = set(pegs)
    assert pegs <= holes
    for n, (a, b) in enumerate(jumps, 1):
        dr, dc = b[0] - a[0], b[1] - a[1]
        assert dr % 2 == 0 and dc % 2 == 0, f"jump {n}: {a}->{b} is not two steps"
        step = (dr // 2, dc // 2)
        assert step in UNIT_STEPS[rules], f"jump {n}: {a}->{b} not along a line of the {rules} rules"
        over = (a[0] + step[0], a[1] + step[1])
        assert {a, over, b} <= holes, f"jump {n}: leaves the board"
        assert a in pegs, f"jump {n}: no peg at {a}"
        assert over in pegs, f"jump {n}: no peg to jump over at {over}"
        assert b not in pegs, f"jump {n}: landing hole {b} is full"
        pegs -= {a, over}
        pegs.add(b)
    return pegs


def replay_solution(sol):
    """Replay a pegsolver Solution; return the final peg coordinates."""
    shape = sol.start.shape
    coords = shape.coords
    start = {coords[h] for h in range(shape.size) if sol.start.pegs_mask >> h & 1}
    jumps = [(coords[j.from_hole], coords[j.to_hole]) for j in sol.jumps]
    return replay_coords(shape.rules, coords, start, jumps)


def assert_solves(sol, finish=None, pegs_left=1):
    """The solution is solved, replays, and ends with pegs_left pegs (on finish, if given)."""
    assert sol.solved, sol.reason
    final = replay_solution(sol)
    assert len(final) == pegs_left
    assert len(sol.jumps) == sol.start.peg_count - pegs_left
    if finish is not None:
        coords = sol.start.shape.coords
        assert final == {coords[h] for h in finish}
    return final
