"""Pagoda functions: hole weights that no jump can raise the total of.

A jump from a over b into c changes a position's total by w(c) - w(a) - w(b); when
w(a) + w(b) >= w(c) for every jump, the total never rises, so a position whose total is
below the goal's can never reach the goal (E. R. Berlekamp, J. H. Conway, R. K. Guy,
Winning Ways for your Mathematical Plays, ch. 23, "Purging pegs properly"). Weights may
be negative (Beasley's "resource counts").

The functions are found per board and goal by linear programs (scipy's HiGHS), turned
into exact integers and checked against every jump of the board before use.
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..model.geometry import Shape

_DENOMINATOR = 1000


def is_pagoda(shape: Shape, weights) -> bool:
    """True when no jump of the board raises the total: w(from) + w(over) >= w(to)."""
    return all(weights[j.from_hole] + weights[j.over] >= weights[j.to_hole] for j in shape.jumps)


def value(weights, mask: int) -> int:
    """Total of the weights over the pegs of a bitboard."""
    return sum(w for h, w in enumerate(weights) if mask >> h & 1)


def _jump_rows(shape: Shape) -> np.ndarray:
    rows = np.zeros((len(shape.jumps), shape.size))
    for k, j in enumerate(shape.jumps):  # w(to) - w(from) - w(over) <= 0
        rows[k, j.from_hole] -= 1
        rows[k, j.over] -= 1
        rows[k, j.to_hole] += 1
    return rows


def _solve_lp(shape: Shape, cost, bounds, a_eq=None, b_eq=None) -> list[int] | None:
    """Integer pagoda minimising ``cost`` (None when the LP fails or rounding breaks it)."""
    from scipy.optimize import linprog  # imported on first use: an optional cost at start-up

    rows = _jump_rows(shape)
    res = linprog(cost, A_ub=rows, b_ub=np.zeros(len(rows)), A_eq=a_eq, b_eq=b_eq, bounds=bounds,
                  method="highs")
    if res.status != 0:
        return None
    fracs = [Fraction(x).limit_denominator(_DENOMINATOR) for x in res.x]
    scale = math.lcm(*(f.denominator for f in fracs))
    weights = [int(f * scale) for f in fracs]
    return weights if is_pagoda(shape, weights) else None


@lru_cache(maxsize=4096)
def certificate(shape: Shape, start_mask: int, finish_mask: int) -> tuple[int, ...] | None:
    """A pagoda whose value on the start is below its value on the finish, proving that the
    start can never reach the finish; None if the LP finds none (nothing is proved then)."""
    cost = [(start_mask >> h & 1) - (finish_mask >> h & 1) for h in range(shape.size)]
    weights = _solve_lp(shape, cost, [(-1, 1)] * shape.size)
    if weights is None or value(weights, start_mask) >= value(weights, finish_mask):
        return None
    return tuple(weights)


@lru_cache(maxsize=1024)
def pruning_set(shape: Shape, finish_mask: int, sectors: int = 6) -> tuple[tuple[int, ...], ...]:
    """Pagodas to prune a search for ``finish_mask``: for each angular sector around the
    board's centre, a non-negative pagoda worth 1 on the finish and as little as possible
    in that sector, so positions whose pegs crowd into it fall below the finish's value."""
    n = shape.size
    rs = [r for r, _ in shape.coords]
    cs = [c for _, c in shape.coords]
    cy, cx = sum(rs) / n, sum(cs) / n
    sector = [int((math.atan2(r - cy, c - cx) + math.pi) / (2 * math.pi) * sectors) % sectors
              for r, c in shape.coords]
    finish = [finish_mask >> h & 1 for h in range(n)]
    found: list[tuple[int, ...]] = []
    for s in range(sectors):
        cost = [(1.0 if sector[h] == s else 0.0) + 0.01 for h in range(n)]
        weights = _solve_lp(shape, cost, [(0, None)] * n, a_eq=[finish], b_eq=[1])
        if weights and any(weights) and tuple(weights) not in found:
            found.append(tuple(weights))
    return tuple(found)
