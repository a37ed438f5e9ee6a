"""Analysis by moves (a move: one or more consecutive jumps by one peg): levels by moves
forward and backward (:func:`count_moves`), and the fewest moves of every single-vacancy ->
single-peg problem of a board (:func:`fewest_moves_table`). ``solve(...,
minimize="moves")`` gives one problem's fewest moves with a solution.

Published figures reproduced by the tests: the English centre game's levels by moves,
forward and backward, 23,475,688 positions each side, met at 18 moves (G. I. Bell,
"English Peg Solitaire", his pages; 18 moves: Bergholt 1912, proved minimal by Beasley
1964); the fewest moves over all single-vacancy -> single-peg problems of the triangles
of side 4 to 7, 5, 9, 9, 12 (OEIS A127500; G. I. Bell, J. Integer Sequences 11, 2008).
"""
from __future__ import annotations

import time

from .analysis import check_workers, enum_limit, finish_hole
from .engine.core_moves import beam_fewest_moves
from .engine.fewest_moves import BEAM_HOLES, MAX_HOLES, fewest_moves, move_group, moves_bound
from .engine.limits import Limit, check_callables, check_flags, check_one_thread
from .engine.move_count import MoveCount, Progress, count_by_moves
from .engine.move_pieces import Told, combine, pieces_here, pieces_on_dask, vacancy_starts
from .engine.moves_answer import MovesAnswer
from .engine.search import impossibility
from .errors import BoardTooLargeError, GoalError, PegsolverError
from .model.board import Board
from .model.goal import Goal, require_pegs
from .solver import resolve_board, resolve_position

__all__ = ["MoveCount", "MovesAnswer", "count_moves", "shortest_by_finish", "shortest_over_board"]


def _board(board: Board | str) -> Board:
    board = resolve_position(board)
    if board.shape.size > MAX_HOLES:
        raise BoardTooLargeError(f"board {board.shape.name!r} has {board.shape.size} holes; the levels by moves "
                                 f"take at most {MAX_HOLES} (solve --fewest-moves takes up to {BEAM_HOLES}, by beams)")
    require_pegs(board.shape, board.pegs_mask)
    return board


def count_moves(board: Board | str, finish: int | str | None = None, reduced: bool = True,
                limit: Limit | None = None, progress: Progress | None = None) -> MoveCount:
    """The positions first reached in n moves, for every n: forward from ``board`` and, with
    a ``finish`` hole (name or index), backward from one peg there, one position per
    symmetry class (the symmetries fixing the start and the finish, or the start alone when
    the finish is proved out of reach; none with ``reduced=False``).

    :param limit: seconds, positions expanded (``nodes``) and memory in bytes for the
        levels and the set of positions seen (default: 3/4 of the memory available).
        A stop keeps the levels finished (``stopped`` says why); so does Ctrl-C.
    :param progress: called as ``progress(direction, moves, positions)`` after each level,
        direction ``"forward"`` or ``"backward"``.
    :returns: a :class:`MoveCount`; ``fewest_moves`` is the fewest moves to the finish.
        When position classes or a pagoda function prove the finish out of reach,
        ``impossible`` says how and there is no backward side.
    :raises BoardTooLargeError: more than 64 holes.
    :raises UnknownHoleError, GoalError: a finish that is not a hole of the board; a board
        of one hole (no single-vacancy problem).
    :raises PegsolverError: a limit out of range, reduced not a bool, progress not a function.
    """
    board = _board(board)
    check_flags(reduced=reduced)
    check_callables(progress=progress)
    shape = board.shape
    hole = finish_hole(shape, finish)   # a name, or an index (numpy integers too)
    check_one_thread(limit, "a search by moves")
    limit = enum_limit(limit, None, None, None)
    goal = Goal.anywhere() if hole is None else Goal.at(hole)
    proof = None if hole is None else impossibility(board, goal)   # class or pagoda: no backward side
    # a finish proved out of reach fixes no symmetry: only the forward side is counted
    fixing = Goal.anywhere() if proof else goal
    group = move_group(shape, [board.pegs_mask], fixing) if reduced else [tuple(range(shape.size))]
    return count_by_moves(board, hole, group, limit, limit.memory_or(0), progress, proof[1].text() if proof else "",
                          reduced)


def _single_vacancies(board: Board) -> Board:
    # single-vacancy problems need a vacancy and a peg (a trial's one-hole board was told of
    # its starts' bitboards)
    if board.shape.size < 2:
        raise GoalError(f"board {board.shape.name!r} has 1 hole: a single-vacancy problem needs at least 2 "
                        "(the vacancy and a peg)")
    return board


def shortest_over_board(board: Board | str, limit: Limit | None = None, beam: Limit | None = None,
                        at_most: int | None = None) -> MovesAnswer:
    """The fewest moves over every single-vacancy -> single-peg problem of the board, with
    one problem that takes them (``start`` and the solution's last jump say which): one
    bidirectional search from every single vacancy at once to every one-peg finish at
    once, keyed under the whole symmetry group (both sets are unions of classes).
    Over 64 holes, beams by moves from one vacancy of each symmetry class instead
    (engine.core_moves.beam_fewest_moves): ``upper_bound`` from the beams, ``lower_bound``
    from the Merson regions or from beams whose levels were never cut.

    :param limit: nodes, seconds, memory (default 4 GiB); under a limit ``lower_bound``
        is the best proved.
    :param beam: when a limit stops the proof, beams by moves look for a short solution
        within these limits (see engine.fewest_moves.fewest_moves): ``upper_bound``.
        Over 64 holes the beams are the whole search, within ``limit``.
    :param at_most: up to 64 holes, look only for solutions of at most this many moves
        (see engine.fewest_moves.fewest_moves): the answer is the fewest moves when some
        solution is that short, else BOUNDED with ``lower_bound`` = at_most + 1. Much
        less memory than the whole search when the bound is tight.
    :raises BoardTooLargeError: ``at_most`` for a board of more than 64 holes.
    :raises ValueError: ``at_most`` is not a whole number of 0 or more.
    :raises PegsolverError: ``limit`` or ``beam`` is not a Limit (or None).
    """
    at_most = moves_bound(at_most)
    Limit.check(limit)
    Limit.check(beam, "beam")
    check_one_thread(limit, "a search by moves")
    check_one_thread(beam, "a search by moves")
    board = resolve_board(board)
    shape = board.shape
    if at_most is not None and shape.size > MAX_HOLES:
        raise BoardTooLargeError(f"board {shape.name!r} has {shape.size} holes; a search for at most "
                                 f"{at_most} moves runs on the levels by moves, at most {MAX_HOLES} holes")
    if shape.size > MAX_HOLES:   # shapes stop at 128 holes, as the search core does
        starts = [shape.full_mask & ~(1 << h) for h in shape.hole_classes()]
        return beam_fewest_moves(board, Goal.anywhere(1), limit or Limit(), starts=starts)
    board = _single_vacancies(_board(board))
    return fewest_moves(board, Goal.anywhere(1), limit, starts=vacancy_starts(board), beam=beam, at_most=at_most)


def shortest_by_finish(board: Board | str, limit: Limit | None = None, at_most: int | None = None,
                       finishes: list[int | str] | None = None, workers: int | None = None,
                       cluster: str | None = None, told: Told | None = None) -> MovesAnswer:
    """What :func:`shortest_over_board` answers, in pieces: one search by moves for each
    class of finish holes under the board's symmetries, from the single vacancies that
    position classes and pagoda functions do not rule out, to one peg on that hole
    (engine.move_pieces). A piece needs less memory than the whole search and prunes
    harder, so boards whose whole search does not fit can be settled piece by piece, or
    on several machines.

    :param limit: nodes and memory (bytes, default 4 GiB) for each piece; seconds for the
        whole run. Ctrl-C stops it; ``pieces`` on the answer says what each piece proved.
    :param at_most: look only for solutions of at most this many moves (as in
        :func:`shortest_over_board`); here, each piece after one that found a solution
        also looks only for fewer moves than it.
    :param finishes: the finish holes (names or indices) of the pieces to run; the answer
        is then over problems ending on those holes only (default: one hole of each class).
    :param workers: run the pieces side by side on a Dask LocalCluster of this many
        processes, each with ``limit``'s memory; ``cluster``: on the Dask scheduler at
        this address (``tcp://HOST:PORT``). Neither: one after another here.
    :param told: called as ``told(finish, answer)`` when each piece ends a round, the
        answer with the bound of the piece's rounds before.
    :returns: a :class:`MovesAnswer`: SOLVED with the fewest moves and a solution, BOUNDED
        when no piece has one of at most ``at_most`` moves, EXHAUSTED when none has any,
        or the stop with the least bound proved; ``pieces`` lists each piece's answer.
    :raises BoardTooLargeError: more than 64 holes (the levels by moves' limit).
    :raises UnknownHoleError, GoalError: a finish that is not a hole of the board; a board
        of one hole (no single-vacancy problem).
    :raises PegsolverError: workers and cluster both given, workers out of range, a limit
        of more than one thread; ClusterError: Dask missing or no scheduler at ``cluster``.
    :raises ValueError: ``at_most`` is not a whole number of 0 or more.
    """
    at_most = moves_bound(at_most)
    Limit.check(limit)
    check_one_thread(limit, "a search by moves")
    check_callables(told=told)
    if workers is not None and cluster is not None:
        raise PegsolverError("workers starts a cluster here and cluster joins one: give one of them")
    if workers is not None:
        check_workers(workers)
    board = _single_vacancies(_board(resolve_board(board)))
    shape = board.shape
    if isinstance(finishes, (str, bytes)) or finishes is not None and not isinstance(finishes, (list, tuple)):
        # a trial's finishes="14" ran holes 1 and 4
        raise PegsolverError(f"finishes must be a list of holes (names or indices) or None, not {finishes!r}")
    holes = shape.hole_classes() if finishes is None else [finish_hole(shape, f) for f in finishes]
    picked = list(dict.fromkeys(h for h in holes if h is not None))
    if not picked:
        raise PegsolverError("finishes names no hole: give at least one, or None for one of each class")
    limit = limit or Limit()
    t0 = time.monotonic()
    here = workers is None and cluster is None
    answer = combine(pieces_here(board, picked, limit, at_most, told) if here else
                     pieces_on_dask(board, picked, limit, at_most, workers, cluster, told))
    answer.seconds = time.monotonic() - t0
    return answer
