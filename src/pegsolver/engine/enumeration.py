"""The results of enumerations: :class:`Analysis` (one start, level by level, each a
:class:`Level`) and :class:`SolutionCounts` (every single-vacancy -> one-peg problem)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import PegsolverError
from ..model.board import Board
from ..model.geometry import Hole, Shape
from ..model.goal import plural
from ..model.notation import hole_name as name_of_hole
from ..model.numbers import as_whole
from ..proofs.classes import fixed_by_count
from .core import sorted_keys
from .limits import size_text
from .outcome import Reason

if TYPE_CHECKING:
    import numpy.typing as npt


def _level_number(k: object) -> int:
    """A level's number: a Python or numpy integer (a jump count), not a float or a bool."""
    whole = as_whole(k)
    if whole is None:
        raise PegsolverError(f"a level is a whole number of jumps, not {k!r}")
    return whole


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
    sequences: int | None   # None: a positions-only run keeps no counts
    winning: int | None = None


@dataclass(eq=False)   # a run's record (seconds, arrays of positions): equal only to itself
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
    ``forward_complete``: every forward level finished (True on a complete run; on a
    stopped one, the stop came in the winning pass, so ``games``, ``finishes`` and
    ``solutions`` are final all the same);
    ``message`` says what happened in words. ``peak_bytes`` is the largest memory the
    levels held at once; ``seconds`` wall time. ``budget_bytes`` is the memory budget the
    run kept to, and ``bound_bytes`` the up-front bound on its peak (from position classes:
    loose, 3 to 9 times the peak on the boards measured; a run starts whatever it says).
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
    budget_bytes: int = 0
    bound_bytes: int = 0
    #: out-of-core runs: per level, its partitions, positions, stored key and count bytes, seconds
    level_stats: list[dict[str, Any]] = field(default_factory=list)
    #: positions only: no counts kept (no sequences, games or solutions), for boards whose counts do not fit
    positions_only: bool = False
    disk_bytes: int = 0
    #: runs on Dask: the workers that ran it (0: threads of this process)
    workers: int = 0
    stopped: Reason | None = None
    forward_complete: bool = False
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

        :raises PegsolverError: k not a whole number; the level was not kept
            (``keep_positions=False``) or not reached, or its stored partitions cannot be
            read (a Dask run's, once its workers stopped).
        """
        k = _level_number(k)
        if not self._positions:
            raise PegsolverError(f"level {k} was not kept: no level was (keep_positions=False, or a stop "
                                 f"before the first)")
        if not 0 <= k < len(self._positions):
            raise PegsolverError(f"level {k} was not kept (levels 0..{len(self._positions) - 1} are)")
        keys = self._positions[k]
        if not isinstance(keys, np.ndarray):   # a level stored in partitions: read them
            try:
                keys = self._positions[k] = sorted_keys(keys.keys_array())
            except Exception as e:   # a Dask run's partitions go with its workers; a spill directory may be gone
                raise PegsolverError(f"level {k}'s stored partitions cannot be read any more ({type(e).__name__}: "
                                     f"{str(e)[:200]}); a Dask run's go with its workers: run in memory or with "
                                     f"spill= to read them after the run") from None
        return keys

    def winning_positions(self, k: int) -> npt.NDArray[np.uint64]:
        """Level k's winning positions (uint64, sorted), given a finish.

        :raises PegsolverError: k not a whole number; no finish was given, or the level
            was not kept.
        """
        k = _level_number(k)
        if self._winning and not 0 <= k < len(self._winning):
            raise PegsolverError(f"no winning positions of level {k} (levels 0..{len(self._winning) - 1} are)")
        if not 0 <= k < len(self._winning):
            raise PegsolverError("winning positions need a finish and a completed run with positions kept")
        return self._winning[k]

    def to_json(self, hole_name: Callable[[Hole], str] | str = "algebraic") -> dict[str, Any]:
        """JSON-ready data: levels (positions per jump count), their dead ends and jump
        sequences, total, winning, solutions,
        games, seconds and the rest. ``hole_name``: a notation style (as the other results
        take), or a function naming a hole."""
        if isinstance(hole_name, str):
            shape, style = self.start.shape, hole_name

            def hole_name(h: Hole) -> str:
                return name_of_hole(shape, h, style)
        elif not callable(hole_name):   # None called inside gave a bare TypeError
            raise PegsolverError(f"to_json takes a notation style or a function naming a hole, not {hole_name!r}")
        return {
            "board": self.start.shape.name,
            "vacant": [hole_name(h) for h in self.start.vacancies()],
            "finish": None if self.finish is None else hole_name(self.finish),
            "symmetries": self.symmetries,
            "levels": [lv.positions for lv in self.levels],
            "winning_levels": None if self.winning is None else [lv.winning for lv in self.levels],
            "dead_ends": [lv.dead_ends for lv in self.levels],
            # jump sequences from the start reaching each level (None without counts), as the text's column
            "sequences": [lv.sequences for lv in self.levels],
            "total": self.total,
            "winning": self.winning,
            "solutions": self.solutions,
            "finishes": {hole_name(h): n for h, n in sorted(self.finishes.items())},
            "games": self.games,
            "seconds": self.seconds,
            "threads": self.threads,
            "workers": self.workers,
            "peak_bytes": self.peak_bytes,
            "budget_bytes": self.budget_bytes,
            "bound_bytes": self.bound_bytes,
            "stopped": self.stopped,
            "forward_complete": self.forward_complete,
            "message": self.message,
            # out-of-core runs: per level k, its partitions, positions and stored bytes
            "stored_levels": [{key: s[key] for key in ("k", "parts", "positions", "key_bytes", "count_bytes",
                                                      "seconds")} for s in self.level_stats],
            "disk_bytes": self.disk_bytes,
        }

    def to_text(self, style: str = "algebraic") -> str:
        """The result as ``pegsolver count`` prints it: what was counted, a table of the
        levels, the totals, the solutions by finish and how the run ended."""
        from ..columns import align_columns  # rich: loaded when text is asked for

        shape = self.start.shape

        def name(h: Hole) -> str:
            return name_of_hole(shape, h, style)

        def num(x: int | None) -> str:
            return "?" if x is None else f"{x:,}"
        vacant = " ".join(name(h) for h in self.start.vacancies())
        both = len(fixed_by_count(shape, self.start.pegs_mask, self.finish)) > 1   # as analyse chose
        kind = (f"one per symmetry class ({self.symmetries} symmetries fix the start"
                f"{' and finish' if both else ''})" if self.symmetries > 1
                else "every position (no symmetry used)")
        with_winning = self.finish is not None
        headers = ["jumps", "pegs", "positions", "dead ends", "sequences"] + (["winning"] if with_winning else [])
        rows = [[str(lv.jumps), str(lv.pegs), num(lv.positions), num(lv.dead_ends), num(lv.sequences)]
                + ([num(lv.winning)] if with_winning else []) for lv in self.levels]
        lines = [f"board: {shape.name} ({plural(shape.size, 'hole')}), vacant: {vacant or 'none'}; "
                 f"positions counted: {kind}",
                 align_columns(headers, rows, ("right",) * len(headers)),
                 f"total positions: {self.total:,}"]
        if self.finish is not None and self.winning is not None:
            lines.append(f"winning positions (on some solution to {name(self.finish)}): {self.winning:,}")
        if self.finish is not None and self.solutions is not None:
            lines.append(f"solutions ending at {name(self.finish)}: {self.solutions:,}")
        if self.finishes:
            lines.append("solutions by finish: " + ", ".join(f"{name(h)} {n:,}"
                                                            for h, n in sorted(self.finishes.items())))
        elif self.positions_only:
            lines.append("positions only: no counts kept (solutions, sequences and games are not counted)")
        elif not self.stopped:
            lines.append("no one-peg finish")
        if self.games is not None:
            lines.append(f"complete games (played until no jump is left): {self.games:,}")
        ran = plural(self.workers, "Dask worker") if self.workers else plural(self.threads, "thread")
        lines.append(f"{self.message}; {self.seconds:.2f} s, {ran}, "
                     f"peak {size_text(self.peak_bytes)} allocated of a budget of {size_text(self.budget_bytes)}")
        lines += self.storage_lines()
        return "\n".join(lines)

    def storage_lines(self) -> list[str]:
        """Out-of-core runs: each level's partitions and stored bits a position (keys and
        counts apart), and the most the spill directory held."""
        stats = [s for s in self.level_stats if s["key_bytes"] and s["positions"]]
        if not stats:
            return []
        big = max(stats, key=lambda s: s["positions"])
        rows = ["stored levels (partitions, bits a position for keys / counts): " + ", ".join(
            f"{s['k']}: {s['parts']}, {8 * s['key_bytes'] / s['positions']:.2f} / "
            f"{8 * s['count_bytes'] / s['positions']:.2f}" for s in stats if s["positions"])]
        n = sum(s["positions"] for s in stats)
        rows.append(f"levels {stats[0]['k']} to {stats[-1]['k']} stored: {plural(n, 'position')}, "
                    f"{8 * sum(s['key_bytes'] for s in stats) / max(n, 1):.2f} bits a position for keys, "
                    f"{8 * sum(s['count_bytes'] for s in stats) / max(n, 1):.2f} for counts")
        lost = ", lost with the workers" if self.stopped == Reason.WORKERS_LOST else ""
        rows.append(f"largest level stored: {plural(big['positions'], 'position')} in "
                    f"{plural(big['parts'], 'partition')}, "
                    f"{8 * big['key_bytes'] / big['positions']:.2f} bits a position for keys, "
                    f"{8 * big['count_bytes'] / big['positions']:.2f} for counts; " +
                    (f"spill directory at most {size_text(self.disk_bytes)}" if self.disk_bytes
                     else "partitions held in memory" + lost))
        return rows


class SolutionCounts(dict[tuple[Hole, Hole], int]):
    """The number of solutions of every single-vacancy -> one-peg problem of ``shape``:
    ``counts[(vacancy, finish)]`` (0: unsolvable), for every pair of holes."""

    def __init__(self, shape: Shape) -> None:
        super().__init__()
        self.shape = shape

    def to_json(self, style: str = "algebraic") -> dict[str, Any]:
        """JSON-ready data: the board, each vacancy's solvable finishes and their counts, the total."""
        n = self.shape.size

        def name(h: Hole) -> str:
            return name_of_hole(self.shape, h, style)
        return {"board": self.shape.name,
                "solutions": {name(v): {name(f): self[(v, f)] for f in range(n) if self[(v, f)]}
                              for v in self.vacancies()},
                "total": sum(self.values()), "complete": len(self.vacancies()) == n}

    def vacancies(self) -> list[Hole]:
        """The vacancies counted: all of them, unless a limit stopped the counts."""
        return [v for v in range(self.shape.size) if (v, 0) in self]

    def to_text(self, style: str = "algebraic") -> str:
        """A table: one row per vacancy, one column per finish (blank: no solution), and the totals."""
        from ..columns import align_columns  # rich: loaded when text is asked for

        n = self.shape.size

        def name(h: Hole) -> str:
            return name_of_hole(self.shape, h, style)
        rows = [[name(v), f"{sum(self[(v, f)] for f in range(n)):,}"]
                + [f"{self[(v, f)]:,}" if self[(v, f)] else "" for f in range(n)] for v in self.vacancies()]
        return "\n".join([
            f"board: {self.shape.name}; solutions of each vacancy (row) -> finish (column) problem; blank: none",
            align_columns(["vacancy", "all"] + [name(f) for f in range(n)], rows, ("right",) * (n + 2)),
            f"total: {sum(self.values()):,} solutions; solvable pairs: {sum(1 for c in self.values() if c):,}"])

