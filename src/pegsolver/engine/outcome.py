"""Outcomes: why a search, a portfolio or a whole-board analysis ended, as one type that
knows what each one proves. Every other module names outcomes through :class:`Reason`."""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .stopping import interrupt_name


class Reason(StrEnum):
    """Why an answer is what it is.

    A ``str``: it compares equal to its words (``Reason.NODE_LIMIT == "node limit"``) and
    prints and serialises as them, so JSON and older code reading ``sol.reason`` see
    the same strings as before.
    """

    SOLVED = "solved"
    POSITION_CLASS = "position class"  # proved impossible by de Bruijn's or Bell's classes
    PAGODA = "pagoda"                  # proved impossible by a pagoda function
    EXHAUSTED = "exhausted"            # proved impossible: every reachable position searched
    NODE_LIMIT = "node limit"
    TIME_LIMIT = "time limit"
    MEMORY_LIMIT = "memory limit"
    BEAM = "beam"                      # a beam that cut a level ran empty: nothing proved
    BOUNDED = "bounded"                # no solution within the moves searched: a lower bound proved
    INTERRUPTED = "interrupted"        # Ctrl-C
    CANCELLED = "cancelled"            # another thread set the limit's Cancel
    DISK_FULL = "disk full"            # an out-of-core run's spill directory filled up
    WORKERS_LOST = "workers lost"      # a run on a Dask cluster whose workers died or left

    @property
    def proves_impossible(self) -> bool:
        """True for the reasons that prove no solution exists."""
        return self in (Reason.POSITION_CLASS, Reason.PAGODA, Reason.EXHAUSTED)

    @property
    def settles(self) -> bool:
        """True when the answer is known: solved, or proved impossible."""
        return self is Reason.SOLVED or self.proves_impossible

    @property
    def is_limit(self) -> bool:
        """True for the stops at a node, time or memory limit."""
        return self in (Reason.NODE_LIMIT, Reason.TIME_LIMIT, Reason.MEMORY_LIMIT)

    @property
    def ends_run(self) -> bool:
        """True for the stops that end the caller's whole run, not just this search: Ctrl-C
        or SIGTERM (INTERRUPTED), and a cancel from another thread (CANCELLED)."""
        return self in (Reason.INTERRUPTED, Reason.CANCELLED)

    @property
    def cause(self) -> str:
        """What stopped a run, as a sentence's subject: "Ctrl-C" or "SIGTERM" (INTERRUPTED),
        "a cancel" (CANCELLED), else "the time limit" and the like."""
        if self is Reason.INTERRUPTED:
            return interrupt_name()
        return "a cancel" if self is Reason.CANCELLED else f"the {self}"

    @property
    def explanation(self) -> str:
        """The stop in words ("" for the proofs by class and pagoda, which explain themselves)."""
        if self is Reason.INTERRUPTED:
            return f"the search was stopped by {interrupt_name()}; nothing proved"
        return _EXPLANATIONS.get(self, "")


_EXPLANATIONS = {
    Reason.NODE_LIMIT: "the search stopped at its node limit; nothing proved",
    Reason.TIME_LIMIT: "the search stopped at its time limit; nothing proved",
    Reason.MEMORY_LIMIT: "the beam's levels outgrew the memory budget; nothing proved",
    Reason.BEAM: "the beam kept too few positions per level to reach the goal (a wider beam may); nothing proved",
    Reason.EXHAUSTED: "every position reachable from the start was searched: no solution",
    Reason.BOUNDED: "no solution has as few moves as were searched for; only that bound is proved",
    Reason.CANCELLED: "the search was cancelled by its caller; nothing proved",
}

# What each of the search core's stops means, by the names the core gives its stop codes
# (core.search_codes().stops); "none" is a search that ended by itself without a solution.
STOP_MEANINGS = {"none": Reason.EXHAUSTED, "nodes": Reason.NODE_LIMIT, "seconds": Reason.TIME_LIMIT,
                 "interrupt": Reason.INTERRUPTED, "memory": Reason.MEMORY_LIMIT, "beam": Reason.BEAM,
                 "cancel": Reason.CANCELLED}
CORE_STOPS = tuple(STOP_MEANINGS.values())  # every reason a search run can end with, unsolved


@dataclass(frozen=True)
class Stats:
    """Work done by one search. ``tests`` counts canMove checks (the seed's noOfTests), as
    each strategy makes them: ``seed``, as the article, checks the 4 directions of each hole
    holding a peg (fewer as pegs go); the others check every jump of the board at a node
    (a legal-jump set found at once counts as its jumps tested one by one), up to the jump
    that leads to a solution;
    ``nodes`` positions visited; ``dead_ends`` positions with no legal jump;
    ``table_hits`` positions answered by the table; ``table_entries`` dead positions
    held at the end (a stop while the table grew drops those not yet moved into the larger
    table, so two runs stopped there may differ); ``table_bytes`` table memory in bytes;
    ``seconds`` wall time of the search loop (for ``"auto"``, of its whole portfolio);
    ``symmetries`` the size of the symmetry group used (1 = none); ``pagoda_prunes``
    positions dropped because a pagoda function fell below the goal's; ``direction``
    ``"forward"``, or ``"backward"`` when the dual problem was searched;
    ``member`` the portfolio member that answered (strategy ``"auto"``, e.g. ``"guided
    backward"``; empty otherwise) and ``runs`` the searches made (every counter above sums
    them; the table counters are the answering run's)."""

    strategy: str
    backend: str
    symmetries: int
    tests: int
    nodes: int
    dead_ends: int
    table_hits: int
    table_entries: int
    table_bytes: int
    seconds: float
    pagoda_prunes: int = 0
    direction: str = "forward"
    member: str = ""
    runs: int = 1
