"""The smoke pass of the whole-board benches.

Under ``--benchmark-disable`` (the test run) a bench that times an English enumeration runs
once on triangle 5 from its corner instead: the same code in a tenth of a second, checked
against G. I. Bell's 29,760 solutions from a corner ("Solving Triangular Peg Solitaire",
J. Integer Sequences 11, 2008). The English figures are tests of their own
(tests/test_analysis.py, tests/test_out_of_core.py); timed runs use the English board.
"""
from __future__ import annotations

from typing import Any

BOARD = "triangle5"            # its own start: one corner vacant
SOLUTIONS = 29_760             # to every finish from that corner


def board_name(benchmark: Any, timed: str = "english") -> str:
    """The board a bench enumerates: ``timed`` when benchmarks run, else the smoke board."""
    return BOARD if benchmark.disabled else timed
