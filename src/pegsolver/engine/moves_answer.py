"""What a search by moves proved (:class:`MovesAnswer`), shared by the levels by moves
(engine.fewest_moves), the beams by moves (engine.core_moves) and the searches in pieces
(engine.move_pieces)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import PegsolverError
from ..model.board import Board
from ..model.geometry import Jump, Shape
from ..model.notation import check_style, group_moves, hole_name, jump_name, move_name
from .outcome import Reason
from .solution import replay


@dataclass
class MovesAnswer:
    """What a search by moves proved.

    ``jumps``: a solution with ``lower_bound`` moves when ``optimal``; otherwise the best
    solution the beams found after a limit (see :func:`fewest_moves`), or empty;
    ``lower_bound``: every solution has at least this many moves (after EXHAUSTED, the
    moves searched when a side ran out: true of no solution, so it bounds nothing); ``reason``: SOLVED,
    EXHAUSTED (no solution at all: a side ran out of positions), BOUNDED (none of at most
    ``at_most`` moves, for a search told so) or the limit that stopped it; ``forward`` and
    ``backward``: the sizes of the levels made and checked against the other side (after a
    stop, a level made but not yet checked proved nothing and is left out); ``expanded`` positions expanded and
    ``chains`` chains of jumps followed, both sides together; ``pruned``: children the
    Merson regions' bound dropped (with repeats; pruned searches only); ``beams``: the
    beams by moves that ran to their end, as (positions a level, moves of the solution
    found or None), in order (searches by beams only); ``pieces``: a search in pieces'
    finish holes and answers (engine.move_pieces)."""

    reason: Reason
    lower_bound: int
    jumps: list[Jump] = field(default_factory=list)
    forward: list[int] = field(default_factory=list)
    backward: list[int] = field(default_factory=list)
    expanded: int = 0
    chains: int = 0
    symmetries: int = 1
    seconds: float = 0.0
    start: int = 0   # the start the solution leaves from, a bitboard (one of several starts)
    positions: int = 0   # positions seen, both sides
    nbytes: int = 0      # bytes the levels and seen sets held at the end
    beam_width: int = 0  # positions a level of the beam that found ``jumps`` kept (0: no beam found them)
    regions_bound: int = 0   # the Merson regions' bound (proofs.merson.region_bound), when a limit stopped the proof
    pruned_to: int = 0   # the most moves a search pruned by the regions looked for, when one settled the answer
    # (at_most, or after the beams the last pass of the deepening)
    pruned_from: int = 0   # after the beams: the most moves the first pass of the deepening looked for
    deepened: int = 0    # after the beams: the bound the deepening's passes proved (0: none finished)
    pruned: int = 0
    beam_stop: Reason | None = None   # the limit that stopped the beams after the proof's, if one did
    beams: list[tuple[int, int | None]] = field(default_factory=list)
    checked: tuple[int, int] | None = None   # after a stop: the depths of the levels checked against each other
    # searches in pieces (engine.move_pieces): each piece's finish hole and answer
    pieces: list[tuple[int, MovesAnswer]] = field(default_factory=list)

    @property
    def optimal(self) -> bool:
        return self.reason is Reason.SOLVED

    @property
    def upper_bound(self) -> int | None:
        """The moves of ``jumps`` (None when there is no solution in hand; 0 when the start
        is a finish already)."""
        return len(group_moves(self.jumps)) if self.jumps or self.optimal else None

    def to_json(self, shape: Shape, style: str = "algebraic") -> dict[str, Any]:
        """JSON-ready data, holes named on ``shape`` (the board searched) in ``style``: reason,
        optimal, lower_bound (both None after EXHAUSTED: no solution exists), upper_bound, the
        solution's vacant holes at the start and pegs at the end (``final``), its jumps and
        moves, the level sizes of both sides and the work counters.

        :raises PegsolverError: ``shape`` not a Shape or not the one searched, or an unknown ``style``."""
        if not isinstance(shape, Shape):
            raise PegsolverError(f"to_json needs the Shape searched, to name its holes, not {shape!r}")
        check_style(style)
        none = self.reason is Reason.EXHAUSTED   # no solution at all: as solve's JSON says an impossible goal
        have = self.upper_bound is not None   # a solution in hand (of no jumps: the start is a finish)
        try:
            final = replay(Board(shape, self.start), self.jumps) if have else 0
        except PegsolverError as e:   # a trial passed another board's shape and read of an illegal jump
            raise PegsolverError(f"this answer's solution does not play on board {shape.name!r}: to_json needs "
                                 f"the Shape that was searched ({e})") from None
        return {"reason": self.reason, "optimal": None if none else self.optimal,
                "lower_bound": None if none else self.lower_bound, "upper_bound": self.upper_bound,
                "vacant": [hole_name(shape, h, style) for h in range(shape.size)
                           if have and not self.start >> h & 1],
                "final": [hole_name(shape, h, style) for h in range(shape.size) if final >> h & 1]
                if have else None,
                "jumps": [jump_name(shape, j, style) for j in self.jumps],
                "moves": [move_name(shape, m, style) for m in group_moves(self.jumps)],
                "forward": self.forward, "backward": self.backward, "expanded": self.expanded,
                "chains": self.chains, "positions": self.positions, "bytes": self.nbytes,
                "seconds": self.seconds, "beam_width": self.beam_width, "beams": self.beams,
                "pieces": [{"finish": hole_name(shape, f, style), "reason": a.reason, "lower_bound": a.lower_bound,
                            "upper_bound": a.upper_bound, "expanded": a.expanded, "seconds": a.seconds}
                           for f, a in self.pieces]}
