"""Fewest moves from a start to a goal, proved: bidirectional breadth-first search by moves
(a move: one or more consecutive jumps by one peg).

Method: levels by moves (engine.move_levels) grow forward from the start and backward from
the finishes, the smaller frontier first, each new level checked against every position
the other side has seen. While no position is shared after forward level i and backward
level j, every solution has more than i + j moves; the first shared position M gives one
of exactly i + j moves, which is then the fewest. This is how G. I. Bell finds shortest
solutions by meeting forward and backward levels ("English Peg Solitaire", his pages);
for the English centre game it gives Bergholt's 18 moves (1912), proved minimal by
Beasley (1964). The path through M is found again level by level, replaying real moves.
"""
from __future__ import annotations

import itertools
import math
import numbers
import time
from collections.abc import Callable

import numpy as np

from ..errors import GoalError, PegsolverError
from ..model.board import Board
from ..model.geometry import Shape
from ..model.goal import Goal
from ..model.numbers import as_whole
from ..proofs.merson import region_bound
from .compile import goal_symmetries
from .limits import Limit, check_callables
from .move_beam import beam_by_moves
from .move_bounds import bound_from_starts, bound_to_finish
from .move_levels import Budget, MoveLevels, MoveSpace, MovesStop, expand
from .move_paths import path_through, solution
from .moves_answer import MovesAnswer
from .outcome import Reason

MAX_HOLES = 64                  # the levels by moves run on the 64-bit enumeration core
BEAM_HOLES = 128                # and beams by moves (engine.core_moves) on the 128-bit search core
DEFAULT_MOVES_BYTES = 4 << 30   # levels and seen sets of a search by moves, unless told
MAX_FINISHES = 1 << 20          # finishes "K pegs anywhere" may list for the backward side
BEAM_SECONDS = 5.0              # at least, for the beams after a limit stops the proof
DEEPEN_SHARE = 1 / 2            # of the beams' time under a time limit, for the searches pruned to fewer moves
Report = Callable[[str, int, float], None]   # progress: what is being made, positions expanded, seconds


def count_finishes(shape: Shape, goal: Goal) -> int:
    """How many positions reach ``goal`` (checked without listing them).

    :raises GoalError: a fewest-pegs goal (no fixed finish), or more than MAX_FINISHES ways
        on a board of at most MAX_HOLES holes (over it, beams run forward only: no backward side
        starts from the finishes).
    """
    if goal.fewest_pegs:
        raise GoalError("fewest moves needs a goal with a known finish, not the fewest pegs")
    if goal.finish is not None:
        return 1
    ways = math.comb(shape.size, goal.pegs)
    if ways > MAX_FINISHES and shape.size <= MAX_HOLES:
        raise GoalError(f"{goal.pegs} pegs anywhere on {shape.name} is {ways:,} finishes, more than a search "
                        f"by moves starts from ({MAX_FINISHES:,}): name the finish holes")
    return ways


def finishes(shape: Shape, goal: Goal) -> list[int]:
    """The positions that reach ``goal``: its pattern, or every way to leave its pegs anywhere.

    :raises GoalError: as :func:`count_finishes`.
    """
    count_finishes(shape, goal)
    if goal.finish is not None:
        return [goal.finish_mask()]
    return [sum(1 << h for h in c) for c in itertools.combinations(range(shape.size), goal.pegs)]


def move_group(shape: Shape, starts: list[int], goal: Goal) -> list[tuple[int, ...]]:
    """The symmetries that map the goal, and the set of starts, onto themselves (identity
    first): a class of positions is then as far from the starts, and from the finishes,
    as each of its members."""
    given = set(starts)
    return [p for p in goal_symmetries(shape, goal) if all(shape.map_mask(p, m) in given for m in given)]


def moves_bound(at_most: object) -> int | None:
    """``at_most`` as a number of moves (None stays None).

    :raises PegsolverError: not a whole number of 0 or more (a bool or a float is refused).
    """
    if at_most is None:
        return None
    if isinstance(at_most, bool) or not isinstance(at_most, numbers.Integral) or at_most < 0:
        raise PegsolverError(f"at_most is a whole number of moves, 0 or more, not {at_most!r}")
    return int(at_most)


def fewest_moves(board: Board, goal: Goal, limit: Limit | None = None, starts: list[int] | None = None,
                 forward_depth: int | None = None, beam: Limit | None = None,
                 at_most: int | None = None, progress: Report | None = None) -> MovesAnswer:
    """The fewest moves from ``board`` to ``goal`` (resolved), with a solution, by
    bidirectional breadth-first search (see the module). Under a limit it says the best
    lower bound it proved: the levels' or, when higher, the Merson regions'
    (proofs.merson.region_bound, least over the starts); Ctrl-C stops it the same way.

    ``starts``: several starts instead of ``board``'s pegs: the fewest moves from any of
    them (``start`` on the answer says which one the solution leaves from).
    ``forward_depth``: make forward levels up to this many moves only, and the rest backward
    (default: the smaller frontier first). The answer is the same for every split, so two
    splits check the forward moves against the backward ones.
    ``beam``: when a node, time or memory limit stops the proof, beams by moves
    (engine.move_beam) then look for a short solution that meets the backward levels,
    within these limits: its nodes, and its seconds (default: a quarter of the proof's
    time, at least BEAM_SECONDS) plus any the proof left. ``jumps`` then holds the best
    found, and a solution as short as the lower bound proved is optimal (SOLVED). When
    the best has more moves than proved necessary, searches pruned to fewer moves (as
    with ``at_most``) get what the beams' limits leave, deepening one move at a time: at
    most ``lower_bound`` moves first (``pruned_from``), and each that finds none raises
    ``lower_bound`` by one (``deepened``). One that finds a solution gives the fewest
    moves; reaching the beams' moves proves theirs the fewest (``pruned_to`` is set then).
    Under a time limit (``limit``'s or ``beam``'s seconds), beams with a solution in hand
    stop when DEEPEN_SHARE of their time is left, for these searches.
    ``at_most``: look only for solutions of at most this many moves, dropping from each
    side's levels the positions the Merson regions put further away (engine.move_bounds'
    bound_to_finish and bound_from_starts: an A*-like pruning of both searches, with
    the regions as G. I. Bell uses them for lower bounds on triangles, chosen for each
    position as proofs.merson.region_choice says). The answer is then
    SOLVED with the fewest moves when a solution that short exists, else BOUNDED with
    ``lower_bound`` = at_most + 1.
    Without ``beam``, a memory stop is followed by the same passes, pruned to the bound
    proved and then one more move each, up to at_most - 1 (no cap: while they fit): they
    prune harder than the levels that stopped, so an answer within N moves proves as much
    as one with no cap. ``forward`` and ``backward`` stay the first search's levels.
    ``progress``: called every REPORT_SECONDS or so (engine.move_levels) while levels or
    beams are made, with what is being made (words), the positions expanded so far and
    the seconds since the start: for a status line.

    :raises GoalError: a goal without a known finish (see :func:`finishes`).
    :raises ValueError: ``at_most`` is not a whole number of 0 or more.
    :raises PegsolverError: ``goal`` not a Goal, ``starts`` not a list of bitboards of the
        board, ``forward_depth`` not a whole number of 0 or more, ``beam`` not a Limit,
        ``progress`` not a function.
    """
    at_most = moves_bound(at_most)
    _check_arguments(board, goal, starts, forward_depth, beam, progress)
    limit = limit or Limit()
    t0 = time.monotonic()
    shape = board.shape
    starts = starts or [board.pegs_mask]
    ends = finishes(shape, goal)
    space = MoveSpace(shape, move_group(shape, starts, goal))
    budget = Budget(limit.nodes, None if limit.seconds is None else t0 + limit.seconds,
                    limit.memory_or(DEFAULT_MOVES_BYTES), cancel=limit.cancel)
    if progress is not None:   # the beams count from 0 again: the proof's positions are added
        budget.report = lambda b: progress(b.doing, b.expanded + (b is not budget) * budget.expanded,
                                           time.monotonic() - t0)
    answer, bw = _search(space, starts, ends, goal, budget, forward_depth, at_most)
    if beam is None and answer.reason is Reason.MEMORY_LIMIT:
        # levels pruned to the bound proved prune harder and may fit where these did not (a
        # trial's triangle 7 in 48 MiB proved less within 12 moves than with no cap): passes
        # up to at_most - 1, or with no cap while they fit (a solution has fewer moves than holes)
        del bw
        _deepen(space, starts, ends, goal, budget, answer, shape.size if at_most is None else at_most - 1)
    elif beam is not None and answer.reason.is_limit:   # the beams take the forward levels' memory
        beams = _best_found(space, starts, ends, bw, budget, beam, t0, limit, answer)
        del bw   # and the search pruned to fewer moves than the beams found, the rest
        if limit.seconds is None and beam.seconds is None:
            beams.deadline = None   # no time limit asked for: the pruned search stops at the memory budget
        if answer.reason.is_limit and answer.jumps and (beams.deadline is None or time.monotonic() < beams.deadline) \
                and (beams.nodes is None or beams.expanded < beams.nodes):
            # with at_most, the search pruned to it has run and stopped: passes look for fewer moves only
            _deepen(space, starts, ends, goal, beams, answer, None if at_most is None else at_most - 1)
    answer.seconds = time.monotonic() - t0
    return answer


def _check_arguments(board: Board, goal: object, starts: object, forward_depth: object, beam: object,
                     progress: object) -> None:
    # what fewest_moves is given, checked before any work (a trial passed a hole name as the
    # goal, a negative start and a number as the progress function)
    if not isinstance(goal, Goal):
        raise PegsolverError(f"goal must be a pegsolver.Goal, not {type(goal).__name__}")
    if starts is not None:
        full = board.shape.full_mask
        if not isinstance(starts, list) or not starts or any((w := as_whole(s)) is None or not 0 < w <= full
                                                             for s in starts):
            raise PegsolverError("starts must be a list of one or more bitboards of the board's holes, each "
                                 f"with a peg, or None, not {str(starts)[:60]}")
    depth = as_whole(forward_depth)
    if forward_depth is not None and (depth is None or depth < 0):
        raise PegsolverError(f"forward_depth must be a whole number of 0 or more, or None, not {forward_depth!r}")
    Limit.check(beam, "beam")
    check_callables(progress=progress)


def _search(space: MoveSpace, starts: list[int], ends: list[int], goal: Goal, budget: Budget,
            forward_depth: int | None, at_most: int | None) -> tuple[MovesAnswer, MoveLevels]:
    # the levels both ways until they meet or stop, and what they proved; the forward levels
    # are let go on return (the backward ones serve the beams)
    fw, bw = _levels(space, starts, ends, goal, at_most)
    answer = _meet(space, fw, bw, budget, forward_depth, at_most)
    if at_most is not None and answer.reason in (Reason.SOLVED, Reason.BOUNDED):
        answer.pruned_to = at_most
    # the levels the bound stands on (a trial's Ctrl-C listed a backward level made but not
    # yet checked, beside a bound that did not count it)
    forward, backward = answer.checked or (fw.depth, bw.depth)
    answer.forward, answer.backward = list(fw.sizes[:forward + 1]), list(bw.sizes[:backward + 1])
    answer.expanded, answer.chains, answer.pruned = budget.expanded, budget.children, fw.pruned + bw.pruned
    answer.positions, answer.nbytes = len(fw.seen) + len(bw.seen), fw.nbytes + bw.nbytes
    answer.symmetries = len(space.group)
    if answer.reason.is_limit or answer.reason.ends_run:   # the regions may know more
        finish = goal.finish_or_none()
        answer.regions_bound = min(region_bound(space.shape, s, finish, goal.pegs) for s in starts)
        answer.lower_bound = max(answer.lower_bound, answer.regions_bound)
    return answer, bw


def _levels(space: MoveSpace, starts: list[int], ends: list[int], goal: Goal,
            most: int | None) -> tuple[MoveLevels, MoveLevels]:
    # the forward and backward levels; with ``most``, pruned by the Merson regions to it
    if most is None:
        return MoveLevels(space, starts, backward=False), MoveLevels(space, ends, backward=True)
    finish = goal.finish_or_none()
    return (MoveLevels(space, starts, False, bound=bound_to_finish(space.shape, finish, goal.pegs), most=most),
            MoveLevels(space, ends, True, bound=bound_from_starts(space.shape, starts), most=most))


def _best_found(space: MoveSpace, starts: list[int], ends: list[int], bw: MoveLevels, budget: Budget,
                beam: Limit, t0: float, limit: Limit, answer: MovesAnswer) -> Budget:
    # beams by moves after a limit stopped the proof; their best solution goes in answer.
    # Returns the beams' budget (what is left of it goes to _deepen)
    now = time.monotonic()
    seconds = beam.seconds if beam.seconds is not None else max(BEAM_SECONDS, (now - t0) / 4)
    if limit.seconds is not None:
        seconds += max(0.0, t0 + limit.seconds - now)
    # under a time limit, beams that found a solution leave DEEPEN_SHARE of the time to _deepen
    given = limit.seconds is not None or beam.seconds is not None
    deadline = now + seconds
    beams = Budget(beam.nodes, now + seconds * (1 - DEEPEN_SHARE) if given else deadline, budget.memory_bytes,
                   report=budget.report, cancel=budget.cancel or beam.cancel)   # the cancel of either stops them
    best, stop = beam_by_moves(space, starts, ends[0] if len(ends) == 1 else None, bw, beams, answer.lower_bound,
                               until=deadline if given else None)
    beams.deadline = deadline
    answer.expanded += beams.expanded
    answer.chains += beams.children
    if stop is not None and stop.ends_run:
        answer.reason = stop
    elif stop is not None:
        answer.beam_stop = stop
    if best is not None:
        moves, answer.start, answer.jumps, answer.beam_width = best
        if moves == answer.lower_bound:
            answer.reason = Reason.SOLVED
    return beams


def _deepen(space: MoveSpace, starts: list[int], ends: list[int], goal: Goal, budget: Budget,
            answer: MovesAnswer, cap: int | None = None) -> None:
    # A solution in hand with more moves than proved necessary: search both ways again for
    # one of at most lower_bound moves, then one more, and so on up to one fewer than it (the
    # levels pruned by the Merson regions to that many moves, see fewest_moves' at_most),
    # within what is left of ``budget``. Each search that finds none raises the bound proved
    # by one, so a stop still leaves the best bound reached: iterative deepening, as in
    # R. E. Korf's IDA* ("Depth-first iterative-deepening", Artificial Intelligence 27, 1985),
    # each pass a bidirectional search. The first passes prune hardest and cost least.
    # ``cap``: the most moves a pass may look for (with no solution in hand, passes run up to it).
    tops = [t for t in (cap, None if answer.upper_bound is None else answer.upper_bound - 1) if t is not None]
    while tops and answer.lower_bound <= min(tops):
        most = answer.lower_bound
        answer.pruned_from = answer.pruned_from or most
        fw, bw = _levels(space, starts, ends, goal, most)
        before = (budget.expanded, budget.children)
        found = _meet(space, fw, bw, budget, None, most)
        answer.expanded += budget.expanded - before[0]
        answer.chains += budget.children - before[1]
        answer.pruned += fw.pruned + bw.pruned
        del fw, bw   # the next pass's levels take their memory
        if found.reason is Reason.SOLVED:   # shorter than the beams' solution, and the fewest
            answer.jumps, answer.start, answer.beam_width = found.jumps, found.start, 0
            answer.reason, answer.lower_bound, answer.pruned_to = Reason.SOLVED, found.lower_bound, most
            return
        if found.reason is not Reason.BOUNDED:   # a limit or a stop: its levels may still have proved more
            if found.lower_bound > answer.lower_bound:
                answer.lower_bound = answer.deepened = found.lower_bound
            if found.reason.ends_run:
                answer.reason = found.reason
            break
        answer.lower_bound = answer.deepened = most + 1
    if answer.lower_bound == answer.upper_bound:   # none has fewer moves than the solution in hand
        answer.reason, answer.pruned_to = Reason.SOLVED, answer.lower_bound - 1


def _meet(space: MoveSpace, fw: MoveLevels, bw: MoveLevels, budget: Budget, forward_depth: int | None,
          at_most: int | None = None) -> MovesAnswer:
    # levels alternately, the smaller frontier first, until a position is on both sides
    # (or, with at_most, until the levels pass it: their positions were pruned to it)
    proved = 0   # every solution has at least this many moves: only levels checked against each other count
    checked = (0, 0)   # the depths of the levels checked so: a stop may come between a level and its check
    try:
        hit = fw.frontier[bw.seen.contains(fw.frontier)]
        while not len(hit):
            proved, checked = fw.depth + bw.depth + 1, (fw.depth, bw.depth)
            if at_most is not None and (proved > at_most or fw.done or bw.done):
                if fw.done and not fw.pruned or bw.done and not bw.pruned:   # ran out with nothing dropped
                    return MovesAnswer(Reason.EXHAUSTED, proved)
                return MovesAnswer(Reason.BOUNDED, at_most + 1)
            if fw.done or bw.done:
                return MovesAnswer(Reason.EXHAUSTED, proved)
            if forward_depth is None:
                ahead = len(fw.frontier) <= len(bw.frontier)
            else:
                ahead = fw.depth < forward_depth and not fw.done
            side, other = (fw, bw) if ahead else (bw, fw)
            if proved == at_most:   # the last move asked for: checked, never kept, from the side
                # likely to find fewer children (from a few pegs, backward, a position has thousands)
                if forward_depth is None:
                    ahead = len(fw.frontier) * fw.fanout <= len(bw.frontier) * bw.fanout
                return _last_move(space, fw, bw, not ahead, budget)
            try:
                new = side.step(budget, other.nbytes)
            except MovesStop as stop:
                if stop.reason is not Reason.MEMORY_LIMIT:
                    raise
                return _last_move(space, fw, bw, side is bw, budget)
            hit = new[other.seen.contains(new)]
        key = int(hit[0])
        i, j = fw.depth_of(key), bw.depth_of(key)
        assert i is not None and j is not None
        start, jumps = solution(space, fw, bw, key, i, [], key, j)
    except (MovesStop, KeyboardInterrupt) as stop:   # a stop while the last level was checked proves no more
        reason = stop.reason if isinstance(stop, MovesStop) else Reason.INTERRUPTED
        return MovesAnswer(reason, proved, checked=checked)
    return MovesAnswer(Reason.SOLVED, i + j, jumps, start=start)


def _last_move(space: MoveSpace, fw: MoveLevels, bw: MoveLevels, backward: bool, budget: Budget) -> MovesAnswer:
    # No room for another level: one more move from one frontier, its children only checked
    # against the other side (kept nowhere), settles whether a solution one move longer exists.
    side, other = (bw, fw) if backward else (fw, bw)
    bound = fw.depth + bw.depth + 1
    frontier = side.frontier
    budget.doing = f"the last move from {len(frontier):,} positions, checked against the other side"
    E = space.E
    i = 0
    while i < len(frontier):
        budget.check(0)
        kids, done = expand(space, frontier[i:], backward, budget, fw.nbytes + bw.nbytes)
        if side.bound is not None:   # a child the bound puts past the most meets the other side only longer
            kids = kids[side.depth + 1 + side.bound(kids) <= side.most]
        if other.seen.contains(kids).any():
            for key in frontier[i:i + done]:   # the parent: once, in the one call that has it
                one = np.array([key], dtype=np.uint64)
                if other.seen.contains(E.move_children(space.mv, space.chains, one, backward)[0]).any():
                    start, moves, jumps = path_through(space, fw, bw, int(key), backward)
                    return MovesAnswer(Reason.SOLVED, moves, jumps, start=start)
        i += done
        budget.expanded += done
    if side.bound is not None and bound + 1 > side.most:   # pruned to at most ``most``: all it was asked is settled
        return MovesAnswer(Reason.BOUNDED, side.most + 1)
    return MovesAnswer(Reason.MEMORY_LIMIT, bound + 1)
