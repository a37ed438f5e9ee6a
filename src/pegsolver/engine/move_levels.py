"""Levels by moves: the positions first reached in n moves (a move: one or more consecutive
jumps by one peg), forward from a start or backward from finishes, one level at a time.

Method: breadth-first search over symmetry classes, as G. I. Bell computes the levels B[n]
and B[-n] of the English board by moves ("English Peg Solitaire", his web pages). A level
is a sorted array of canonical keys; one hash set (pegcore KeySet) holds every position
seen, so a child is new exactly when no earlier level has it.
"""
from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..model.geometry import Shape
from .core import enum_core
from .outcome import Reason

Keys = npt.NDArray[np.uint64]
CHUNK = 1 << 15   # parents expanded per call into the core: the limits are checked between calls


class MovesStop(Exception):
    """A limit stopped the levels (``reason``: a Reason); the levels finished stay."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass
class Budget:
    """Limits of a search by moves: positions expanded (``nodes``), a monotonic deadline
    (seconds) and bytes for the levels and the set of positions seen."""

    nodes: int | None
    deadline: float | None
    memory_bytes: int
    expanded: int = 0   # positions expanded so far, both directions
    children: int = 0   # chains of jumps followed so far

    def check(self, held: int) -> None:
        """:raises MovesStop: a limit passed (``held``: bytes the levels take now)."""
        if self.nodes is not None and self.expanded >= self.nodes:
            raise MovesStop(Reason.NODE_LIMIT)
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise MovesStop(Reason.TIME_LIMIT)
        if held > self.memory_bytes:
            raise MovesStop(Reason.MEMORY_LIMIT)


class MoveSpace:
    """A board's moves and symmetries for the core: ``group`` (identity first) is the
    symmetries positions are keyed under; they must fix the start and the finishes."""

    def __init__(self, shape: Shape, group: Iterable[tuple[int, ...]]) -> None:
        self.E: Any = enum_core()
        self.shape = shape
        self.group = list(group)
        perms = np.array(self.group[1:], dtype=np.int32).reshape(-1, shape.size)
        jumps = np.array(shape.jumps, dtype=np.int32).reshape(-1, 3)
        self.mv = self.E.Moves(jumps, perms, shape.size)
        self.chains = self.E.Chains(jumps, shape.size)

    def canonical(self, pegs: int) -> int:
        """The key of ``pegs``'s class: its smallest image under the group."""
        key: int = self.mv.canonical(pegs)
        return key


class MoveLevels:
    """Levels by moves in one direction: ``levels[n]`` (sorted keys) holds the positions
    first reached in n moves from ``sources`` (backward: the positions that reach one of
    them in n moves and no fewer)."""

    def __init__(self, space: MoveSpace, sources: Iterable[int], backward: bool) -> None:
        self.space, self.backward = space, backward
        first = np.unique(np.array([space.canonical(p) for p in sources], dtype=np.uint64))
        self.seen = space.E.KeySet(len(first))
        self.seen.add_new(first)
        self.levels: list[Keys] = [first]
        self.done = False   # the last level made was empty: every position is found

    @property
    def depth(self) -> int:
        """Moves of the last level made."""
        return len(self.levels) - 1

    @property
    def nbytes(self) -> int:
        """Bytes held: the levels and the set of positions seen."""
        return int(self.seen.nbytes) + sum(lv.nbytes for lv in self.levels)

    def step(self, budget: Budget, held_elsewhere: int = 0) -> Keys:
        """Make the next level and return it (empty: no position is new, and ``done``).

        :raises MovesStop: a limit passed; the level is dropped, those before it stay.
        """
        E, space = self.space.E, self.space
        parents: Keys = self.levels[-1]
        parts: list[Keys] = []
        for i in range(0, len(parents), CHUNK):
            budget.check(self.nbytes + held_elsewhere + sum(p.nbytes for p in parts))
            kids = E.move_children(space.mv, space.chains, parents[i:i + CHUNK], self.backward)
            budget.expanded += min(CHUNK, len(parents) - i)
            budget.children += len(kids)
            if self.seen.bytes_for(len(kids)) + held_elsewhere > budget.memory_bytes:
                raise MovesStop(Reason.MEMORY_LIMIT)
            parts.append(self.seen.add_new(kids))
        level = np.sort(np.concatenate(parts)) if parts else np.empty(0, np.uint64)
        self.levels.append(level)
        self.done = len(level) == 0
        return level

    def depth_of(self, key: int) -> int | None:
        """The level holding ``key`` (a canonical key), None when no level does."""
        k = np.uint64(key)
        for n, level in enumerate(self.levels):
            i = int(np.searchsorted(level, k))
            if i < len(level) and level[i] == k:
                return n
        return None

    def holds(self, n: int, key: int) -> bool:
        """Whether level ``n`` holds ``key``."""
        level, k = self.levels[n], np.uint64(key)
        i = int(np.searchsorted(level, k))
        return i < len(level) and bool(level[i] == k)
