"""Solutions found again from the levels of a search by moves: from a position on both sides,
one move back a level at a time to the start and one move on a level at a time to the
finish, each move one of the real chains of jumps of the position (the core's keys are
so checked against moves made here, in Python)."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.geometry import Jump, Shape
from .move_levels import MoveLevels, MoveSpace


def walk(space: MoveSpace, side: MoveLevels, pegs: int, depth: int) -> tuple[int, list[Jump]]:
    """(end, jumps): from ``pegs`` (in level ``depth`` of ``side``) to the side's level 0,
    one real move a level. On the forward side the moves go back to a start (``end``) and
    the jumps are those from it to ``pegs``; on the backward side they go on to a finish."""
    path: list[Jump] = []
    for n in range(depth, 0, -1):
        for other, jumps in chains(space.shape, pegs, backward=not side.backward):
            if side.holds(n - 1, space.canonical(other)):
                pegs, path = other, path + jumps if side.backward else jumps + path
                break
        else:
            raise RuntimeError(f"internal error: no move from level {n} of a search by moves")
    return pegs, path


def solution(space: MoveSpace, fw: MoveLevels, bw: MoveLevels, before: int, i: int, jumps: list[Jump],
             after: int, j: int) -> tuple[int, list[Jump]]:
    """(start, jumps) of the solution through ``before`` (forward level ``i``), ``jumps``,
    then ``after`` (backward level ``j``); ``jumps`` is empty when both are one position."""
    start, head = walk(space, fw, before, i)
    return start, head + jumps + walk(space, bw, after, j)[1]


def path_through(space: MoveSpace, fw: MoveLevels, bw: MoveLevels, key: int,
                 backward: bool) -> tuple[int, int, list[Jump]]:
    """(start, moves, jumps) of a solution through frontier position ``key`` (of the
    backward side when ``backward``) and one move to the other side."""
    near, far = (bw, fw) if backward else (fw, bw)
    for other, jumps in chains(space.shape, key, backward=backward):
        d = far.depth_of(space.canonical(other))
        if d is not None:
            before, i, after, j = (other, d, key, near.depth) if backward else (key, near.depth, other, d)
            start, path = solution(space, fw, bw, before, i, jumps, after, j)
            return start, i + 1 + j, path
    raise RuntimeError("internal error: the last move found by the core is not found again")


def chains(shape: Shape, pegs: int, backward: bool = False) -> Iterator[tuple[int, list[Jump]]]:
    """Every move from ``pegs`` (``backward``: every move that ends in ``pegs``): the position
    after it (before it) and its jumps in the order played. Chains that reach the same
    position with the moving peg on the same hole go on alike, so each such pair is
    followed once (a position comes once for each hole its moving peg can be on)."""
    lists: dict[int, list[Jump]] = {}
    for j in shape.jumps:
        lists.setdefault(j.to_hole if backward else j.from_hole, []).append(j)
    seen: set[tuple[int, int]] = set()
    for h in range(shape.size):
        if pegs >> h & 1:
            stack: list[tuple[int, int, list[Jump]]] = [(pegs, h, [])]
            while stack:
                b, at, path = stack.pop()
                for j in lists.get(at, ()):
                    other, end = (j.from_hole, j.from_hole) if backward else (j.to_hole, j.to_hole)
                    if bool(b >> j.over & 1) == backward or b >> other & 1:
                        continue   # forward: over full, to empty; backward: over and from empty
                    c = b ^ (1 << j.from_hole | 1 << j.over | 1 << j.to_hole)
                    if (c, end) in seen:
                        continue
                    seen.add((c, end))
                    played = [j] + path if backward else path + [j]
                    yield c, played
                    stack.append((c, end, played))
