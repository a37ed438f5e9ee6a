"""The result of an enumeration (:class:`Analysis`), level by level (:class:`Level`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import PegsolverError
from ..model.board import Board
from ..model.geometry import Hole
from .outcome import Reason

if TYPE_CHECKING:
    import numpy.typing as npt


@dataclass(frozen=True)
class Level:
    """One level: ``jumps`` made, ``pegs`` left, ``positions`` (symmetry classes, or
    positions when unreduced), ``dead_ends`` among them (no jump left; None when the run
    stopped before expanding the level), ``winning``
    among them (None without a finish) and ``sequences``: jump sequences from the start
    that reach this level (a Python int)."""

    jumps: int
    pegs: int
    positions: int
    dead_ends: int | None
    sequences: int
    winning: int | None = None


@dataclass
class Analysis:
    """The result of :func:`analyse`.

    ``levels[k]`` is level k (k jumps made); ``total`` sums their positions and
    ``winning`` their winning positions (None without a finish). ``solutions`` counts
    jump sequences from the start to the finish (None without one); ``finishes`` maps
    each hole where one peg can end to its number of solutions; ``games`` counts jump
    sequences played until no jump is left (None when the run stopped early).
    ``symmetries`` is the size of the group the counts are reduced by (1: unreduced).
    ``stopped`` is None for a complete run, else the :class:`Reason` (memory limit,
    time limit, interrupted) and the levels finished so far are kept;
    ``message`` says what happened in words. ``peak_bytes`` is the largest memory the
    levels held at once; ``seconds`` wall time.
    """

    start: Board
    finish: int | None
    symmetries: int
    threads: int
    levels: list[Level] = field(default_factory=list)
    solutions: int | None = None
    finishes: dict[int, int] = field(default_factory=dict)
    games: int | None = 0
    seconds: float = 0.0
    peak_bytes: int = 0
    stopped: Reason | None = None
    message: str = ""
    _positions: list[npt.NDArray[np.uint64]] = field(default_factory=list, repr=False)
    _winning: list[npt.NDArray[np.uint64]] = field(default_factory=list, repr=False)

    @property
    def total(self) -> int:
        return sum(lv.positions for lv in self.levels)

    @property
    def winning(self) -> int | None:
        if self.finish is None or self.stopped or any(lv.winning is None for lv in self.levels):
            return None
        return sum(lv.winning or 0 for lv in self.levels)

    def positions(self, k: int) -> npt.NDArray[np.uint64]:
        """Level k's positions as a numpy uint64 array of shape (positions,): bit i is
        hole i; each class is given by its smallest image. Sorted.

        :raises PegsolverError: the level was not kept (``keep_positions=False``) or not reached.
        """
        if not 0 <= k < len(self._positions):
            raise PegsolverError(f"level {k} was not kept (levels 0..{len(self._positions) - 1} are)")
        return self._positions[k]

    def winning_positions(self, k: int) -> npt.NDArray[np.uint64]:
        """Level k's winning positions (uint64, sorted), given a finish.

        :raises PegsolverError: no finish was given, or the level was not kept.
        """
        if not 0 <= k < len(self._winning):
            raise PegsolverError("winning positions need a finish and a completed run with positions kept")
        return self._winning[k]

    def to_json(self, hole_name: Callable[[Hole], str]) -> dict[str, Any]:
        """JSON-ready data: levels (positions per jump count), total, winning, solutions,
        games, seconds and the rest; ``hole_name(h)`` names a hole."""
        return {
            "board": self.start.shape.name,
            "vacant": [hole_name(h) for h in self.start.vacancies()],
            "finish": None if self.finish is None else hole_name(self.finish),
            "symmetries": self.symmetries,
            "levels": [lv.positions for lv in self.levels],
            "winning_levels": None if self.winning is None else [lv.winning for lv in self.levels],
            "dead_ends": [lv.dead_ends for lv in self.levels],
            "total": self.total,
            "winning": self.winning,
            "solutions": self.solutions,
            "finishes": {hole_name(h): n for h, n in sorted(self.finishes.items())},
            "games": self.games,
            "seconds": self.seconds,
            "threads": self.threads,
            "peak_bytes": self.peak_bytes,
            "stopped": self.stopped,
            "message": self.message,
        }
