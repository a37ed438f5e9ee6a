"""The fewest moves over a board's single-vacancy -> single-peg problems, in pieces: one
search by moves (engine.fewest_moves) for each class of finish holes under the board's
symmetries, from the single vacancies that may reach one peg on the class's lowest hole.
The fewest over the pieces is the board's: a problem ending on another hole of the class
is the image under a symmetry of one ending on this hole, and every vacancy is tried.

Why pieces: a piece leaves out the starts that position classes or a pagoda function
rule out for its finish (two thirds of them on triangles 9 and 10, and every start for
half of triangle 10's finishes), its backward side starts from one position, and its
regions' bound knows the finish, so it prunes harder and holds less than the whole search
(it keeps only the symmetries that fix its finish). Pieces run one after another here,
or side by side as tasks on a Dask distributed cluster (engine.cluster.connect).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..model.board import Board
from ..model.goal import Goal
from ..proofs.merson import region_bound
from .cluster import SLICE, connect, dask_api, stop_local, wait_for_a_worker
from .fewest_moves import fewest_moves
from .limits import Limit
from .moves_answer import MovesAnswer
from .outcome import Reason
from .search import impossibility

Piece = tuple[int, MovesAnswer]   # a finish hole (index) and what its search proved
Told = Callable[[int, MovesAnswer], None]   # called as each piece ends: its finish and answer
Ask = tuple[int, list[int]]   # a piece to search: its finish and its starts
Ended = Callable[[int, MovesAnswer], bool]   # a piece's answer in a round, to in_rounds: go on with the round?
Batch = Callable[[list[Ask], int, Ended], None]   # searches pieces within N moves, each answer to Ended


def vacancy_starts(board: Board) -> list[int]:
    """Every single-vacancy start of ``board``'s shape, as bitboards."""
    full = board.shape.full_mask
    return [full & ~(1 << h) for h in range(board.shape.size)]


def reachable_starts(board: Board, finish: int) -> list[int]:
    """The single-vacancy starts from which no position class or pagoda function rules out
    one peg on ``finish`` (engine.search.impossibility; a trial's triangle 7 piece for a
    corner ran to its limits, though every start is ruled out there)."""
    goal = Goal.at(finish).resolve(board.shape)
    return [s for s in vacancy_starts(board) if impossibility(board.with_pegs(s), goal) is None]


def unrun(board: Board, finish: int, reason: Reason, starts: list[int]) -> MovesAnswer:
    """A piece not searched (``reason`` says why): its lower bound is the Merson regions'
    (proofs.merson.region_bound), least over ``starts``; EXHAUSTED when there are none."""
    if not starts:
        return MovesAnswer(Reason.EXHAUSTED, 0)
    return MovesAnswer(reason, min(region_bound(board.shape, s, 1 << finish, 1) for s in starts))


def piece_search(board: Board, finish: int, starts: list[int], limit: Limit, at_most: int | None,
                 deadline: float | None) -> MovesAnswer:
    """One piece: the fewest moves from ``starts`` to one peg on ``finish``, within ``limit``
    (its seconds ignored) and by ``deadline`` (wall-clock seconds, time.time(), which the
    machines of a cluster share), at most ``at_most`` moves when given (see
    engine.fewest_moves.fewest_moves). Runs in Dask workers too."""
    seconds = None if deadline is None else deadline - time.time()
    if seconds is not None and seconds <= 0:
        return unrun(board, finish, Reason.TIME_LIMIT, starts)
    goal = Goal.at(finish).resolve(board.shape)
    return fewest_moves(board, goal, limit.replace(seconds=seconds), starts=starts, at_most=at_most)


def in_rounds(board: Board, finishes: list[int], at_most: int | None, batch: Batch,
              told: Told | None = None) -> list[Piece]:
    """The pieces, searched in rounds of growing moves, as iterative deepening does (R. E.
    Korf, "Depth-first iterative-deepening", Artificial Intelligence 27, 1985): round N
    asks every piece not yet settled for a solution of at most N moves, from the least
    of the regions' bounds up to ``at_most`` (none: up to the most a solution may have,
    holes - 2). A round where a piece finds one ends the run: every other piece was
    proved to need N or more by the round before. A round where a limit or a stop ends a
    piece is the last; the pieces then left open carry a stop that ended the run. Each
    round asks the pieces in the order of the positions they expanded so far, fewest first.
    ``told`` hears each piece's answer as it ends, with the bound of its rounds before."""
    starts = {f: reachable_starts(board, f) for f in finishes}
    known = {f: unrun(board, f, Reason.BOUNDED, starts[f]) for f in finishes}   # what the regions prove
    most = board.shape.size - 2   # jumps from one vacancy to one peg: a solution has no more moves
    top = most if at_most is None else min(at_most, most)
    stop: list[Reason] = []

    def ended(f: int, a: MovesAnswer) -> bool:
        known[f] = _with_work_before(a, known[f])
        if a.reason.ends_run or a.reason.is_limit or a.reason in (Reason.SOLVED, Reason.WORKERS_LOST):
            stop.append(a.reason)
        if told is not None:
            try:
                told(f, known[f])
            except KeyboardInterrupt:   # Ctrl-C in the caller's callback stops the run as in a search
                stop.append(Reason.INTERRUPTED)
        return not any(r is Reason.SOLVED or r.ends_run for r in stop)
    n = min((a.lower_bound for a in known.values() if a.reason is Reason.BOUNDED), default=top + 1)
    while n <= top and not stop:
        # the pieces that cost least so far first: a solution found ends the round sooner
        asked = sorted((f for f in finishes if known[f].reason is Reason.BOUNDED and known[f].lower_bound <= n),
                       key=lambda f: known[f].expanded)
        batch([(f, starts[f]) for f in asked], n, ended)
        n += 1
    ends = next((r for r in stop if r.ends_run), None)
    for f, a in known.items():
        if a.reason is Reason.BOUNDED and a.lower_bound > most:   # past any solution's moves: none exists
            known[f] = replace(a, reason=Reason.EXHAUSTED)
        elif ends is not None and a.reason is Reason.BOUNDED and a.lower_bound <= top:
            known[f] = replace(a, reason=ends)
    return [(f, known[f]) for f in finishes]


def _with_work_before(a: MovesAnswer, before: MovesAnswer) -> MovesAnswer:
    # a piece's answer in this round, with the work of its rounds before and the best bound
    a.expanded, a.chains, a.pruned = a.expanded + before.expanded, a.chains + before.chains, a.pruned + before.pruned
    a.seconds += before.seconds
    if a.reason is not Reason.SOLVED:
        a.lower_bound = max(a.lower_bound, before.lower_bound)
    return a


def pieces_here(board: Board, finishes: list[int], limit: Limit, at_most: int | None,
                told: Told | None = None) -> list[Piece]:
    """The pieces of ``finishes`` in rounds (:func:`in_rounds`), one after another here,
    each within ``limit`` (its seconds for the whole run). A round stops at the first piece
    that finds a solution; a stop that ends the run (Ctrl-C, a cancel) at once."""
    deadline = None if limit.seconds is None else time.time() + limit.seconds

    def batch(asked: list[Ask], n: int, ended: Ended) -> None:
        for f, starts in asked:
            if limit.cancelled:   # set while a piece before ended: the rest are not started
                ended(f, unrun(board, f, Reason.CANCELLED, starts))
                return
            try:
                a = piece_search(board, f, starts, limit, n, deadline)
            except KeyboardInterrupt:   # outside the levels' own catch
                a = unrun(board, f, Reason.INTERRUPTED, starts)
            if not ended(f, a):
                return
    return in_rounds(board, finishes, at_most, batch, told)


def pieces_on_dask(board: Board, finishes: list[int], limit: Limit, at_most: int | None,
                   workers: int | None, address: str | None, told: Told | None = None) -> list[Piece]:
    """The pieces in rounds (:func:`in_rounds`), each round's pieces side by side as tasks
    of a Dask cluster (a LocalCluster of ``workers`` processes, or the scheduler at
    ``address``), each with ``limit`` for itself and the run's deadline. Ctrl-C or
    ``limit``'s cancel stops them all: the pieces not finished keep the bound before.

    :raises ClusterError: Dask missing, no scheduler at ``address``, or no worker there."""
    dask = dask_api()
    deadline = None if limit.seconds is None else time.time() + limit.seconds
    task_limit = limit.replace(seconds=None, cancel=None)   # a Cancel stays in this process
    client, local, scratch = connect(workers, address, limit.memory_or(0) * (workers or 1))

    def batch(asked: list[Ask], n: int, ended: Ended) -> None:
        futures = {client.submit(piece_search, board, f, starts, task_limit, n, deadline, pure=False): (f, starts)
                   for f, starts in asked}
        _gather(dask, client, futures, board, limit, ended)
    try:
        if address is not None:
            wait_for_a_worker(client, address)
        return in_rounds(board, finishes, at_most, batch, told)
    finally:
        if local is not None:
            stop_local(client, local, scratch)
        else:
            client.close()


def _gather(dask: Any, client: Any, futures: dict[Any, Ask], board: Board, limit: Limit, ended: Ended) -> None:
    # one round's answers as its tasks end; Ctrl-C or a cancel cancels the rest
    pending = set(futures)
    stop: Reason | None = None
    try:
        while pending and not limit.cancelled:
            try:
                dask.wait(list(pending), timeout=SLICE, return_when="FIRST_COMPLETED")
            except TimeoutError:
                continue
            for fut in [f for f in pending if f.done()]:
                pending.discard(fut)
                if not ended(futures[fut][0], _result(dask, fut, board, *futures[fut])):
                    client.cancel(list(pending))   # solved, or Ctrl-C in the callback: the rest keep their bounds
                    return
        if limit.cancelled:
            stop = Reason.CANCELLED
    except KeyboardInterrupt:
        stop = Reason.INTERRUPTED
    client.cancel(list(pending))
    for fut in pending:
        if stop is not None:
            f, starts = futures[fut]
            ended(f, unrun(board, f, stop, starts))


def _result(dask: Any, fut: Any, board: Board, finish: int, starts: list[int]) -> MovesAnswer:
    # a piece's answer; a worker that died running it (past its machine's memory) loses it
    try:
        answer: MovesAnswer = fut.result()
    except dask.KilledWorker:
        return unrun(board, finish, Reason.WORKERS_LOST, starts)
    return answer


def combine(pieces: list[Piece]) -> MovesAnswer:
    """The fewest moves over the pieces, from what each proved: SOLVED when the best
    solution found has no more moves than any piece may still need; BOUNDED (or EXHAUSTED)
    when every piece was; otherwise the first stop that ended the run, or the stop of the
    piece with the least bound. ``lower_bound`` is the least over the pieces (a SOLVED
    piece's moves, a BOUNDED one's bound; EXHAUSTED pieces have no solution and bound
    nothing); ``pieces`` keeps each piece's answer."""
    answers = [a for _, a in pieces]
    with_one = [a for a in answers if a.upper_bound is not None]
    best = min(with_one, key=lambda a: a.upper_bound or 0, default=None)
    live = [a for a in answers if a.reason is not Reason.EXHAUSTED]
    least = min(live, key=lambda a: a.lower_bound, default=None)
    if least is None:   # every piece ran out of positions: no solution at all
        out = replace(answers[0], jumps=[]) if answers else MovesAnswer(Reason.EXHAUSTED, 0)
    elif best is not None and best.upper_bound is not None and best.upper_bound <= least.lower_bound:
        out = replace(best, reason=Reason.SOLVED, lower_bound=best.upper_bound)
    else:
        ended = next((a.reason for a in answers if a.reason.ends_run), None)
        unsettled = [a for a in live if a.reason not in (Reason.SOLVED, Reason.BOUNDED)]
        reason = ended or (min(unsettled, key=lambda a: a.lower_bound).reason if unsettled else Reason.BOUNDED)
        out = replace(least, reason=reason, jumps=best.jumps if best else [], start=best.start if best else 0)
    out.expanded, out.chains = sum(a.expanded for a in answers), sum(a.chains for a in answers)
    out.positions, out.pruned = sum(a.positions for a in answers), sum(a.pruned for a in answers)
    out.nbytes = max((a.nbytes for a in answers), default=0)
    out.pieces = list(pieces)
    return out
