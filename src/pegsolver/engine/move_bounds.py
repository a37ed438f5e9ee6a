"""Lower bounds on the moves positions still need, or took, for many positions at once:
the Merson regions chosen for each position (proofs.merson.region_choice), counted by the
compiled core (its ``count_regions``). They prune the levels by moves of a search for
solutions of at most N moves (engine.fewest_moves' ``at_most``); proofs.merson.most_regions
is the same count in numpy, which the tests hold the core to."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..model.geometry import Shape
from ..proofs.merson import RegionChoice, region_choice
from .core import enum_core

Keys = npt.NDArray[np.uint64]
Counts = npt.NDArray[np.int64]


@dataclass(frozen=True)
class _Plan:
    # a RegionChoice as the core's arrays, each region that may not count left out (0)
    singles: int
    pairs: Keys
    fresh: npt.NDArray[np.uint8]
    larger: Keys
    packings: Keys

    def count(self, keys: Keys, filled: bool) -> Counts:
        # the most disjoint regions each position fills (``filled``) or does not (shape (n,))
        out = np.empty(len(keys), dtype=np.int64)
        enum_core().count_regions(np.ascontiguousarray(keys, dtype=np.uint64), out, filled, self.singles,
                                  self.pairs, self.fresh, self.larger, self.packings)
        return out


def _plan(choice: RegionChoice, may_count: Callable[[int], bool]) -> _Plan:
    pairs, fresh = [], []
    for path in choice.paths:
        for i, (x, y) in enumerate(zip(path, path[1:])):
            m = 1 << x | 1 << y
            pairs.append(m if may_count(m) else 0)
            fresh.append(i == 0)
    return _Plan(sum(m for m in choice.singles if may_count(m)), np.array(pairs, dtype=np.uint64),
                 np.array(fresh, dtype=np.uint8),
                 np.array([m if may_count(m) else 0 for m in choice.larger], dtype=np.uint64),
                 np.array([sum(1 << i for i in p) for p in choice.packings], dtype=np.uint64))


def bound_to_finish(shape: Shape, finish: int | None, pegs: int = 1) -> Callable[[Keys], Counts]:
    """A function giving, for positions ``keys`` (shape (n,), uint64 bitboards), a lower bound
    on the moves from each to the finish (``finish`` None: ``pegs`` pegs anywhere), shape
    (n,), int64: the most disjoint Merson regions it fills that the finish cannot (a
    finish of ``pegs`` pegs fills at most ``pegs`` regions of at most ``pegs`` holes)."""
    choice = region_choice(shape)
    if finish is not None:
        kept = _plan(choice, lambda m: bool(m & ~finish))
        return lambda keys: kept.count(keys, True)
    every, small = _plan(choice, lambda m: True), _plan(choice, lambda m: m.bit_count() <= pegs)
    return lambda keys: every.count(keys, True) - np.minimum(small.count(keys, True), pegs)


def bound_from_starts(shape: Shape, starts: list[int]) -> Callable[[Keys], Counts]:
    """A function giving, for positions ``keys`` (shape (n,), uint64), a lower bound on the
    moves from the nearest of ``starts`` (bitboards) to each, shape (n,), int64: the most
    disjoint Merson regions full at that start and not full in the position, each emptied
    by a move of its own (the regions' argument, read backward). For each start, its
    one-hole regions that are not full do not count where the position does not fill them
    either, and each hole it lacks on the paths and larger regions costs one region at most."""
    choice = region_choice(shape)
    every = _plan(choice, lambda m: True)
    kinds = {(sum(m for m in choice.singles if s & m != m), (choice.changing & ~s).bit_count()) for s in starts}
    # for each kind of start, its one-hole regions not full (a plan counting them) and its lost holes
    spares = [(_plan(choice, _among(gaps)) if gaps else None, lost) for gaps, lost in kinds]

    def bound(keys: Keys) -> Counts:
        spared = np.zeros(len(keys), dtype=np.int64)
        for gaps, lost in spares:   # the start whose gaps excuse the most
            np.maximum(spared, lost + (gaps.count(keys, False) if gaps is not None else 0), out=spared)
        out: Counts = every.count(keys, False) - spared
        return out
    return bound


def _among(holes: int) -> Callable[[int], bool]:
    # whether a region is one of the one-hole regions of ``holes`` (a mask)
    return lambda m: m.bit_count() == 1 and bool(m & holes)
