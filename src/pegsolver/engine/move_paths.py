"""Solutions found again from the levels of a search by moves: from a position on both sides,
one move back a level at a time to the start and one move on a level at a time to the
finish, each move one of the real chains of jumps of the position (the core's keys are
so checked against moves made here, in Python)."""
from __future__ import annotations

from collections.abc import Iterator

from ..model.geometry import Jump, Shape
from .move_levels import MoveLevels, MoveSpace


def path_through(space: MoveSpace, fw: MoveLevels, bw: MoveLevels, key: int,
                 backward: bool) -> tuple[int, int, list[Jump]]:
    """(start, moves, jumps) of a solution through frontier position ``key`` (of the
    backward side when ``backward``) and one move to the other side."""
    if backward:   # key is on the backward side; a move leads to it from the forward side
        j = bw.depth
        for before, jumps in chains_back(space.shape, key):
            i = fw.depth_of(space.canonical(before))
            if i is not None:
                start, path = path_back(space, fw, before, i)
                return start, i + 1 + j, path + jumps + path_on(space, bw, key, j)
    else:
        i = fw.depth
        for after, jumps in chains(space.shape, key):
            j2 = bw.depth_of(space.canonical(after))
            if j2 is not None:
                start, path = path_back(space, fw, key, i)
                return start, i + 1 + j2, path + jumps + path_on(space, bw, after, j2)
    raise RuntimeError("internal error: the last move found by the core is not found again")


def path_back(space: MoveSpace, fw: MoveLevels, pegs: int, depth: int) -> tuple[int, list[Jump]]:
    """(start, jumps): the jumps from a start to ``pegs`` (in forward level ``depth``), found
    one move back a level at a time."""
    path: list[Jump] = []
    for n in range(depth, 0, -1):
        for before, jumps in chains_back(space.shape, pegs):
            if fw.holds(n - 1, space.canonical(before)):
                pegs, path = before, jumps + path
                break
        else:
            raise RuntimeError(f"internal error: no move back from forward level {n}")
    return pegs, path


def path_on(space: MoveSpace, bw: MoveLevels, pegs: int, depth: int) -> list[Jump]:
    """The jumps from ``pegs`` (in backward level ``depth``) to a finish, found one move on
    a level at a time."""
    path: list[Jump] = []
    for n in range(depth, 0, -1):
        for after, jumps in chains(space.shape, pegs):
            if bw.holds(n - 1, space.canonical(after)):
                pegs, path = after, path + jumps
                break
        else:
            raise RuntimeError(f"internal error: no move on from backward level {n}")
    return path


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


def chains_back(shape: Shape, pegs: int) -> Iterator[tuple[int, list[Jump]]]:
    """Every move that ends in ``pegs``: ``chains(shape, pegs, backward=True)``."""
    return chains(shape, pegs, backward=True)
