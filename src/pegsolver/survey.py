"""The survey of single vacancies: for every start with one hole empty and every one-peg finish,
a solution or a proof that there is none.

Each pair is settled by :func:`pegsolver.solve` with its default strategy, ``auto``: the
cheapest argument that works (position class, a pagoda certificate), then its portfolio of
searches with growing budgets, which either finds a solution or exhausts every position
and so proves none exists. Pairs that a board symmetry maps onto each other
are solved once; so are a pair and its dual: by complement duality (playing from S to F
is playing backward from the complement of F to the complement of S), vacancy v -> finish
f and vacancy f -> finish v stand or fall together, and one's jumps in reverse order are
the other's solution. Every mapped solution is replayed again.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .engine.outcome import Reason
from .errors import PegsolverError
from .model.board import Board
from .model.geometry import Hole, Jump, Shape
from .model.goal import Goal
from .model.notation import hole_name, jump_name
from .solver import Limit, resolve_board, solve

# One-letter marks for the printed grid.
MARKS = {Reason.SOLVED: "S", Reason.POSITION_CLASS: "c", Reason.PAGODA: "p", Reason.EXHAUSTED: "x"}


@dataclass
class Entry:
    """How one (vacancy, finish) pair was settled: ``reason`` is a :class:`Reason` (solved,
    a proof, or a stop that proves nothing); ``nodes`` and ``seconds`` are the work spent."""

    vacancy: Hole
    finish: Hole
    reason: Reason
    jumps: list[Jump] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    mapped_from: tuple[Hole, Hole] | None = None


class Survey(list[Entry]):
    """The entries of :func:`survey_vacancies`, vacancy-major, with the ``board`` surveyed
    and the wall time in ``seconds``."""

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board
        self.seconds = 0.0

    @property
    def interrupted(self) -> bool:
        """True when Ctrl-C ended the survey (its last entry is the pair it stopped in)."""
        return bool(self) and self[-1].reason is Reason.INTERRUPTED

    @property
    def settled(self) -> bool:
        """True when every pair is solved or proved impossible."""
        return all(e.reason in MARKS for e in self)

    def to_json(self, style: str = "algebraic") -> dict[str, Any]:
        """JSON-ready data: the board, seconds, the count of each reason and every entry."""
        shape = self.board.shape

        def name(h: Hole) -> str:
            return hole_name(shape, h, style)
        return {
            "board": shape.name, "seconds": self.seconds, "counts": dict(Counter(e.reason for e in self)),
            "entries": [{"vacancy": name(e.vacancy), "finish": name(e.finish), "reason": e.reason,
                         "jumps": [jump_name(shape, j, style) for j in e.jumps],
                         "nodes": e.nodes, "seconds": e.seconds,
                         "mapped_from": None if e.mapped_from is None else [name(h) for h in e.mapped_from]}
                        for e in self]}

    def to_text(self, style: str = "algebraic") -> str:
        """A grid of marks, one row per vacancy and one column per finish, and the counts."""
        shape = self.board.shape

        def name(h: Hole) -> str:
            return hole_name(shape, h, style)
        width = max(len(name(h)) for h in range(shape.size)) + 1
        grid = {(e.vacancy, e.finish): MARKS.get(e.reason, "?") for e in self}
        lines = [f"board: {shape.name}; rows: vacancy, columns: finish; "
                 "S solved, c position class, p pagoda, x exhausted search, ? not settled",
                 " " * width + "".join(f"{name(f):>{width}}" for f in range(shape.size))]
        for v in range(shape.size):
            lines.append(f"{name(v):>{width}}" + "".join(f"{grid.get((v, f), ' '):>{width}}"
                                                         for f in range(shape.size)))
        counts = Counter(e.reason for e in self)
        lines.append(", ".join(f"{k}: {c}" for k, c in sorted(counts.items())) + f"; {self.seconds:.1f} s")
        return "\n".join(lines)


def _known(shape: Shape, done: dict[tuple[Hole, Hole], Entry], v: Hole, f: Hole) -> Entry | None:
    """The entry for (v, f) derived from one already settled, by symmetry or duality."""
    n = shape.size
    for perm in shape.symmetries:
        inverse = {perm[h]: h for h in range(n)}
        for dual in (False, True):
            seen = done.get((perm[f], perm[v]) if dual else (perm[v], perm[f]))
            if seen is None or seen.reason not in MARKS:
                continue
            jumps = [Jump(inverse[j.from_hole], inverse[j.over], inverse[j.to_hole]) for j in seen.jumps]
            if dual:  # the same jumps in reverse order join the complements
                jumps = jumps[::-1]
            return Entry(v, f, seen.reason, jumps, mapped_from=(seen.vacancy, seen.finish))
    return None


def _replay(board: Board, v: Hole, f: Hole, jumps: list[Jump]) -> None:
    """Check a (possibly mapped) solution: legal jumps ending with one peg on f."""
    b = board.with_pegs(board.shape.full_mask & ~(1 << v))
    for j in jumps:
        b.push(j)  # raises IllegalJumpError on a bad mapping
    if b.pegs_mask != 1 << f:
        raise RuntimeError(f"internal error: the solution for vacancy {v} does not end on hole {f}")


def survey_vacancies(board: Board | str, seconds_per_problem: float | None = 120.0,
                     progress: Callable[[int, int], None] | None = None, limit: Limit | None = None) -> Survey:
    """Settle every (single vacancy, single-peg finish) pair of ``board``'s shape.

    :param seconds_per_problem: time limit of one pair's search, in seconds (None: none).
    :param progress: called as ``progress(done, total)`` after each pair.
    :param limit: the limits of one pair's search (nodes, seconds, memory), as ``solve``
        takes them; when given, it replaces ``seconds_per_problem``.
    :raises PegsolverError: ``limit`` is not a :class:`~pegsolver.Limit`.
    :returns: a :class:`Survey`: one :class:`Entry` per pair, vacancy-major, n_holes x n_holes
        of them; after Ctrl-C, the pairs settled so far and the interrupted one last.
    """
    board = resolve_board(board)
    if limit is not None and not isinstance(limit, Limit):
        raise PegsolverError(f"limit must be a pegsolver.Limit or None, not {type(limit).__name__}")
    each = limit if limit is not None else Limit(seconds=seconds_per_problem)
    shape = board.shape
    n = shape.size
    full = shape.full_mask
    done: dict[tuple[Hole, Hole], Entry] = {}
    out = Survey(board)
    start = time.perf_counter()
    for v in range(n):
        for f in range(n):
            entry = _known(shape, done, v, f)
            if entry is None:
                t0 = time.perf_counter()
                sol = solve(board.with_pegs(full & ~(1 << v)), Goal.at(f),
                            limit=each)
                entry = Entry(v, f, sol.reason, sol.jumps, sol.stats.nodes, time.perf_counter() - t0)
            if entry.reason is Reason.SOLVED:
                _replay(board, v, f, entry.jumps)
            done[(v, f)] = entry
            out.append(entry)
            if progress:
                progress(len(out), n * n)
            out.seconds = time.perf_counter() - start
            if entry.reason is Reason.INTERRUPTED:  # Ctrl-C ends the whole survey
                return out
    return out


def __getattr__(name: str) -> object:
    if name == "single_vacancy_table":  # the old name, before "table" kept one meaning
        import warnings
        warnings.warn("pegsolver.survey.single_vacancy_table is now survey_vacancies", DeprecationWarning,
                      stacklevel=2)
        return survey_vacancies
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
