"""Solutions found again from the levels of a search by moves: from a position on both sides,
one move back a level at a time to the start and one move on a level at a time to the
finish. The core lists the positions a move away; each move is then found again here, in
Python, as real jumps between the two positions (so the core's keys are checked)."""
from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from ..model.geometry import Jump, Shape
from .move_levels import Keys, MoveLevels, MoveSpace, in_sorted

NEIGHBOURS = 1 << 20   # positions a move from one position listed at most, else the level is halved


def walk(space: MoveSpace, side: MoveLevels, pegs: int, depth: int) -> tuple[int, list[Jump]]:
    """(end, jumps): from ``pegs`` (in level ``depth`` of ``side``) to the side's level 0,
    one real move a level. On the forward side the moves go back to a start (``end``) and
    the jumps are those from it to ``pegs``; on the backward side they go on to a finish."""
    path: list[Jump] = []
    for n in range(depth, 0, -1):
        keys = neighbours_in(space, pegs, not side.backward, side.level(n - 1))
        pegs, jumps = step(space, pegs, not side.backward, keys)
        path = path + jumps if side.backward else jumps + path
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
    kids = space.E.move_children(space.mv, space.chains, np.array([key], dtype=np.uint64), backward)[0]
    other, jumps = step(space, key, backward, np.unique(kids[far.seen.contains(kids)]))
    d = far.depth_of(space.canonical(other))
    if d is None:
        raise RuntimeError("internal error: the last move found by the core is not found again")
    before, i, after, j = (other, d, key, near.depth) if backward else (key, near.depth, other, d)
    start, path = solution(space, fw, bw, before, i, jumps, after, j)
    return start, i + 1 + j, path


def step(space: MoveSpace, pegs: int, backward: bool, keys: Keys) -> tuple[int, list[Jump]]:
    """(position, jumps) of one real move from ``pegs`` (``backward``: one that ends in
    ``pegs``) to a position of the class of one of ``keys`` (canonical keys a move away).

    :raises RuntimeError: no such move (an internal error: the levels do not fit together).
    """
    for key in keys:
        for image in {space.shape.map_mask(p, int(key)) for p in space.group}:
            jumps = one_move(space.shape, image, pegs) if backward else one_move(space.shape, pegs, image)
            if jumps is not None:
                return image, jumps
    raise RuntimeError("internal error: no move between two levels of a search by moves")


def neighbours_in(space: MoveSpace, pegs: int, backward: bool, level: Keys) -> Keys:
    """The keys of ``level`` (sorted) one move from ``pegs`` (``backward``: one move before
    it); when the core finds more than NEIGHBOURS positions a move from ``pegs`` (a sparse
    position has millions a move back), one key found by halving ``level`` instead."""
    one = np.array([space.canonical(pegs)], dtype=np.uint64)
    try:
        keys = space.E.move_children(space.mv, space.chains, one, backward, 0, NEIGHBOURS)[0]
        keys = np.unique(keys)
        found: Keys = keys[in_sorted(level, keys)]
        return found
    except MemoryError:
        pass
    while len(level) > 1:   # the half whose moves the other way reach pegs
        half = level[:len(level) // 2]
        level = half if one[0] in _children(space, half, not backward) else level[len(level) // 2:]
    return level


def _children(space: MoveSpace, keys: Keys, backward: bool) -> Keys:
    # every key a move from keys (backward: a move before), in calls of a bounded size
    parts, i = [], 0
    while i < len(keys):
        kids, done = space.E.move_children(space.mv, space.chains, keys[i:], backward, NEIGHBOURS)
        parts.append(np.unique(kids))
        i += done
    return np.concatenate(parts) if parts else np.empty(0, np.uint64)


def one_move(shape: Shape, before: int, after: int) -> list[Jump] | None:
    """The jumps of one move (consecutive jumps by one peg) that turns ``before`` into
    ``after`` (bitboards), or None when no move does. Every jump passes over a hole that
    ``after`` empties, so the search is as deep as the pegs removed."""
    gone, new = before & ~after, after & ~before
    if new & (new - 1):
        return None   # a move fills one hole at most: where its peg lands
    starts = gone if new else before & after   # a peg that ends where it began is in both
    for first in (h for h in range(shape.size) if starts >> h & 1):
        stack: list[tuple[int, int, list[Jump]]] = [(first, before, [])]
        while stack:
            at, b, path = stack.pop()
            if b == after and path:
                return path
            for j in _jumps_from(shape)[at]:
                if gone >> j.over & 1 and b >> j.over & 1 and not b >> j.to_hole & 1:
                    stack.append((j.to_hole, b ^ (1 << j.from_hole | 1 << j.over | 1 << j.to_hole), path + [j]))
    return None


@lru_cache(maxsize=64)
def _jumps_from(shape: Shape) -> dict[int, list[Jump]]:
    out: dict[int, list[Jump]] = {h: [] for h in range(shape.size)}
    for j in shape.jumps:
        out[j.from_hole].append(j)
    return out


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
