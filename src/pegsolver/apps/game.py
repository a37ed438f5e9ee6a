"""A game of peg solitaire played by clicking holes: the position, undo and redo, the peg
selected, the finish that hints aim for, and what each click does, in words.

A jump is chosen by clicking the peg, then its landing hole; clicking the peg, the peg
it jumps and the landing hole in turn (as in the seed article's C game) works too.
Nothing here draws: :mod:`pegsolver.apps.play` shows a :class:`Game` in the terminal.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import GoalError
from ..model.board import Board
from ..model.geometry import Hole, Jump, Shape
from ..model.goal import Goal, plural
from ..model.notation import group_moves, hole_name, jump_name, move_name


@dataclass
class Game:
    """A game played by clicking holes.

    :param start: the position a new game starts from (its history is ignored).
    :param goal: the finish hints aim for (resolved against the board).
    :param style: hole names in messages: ``"algebraic"`` or ``"numeric"``.
    :raises PegsolverError: a goal that does not fit the board, or a fewest-pegs goal (a
        question for ``solve``: a game needs a finish to recognise).

    ``mode`` is ``"play"``, ``"vacancy"`` (the next click restarts with only that hole
    empty) or ``"finish"`` (the next click chooses the finish).
    """

    start: Board
    goal: Goal
    style: str = "algebraic"
    board: Board = field(init=False)
    redo_stack: list[Jump] = field(init=False, default_factory=list)
    selected: Hole | None = field(init=False, default=None)
    over: Hole | None = field(init=False, default=None)
    mode: str = field(init=False, default="play")
    chained: bool = field(init=False, default=False)  # selected by its own last jump, not by a click

    def __post_init__(self) -> None:
        self.goal = self.goal.resolve(self.start.shape)
        if self.goal.fewest_pegs:
            raise GoalError("a game needs a finish to recognise: a fewest-pegs goal is a question for solve")
        self.start = self.start.with_pegs(self.start.pegs_mask)
        self.board = self.start.with_pegs(self.start.pegs_mask)

    # ---- reading the position ------------------------------------------------
    @property
    def shape(self) -> Shape:
        return self.board.shape

    def name(self, hole: Hole) -> str:
        return hole_name(self.shape, hole, self.style)

    def jump_text(self, jump: Jump) -> str:
        return jump_name(self.shape, jump, self.style)

    @property
    def jumps(self) -> int:
        """Jumps played so far."""
        return len(self.board.history)

    @property
    def moves(self) -> int:
        """Moves played so far (consecutive jumps by the same peg count as one)."""
        return len(group_moves(self.board.history))

    def move_list(self) -> list[str]:
        """The moves played, in notation (``a4-c4-c2``)."""
        return [move_name(self.shape, m, self.style) for m in group_moves(self.board.history)]

    def legal_from(self, hole: Hole) -> list[Jump]:
        """Legal jumps of the peg on ``hole`` (none if the hole is empty)."""
        return [j for j in self.board.legal_jumps() if j.from_hole == hole]

    def targets(self) -> set[Hole]:
        """Landing holes of the selected peg's legal jumps (through the chosen jumped peg, if any)."""
        if self.selected is None:
            return set()
        return {j.to_hole for j in self.legal_from(self.selected) if self.over in (None, j.over)}

    def finish_text(self) -> str:
        """The finish in words: ``one peg at d4``, ``one peg anywhere``."""
        count = "one peg" if self.goal.pegs == 1 else plural(self.goal.pegs, "peg")
        if self.goal.finish is None:
            return f"{count} anywhere"
        return f"{count} at {' '.join(self.name(h) for h in self.goal.finish_holes())}"

    def end(self) -> str | None:
        """None while the finish is not reached and a jump is left; else how the game ended,
        in words (a finish of several pegs can be reached with jumps left)."""
        played = f"{plural(self.jumps, 'jump')} in {plural(self.moves, 'move')}"
        if self.goal.reached(self.board.pegs_mask):
            return f"Solved! {self.finish_text()} reached: {played}."
        if self.board.legal_jumps():
            return None
        pegs = self.board.peg_count
        if pegs == 1:
            return (f"Won: one peg left, on {self.name(self.board.pegs()[0])} ({played}); "
                    f"the finish asked for was {self.finish_text()}.")
        if not self.jumps:  # nothing to undo, and n would bring back the same start
            return (f"No jump from this start: {plural(pegs, 'peg')} and no peg can jump. "
                    "Press v and click a hole to start with only that hole vacant, or q to quit.")
        return f"Dead end: no jump left, {plural(pegs, 'peg')} remain ({played}). Press u to undo or n for a new game."

    # ---- changing it -----------------------------------------------------------
    def clear_selection(self) -> None:
        self.selected = self.over = None
        self.chained = False

    def play(self, jump: Jump) -> str:
        """Play a jump; the landing peg stays selected while it can jump on (a move goes on).

        :raises IllegalJumpError: the jump is not legal now (the message says why).
        """
        self.board.push(jump)
        if self.redo_stack and self.redo_stack[-1] == jump:
            self.redo_stack.pop()  # the jump undone last, played again: keep the rest to redo
        else:
            self.redo_stack.clear()
        self.clear_selection()
        return self._after(jump, f"{self.jump_text(jump)}: jump {self.jumps}, move {self.moves}.", "")

    def _after(self, jump: Jump, text: str, before_end: str) -> str:
        # a jump played or redone: the game's end (after before_end), or the landing peg
        # selected while it can go on
        end = self.end()
        if end:
            return before_end + end
        if self.legal_from(jump.to_hole):
            self.selected, self.chained = jump.to_hole, True
            text += f" {self.name(jump.to_hole)} can jump on: " + self._choices(jump.to_hole)
        return text

    def undo(self) -> str:
        self.clear_selection()
        if not self.board.history:
            return "Nothing to undo."
        jump = self.board.pop()
        self.redo_stack.append(jump)
        return f"Undid {self.jump_text(jump)}."

    def redo(self) -> str:
        self.clear_selection()
        if not self.redo_stack:
            return "Nothing to redo."
        jump = self.redo_stack.pop()
        self.board.push(jump)
        text = f"Redid {self.jump_text(jump)}."
        return self._after(jump, text, text + " ")

    def new_game(self) -> str:
        """Back to the start the game was opened with."""
        self.board = self.start.with_pegs(self.start.pegs_mask)
        self.redo_stack.clear()
        self.clear_selection()
        self.mode = "play"
        return "New game."

    def restart(self, vacancy: Hole) -> str:
        """A new game with every hole filled but ``vacancy``."""
        self.start = self.start.with_pegs(self.shape.full_mask & ~(1 << vacancy))
        self.new_game()
        text = f"New game with {self.name(vacancy)} vacant; finish: {self.finish_text()}."
        end = self.end()
        return text + (f" {end}" if end else "")

    def set_finish(self, hole: Hole | None) -> str:
        """Aim hints at one peg on ``hole`` (None: one peg anywhere)."""
        self.goal = (Goal.at(hole) if hole is not None else Goal.anywhere()).resolve(self.shape)
        self.mode = "play"
        return f"Finish: {self.finish_text()}."

    def _choices(self, hole: Hole) -> str:
        return "jump to " + " or ".join(sorted(self.name(j.to_hole) for j in self.legal_from(hole))) + "."

    def _why_not(self, hole: Hole) -> str:
        reasons = [f"{self.jump_text(j)}: {self.board.why_illegal(j)}" for j in self.shape.jumps
                   if j.from_hole == hole]
        return f"The peg on {self.name(hole)} has no jump" + (f" ({'; '.join(reasons)})." if reasons else ".")

    def click(self, hole: Hole) -> str:
        """What a click on ``hole`` does, done; returns a message saying it (or why not).

        :raises UnknownHoleError: not a hole index of the board.
        """
        hole = self.board.hole_index(hole)  # checked; numpy integers too
        if self.mode == "vacancy":
            self.mode = "play"
            return self.restart(hole)
        if self.mode == "finish":
            return self.set_finish(hole)
        has_peg = bool(self.board.pegs_mask >> hole & 1)
        if self.selected is None:
            end = self.end()
            if end:
                return end
            if not has_peg:
                return f"{self.name(hole)} is empty: choose a peg to move."
            if not self.legal_from(hole):
                return self._why_not(hole)
            self.selected = hole
            return f"{self.name(hole)} selected: " + self._choices(hole)
        src = self.selected
        if hole == src:
            if self.chained:  # clicking the peg that just landed, to move it on: keep it
                self.chained, self.over = False, None
                return f"{self.name(hole)} selected: " + self._choices(hole)
            self.clear_selection()
            return f"{self.name(hole)} put back."
        if hole in self.targets():
            jump = next(j for j in self.legal_from(src) if j.to_hole == hole and self.over in (None, j.over))
            return self.play(jump)
        if has_peg and hole != self.over and not self.chained:
            through = [j for j in self.legal_from(src) if j.over == hole]
            if through:  # the second click of peg, jumped peg, landing hole (not after a jump: a new peg)
                self.over = hole
                return f"{self.name(src)} jumps {self.name(hole)}: now click {self.name(through[0].to_hole)}."
        if has_peg and self.legal_from(hole):
            self.selected, self.over, self.chained = hole, None, False
            return f"{self.name(hole)} selected: " + self._choices(hole)
        if hole == self.over:  # the jumped peg clicked again, and it cannot move itself
            self.over = None
            return f"{self.name(src)} selected: " + self._choices(src)
        if has_peg:
            illegal = [j for j in self.shape.jumps
                       if j.from_hole == src and j.over == hole and self.board.why_illegal(j)]
            if illegal:
                return f"Illegal: {self.jump_text(illegal[0])}: {self.board.why_illegal(illegal[0])}."
            return self._why_not(hole)
        try:
            jump = next(j for j in self.shape.jumps if j.from_hole == src and j.to_hole == hole)
        except StopIteration:
            return (f"Illegal: no jump from {self.name(src)} to {self.name(hole)} (a jump goes over one "
                    f"neighbouring peg into the hole just beyond it).")
        if self.over is not None and jump.over != self.over:
            return f"Illegal: {self.name(src)} jumping {self.name(self.over)} lands on " + \
                " or ".join(self.name(t) for t in sorted(self.targets())) + "."
        return f"Illegal: {self.jump_text(jump)}: {self.board.why_illegal(jump)}."
