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

With ``minimize="moves"`` each pair gets its fewest moves, proved (``solve(...,
minimize="moves")``). Duality keeps jumps but not moves (one peg's chain of jumps, played
backward on the complement, is no chain of one peg), so then only symmetry is used.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .engine.fewest_moves import MAX_HOLES
from .engine.limits import check_callables
from .engine.outcome import Reason
from .errors import GoalError
from .model.board import Board
from .model.geometry import Hole, Jump, Shape
from .model.goal import Goal, plural
from .model.notation import group_moves, hole_name, jump_name, move_name
from .solver import Limit, resolve_board, solve

# One-letter marks for the printed grid.
MARKS = {Reason.SOLVED: "S", Reason.POSITION_CLASS: "c", Reason.PAGODA: "p", Reason.EXHAUSTED: "x"}


@dataclass
class Entry:
    """How one (vacancy, finish) pair was settled: ``reason`` is a :class:`Reason` (solved,
    a proof, or a stop that proves nothing); ``nodes`` and ``seconds`` are the work spent.
    By moves, a pair solved before a limit stopped the proof of its fewest moves has
    ``optimal`` False and ``proof_stopped_by`` that limit's Reason (as solve's ``reason``)."""

    vacancy: Hole
    finish: Hole
    reason: Reason
    jumps: list[Jump] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    mapped_from: tuple[Hole, Hole] | None = None
    optimal: bool | None = None        # fewest moves proved (a survey by moves only)
    lower_bound: int | None = None     # the fewest moves proved possible (a survey by moves only)
    proof_stopped_by: Reason | None = None   # the limit that stopped the proof of a solved pair's moves

    @property
    def moves(self) -> int:
        """Moves of the solution found (consecutive jumps by one peg count once)."""
        return len(group_moves(self.jumps))


class Survey(list[Entry]):
    """The entries of :func:`survey_vacancies`, vacancy-major, with the ``board`` surveyed
    and the wall time in ``seconds``."""

    def __init__(self, board: Board, by_moves: bool = False) -> None:
        super().__init__()
        self.board = board
        self.by_moves = by_moves
        self.seconds = 0.0
        # by moves: a pair with the board's fewest moves, proved by one search over every pair
        # at once (moves.shortest_over_board) before the pairs one by one; None if it did not settle
        self.overall: Entry | None = None
        # the stop (Ctrl-C, SIGTERM or a cancel) that came in that search: no pair was tried
        self.stopped_at_once: Reason | None = None
        # the fewest moves that search proved every pair takes, when a limit or a stop ended it (by moves)
        self.bound_at_once: int | None = None

    @property
    def shortest(self) -> Entry | None:
        """A pair with the fewest moves of all (a survey by moves whose search over every pair
        at once settled: that search's pair; whose every solvable pair is proved; or one of
        whose pairs is proved in no more moves than every unsettled pair's lower bound, or
        than ``bound_at_once``; None otherwise)."""
        if not self.by_moves:
            return None
        if self.overall is not None:   # proved first, by one search (a trial's settled table named a pair instead)
            return self.overall
        if self.settled:
            solved = [e for e in self if e.reason is Reason.SOLVED]
            return min(solved, key=lambda e: e.moves) if solved else None
        return self._proved_shortest()

    def _bounded(self) -> list[Entry] | None:
        # by moves, every pair tried and each possible one bounded: those pairs (else None)
        live = [e for e in self if not e.reason.proves_impossible]
        if self.interrupted or len(self) < self.board.shape.size ** 2 or any(e.lower_bound is None for e in live):
            return None
        return live

    def _proved_shortest(self) -> Entry | None:
        # some pairs not settled: a pair proved in as few moves as any other pair's lower
        # bound, or as the search over every pair at once proved for all, is the shortest all the same
        proved = [e for e in self if e.optimal]
        if not proved:
            return None
        best = min(proved, key=lambda e: e.moves)
        if self.bound_at_once is not None and best.moves <= self.bound_at_once:
            return best
        live = self._bounded()
        return best if live is not None and all(best.moves <= (e.lower_bound or 0) for e in live) else None

    @property
    def interrupted(self) -> bool:
        """True when Ctrl-C or a cancel ended the survey: its last entry is the pair it stopped
        in, or ``stopped_at_once`` says it stopped in the search over every pair at once."""
        return self.stopped_at_once is not None or bool(self) and self[-1].reason.ends_run

    @property
    def settled(self) -> bool:
        """True when every pair is solved or proved impossible (by moves: with its fewest moves
        proved)."""
        return not self.interrupted and all(e.reason in MARKS for e in self) and not (self.by_moves and any(
            e.reason is Reason.SOLVED and not e.optimal for e in self))

    def to_json(self, style: str = "algebraic") -> dict[str, Any]:
        """JSON-ready data: the board, seconds, the count of each reason, every entry, whether
        every pair is settled and whether Ctrl-C ended the survey (by moves: the shortest)."""
        shape = self.board.shape

        def name(h: Hole) -> str:
            return hole_name(shape, h, style)
        return {
            "board": shape.name, "seconds": self.seconds, "counts": dict(Counter(e.reason for e in self)),
            "entries": [{"vacancy": name(e.vacancy), "finish": name(e.finish),
                         "solved": e.reason is Reason.SOLVED, "reason": e.reason,
                         "jumps": [jump_name(shape, j, style) for j in e.jumps],
                         "nodes": e.nodes, "seconds": e.seconds,
                         "mapped_from": None if e.mapped_from is None else [name(h) for h in e.mapped_from],
                         **({"move_count": e.moves if e.jumps or e.reason is Reason.SOLVED else None,
                             "moves": [move_name(shape, m, style) for m in group_moves(e.jumps)], "optimal": e.optimal,
                             "lower_bound": e.lower_bound, "proof_stopped_by": e.proof_stopped_by}
                            if self.by_moves else {})}
                        for e in self],
            "settled": self.settled, Reason.INTERRUPTED.value: self.interrupted,
            **({"shortest": self._shortest_json(name), "stopped_at_once": self.stopped_at_once,
                "bound_at_once": self.bound_at_once} if self.by_moves else {})}

    def _shortest_json(self, name: Callable[[Hole], str]) -> dict[str, Any] | None:
        best = self.shortest
        return None if best is None else {"moves": best.moves, "vacancy": name(best.vacancy),
                                          "finish": name(best.finish), "all_pairs_at_once": best is self.overall}

    def to_text(self, style: str = "algebraic") -> str:
        """A grid of marks, one row per vacancy and one column per finish, and the counts."""
        shape = self.board.shape
        if self.stopped_at_once is not None:   # no pair tried: no grid
            bound = "" if self.bound_at_once is None else \
                f" (it proved that every problem takes at least {plural(self.bound_at_once, 'move')})"
            return (f"board: {shape.name}; no problem tried: stopped in the search over every pair at once"
                    f"{bound}; {self.seconds:.1f} s")

        def name(h: Hole) -> str:
            return hole_name(shape, h, style)
        width = max(len(name(h)) for h in range(shape.size)) + 1
        grid = {(e.vacancy, e.finish): self._mark(e) for e in self}
        width = max([width, *(len(m) + 1 for m in grid.values())])
        solved = ("fewest moves (L-U: at least L proved, a solution of U found; >=N: at least N proved, no "
                  "solution found)" if self.by_moves else "S solved")
        lines = [f"board: {shape.name}; rows: vacancy, columns: finish; "
                 f"{solved}, c position class, p pagoda, x exhausted search, ? not settled",
                 " " * width + "".join(f"{name(f):>{width}}" for f in range(shape.size))]
        for v in range(shape.size):
            lines.append(f"{name(v):>{width}}" + "".join(f"{grid.get((v, f), ' '):>{width}}"
                                                         for f in range(shape.size)))
        counts = Counter(e.reason for e in self)
        proved = sum(1 for e in self if e.optimal)   # by moves: the solved pairs whose fewest moves are proved
        lines.append(", ".join(f"{k}: {c}" + (f" (fewest moves proved: {proved})" if self.by_moves and
                                               k is Reason.SOLVED else "") for k, c in sorted(counts.items()))
                     + f"; {self.seconds:.1f} s")
        best = self.shortest
        if best is not None:
            lines.append(f"shortest: {plural(best.moves, 'move')}, vacancy {name(best.vacancy)} -> finish "
                         f"{name(best.finish)}{self._how_shortest(best)}")
        elif self.by_moves and self.settled:
            lines.append("shortest: none, no problem of this board can be solved")
        elif self.by_moves:
            open_ = sum(1 for e in self if e.reason not in MARKS or e.reason is Reason.SOLVED and not e.optimal)
            more = ("stopped before the rest" if self.interrupted else
                    "a longer --seconds, or more --table-mb, may settle them")
            lines.append(f"shortest: not known{self._bounds()}, {open_} of {len(self)} pairs tried not settled "
                         f"({more})")
        return "\n".join(lines)

    def _how_shortest(self, best: Entry) -> str:
        # how the shortest was proved, in words for the text (nothing when every pair is settled)
        if best is self.overall:
            return " (proved by one search over every pair at once)"
        if self.settled:
            return ""
        if self.bound_at_once is not None and best.moves <= self.bound_at_once:
            return " (proved: the search over every pair at once proved that every problem takes at least as many)"
        return " (proved: the pairs not settled take at least as many)"

    def _bounds(self) -> str:
        # by moves: the shortest's bounds, " (at least L, U found)", from every pair tried and
        # bounded or from the search over every pair at once
        live = self._bounded()
        bounds = [b for b in (min(e.lower_bound or 0 for e in live) if live else None, self.bound_at_once)
                  if b is not None]
        if not bounds:
            return ""
        found = [e.moves for e in self if e.reason is Reason.SOLVED]
        return f" (at least {max(bounds)}" + (f", {min(found)} found)" if found else ")")

    def _mark(self, e: Entry) -> str:
        if not self.by_moves or e.reason is not Reason.SOLVED and e.lower_bound is None:
            return MARKS.get(e.reason, "?")
        if e.optimal:
            return str(e.moves)
        return f"{e.lower_bound}-{e.moves}" if e.reason is Reason.SOLVED else f">={e.lower_bound}"


def _known(shape: Shape, done: dict[tuple[Hole, Hole], Entry], v: Hole, f: Hole, by_moves: bool) -> Entry | None:
    """The entry for (v, f) derived from one already settled, by symmetry or duality (by
    symmetry alone ``by_moves``: duality does not keep moves)."""
    n = shape.size
    for perm in shape.symmetries:
        inverse = {perm[h]: h for h in range(n)}
        for dual in (False,) if by_moves else (False, True):
            seen = done.get((perm[f], perm[v]) if dual else (perm[v], perm[f]))
            if seen is None or seen.reason not in MARKS:
                continue
            jumps = [Jump(inverse[j.from_hole], inverse[j.over], inverse[j.to_hole]) for j in seen.jumps]
            if dual:  # the same jumps in reverse order join the complements
                jumps = jumps[::-1]
            return Entry(v, f, seen.reason, jumps, mapped_from=(seen.vacancy, seen.finish), optimal=seen.optimal,
                         lower_bound=seen.lower_bound, proof_stopped_by=seen.proof_stopped_by)
    return None


def _replay(board: Board, v: Hole, f: Hole, jumps: list[Jump]) -> None:
    """Check a (possibly mapped) solution: legal jumps ending with one peg on f."""
    b = board.with_pegs(board.shape.full_mask & ~(1 << v))
    for j in jumps:
        b.push(j)  # raises IllegalJumpError on a bad mapping
    if b.pegs_mask != 1 << f:
        raise RuntimeError(f"internal error: the solution for vacancy {v} does not end on hole {f}")


def survey_vacancies(board: Board | str, seconds_per_problem: float | None = 120.0,
                     progress: Callable[[int, int], None] | None = None, limit: Limit | None = None,
                     minimize: str | None = None) -> Survey:
    """Settle every (single vacancy, single-peg finish) pair of ``board``'s shape.

    :param seconds_per_problem: time limit of one pair's search, in seconds (None: none).
    :param progress: called as ``progress(done, total)`` after each pair.
    :param limit: the limits of one pair's search (nodes, seconds, memory), as ``solve``
        takes them; when given, it replaces ``seconds_per_problem``.
    :param minimize: None, or ``"moves"``: each pair's fewest moves, proved (see the module);
        the survey's ``shortest`` is then the board's fewest over all pairs.
    :raises PegsolverError: ``limit`` is not a :class:`~pegsolver.Limit`, ``progress`` is
        not a function or None, or ``minimize`` is unknown.
    :raises GoalError: a board of one hole, where a vacancy leaves no peg.
    :returns: a :class:`Survey`: one :class:`Entry` per pair, vacancy-major, n_holes x n_holes
        of them; after Ctrl-C, the pairs settled so far and the interrupted one last (none
        when it came in the search over every pair at once: ``stopped_at_once``).
    """
    board = resolve_board(board)
    Limit.check(limit)
    check_callables(progress=progress)
    each = limit if limit is not None else Limit(seconds=seconds_per_problem)
    shape = board.shape
    n = shape.size
    if n < 2:
        raise GoalError(f"board {shape.name!r} has 1 hole: a single-vacancy table needs at least 2 "
                        "(the vacancy and a peg)")
    done: dict[tuple[Hole, Hole], Entry] = {}
    out = Survey(board, minimize == "moves")
    start = time.perf_counter()
    if out.by_moves and n <= MAX_HOLES:
        try:
            overall = _overall(board, each)
        except KeyboardInterrupt:
            overall = Entry(0, 0, Reason.INTERRUPTED)
        if overall.reason is not Reason.SOLVED:
            out.bound_at_once = overall.lower_bound
        if overall.reason.ends_run:   # Ctrl-C or a cancel inside it: no pair is listed
            out.stopped_at_once = overall.reason
            out.seconds = time.perf_counter() - start
            return out
        out.overall = overall if overall.reason is Reason.SOLVED else None
    for v in range(n):
        for f in range(n):
            try:   # Ctrl-C between two searches (solve answers it inside one) ends the survey alike
                entry = _known(shape, done, v, f, out.by_moves) or _searched(board, v, f, each, minimize)
                if entry.jumps and (entry.reason is Reason.SOLVED or out.by_moves):
                    _replay(board, v, f, entry.jumps)
            except KeyboardInterrupt:
                entry = Entry(v, f, Reason.INTERRUPTED)
            done[(v, f)] = entry
            out.append(entry)
            if progress:
                progress(len(out), n * n)
            out.seconds = time.perf_counter() - start
            if entry.reason.ends_run:  # Ctrl-C or a cancel ends the whole survey
                return out
    return out


def _overall(board: Board, limit: Limit) -> Entry:
    # The board's fewest moves by one search from every vacancy to every finish at once: a
    # table of triangle 7's 784 pairs took minutes, this 6 s (a trial's). Not SOLVED when a
    # limit or a stop ended it first: its entry then holds only the reason and the bound
    # proved. Its solution is replayed as each pair's is.
    from .moves import shortest_over_board
    t0 = time.perf_counter()
    answer = shortest_over_board(board, limit=limit)
    if not answer.optimal:   # after Ctrl-C too: it answers with what it proved
        return Entry(0, 0, answer.reason, lower_bound=None if answer.reason is Reason.EXHAUSTED
                     else answer.lower_bound)
    v = next(h for h in range(board.shape.size) if not answer.start >> h & 1)
    # no jumps: a start of one peg (a board of two holes) is its own finish
    f = answer.jumps[-1].to_hole if answer.jumps else (answer.start & ~(answer.start - 1)).bit_length() - 1
    _replay(board, v, f, answer.jumps)
    return Entry(v, f, Reason.SOLVED, answer.jumps, answer.expanded, time.perf_counter() - t0, optimal=True,
                 lower_bound=answer.lower_bound)


def _searched(board: Board, v: Hole, f: Hole, limit: Limit, minimize: str | None) -> Entry:
    # One pair settled by solve. By moves, a solution found before a limit stopped the
    # proof is solved (not optimal); after Ctrl-C the pair stays INTERRUPTED, which ends the survey
    t0 = time.perf_counter()
    sol = solve(board.with_pegs(board.shape.full_mask & ~(1 << v)), Goal.at(f), limit=limit, minimize=minimize)
    solved = sol.solved and not sol.reason.ends_run
    return Entry(v, f, Reason.SOLVED if solved else sol.reason, sol.jumps, sol.stats.nodes,
                 time.perf_counter() - t0, optimal=sol.optimal, lower_bound=sol.lower_bound,
                 proof_stopped_by=sol.reason if solved and sol.reason is not Reason.SOLVED else None)


def __getattr__(name: str) -> object:
    if name == "single_vacancy_table":  # the old name, before "table" kept one meaning
        import warnings
        warnings.warn("pegsolver.survey.single_vacancy_table is now survey_vacancies", DeprecationWarning,
                      stacklevel=2)
        return survey_vacancies
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
