"""Levels by moves: the positions first reached in n moves (a move: one or more consecutive
jumps by one peg), forward from a start or backward from finishes, one level at a time.

Method: breadth-first search over symmetry classes, as G. I. Bell computes the levels B[n]
and B[-n] of the English board by moves ("English Peg Solitaire", his web pages). A level
is a sorted array of canonical keys (kept compressed once expanded); one hash set (pegcore
KeySet) holds every position seen, so a child is new exactly when no earlier level has it.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..model.geometry import Shape
from ..model.goal import plural
from .core import enum_core
from .limits import Cancel
from .outcome import Reason
from .partition import decode, encode

Keys = npt.NDArray[np.uint64]
CHUNK = 1 << 15   # parents expanded per call into the core at most: the limits are checked between calls
MOST = 1 << 22    # and children per call at most (32 MiB): sparse boards have thousands a parent
# Bytes of one child inside the core: the core also counts its parent's set of chains
# (a pair as 4 children). The buffer alone let a 64 MiB budget peak at 220 MB.
CHILD_BYTES = 16
# Bytes one child takes at the peak of its call's processing: the core's buffer and its
# copy out, sorting and ranking copies (a beam's rank makes several). A call takes no more
# children than the budget left holds at this size, or a 32 MiB budget peaked at 164 MB.
WORK_BYTES = 64
REPORT_SECONDS = 0.25   # between two progress reports at least


def in_sorted(level: Keys, keys: Keys) -> npt.NDArray[np.bool_]:
    """Whether each of ``keys`` is in ``level`` (sorted): shape (len(keys),), by binary
    search, so a large level is not sorted again as np.isin would."""
    if not len(level):
        return np.zeros(len(keys), dtype=np.bool_)
    found: npt.NDArray[np.bool_] = level[np.minimum(np.searchsorted(level, keys), len(level) - 1)] == keys
    return found


class MovesStop(Exception):
    """A limit stopped the levels (``reason``: a Reason); the levels finished stay."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass
class Budget:
    """Limits of a search by moves: positions expanded (``nodes``), a monotonic deadline
    (seconds), bytes for the levels and the set of positions seen, and the caller's
    :class:`Cancel` (None: none)."""

    nodes: int | None
    deadline: float | None
    memory_bytes: int
    expanded: int = 0   # positions expanded so far, both directions
    children: int = 0   # chains of jumps followed so far
    doing: str = ""     # what the levels are making now, in words ("forward level 9 from 6,698,891 positions")
    # called with the budget from check(), at most every REPORT_SECONDS: a progress display
    report: Callable[[Budget], None] | None = None
    reported: float = 0.0
    cancel: Cancel | None = None

    def check(self, held: int) -> None:
        """:raises MovesStop: a limit passed or the run was cancelled (``held``: bytes the
        levels take now)."""
        if self.cancel is not None and self.cancel.is_set():
            raise MovesStop(Reason.CANCELLED)
        if self.nodes is not None and self.expanded >= self.nodes:
            raise MovesStop(Reason.NODE_LIMIT)
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            raise MovesStop(Reason.TIME_LIMIT)
        if self.report is not None and now - self.reported >= REPORT_SECONDS:
            self.reported = now
            self.report(self)
        if held > self.memory_bytes:
            raise MovesStop(Reason.MEMORY_LIMIT)


def expand(space: MoveSpace, parents: Keys, backward: bool, budget: Budget, held: int) -> tuple[Keys, int]:
    """The core's move_children of up to CHUNK of ``parents`` (and no more than the node
    limit leaves), within the budget's memory (``held``: bytes taken already) and deadline
    even inside one parent: (children, parents done). The call stops after the parent
    that brings its children to MOST, or to the budget left at WORK_BYTES a child.

    :raises MovesStop: the memory or the deadline passed, or the run was cancelled, while
        the children were found.
    """
    take = CHUNK if budget.nodes is None else max(1, min(CHUNK, budget.nodes - budget.expanded))
    hard = max((budget.memory_bytes - held) // CHILD_BYTES, 1)
    most = max(min(MOST, (budget.memory_bytes - held) // WORK_BYTES), 1)
    halt = None if budget.cancel is None else budget.cancel.flag
    try:
        kids, done = space.E.move_children(space.mv, space.chains, parents[:take], backward, most, hard,
                                           budget.deadline or 0.0, halt)
    except TimeoutError:
        raise MovesStop(Reason.TIME_LIMIT) from None
    except InterruptedError:
        raise MovesStop(Reason.CANCELLED) from None
    except MemoryError:
        raise MovesStop(Reason.MEMORY_LIMIT) from None
    return kids, done


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
    """Levels by moves in one direction: level n holds the positions first reached in n moves
    from ``sources`` (backward: the positions that reach one of them in n moves and no
    fewer). The last level (``frontier``) is a sorted array; with ``keep``, the levels
    before it are kept compressed (engine.partition's stored form: a byte or two a
    position), to find a solution's path again; without, they are dropped."""

    def __init__(self, space: MoveSpace, sources: Iterable[int], backward: bool, keep: bool = True,
                 bound: Callable[[Keys], npt.NDArray[np.int64]] | None = None, most: int = 0) -> None:
        self.space, self.backward, self.keep = space, backward, keep
        # with ``bound`` (a lower bound on the moves the rest of a solution takes from each
        # position): positions at level n with n + bound > ``most`` are dropped unseen, so
        # that only solutions of at most ``most`` moves are searched for
        self.bound, self.most = bound, most
        self.pruned = 0   # positions dropped by the bound (with repeats)
        first = np.unique(np.array([space.canonical(p) for p in sources], dtype=np.uint64))
        self.seen = space.E.KeySet(len(first))
        self.seen.add_new(first)
        self.frontier: Keys = first
        self.sizes = [len(first)]
        self.packed: list[bytes] = []     # levels 0 .. depth-1, stored (keep only)
        self.packed_bytes = 0
        self._open: tuple[int, Keys] | None = None   # the stored level last read back
        self.done = False   # the last level made was empty: every position is found
        self.fanout = 1.0   # children found a parent in the last level made (before any was dropped)

    @property
    def depth(self) -> int:
        """Moves of the last level made."""
        return len(self.sizes) - 1

    @property
    def nbytes(self) -> int:
        """Bytes held: the set of positions seen, the frontier and the stored levels."""
        return int(self.seen.nbytes) + self.frontier.nbytes + self.packed_bytes

    def step(self, budget: Budget, held_elsewhere: int = 0) -> Keys:
        """Make the next level, make it the frontier and return it (empty: no position is
        new, and ``done``).

        :raises MovesStop: a limit passed, or the system refused memory within the budget
            (MEMORY_LIMIT: a trial under a ulimit got a traceback). The level is dropped, and
            the set of positions seen then holds some of it: the levels must not step again.
        """
        try:
            return self._step(budget, held_elsewhere)
        except MemoryError:
            raise MovesStop(Reason.MEMORY_LIMIT) from None

    def _step(self, budget: Budget, held_elsewhere: int) -> Keys:
        parents: Keys = self.frontier
        budget.doing = self.doing(len(parents))
        parts: list[Keys] = []
        i = made = children = 0   # parents expanded, bytes of the new positions, children found so far
        while i < len(parents):
            budget.check(self.nbytes + held_elsewhere + made)
            kids, done = expand(self.space, parents[i:], self.backward, budget, self.nbytes + held_elsewhere + made)
            i += done
            budget.expanded += done
            budget.children += len(kids)
            children += len(kids)
            parts.append(self._new(kids, budget, held_elsewhere))
            parts = self._fold(parts)
            made = self._made(parts)
        level = self._level(parts)
        if self.keep:
            self.packed.append(encode(parents).data)
            self.packed_bytes += len(self.packed[-1])
        self.frontier = level
        self.fanout = children / max(len(parents), 1)
        self.sizes.append(len(level))
        self.done = len(level) == 0
        return level

    def doing(self, parents: int) -> str:
        """The next level in words, for progress reports (``parents``: positions to expand)."""
        pruned = f" (pruned to {self.most} moves)" if self.bound is not None else ""
        side = "backward" if self.backward else "forward"
        return f"{side} level {self.depth + 1}{pruned} from {plural(parents, 'position')}"

    def _new(self, kids: Keys, budget: Budget, held_elsewhere: int) -> Keys:
        # the children not seen before (and within the bound), each once, now seen
        if self.bound is not None:
            within = self.depth + 1 + self.bound(kids) <= self.most
            self.pruned += len(kids) - int(within.sum())
            kids = kids[within]
        if self.seen.bytes_for(len(kids)) + held_elsewhere > budget.memory_bytes:
            raise MovesStop(Reason.MEMORY_LIMIT)
        new: Keys = self.seen.add_new(kids)
        return new

    def _fold(self, parts: list[Keys]) -> list[Keys]:
        # the level's parts so far, as much of them as the level keeps: all of them here
        return parts

    def _made(self, parts: list[Keys]) -> int:
        # bytes the level's parts take so far
        return sum(p.nbytes for p in parts)

    def _level(self, parts: list[Keys]) -> Keys:
        # the new level from what _new gave for each call into the core, sorted in place:
        # the parts are let go first, so a level is held twice at most, not three times
        if not parts:
            return np.empty(0, np.uint64)
        level = np.concatenate(parts)
        parts.clear()
        level.sort()
        return level

    def level(self, n: int) -> Keys:
        """Level ``n``, sorted.

        :raises ValueError: a level before the frontier that was not kept.
        """
        if n == self.depth:
            return self.frontier
        if not self.keep:
            raise ValueError(f"level {n} was not kept")
        if self._open is None or self._open[0] != n:
            self._open = (n, decode(self.packed[n])[0])
        return self._open[1]

    def depth_of(self, key: int) -> int | None:
        """The level holding ``key`` (a canonical key), None when no level does."""
        if not self.seen.contains(np.array([key], dtype=np.uint64))[0]:
            return None   # the set answers at once; the levels are read only for keys seen
        for n in range(self.depth, -1, -1):
            if self.holds(n, key):
                return n
        return None

    def depths_of(self, keys: Keys) -> npt.NDArray[np.int64]:
        """The level holding each of ``keys`` (canonical keys, shape (n,)), -1 where none
        does: each level read once, however many keys (shape (n,))."""
        depths = np.full(len(keys), -1, dtype=np.int64)
        for n in range(self.depth, -1, -1):
            if not (depths < 0).any():
                break
            depths[(depths < 0) & in_sorted(self.level(n), keys)] = n
        return depths

    def holds(self, n: int, key: int) -> bool:
        """Whether level ``n`` holds ``key``."""
        return bool(in_sorted(self.level(n), np.array([key], dtype=np.uint64))[0])
