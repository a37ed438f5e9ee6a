"""Short solutions by moves, without a proof: a beam search by moves that meets the backward
levels of a search by moves.

When a limit stops the proof (engine.fewest_moves), its backward levels still hold every
position within j moves of the finish, with its exact distance. A beam then goes forward
from the start a move at a time, keeping at each level only the ``width`` most promising
new positions (fewest pegs, then fewest full Merson regions, each of which needs a move of
its own), and drops those a pagoda function proves cannot reach the finish. The first
level that touches the backward levels gives a solution of i + j moves. Widths grow
fourfold from run to run until the time is spent or a solution as short as the proved
lower bound is found. Beam search is the classic way to trade completeness for reach (B.
Lowerre, "The Harpy Speech Recognition System", 1976); here it gives an upper bound to
set beside the proved lower one.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ..model.geometry import Jump, Shape
from ..proofs.merson import full_regions, merson_regions
from ..proofs.pagoda import pruning_set
from .move_levels import Budget, Keys, MoveLevels, MoveSpace, MovesStop
from .move_paths import solution
from .outcome import Reason

FIRST_WIDTH = 1 << 10
MOST_WIDTH = 1 << 22     # positions a beam level keeps at most
REGION_WEIGHT = 3        # a full Merson region weighs as much as three pegs (tried 1 to 4)
RANK_CHUNK = 1 << 16     # positions ranked at a time: the ranking's copies stay small
MERGE_COPIES = 4         # a fold holds its parts about this many times (joined, sorted, unique, kept)
_POP8 = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)


class BeamLevels(MoveLevels):
    """Forward levels by moves (made by ``step`` as the full levels are) that keep at most
    ``width`` positions each: those not in an earlier level of the beam, reachable by
    pagoda (``pagodas``: (table, need) pairs, see :func:`pagoda_tables`), ranked by
    :meth:`rank`. Levels are kept (stored) so that a solution's path can be found again
    through them, as for the full levels."""

    def __init__(self, space: MoveSpace, sources: Iterable[int], width: int,
                 pagodas: Sequence[tuple[np.ndarray, int]] = ()) -> None:
        super().__init__(space, sources, backward=False)
        self.width = width
        self.pagodas = pagodas
        self.regions = merson_regions(space.shape)

    def rank(self, keys: Keys) -> np.ndarray:
        """A score for each position (shape (n,), lower first): its pegs, plus REGION_WEIGHT
        for each full Merson region, plus a hash below 1 to break ties evenly."""
        score = np.empty(len(keys), dtype=np.float64)
        for i in range(0, len(keys), RANK_CHUNK):
            part = keys[i:i + RANK_CHUNK]
            pegs = _POP8[part.view(np.uint8)].reshape(len(part), 8).sum(axis=1, dtype=np.int64)
            tie = ((part * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)).astype(np.float64) / 2**24
            score[i:i + RANK_CHUNK] = pegs + REGION_WEIGHT * full_regions(self.regions, part) + tie
        return score

    def doing(self, parents: int) -> str:
        return f"beam of {self.width:,} positions a level, level {self.depth + 1}"

    def _best(self, keys: Keys) -> Keys:
        # the best width of keys (distinct)
        if len(keys) > self.width:
            keys = keys[np.argpartition(self.rank(keys), self.width)[:self.width]]
        return keys

    def _new(self, kids: Keys, budget: Budget, held_elsewhere: int) -> Keys:
        # the best of one call's children, new to the beam (its set of positions seen is
        # its levels) and not ruled out by pagoda
        keys = np.unique(kids)
        keys = keys[~self.seen.contains(keys)]
        for table, need in self.pagodas:   # a pagoda's value, a byte of the key at a time
            value = sum(table[b][(keys >> np.uint64(8 * b)) & np.uint64(0xFF)] for b in range(8))
            keys = keys[value >= need]
        return self._best(keys)

    def _fold(self, parts: list[Keys]) -> list[Keys]:
        # past twice the width, the parts become the best width of them: a level of many
        # calls is held (and merged at its end) in a few widths, not in a part per call
        if sum(len(p) for p in parts) <= 2 * self.width:
            return parts
        return [self._best(np.unique(np.concatenate(parts)))]

    def _made(self, parts: list[Keys]) -> int:
        # the parts count with the copies their fold or the level's merge makes
        return MERGE_COPIES * sum(p.nbytes for p in parts)

    def _level(self, parts: list[Keys]) -> Keys:
        level = np.sort(self._best(np.unique(np.concatenate(parts)))) if parts else np.empty(0, np.uint64)
        self.seen.add_new(level)
        return level


def beam_by_moves(space: MoveSpace, starts: list[int], finish: int | None, bw: MoveLevels, budget: Budget,
                  enough: int, until: float | None = None) -> tuple[tuple[int, int, list[Jump], int] | None,
                                                                  Reason | None]:
    """(best, stop): the shortest solution the beams find, as (moves, start, jumps, the
    width of the beam that found it) or None, and what stopped them (a limit's Reason,
    INTERRUPTED for Ctrl-C; None when they ran out of widths, met ``enough`` or reached
    ``budget.deadline`` with a solution in hand while ``until`` is later).
    ``until``: a later deadline (time.monotonic() seconds) the beams run to while they
    have found nothing; with a solution, what is left after ``budget.deadline`` is the
    caller's (for searches that prove more).

    Beams of FIRST_WIDTH positions a level, then four times as many each run up to
    MOST_WIDTH, meet ``bw`` (the backward levels of a search by moves, kept) until
    ``budget`` stops them (nodes, deadline, memory) or a solution of ``enough`` moves (the
    proved lower bound) is found. ``finish``: the one finish (bitboard) a pagoda function
    prunes for, or None (several finishes: no pagoda pruning)."""
    pagodas = pagoda_tables(space.shape, finish) if finish is not None else []
    best: tuple[int, int, list[Jump], int] | None = None
    width, stop = FIRST_WIDTH, None
    while stop is None and width <= MOST_WIDTH and (best is None or best[0] > enough):
        found, stop = _one_beam(space, BeamLevels(space, starts, width, pagodas), bw, budget,
                                   best[0] if best else None)
        if found is not None and (best is None or found[0] < best[0]):
            best = (*found, width)
        if stop is Reason.TIME_LIMIT and until is not None and budget.deadline is not None \
                and budget.deadline < until:
            if best is not None:
                return best, None   # the rest of the time is the caller's
            budget.deadline, stop = until, None   # nothing found yet: this width again, with all the time
            continue
        width *= 4
    return best, stop


def pagoda_tables(shape: Shape, finish: int) -> list[tuple[np.ndarray, int]]:
    """(table, need) for each pagoda function of proofs.pagoda.pruning_set for ``finish``:
    table (8, 256) int64, the weights of the holes of each byte of a key, and need, the
    finish's value: a position worth less than need cannot reach the finish."""
    out = []
    for weights in pruning_set(shape, finish):
        table = np.zeros((8, 256), dtype=np.int64)
        for b in range(8):
            for v in range(256):
                table[b, v] = sum(weights[8 * b + i] for i in range(8) if v >> i & 1 and 8 * b + i < shape.size)
        out.append((table, sum(weights[h] for h in range(shape.size) if finish >> h & 1)))
    return out


def _one_beam(space: MoveSpace, beam: BeamLevels, bw: MoveLevels, budget: Budget,
              bound: int | None) -> tuple[tuple[int, int, list[Jump]] | None, Reason | None]:
    # (best solution, what stopped the beam: a limit, Ctrl-C or None): levels until the
    # beam dies out, or until no later level can beat its best meeting or ``bound``
    best: tuple[int, int, int] | None = None   # moves, forward depth, meeting key
    level, stop = beam.frontier, None
    while True:
        hits = level[bw.seen.contains(level)]
        if len(hits):
            depths = bw.depths_of(hits)
            k = int(np.argmin(np.where(depths >= 0, depths, np.iinfo(np.int64).max)))
            if depths[k] >= 0 and (best is None or beam.depth + int(depths[k]) < best[0]):
                best = (beam.depth + int(depths[k]), beam.depth, int(hits[k]))
        beat = [x for x in (bound, best[0] if best else None) if x is not None]
        if beam.done or beat and beam.depth + 1 >= min(beat):
            break
        try:
            level = beam.step(budget, bw.nbytes)
        except MovesStop as limit:
            stop = limit.reason
            break
        except KeyboardInterrupt:
            stop = Reason.INTERRUPTED
            break
    if best is None:
        return None, stop
    moves, i, key = best
    start, jumps = solution(space, beam, bw, key, i, [], key, moves - i)
    return (moves, start, jumps), stop
