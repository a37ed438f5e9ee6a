"""Merson regions: groups of holes that only a move starting inside can change while full.

A region is a set of holes such that every jump over one of its holes starts or lands in
the region. While every hole of the region holds a peg, no jump can land in it and no jump
from outside can pass over it, so the first jump to change it starts inside: the first
jump of a move (its peg has not moved since). Disjoint full regions therefore need a move
each, except a one-hole region holding the finish peg. The corners of a triangle are such
regions, and so are pairs of neighbouring holes along its edges. Named after Robin Merson,
as in J. D. Beasley, "The Ins and Outs of Peg Solitaire" (1985); G. I. Bell counts them
for lower bounds on moves ("Solving Triangular Peg Solitaire", J. Integer Sequences 11,
2008).

Any family of disjoint regions gives such a bound, so the bounds here take, for each
position, the family that counts most (:func:`region_choice`, our own step): along an edge
of 7 holes the pairs are placed around the position's empty holes rather than fixed, and a
hexagon anywhere it is full. On triangle 9 this cut the forward levels of a search pruned
to at most 13 moves from 948,569 positions to 5,263.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..model.geometry import Shape

Keys = npt.NDArray[np.uint64]
Counts = npt.NDArray[np.int64]
MAX_PACKINGS = 256   # maximal sets of disjoint larger regions tried a position (triangle 10 has 8)


@lru_cache(maxsize=256)
def merson_regions(shape: Shape, larger: bool = False) -> tuple[int, ...]:
    """Disjoint Merson regions of ``shape`` as hole masks: every hole no jump passes over
    (a region of its own), then pairs of neighbouring holes that every jump over either
    starts or lands in, and with ``larger`` then holes with all their neighbours (hexagons
    of 7 holes inside a triangle) where they are regions; each hole in one region at most.
    The beams rank positions by the first two kinds only: counting full hexagons did not
    shorten their solutions on triangles 9 and 10 (one beam of 20,000 positions a level
    from each vacancy class), and lost triangle 11's first beam (4,096 from the corner)."""
    over: dict[int, list[tuple[int, int]]] = {}
    for j in shape.jumps:
        over.setdefault(j.over, []).append((j.from_hole, j.to_hole))

    def closed(region: set[int]) -> bool:   # every jump over a hole of it starts or lands in it
        return all(a in region or b in region for h in region for a, b in over.get(h, []))

    singles = [h for h in range(shape.size) if h not in over]
    used = set(singles)
    pairs: list[int] = []
    for x in range(shape.size):
        for y in range(x + 1, shape.size):
            if x in used or y in used:
                continue
            if closed({x, y}):
                pairs.append(1 << x | 1 << y)
                used |= {x, y}
    bigger: list[int] = []
    for c in range(shape.size if larger else 0):
        around = {c} | {j.over for j in shape.jumps if j.from_hole == c}
        if len(around) > 2 and not around & used and closed(around):
            bigger.append(sum(1 << h for h in around))
            used |= around
    return tuple(1 << h for h in singles) + tuple(pairs) + tuple(bigger)


def full_regions(regions: tuple[int, ...], keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """How many of ``regions`` (masks) each position of ``keys`` (shape (n,), uint64
    bitboards) fills: a lower bound on the moves it still needs, give or take the finish
    (shape (n,))."""
    full = np.zeros(len(keys), dtype=np.int64)
    for flags in _filled(keys, regions):
        full += flags
    return full


def _filled(keys: Keys, regions: tuple[int, ...]) -> Iterator[npt.NDArray[np.bool_]]:
    # for each region, whether each position fills it (shape (n,); one array, reused: a
    # region at a time, no (n, regions) temporary)
    part = np.empty(len(keys), dtype=np.uint64)
    flag = np.empty(len(keys), dtype=np.bool_)
    for m in regions:
        mask = np.uint64(m)
        np.bitwise_and(keys, mask, out=part)
        yield np.equal(part, mask, out=flag)


@dataclass(frozen=True)
class RegionChoice:
    """The Merson regions of a shape, chosen afresh for each position: every family of
    disjoint regions gives a lower bound, so the best family for the position does too.

    ``singles``: one-hole regions (masks; no jump passes over them). ``paths``: lines of
    holes (in order) where each two neighbours form a region: the edges of a triangle, less
    their corners. Along a path, the most disjoint neighbouring two that count is a maximum
    matching, taken greedily. ``larger``: holes with all their neighbours (masks; hexagons
    on a triangle) that are regions, off the singles and paths; ``packings``: the largest
    sets of disjoint ones (indices into ``larger``), the best of which counts. A component
    of pairs that is not a path, or too many packings, keeps the fixed choice of
    :func:`merson_regions`: its regions of two holes or more are then ``larger``, all in
    one packing."""
    singles: tuple[int, ...]
    paths: tuple[tuple[int, ...], ...]
    larger: tuple[int, ...]
    packings: tuple[tuple[int, ...], ...]

    @property
    def changing(self) -> int:
        """The holes of the paths and larger regions (a mask): those whose regions change."""
        holes = sum(1 << h for p in self.paths for h in p)
        for m in self.larger:
            holes |= m
        return holes


@lru_cache(maxsize=256)
def region_choice(shape: Shape) -> RegionChoice:
    """The regions of ``shape`` chosen per position (see :class:`RegionChoice`)."""
    fixed = merson_regions(shape, larger=True)
    singles = tuple(m for m in fixed if m.bit_count() == 1)
    one = {m.bit_length() - 1 for m in singles}
    pairs = [m for m in _closed_pairs(shape) if not m & sum(1 << h for h in one)]
    paths = _paths(pairs)
    if paths is None:
        return _fixed(fixed)
    used = one | {h for p in paths for h in p}
    larger = tuple(m for m in _neighbourhoods(shape) if not any(m >> h & 1 for h in used))
    packings = _packings(larger)
    if packings is None:
        return _fixed(fixed)
    return RegionChoice(singles, paths, larger, packings)


def _fixed(regions: tuple[int, ...]) -> RegionChoice:
    # the fixed choice: its regions of two holes or more as the one packing of ``larger``
    larger = tuple(m for m in regions if m.bit_count() > 1)
    return RegionChoice(tuple(m for m in regions if m.bit_count() == 1), (), larger, (tuple(range(len(larger))),))


def _closed_pairs(shape: Shape) -> list[int]:
    # every two holes, each passed over by some jump, that form a region (masks): the jumps
    # over one of them start or land at the other, so they are neighbours
    ends: dict[int, set[int]] = {}
    for j in shape.jumps:
        ends.setdefault(j.over, set()).update((j.from_hole, j.to_hole))
    pairs = {1 << x | 1 << y for x in ends for y in ends[x] if y in ends
             and all(j.from_hole in (x, y) or j.to_hole in (x, y) for j in shape.jumps if j.over in (x, y))}
    return sorted(pairs)


def _paths(pairs: list[int]) -> tuple[tuple[int, ...], ...] | None:
    # the components of the pairs' graph as paths of holes, None if one is not a path
    links: dict[int, list[int]] = {}
    for m in pairs:
        x, y = (h for h in range(m.bit_length()) if m >> h & 1)
        links.setdefault(x, []).append(y)
        links.setdefault(y, []).append(x)
    if any(len(v) > 2 for v in links.values()):
        return None
    paths, seen = [], set()
    for end in sorted(h for h, v in links.items() if len(v) == 1):
        if end in seen:
            continue
        path = [end]
        while True:
            step = [h for h in links[path[-1]] if h not in path]
            if not step:
                break
            path.append(step[0])
        seen.update(path)
        paths.append(tuple(path))
    return tuple(paths) if len(seen) == len(links) else None   # a cycle is left: not paths


def _neighbourhoods(shape: Shape) -> list[int]:
    # every hole with all its neighbours (three or more holes) that is a region (masks)
    out = []
    for c in range(shape.size):
        around = {c} | {j.over for j in shape.jumps if j.from_hole == c}
        if len(around) > 2 and all(j.from_hole in around or j.to_hole in around
                                   for j in shape.jumps if j.over in around):
            out.append(sum(1 << h for h in around))
    return out


def _packings(regions: tuple[int, ...], most: int = MAX_PACKINGS) -> tuple[tuple[int, ...], ...] | None:
    # the maximal sets of disjoint ``regions`` (indices), None when more than ``most``
    found: list[tuple[int, ...]] = []

    def grow(i: int, chosen: tuple[int, ...], taken: int) -> bool:
        if len(found) > most:
            return False
        if i == len(regions):
            if all(regions[k] & taken for k in range(len(regions)) if k not in chosen):
                found.append(chosen)
            return True
        ok = True
        if not regions[i] & taken:
            ok = grow(i + 1, chosen + (i,), taken | regions[i])
        return ok and grow(i + 1, chosen, taken)

    return tuple(found) if grow(0, (), 0) and len(found) <= most else None


Flag = Callable[[int], npt.NDArray[np.bool_]]   # for a region's mask, whether it counts in each position


def most_regions(choice: RegionChoice, counts: Flag, n: int) -> Counts:
    """The most disjoint regions of ``choice`` that count in each of ``n`` positions (shape
    (n,), int64), ``counts`` telling for a region (mask) where it counts."""
    total = np.zeros(n, dtype=np.int64)
    for m in choice.singles:
        total += counts(m)
    for path in choice.paths:   # greedy from one end: a maximum matching on a path
        took = np.zeros(n, dtype=np.bool_)
        for x, y in zip(path, path[1:]):
            took = counts(1 << x | 1 << y) & ~took
            total += took
    if choice.packings:
        flags = [counts(m).astype(np.int64) for m in choice.larger]
        best = np.zeros(n, dtype=np.int64)
        for packing in choice.packings:
            np.maximum(best, sum((flags[i] for i in packing), np.zeros(n, dtype=np.int64)), out=best)
        total += best
    return total


def _needed(choice: RegionChoice, full: Flag, n: int, finish: int | None, pegs: int) -> Counts:
    # the regions full in the positions that the finish (``finish`` None: ``pegs`` pegs
    # anywhere, filling at most ``pegs`` regions of at most ``pegs`` holes) leaves unfilled
    if finish is not None:
        return most_regions(choice, lambda m: full(m) & bool(m & ~finish), n)
    small = most_regions(choice, lambda m: full(m) & (m.bit_count() <= pegs), n)
    return most_regions(choice, full, n) - np.minimum(small, pegs)


def region_bound(shape: Shape, start: int, finish: int | None, pegs: int = 1) -> int:
    """A lower bound on the moves from ``start`` to a finish (bitboards, any width;
    ``finish`` None: ``pegs`` pegs anywhere): the most disjoint Merson regions full at the
    start that cannot be full at the finish, each needing a move of its own (at least one
    move when ``start`` has more pegs than the finish)."""
    def full(mask: int) -> npt.NDArray[np.bool_]:
        return np.array([start & mask == mask])
    needed = int(_needed(region_choice(shape), full, 1, finish, pegs)[0])
    more = start.bit_count() > (finish.bit_count() if finish is not None else pegs)
    return max(needed, int(more))
