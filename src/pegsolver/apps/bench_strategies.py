"""The strategy variants a bench compares: one table, name -> keyword arguments of
``solve()``, built from the engine's strategies and jump orders so that a new one shows up
without an edit here.
"""
from __future__ import annotations

from typing import TypedDict

from ..engine.compile import AUTO, ORDERS, STRATEGY_SPECS

BASELINE = "seed"        # every speed ratio is taken against this variant
BASE = "symmetry"        # the single search whose variants (orders, backward, ...) are measured
REFERENCE = "reference"  # the pure-Python backend, run on small problems only


class SolveOptions(TypedDict, total=False):
    """The keyword arguments of ``solve()`` that make a strategy variant."""

    strategy: str
    proofs: bool
    order: str
    backward: bool
    backend: str


def _strategy_table() -> dict[str, SolveOptions]:
    # Built from compile.STRATEGY_SPECS and ORDERS so that a new strategy or jump order
    # shows up in the benchmark without an edit here.
    table: dict[str, SolveOptions] = {name: {"strategy": name} for name in (AUTO, *STRATEGY_SPECS)}
    base = BASE
    table[f"{base}-no-proofs"] = {"strategy": base, "proofs": False}
    own_orders = {spec.order for spec in STRATEGY_SPECS.values()}  # already measured by a strategy
    for order in ORDERS:
        if order not in own_orders:
            table[f"{base}-{order}"] = {"strategy": base, "order": order}
    table[f"{base}-backward"] = {"strategy": base, "backward": True}
    table[REFERENCE] = {"strategy": base, "backend": "reference"}
    return table


# name -> keyword arguments of solve(), in the order the reports list them: the auto
# portfolio and every core strategy as solve() runs them (proofs on), then BASE without proofs,
# in each other static jump order, backward, and in the pure-Python reference backend.
BENCH_STRATEGIES: dict[str, SolveOptions] = _strategy_table()
