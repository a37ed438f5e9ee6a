"""Hints for a game played by hand: the solver's next jump from a position toward a finish,
or the verdict that there is none (with the reason when a proof shows it).

:func:`find_hint` tries the proofs first (position classes, pagoda functions), then the
portfolio of searches ``solve`` runs by default, within one time budget; every search honours a
:class:`~pegsolver.engine.limits.Cancel`, so the game can drop a hint the player no longer
needs (a new position, or quitting) without waiting for it.
"""
from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from ..engine.fewest_moves import MAX_HOLES, count_finishes, fewest_moves
from ..engine.limits import Cancel
from ..engine.move_paths import chains
from ..engine.moves_answer import MovesAnswer
from ..engine.outcome import Reason
from ..engine.search import impossibility
from ..errors import GoalError, PegsolverError
from ..model.board import Board
from ..model.geometry import Hole, Jump, Shape
from ..model.goal import Goal, plural
from ..model.notation import hole_name
from ..proofs.obstacles import Proof
from ..solver import Limit, read_goal, resolve_position, solve

DEFAULT_HINT_SECONDS = 10.0
# The hint's search after the proofs and the search by moves: solve()'s default portfolio
# (growing budgets, beams of growing width), the one the solve command runs. A fixed
# schedule of guided search and one default-width beam found nothing on triangles 14 and
# 15 in 10 s, which the portfolio solves in under a second.
HINT_SEARCH = "auto"
# First of all, the search by fewest moves gets this share of the time and this memory: it
# settles positions near the end of most games at once, with the moves left at best.
MOVES_SHARE, MOVES_MEMORY = 0.3, 512 << 20


class HintStop(StrEnum):
    """A hint's own outcome besides solve()'s :class:`Reason`."""

    NO_JUMP = "no jump"       # the position has no legal jump: proved, nothing to search


NO_JUMP, CANCELLED = HintStop.NO_JUMP, Reason.CANCELLED   # CANCELLED: the game dropped the hint


@dataclass
class Hint:
    """The answer of :func:`find_hint`.

    ``jump`` is the next jump of a solution (None when none was found); ``path`` the whole
    solution from the position; ``reason`` is solve()'s :class:`Reason`, or ``NO_JUMP``
    (the position has no legal jump) or ``CANCELLED``; ``explanation`` the proof in
    words when there is one; ``strategy`` the search that settled it; ``seconds`` wall time;
    ``moves_left``: the fewest moves from here to the goal, proved (``path`` takes them;
    with ``moving``, jumps of that peg first are part of the move being made),
    and ``moves_at_least`` the most a search by moves proved when it could not finish
    (None when unknown); ``proof`` the position-class or pagoda proof as data (see
    :meth:`explanation_in`); ``moving`` the hole of the peg whose move was being made
    (find_hint's ``moving``).
    """

    pegs_mask: int
    goal: Goal
    jump: Jump | None
    path: list[Jump]
    reason: Reason | HintStop
    explanation: str = ""
    strategy: str = ""
    seconds: float = 0.0
    moves_left: int | None = None
    moves_at_least: int | None = None
    proof: Proof | None = field(default=None, repr=False)
    moving: Hole | None = None

    def explanation_in(self, style: str = "algebraic") -> str:
        """``explanation`` with a proof's hole names in ``style`` (``"algebraic"`` or ``"numeric"``)."""
        return self.explanation if self.proof is None else self.proof.text(style)

    @property
    def proved(self) -> bool:
        """True when the verdict "no finish from here" is proved, not just not found."""
        return self.reason is HintStop.NO_JUMP or (isinstance(self.reason, Reason) and self.reason.proves_impossible)


def find_hint(board: Board | str, goal: Goal | str, seconds: float = DEFAULT_HINT_SECONDS,
              cancel: Cancel | None = None, moving: Hole | None = None) -> Hint:
    """The next jump toward ``goal`` from ``board``'s position, found by the solver.

    Tries position classes and pagoda functions first (an instant proof when they rule
    the finish out), then the search by fewest moves, then the portfolio of ``solve``'s
    default strategy, within ``seconds`` in all.

    :param board: the position (its history is ignored), or a variant's name for its start.
    :param goal: the finish to aim for (resolved against the board), or a hole name for
        one peg there.
    :param seconds: wall-clock budget of the whole hint, > 0.
    :param cancel: set from another thread, it stops the search running (within about a
        millisecond) and the hint, with reason ``CANCELLED``.
    :param moving: the hole the last jump landed on, when its peg may go on jumping in the
        same move: the moves left then count that peg's next jumps as part of this move.
    :raises UnknownHoleError: ``moving`` is not a hole index of the board.
    :raises PegsolverError: a goal that is not a Goal or a hole name, or that cannot apply
        to the board (GoalError: more pegs than the position has); a bad time limit.
    :raises CoreMissingError: the compiled core is not built.
    """
    t0 = time.perf_counter()
    board = resolve_position(board)   # a variant's name too, as solve() takes it
    moving = None if moving is None else board.hole_index(moving)
    given = read_goal(goal)   # a hole name too, as solve() takes it
    if given is None:
        raise PegsolverError("a hint needs a goal: a pegsolver.Goal or a hole name")
    goal = given.resolve(board.shape)
    if not goal.fewest_pegs and goal.pegs > board.peg_count:   # goal.check would call it the start
        raise GoalError(f"the goal leaves {plural(goal.pegs, 'peg')} but this position has only "
                        f"{board.peg_count}, and a jump only removes pegs")
    goal.check(board.shape, board.pegs_mask)
    Limit(seconds=seconds, cancel=cancel)  # checks the budget and the cancel

    def answer(reason: Reason | HintStop, jumps: Iterable[Jump] = (), explanation: str = "",
               strategy: str = "", proof: Proof | None = None) -> Hint:
        path = list(jumps)
        return Hint(board.pegs_mask, goal, path[0] if path else None, path, reason, explanation,
                    strategy, time.perf_counter() - t0, proof=proof, moving=moving)

    if not goal.fewest_pegs and goal.reached(board.pegs_mask):
        return answer(Reason.SOLVED, strategy="none")
    if not board.legal_jumps():
        return answer(NO_JUMP, explanation="no jump is left")
    proof = None if goal.fewest_pegs else impossibility(board, goal)   # as few as can be: never impossible
    if proof:
        return answer(proof[0], explanation=proof[1].text(), strategy="proof", proof=proof[1])
    fewest = None if goal.fewest_pegs else moves_left(board, goal, seconds * MOVES_SHARE, moving, cancel)
    if fewest is not None and fewest.reason is Reason.SOLVED:
        hint = answer(Reason.SOLVED, fewest.jumps, strategy="fewest-moves")
        hint.moves_left = hint.moves_at_least = fewest.lower_bound
        return hint
    if fewest is not None and fewest.reason is Reason.EXHAUSTED:
        return answer(Reason.EXHAUSTED, strategy="fewest-moves",
                      explanation="every position reachable from here was searched, by moves")
    at_least = None if fewest is None else fewest.lower_bound
    left = seconds - (time.perf_counter() - t0)
    if cancel is not None and cancel.is_set():
        return answer(CANCELLED)
    if fewest is not None and fewest.reason.ends_run:   # Ctrl-C: the search by moves caught it
        hint = answer(fewest.reason)
    elif left <= 0.01:
        hint = answer(Reason.TIME_LIMIT)
    else:
        sol = solve(board, goal, strategy=HINT_SEARCH, limit=Limit(seconds=left, cancel=cancel), proofs=False)
        hint = answer(sol.reason, sol.jumps if sol.reason.settles else (), strategy=sol.stats.member or HINT_SEARCH,
                      explanation="every position reachable from here was searched"
                      if sol.reason.settles and not sol.solved else "")
    hint.moves_at_least = at_least
    return hint


def moves_left(position: Board, goal: Goal, seconds: float, moving: Hole | None,
               cancel: Cancel | None = None) -> MovesAnswer | None:
    """The fewest moves from ``position`` to ``goal`` (resolved) within ``seconds`` and
    MOVES_MEMORY, the jumps of the peg on ``moving`` (the last jump's landing hole) counted
    as part of the move being made: the search starts from the position and from every
    position that peg's chains reach, and its answer's path begins with that chain.
    None where the search by moves does not apply (over 64 holes, too many finishes)."""
    shape, pegs = position.shape, position.pegs_mask
    if shape.size > MAX_HOLES:
        return None
    try:
        count_finishes(shape, goal)
    except GoalError:
        return None
    going = [] if moving is None or not pegs >> moving & 1 else [
        (after, jumps) for after, jumps in chains(shape, pegs) if jumps[0].from_hole == moving]
    starts = [pegs, *dict(going)]
    answer = fewest_moves(position, goal, Limit(seconds=seconds, memory_bytes=MOVES_MEMORY, cancel=cancel),
                          starts=starts)
    if answer.reason is Reason.SOLVED and answer.start != pegs:
        answer.jumps = dict(going)[answer.start] + answer.jumps
    return answer


def finish_words(goal: Goal, style: str, shape: Shape) -> str:
    """``single-peg finish``, ``single-peg finish at d4`` or ``finish with 2 pegs at ...``.

    :param goal: resolved against ``shape`` (as a :class:`Hint`'s is).
    :raises GoalError: a hole of ``goal`` still named.
    """
    if goal.finish is None:
        return "single-peg finish" if goal.pegs == 1 else f"finish with {plural(goal.pegs, 'peg')}"
    names = [hole_name(shape, h, style) for h in goal.finish_holes()]
    return f"single-peg finish at {names[0]}" if goal.pegs == 1 else f"finish with pegs at {' '.join(names)}"
