"""Tables by moves: every level by moves forward from a start and backward from a finish,
to the end (G. I. Bell's tables B[n] and B[-n], "English Peg Solitaire", his pages).

The two sides check each other: the finish's forward level and the start's backward level
are both the fewest moves from the start to the finish, and when the finish is the
complement of the start both sides hold the same number of positions.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..model.board import Board
from ..model.goal import plural
from ..model.notation import hole_name
from .limits import Limit, size_text
from .move_levels import Budget, MoveLevels, MoveSpace, MovesStop
from .outcome import Reason
from .stopping import interrupt_name

_BITS16 = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.uint8)


def peg_range(keys: npt.NDArray[np.uint64]) -> tuple[int, int] | None:
    """The fewest and most pegs among ``keys`` (None for no keys)."""
    if not len(keys):
        return None
    pegs = _BITS16[keys.view(np.uint16).reshape(-1, 4)].sum(axis=1, dtype=np.int64)
    return int(pegs.min()), int(pegs.max())


@dataclass
class Side:
    """One direction's levels: positions first reached in n moves, and their peg counts."""

    sizes: list[int] = field(default_factory=list)
    pegs: list[tuple[int, int] | None] = field(default_factory=list)
    target_depth: int | None = None   # the level holding the other end (start or finish)

    @property
    def total(self) -> int:
        return sum(self.sizes)


@dataclass
class MoveCount:
    """The levels by moves of one problem. ``backward`` is empty without a finish;
    ``stopped`` is the limit that cut the run short (None: complete)."""

    board: Board
    finish: int | None
    symmetries: int
    forward: Side
    backward: Side
    stopped: Reason | None = None
    seconds: float = 0.0
    impossible: str = ""   # the proof that the finish is out of reach (then no backward side)
    memory_bytes: int = 0  # the memory budget of the levels and seen sets
    signal: str = ""       # the signal that stopped it (Ctrl-C or SIGTERM), when one did
    reduced: bool = True   # keyed under the symmetries (False: every position, none used)

    @property
    def fewest_moves(self) -> int | None:
        """The fewest moves from the start to the finish (None: unreachable or not reached)."""
        return self.forward.target_depth

    def to_json(self, style: str = "algebraic") -> dict[str, Any]:
        shape = self.board.shape
        return {"board": shape.name, "vacant": [hole_name(shape, h, style) for h in self.board.vacancies()],
                "finish": None if self.finish is None else hole_name(shape, self.finish, style),
                "symmetries": self.symmetries, "by": "moves",
                "forward": self.forward.sizes, "backward": self.backward.sizes,
                "forward_pegs": self.forward.pegs, "backward_pegs": self.backward.pegs,
                "forward_total": self.forward.total, "backward_total": self.backward.total,
                "fewest_moves": self.fewest_moves, "fewest_moves_backward": self.backward.target_depth,
                "impossible": self.impossible or None, "stopped": self.stopped, "seconds": self.seconds,
                "memory_budget_bytes": self.memory_bytes, "signal": self.signal or None}

    def to_text(self, style: str = "algebraic") -> str:
        shape = self.board.shape
        vacant = " ".join(hole_name(shape, h, style) for h in self.board.vacancies())
        end = "" if self.finish is None else f", finish: {hole_name(shape, self.finish, style)}"
        fix = "only the identity fixes" if self.symmetries == 1 else f"{self.symmetries} symmetries fix"
        # a finish proved out of reach fixes nothing: the group fixes the start alone
        fixed = "the start" if self.finish is None or self.impossible else "the start and finish"
        kind = f"one position per symmetry class ({fix} {fixed})" if self.reduced else \
            "every position (no symmetry used)"
        lines = [f"board: {shape.name} ({plural(shape.size, 'hole')}), vacant: {vacant or 'none'}{end}; levels by "
                 f"moves, {kind}",
                 f"{'moves':>5} {'forward':>12} {'pegs':>7} {'backward':>12} {'pegs':>7}"]
        for n in range(max(len(self.forward.sizes), len(self.backward.sizes))):
            cells = []
            for side in (self.forward, self.backward):
                size = f"{side.sizes[n]:,}" if n < len(side.sizes) else ""
                r = side.pegs[n] if n < len(side.pegs) else None
                cells.append(f"{size:>12} {'' if r is None else f'{r[0]}-{r[1]}':>7}")
            lines.append(f"{n:>5} {cells[0]} {cells[1]}")
        lines.append(f"total {self.forward.total:>12,} {'':>7} {self.backward.total:>12,}" if self.backward.sizes
                     else f"total {self.forward.total:>12,}")
        if self.finish is not None:
            fw, bw = self.forward.target_depth, self.backward.target_depth
            if fw is not None and fw == bw:
                lines.append(f"fewest moves from the start to the finish: {fw} (met forward and backward)")
            elif self.impossible:
                lines.append(f"the finish cannot be reached from the start: {self.impossible}")
            elif fw is None and bw is None and self.stopped is None:
                lines.append("the finish cannot be reached from the start")
            else:
                def seen(d: int | None) -> str:
                    return "not reached before the stop" if d is None else str(d)
                lines.append(f"fewest moves: forward {seen(fw)}, backward {seen(bw)}")
        if self.stopped is not None:
            why = (f"the memory budget of {size_text(self.memory_bytes)} was used up"
                   if self.stopped is Reason.MEMORY_LIMIT else f"by {self.signal}" if self.signal
                   else str(self.stopped))
            lines.append(f"stopped: {why}, after {self.seconds:.2f} s; the levels above are complete")
        else:
            lines.append(f"complete in {self.seconds:.2f} s")
        return "\n".join(lines)


Progress = Callable[[str, int, int], None]   # told (direction, moves, positions) as each level is made


def _side(space: MoveSpace, sources: list[int], target: int, backward: bool, budget: Budget,
          progress: Progress | None) -> tuple[Side, Reason | None]:
    # one direction to the end (or a limit): sizes, peg ranges and where the target is first met
    side = Side()
    levels = MoveLevels(space, sources, backward, keep=False)
    key = space.canonical(target)
    level = levels.frontier
    try:
        while len(level):
            side.sizes.append(len(level))
            side.pegs.append(peg_range(level))
            if side.target_depth is None and levels.holds(levels.depth, key):
                side.target_depth = levels.depth
            if progress:
                progress("backward" if backward else "forward", levels.depth, len(level))
            level = levels.step(budget)
    except MovesStop as stop:
        return side, stop.reason
    except KeyboardInterrupt:
        return side, Reason.INTERRUPTED
    return side, None


def count_by_moves(board: Board, finish: int | None, group: list[tuple[int, ...]], limit: Limit,
                   default_memory: int, progress: Progress | None = None, impossible: str = "",
                   reduced: bool = True) -> MoveCount:
    """Levels by moves forward from ``board`` and, with a ``finish`` hole, backward from one peg
    there, keyed under ``group`` (it must fix the start and the finish). The backward side
    runs after the forward one, with what is left of the limits. ``progress`` is told
    (direction, moves, positions) as each level is made. ``impossible``: a proof that the
    finish is out of reach (position class, pagoda function): the backward side is skipped.
    ``reduced``: False when ``group`` is the identity because no symmetry was asked for.
    """
    t0 = time.monotonic()
    space = MoveSpace(board.shape, group)
    budget = Budget(limit.nodes, None if limit.seconds is None else t0 + limit.seconds,
                    limit.memory_or(default_memory), cancel=limit.cancel)
    target = 0 if finish is None else 1 << finish
    forward, stopped = _side(space, [board.pegs_mask], target, False, budget, progress)
    backward = Side()
    if finish is not None and stopped is None and not impossible:
        backward, stopped = _side(space, [target], board.pegs_mask, True, budget, progress)
    return MoveCount(board, finish, len(group), forward, backward, stopped, time.monotonic() - t0, impossible,
                     budget.memory_bytes, interrupt_name() if stopped is Reason.INTERRUPTED else "", reduced)

