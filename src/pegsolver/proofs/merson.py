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
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..model.geometry import Shape

Keys = npt.NDArray[np.uint64]
Counts = npt.NDArray[np.int64]


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


def region_bound(shape: Shape, start: int, finish: int | None, pegs: int = 1) -> int:
    """A lower bound on the moves from ``start`` to a finish (bitboards; ``finish`` None:
    ``pegs`` pegs anywhere): the disjoint Merson regions full at the start that cannot be
    full at the finish, each needing a move of its own (at least one move when ``start``
    has more pegs than the finish)."""
    full = [m for m in merson_regions(shape, larger=True) if start & m == m]
    if finish is not None:
        needed = sum(1 for m in full if m & ~finish)
    else:   # the finish's pegs fill as many regions as they can, smallest first
        kept, room = 0, pegs
        for size in sorted(m.bit_count() for m in full):
            if size <= room:
                kept, room = kept + 1, room - size
        needed = len(full) - kept
    more = start.bit_count() > (finish.bit_count() if finish is not None else pegs)
    return max(needed, int(more))


def bound_to_finish(shape: Shape, finish: int | None, pegs: int = 1) -> Callable[[Keys], Counts]:
    """A function giving, for positions ``keys`` (shape (n,), uint64 bitboards), a lower bound
    on the moves from each to the finish (``finish`` None: ``pegs`` pegs anywhere), shape
    (n,), int64: the disjoint Merson regions it fills that the finish cannot (a finish of
    ``pegs`` pegs fills at most ``pegs`` regions of at most ``pegs`` holes)."""
    regions = merson_regions(shape, larger=True)
    kept = tuple(m for m in regions if finish is None or m & ~finish)
    small = tuple(m for m in regions if finish is None and m.bit_count() <= pegs)

    def bound(keys: Keys) -> Counts:
        need = full_regions(kept, keys)
        if small:
            need -= np.minimum(full_regions(small, keys), pegs)
        return need
    return bound


def bound_from_starts(shape: Shape, starts: list[int]) -> Callable[[Keys], Counts]:
    """A function giving, for positions ``keys`` (shape (n,), uint64), a lower bound on the
    moves from the nearest of ``starts`` (bitboards) to each, shape (n,), int64: the
    disjoint Merson regions full at that start and not full in the position, each emptied
    by a move of its own (the regions' argument, read backward)."""
    regions = merson_regions(shape, larger=True)
    # a start's regions not full: the position's unfilled regions less these are its bound
    missing = {tuple(i for i, m in enumerate(regions) if s & m != m) for s in starts}

    singles = {g[0] for g in missing if len(g) == 1}   # single vacancies: one region each, at most
    groups = [g for g in missing if len(g) > 1]
    in_groups = {i for g in groups for i in g}

    def bound(keys: Keys) -> Counts:
        filled = np.zeros(len(keys), dtype=np.int64)
        filled_singles = np.zeros(len(keys), dtype=np.int64)
        empty: dict[int, npt.NDArray[np.int64]] = {}   # the regions some start lacks: 1 where not filled
        for i, full in enumerate(_filled(keys, regions)):
            filled += full
            if i in singles:
                filled_singles += full
            if i in in_groups:
                empty[i] = 1 - full.astype(np.int64)
        total = len(regions) - filled
        spared = (filled_singles < len(singles)).astype(np.int64)
        for g in groups:   # the start whose own gaps explain most of the position's
            np.maximum(spared, sum(empty[i] for i in g), out=spared)
        out: Counts = total - spared
        return out
    return bound
