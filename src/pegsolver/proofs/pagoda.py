"""Pagoda functions: hole weights that no jump can raise the total of.

A jump from a over b into c changes a position's total by w(c) - w(a) - w(b); when
w(a) + w(b) >= w(c) for every jump, the total never rises, so a position whose total is
below the goal's can never reach the goal (E. R. Berlekamp, J. H. Conway, R. K. Guy,
Winning Ways for your Mathematical Plays, ch. 23, "Purging pegs properly"). Weights may
be negative (Beasley's "resource counts").

The functions are found per board and goal by linear programs (HiGHS, through its own
Python interface highspy: J. A. J. Hall et al., ergo-code.github.io/HiGHS), turned into
exact integers and checked against every jump of the board before use.
"""
from __future__ import annotations

import math
import os
import threading
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..model.geometry import Shape

if TYPE_CHECKING:
    import highspy
    import numpy.typing as npt

_DENOMINATOR = 1000

Bound = tuple[float | None, float | None]  # (lower, upper) of one weight; None: unbounded

# One HiGHS object is not safe to share between threads (two solves at once crashed the
# process): solves in threads of one process take turns; each takes milliseconds.
_LP_LOCK = threading.Lock()


def is_pagoda(shape: Shape, weights: Sequence[int]) -> bool:
    """True when no jump of the board raises the total: w(from) + w(over) >= w(to)."""
    return all(weights[j.from_hole] + weights[j.over] >= weights[j.to_hole] for j in shape.jumps)


def value(weights: Sequence[int], mask: int) -> int:
    """Total of the weights over the pegs of a bitboard."""
    return sum(w for h, w in enumerate(weights) if mask >> h & 1)


def _jump_rows(shape: Shape) -> npt.NDArray[np.float64]:
    rows = np.zeros((len(shape.jumps), shape.size))
    for k, j in enumerate(shape.jumps):  # w(to) - w(from) - w(over) <= 0
        rows[k, j.from_hole] -= 1
        rows[k, j.over] -= 1
        rows[k, j.to_hole] += 1
    return rows


@lru_cache(maxsize=1)
def _highs() -> highspy.Highs:
    """One HiGHS solver for the process, made silent. highspy prints its banner to file
    descriptor 1 when a solver is made, before any option can be set (ERGO-Code/HiGHS#1702),
    which would corrupt ``--json`` output: fd 1 points at /dev/null for that moment only."""
    import highspy  # imported on first use: an optional cost at start-up

    out, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        h = highspy.Highs()  # type: ignore[no-untyped-call]  # highspy leaves Highs.__init__ unannotated
    finally:
        os.dup2(out, 1)
        os.close(out)
        os.close(null)
    h.setOptionValue("output_flag", False)
    return h


def _solve_lp(shape: Shape, cost: Sequence[float], bounds: Sequence[Bound],
              a_eq: Sequence[Sequence[int]] | None = None, b_eq: Sequence[int] | None = None) -> list[int] | None:
    """Integer pagoda minimising ``cost`` subject to every jump's row ``w(to) - w(from) -
    w(over) <= 0``, the bounds and ``a_eq @ w == b_eq`` (None when the LP fails or rounding
    breaks the pagoda property)."""
    import highspy

    rows = _jump_rows(shape)
    a = rows if a_eq is None else np.vstack([rows, np.asarray(a_eq, dtype=float)])
    inf = highspy.kHighsInf
    lower = np.full(len(a), -inf)
    upper = np.zeros(len(a))
    if a_eq is not None:
        lower[len(rows):] = upper[len(rows):] = b_eq
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = shape.size, len(a)
    lp.col_cost_ = np.asarray(cost, dtype=float)
    lp.col_lower_ = np.array([-inf if lo is None else lo for lo, _ in bounds], dtype=float)
    lp.col_upper_ = np.array([inf if hi is None else hi for _, hi in bounds], dtype=float)
    lp.row_lower_, lp.row_upper_ = lower, upper
    cols, rws = a.T.nonzero()  # column by column: the compressed-column layout
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.concatenate([[0], np.cumsum(np.bincount(cols, minlength=shape.size))])
    lp.a_matrix_.index_ = rws
    lp.a_matrix_.value_ = a.T[cols, rws]
    with _LP_LOCK:
        h = _highs()
        h.clearModel()
        h.passModel(lp)
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        solution = list(h.getSolution().col_value)
    fracs = [Fraction(x).limit_denominator(_DENOMINATOR) for x in solution]
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
