"""The answer of a search (:class:`Solution`), checked against the rules by bit operations
before it is returned, and the helpers that build answers without a solution."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from ..errors import IllegalJumpError
from ..model.board import Board
from ..model.geometry import Jump
from ..model.goal import Goal, plural
from ..model.notation import check_style, group_moves, jump_name, move_name
from ..model.notation import hole_name as name_of_hole
from ..proofs.obstacles import Proof
from .compile import STRATEGY_HELP
from .outcome import Reason, Stats

MOVES_STRATEGY = "fewest-moves"   # the strategy a search by fewest moves reports
BEAM_MOVES_STRATEGY = "fewest-moves-beams"   # and on boards past the levels by moves (over 64 holes)
MOVES_HELP = {MOVES_STRATEGY: "bidirectional breadth-first search by moves, a proof of the fewest moves",
              BEAM_MOVES_STRATEGY: ("beams by moves of growing width, over 64 holes: proved minimal only when "
                                    "no level was cut or the Merson regions' bound is met")}


@dataclass
class Solution:
    """The answer of :func:`solve`.

    ``solved`` is True when ``jumps`` lead from ``start`` to the goal (``reason`` is then
    ``"solved"``, except under ``minimize="moves"``, below); otherwise ``reason``
    (a :class:`~pegsolver.engine.outcome.Reason`, equal to its words) says why not:
    ``"position class"`` or ``"pagoda"`` (proved impossible before any search;
    ``explanation`` says how), ``"exhausted"`` (proved: the search found no solution),
    ``"node limit"``, ``"time limit"``, ``"memory limit"`` (the beam's levels outgrew the
    memory budget), ``"beam"`` (the beam strategy kept too few positions to find a
    solution), ``"interrupted"`` (Ctrl-C or SIGTERM) or ``"cancelled"`` (a
    :class:`~pegsolver.engine.limits.Cancel` set); these last six prove nothing.
    Truthy exactly when solved.

    For ``Goal.fewest()``: solved when ``jumps`` end in a position with the fewest pegs the
    start can be reduced to, proved (``explanation`` says how); unsolved under a limit,
    ``jumps`` may still hold the best finish found. ``closest``: the jumps to the dead end
    with the fewest pegs a depth-first search met (empty after a proof, a beam or a
    backward search).

    For a search by fewest moves (``solve(..., minimize="moves")``): ``optimal`` is True
    when ``jumps`` are proved to take the fewest moves; ``lower_bound`` is the fewest
    moves any solution can take, as far as proved (None for the other searches). When a
    limit (or the beams' widths, or Ctrl-C) stops the proof after a solution was found, the
    answer is solved with the best solution found, ``optimal`` is False, ``reason`` says
    what stopped the proof and ``lower_bound`` how far it went; with no solution found it
    is unsolved.

    ``proof``: for ``"position class"`` and ``"pagoda"``, the proof as data (a
    :class:`~pegsolver.proofs.obstacles.Proof`, stated in any notation by its ``text``).
    """

    start: Board
    goal: Goal
    solved: bool
    reason: Reason  # a plain string of its words is taken too
    jumps: list[Jump]
    stats: Stats
    explanation: str = ""
    closest: list[Jump] = field(default_factory=list)
    optimal: bool | None = None
    lower_bound: int | None = None
    proof: Proof | None = field(default=None, repr=False)
    final: Board = field(init=False)

    def __post_init__(self) -> None:
        self.reason = Reason(self.reason)  # ValueError for words that are no reason
        board = self.start.with_pegs(replay(self.start, self.jumps))  # checks what the core returned
        board.history = list(self.jumps)
        if self.solved and self.goal.fewest_pegs:
            if board.legal_jumps():  # a jump left would leave fewer pegs
                raise RuntimeError("internal error: the fewest-pegs finish found still has a jump")
        elif self.solved and not self.goal.reached(board.pegs_mask):
            raise RuntimeError("internal error: the solution found does not reach the goal")
        if self.optimal and len(group_moves(self.jumps)) != self.lower_bound:
            raise RuntimeError("internal error: the fewest-moves solution has more moves than proved")
        self.final = board  # closest is replayed where it becomes an answer's jumps (fewest pegs)

    def __bool__(self) -> bool:
        return self.solved

    @property
    def moves(self) -> list[list[Jump]]:
        """Jumps grouped into moves (consecutive jumps by one peg)."""
        return group_moves(self.jumps)

    def jump_names(self, style: str = "algebraic") -> list[str]:
        """Jumps in notation (``"d2-d4"``; style ``"numeric"``: ``"42-44"``)."""
        return [jump_name(self.start.shape, j, style) for j in self.jumps]

    def move_names(self, style: str = "algebraic") -> list[str]:
        """Moves in notation (``"a4-c4-c2"``)."""
        return [move_name(self.start.shape, m, style) for m in self.moves]

    def to_json(self, style: str = "algebraic") -> dict[str, Any]:
        """The answer as JSON-ready data (keys listed in README.md)."""
        shape = self.start.shape
        hole_name = partial(name_of_hole, style=style)
        return {
            "solved": self.solved,
            "reason": self.reason,
            "explanation": self.explanation_in(style),
            "board": shape.name,
            "start": self.start.to_text(),
            "vacant": [hole_name(shape, h) for h in self.start.vacancies()],
            "goal": self.goal.to_json(shape, style),
            "jumps": self.jump_names(style),
            "moves": self.move_names(style),
            "final": [hole_name(shape, h) for h in self.final.pegs()] if self.solved or self.jumps else None,
            # unsolved: the jumps to the dead end with the fewest pegs the search met, and its pegs
            "closest": [jump_name(shape, j, style) for j in self.closest] if not self.solved else [],
            "closest_pegs": self.start.peg_count - len(self.closest) if self.closest and not self.solved else None,
            "optimal": self.optimal,
            "lower_bound": self.lower_bound,
            "stats": asdict(self.stats),
        }

    def to_text(self, style: str = "algebraic", show_boards: bool = False) -> str:
        """The answer in words, as ``pegsolver solve`` prints it after the problem: the
        strategy, the moves (and the board after each, with ``show_boards``), the final
        pegs, why it is not solved when it is not, and the work counters."""
        st = self.stats
        shape = self.start.shape
        help_ = STRATEGY_HELP.get(st.strategy) or MOVES_HELP.get(st.strategy, "")
        lines = [f"strategy: {st.strategy} ({help_}), backend: {st.backend}, "
                 f"symmetries used: {st.symmetries}, direction: {st.direction}"]
        if st.member:
            lines.append(f"answered by: {st.member} (after {plural(st.runs, 'run')} of the portfolio)")
        if self.goal.fewest_pegs and self.solved:
            lines.append(f"fewest pegs: {self.explanation}")
        if self.lower_bound is not None:
            lines.append(self.moves_text())
        if self.solved or self.jumps:
            lines.append(f"{'solved' if self.solved else 'best found'}: {plural(len(self.jumps), 'jump')} in "
                         f"{plural(len(self.moves), 'move')}, {plural(self.final.peg_count, 'peg')} left")
            board = self.start.with_pegs(self.start.pegs_mask)
            if show_boards:
                lines.append(board.to_text())
            for i, (move, text) in enumerate(zip(self.moves, self.move_names(style)), 1):
                lines.append(f"{i:3d}. {text}")
                if show_boards:
                    for j in move:
                        board.push(j)
                    lines.append(board.to_text() + "\n")
            lines.append("final: " + " ".join(name_of_hole(shape, h, style) for h in self.final.pegs()))
        if not self.solved:
            lines.append(self.unsolved_text(style))
            if self.closest and not self.jumps:   # as --json's closest and closest_pegs
                moves = [move_name(shape, m, style) for m in group_moves(self.closest)]
                lines.append(f"closest: {plural(self.start.peg_count - len(self.closest), 'peg')} left, the "
                             f"fewest of the dead ends met, after {plural(len(moves), 'move')}: {', '.join(moves)}")
        elif self.optimal is False:
            lines.append(f"not proved minimal: {self.explanation}")
        lines.append(f"stats: tests {st.tests:,}  nodes {st.nodes:,}  dead ends {st.dead_ends:,}  "
                     f"table hits {st.table_hits:,}  table entries {st.table_entries:,}  "
                     f"table {st.table_bytes / 2**20:.2f} MiB  pagoda prunes {st.pagoda_prunes:,}  "
                     f"seconds {st.seconds:.6f}")
        return "\n".join(lines)

    def moves_text(self) -> str:
        """What a search by fewest moves proved, in one line (``moves: 19, proved >= 17``);
        an answer of another search says none was made (its ``lower_bound`` is None)."""
        if self.lower_bound is None:
            return f"moves: {len(self.moves)}, the fewest not searched (solve with minimize='moves')"
        if self.optimal:
            return f"fewest moves: {len(self.moves)}, proved minimal ({self.explanation})"
        best = f"moves: {len(self.moves)}" if self.jumps else "moves: no solution found"
        return f"{best}, proved >= {self.lower_bound}"

    def explanation_in(self, style: str = "algebraic") -> str:
        """``explanation`` with its hole names in ``style`` (as ``to_text`` takes it): a
        position class or pagoda proof is stated again in that notation.

        :raises PegsolverError: an unknown ``style``."""
        check_style(style)
        return self.explanation if self.proof is None or style == "algebraic" else self.proof.text(style)

    def unsolved_text(self, style: str = "algebraic") -> str:
        """Why the answer is not solved, in one line: the proof (hole names in ``style``), or
        what stopped the search (for a solved answer: ``solved``).

        :raises PegsolverError: an unknown ``style``."""
        check_style(style)
        if self.solved:
            return "solved"
        if self.reason.proves_impossible:
            return f"impossible: {self.explanation_in(style)}"
        if self.stats.strategy in ("auto", *MOVES_HELP) or self.goal.fewest_pegs:  # the explanation says what ran
            return f"not solved: {self.explanation}"
        if self.reason is Reason.BEAM:
            return ("not solved: the beam kept too few positions per level to reach the goal (a wider "
                    "--beam-width may); nothing proved")
        stopped = f"not solved: stopped by {self.reason.cause} before a solution was found; nothing proved"
        if self.reason.ends_run:   # the caller stopped it: another strategy is no advice
            return stopped
        return f"{stopped} (the default strategy, auto, tries the other strategies too)"


def replay(start: Board, jumps: Sequence[Jump]) -> int:
    """The pegs (bitboard) after ``jumps`` from ``start``, each jump checked against the rules
    with bit operations.

    :raises IllegalJumpError: a jump that is not one of the board's, or not legal where it is
        played (the message names the jump, its place and why).
    """
    allowed = start.shape.jump_set
    pegs = start.pegs_mask
    for k, j in enumerate(jumps, 1):
        fo = (1 << j.from_hole) | (1 << j.over)
        fot = fo | (1 << j.to_hole)
        if j not in allowed or pegs & fot != fo:
            why = start.with_pegs(pegs).why_illegal(j)
            raise IllegalJumpError(f"illegal jump {k} ({jump_name(start.shape, j)}): {why}")
        pegs ^= fot
    return pegs


def empty_stats(strategy: str, backend: str, symmetries: int = 1, backward: bool = False) -> Stats:
    """Stats of an answer that searched nothing (a proof, or Ctrl-C before the search)."""
    return Stats(strategy=strategy, backend=backend, symmetries=symmetries, tests=0, nodes=0, dead_ends=0,
                 table_hits=0, table_entries=0, table_bytes=0, seconds=0.0,
                 direction="backward" if backward else "forward", runs=0)


def unsolved(board: Board, goal: Goal, reason: Reason, stats: Stats, explanation: str | None = None,
             proof: Proof | None = None) -> Solution:
    """An answer without a solution; the explanation is the proof's (when one is given) or
    defaults to the stop's."""
    text = proof.text() if proof is not None else reason.explanation if explanation is None else explanation
    return Solution(board.with_pegs(board.pegs_mask), goal, False, reason, [], stats, text, proof=proof)
