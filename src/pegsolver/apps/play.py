"""Play peg solitaire by hand in the terminal (``pegsolver play english``), with hints.

Three layers, so each can be tested alone:

* :class:`Game`: the state of a game played by clicks (the board, undo and redo, the
  peg selected, the finish that hints aim for) and what each click does, in words;
* :func:`find_hint`: the solver's next jump from a position toward a finish, or the
  verdict that there is none (with the reason when a proof shows it);
* :class:`PlayApp`: the Textual app that draws the board and runs hints in a worker
  thread, so the board stays playable while the solver works.

A jump is chosen by clicking the peg, then its landing hole; clicking the peg, the peg
it jumps and the landing hole in turn (as in the seed article's C game) works too.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Static
from textual.worker import Worker, WorkerState, get_current_worker

from ..engine.outcome import Reason
from ..engine.search import impossibility
from ..errors import CoreMissingError, PegsolverError
from ..model.board import Board
from ..model.geometry import SQUARE, Hole, Jump
from ..model.goal import Goal, plural
from ..model.notation import column_letters, group_moves, hole_name, jump_name, move_name
from ..solver import Limit, solve

DEFAULT_HINT_SECONDS = 10.0
# The hint's searches, tried in turn: guided depth-first search solves most positions of
# the named boards in well under a second and proves small dead ends; the beam reaches
# what it misses (diamond 41, English with diagonal jumps); a last guided search spends
# the time left on a proof.
HINT_STEPS = (("guided", 0.15), ("beam", 1.0), ("guided", 1.0))  # strategy, share of the time left
# A hint's own outcomes besides solve()'s Reason: the position has no jump, or the hint was dropped.
NO_JUMP = "no jump"
CANCELLED = "cancelled"


@dataclass
class Hint:
    """The answer of :func:`find_hint`.

    ``jump`` is the next jump of a solution (None when none was found); ``path`` the whole
    solution from the position; ``reason`` is solve()'s :class:`Reason`, or ``NO_JUMP``
    (the position has no legal jump) or ``CANCELLED``; ``explanation`` the proof in
    words when there is one; ``strategy`` the search that settled it; ``seconds`` wall time.
    """

    pegs_mask: int
    goal: Goal
    jump: Jump | None
    path: list[Jump]
    reason: Reason | str
    explanation: str = ""
    strategy: str = ""
    seconds: float = 0.0

    @property
    def proved(self) -> bool:
        """True when the verdict "no finish from here" is proved, not just not found."""
        return self.reason == NO_JUMP or (isinstance(self.reason, Reason) and self.reason.proves_impossible)


def find_hint(board: Board, goal: Goal, seconds: float = DEFAULT_HINT_SECONDS,
              cancelled: Callable[[], bool] = lambda: False) -> Hint:
    """The next jump toward ``goal`` from ``board``'s position, found by the solver.

    Tries position classes and pagoda functions first (an instant proof when they rule
    the finish out), then the searches of ``HINT_STEPS`` within ``seconds`` in all.

    :param board: the position (its history is ignored).
    :param goal: the finish to aim for (resolved against the board).
    :param seconds: wall-clock budget of the whole hint, > 0.
    :param cancelled: polled between searches; True stops with reason ``CANCELLED``.
    :raises PegsolverError: a goal that cannot apply to the board, or a bad time limit.
    :raises CoreMissingError: the compiled core is not built.
    """
    t0 = time.perf_counter()
    position = board.with_pegs(board.pegs_mask)
    goal = goal.resolve(board.shape)
    goal.check(board.shape, board.pegs_mask)
    Limit(seconds=seconds)  # checks the budget

    def answer(reason: Reason | str, jumps=(), explanation: str = "", strategy: str = "") -> Hint:
        jumps = list(jumps)
        return Hint(board.pegs_mask, goal, jumps[0] if jumps else None, jumps, reason, explanation,
                    strategy, time.perf_counter() - t0)

    if goal.reached(board.pegs_mask):
        return answer(Reason.SOLVED, strategy="none")
    if not position.legal_jumps():
        return answer(NO_JUMP, explanation="no jump is left")
    proof = impossibility(position, goal)
    if proof:
        return answer(proof[0], explanation=proof[1], strategy="proof")
    reason = Reason.TIME_LIMIT
    for strategy, share in HINT_STEPS:
        left = seconds - (time.perf_counter() - t0)
        if cancelled():
            return answer(CANCELLED)
        if left <= 0.01:
            break
        sol = solve(position, goal, strategy=strategy, limit=Limit(seconds=max(left * share, 0.01)), proofs=False)
        if sol.reason.settles:
            return answer(sol.reason, sol.jumps, strategy=strategy,
                          explanation="every position reachable from here was searched" if not sol.solved else "")
        reason = sol.reason if sol.reason is not Reason.BEAM else reason
    return answer(reason)


def finish_words(goal: Goal, style: str, shape) -> str:
    """``single-peg finish``, ``single-peg finish at d4`` or ``finish with 2 pegs at ...``."""
    if goal.pegs == 1:
        if goal.finish is None:
            return "single-peg finish"
        return f"single-peg finish at {hole_name(shape, next(iter(goal.finish)), style)}"
    if goal.finish is None:
        return f"finish with {plural(goal.pegs, 'peg')}"
    return f"finish with pegs at {' '.join(hole_name(shape, h, style) for h in sorted(goal.finish))}"


@dataclass
class Game:
    """A game played by clicking holes.

    :param start: the position a new game starts from (its history is ignored).
    :param goal: the finish hints aim for (resolved against the board).
    :param style: hole names in messages: ``"algebraic"`` or ``"numeric"``.
    :raises PegsolverError: a goal that does not fit the board.

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

    def __post_init__(self):
        self.goal = self.goal.resolve(self.start.shape)
        self.start = self.start.with_pegs(self.start.pegs_mask)
        self.board = self.start.with_pegs(self.start.pegs_mask)

    # ---- reading the position ------------------------------------------------
    @property
    def shape(self):
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
        return f"{count} at {' '.join(self.name(h) for h in sorted(self.goal.finish))}"

    def end(self) -> str | None:
        """None while a jump is left; else how the game ended, in words."""
        if self.board.legal_jumps():
            return None
        pegs = self.board.peg_count
        played = f"{plural(self.jumps, 'jump')} in {plural(self.moves, 'move')}"
        if self.goal.reached(self.board.pegs_mask):
            return f"Solved! {self.finish_text()} reached: {played}."
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
        text = f"{self.jump_text(jump)}: jump {self.jumps}, move {self.moves}."
        end = self.end()
        if end:
            return end
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
        return f"Redid {self.jump_text(jump)}." + (" " + self.end() if self.end() else "")

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
        return text + (" " + self.end() if self.end() else "")

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
        self.board.hole_name(hole)  # checks the index
        if self.mode == "vacancy":
            self.mode = "play"
            return self.restart(hole)
        if self.mode == "finish":
            return self.set_finish(hole)
        has_peg = bool(self.board.pegs_mask >> hole & 1)
        if self.selected is None:
            if self.end():
                return self.end()
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


class HoleCell(Static, can_focus=True):
    """One hole of the board on screen: ``●`` a peg, ``○`` empty."""

    BINDINGS = [
        Binding("enter,space", "choose", "choose", show=False),
        # Here, not on the app: the scrolling board area would take the arrows first.
        Binding("up", "step(-1, 0)", show=False),
        Binding("down", "step(1, 0)", show=False),
        Binding("left", "step(0, -1)", show=False),
        Binding("right", "step(0, 1)", show=False),
    ]

    def __init__(self, hole: Hole, tooltip: str):
        super().__init__("", id=f"hole-{hole}", classes="hole")
        self.hole = hole
        self.tooltip = tooltip

    def on_click(self) -> None:
        self.app.choose(self.hole)

    def action_choose(self) -> None:
        self.app.choose(self.hole)

    def action_step(self, dr: int, dc: int) -> None:
        self.app.step_focus(self.hole, dr, dc)


class PlayApp(App):
    """The board in the terminal: click or select with arrows and Enter; keys in the footer.

    :param board: the start position.
    :param goal: the finish hints aim for.
    :param style: hole names: ``"algebraic"`` or ``"numeric"``.
    :param hint_seconds: the time limit of one hint, > 0.
    """

    TITLE = "pegsolver play"
    CSS = """
    #board-area { width: auto; min-width: 30; height: 1fr; padding: 1 2; }
    .board-row { height: 1; width: auto; margin-bottom: 1; }
    .board-row.tight { margin-bottom: 0; }
    .number-row { height: 1; width: auto; }
    .label { color: $text-muted; height: 1; width: auto; }
    HoleCell { width: 3; height: 1; content-align: center middle; }
    HoleCell.peg { color: $text; text-style: bold; }
    HoleCell.empty { color: $text-muted; }
    HoleCell:focus { background: $primary 50%; }
    HoleCell.target { background: $success 50%; }
    HoleCell.over { background: $warning 30%; }
    HoleCell.hint-from, HoleCell.hint-to { background: $warning 70%; }
    HoleCell.selected { background: $accent; }
    #side { width: 1fr; padding: 1 2; }
    #counts, #finish, #mode { height: auto; margin-bottom: 1; }
    #moves { height: 1fr; color: $text-muted; }
    #message { height: auto; min-height: 2; padding: 0 2; background: $boost; }
    """
    BINDINGS = [
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("h", "hint", "Hint"),
        Binding("n", "new_game", "New game"),
        Binding("v", "choose_vacancy", "Vacancy"),
        Binding("f", "choose_finish", "Finish"),
        Binding("a", "finish_anywhere", "Anywhere", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("q", "quit", "Quit"),
    ]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, board: Board, goal: Goal, style: str = "algebraic",
                 hint_seconds: float = DEFAULT_HINT_SECONDS):
        super().__init__()
        Limit(seconds=hint_seconds)  # checks it
        self.game = Game(board, goal, style)
        self.hint_seconds = hint_seconds
        self.hint: Hint | None = None        # the last hint shown, for the position it was found in
        self.plan: dict[int, Jump] = {}      # position -> next jump of the last solution found
        self.plan_goal: Goal | None = None   # the finish that plan leads to
        self.thinking: tuple[int, Goal] | None = None
        self.message = ""

    # ---- layout ------------------------------------------------------------
    def compose(self) -> ComposeResult:
        shape = self.game.shape
        yield Header()
        with Horizontal():
            with VerticalScroll(id="board-area"):
                yield from self._board_rows(shape)
            with Vertical(id="side"):
                yield Static(id="counts")
                yield Static(id="finish")
                yield Static(id="mode")
                yield Static(id="moves")
        yield Static(id="message")
        yield Footer()

    def _board_rows(self, shape):
        # Holes sit on a grid of half steps so triangles draw as triangles: a square-grid
        # hole (r, c) at 2c, a triangle hole at 2c - r (skew coordinates on the plane).
        square = shape.grid == SQUARE
        half = {h: 2 * c - (0 if square else r) for h, (r, c) in enumerate(shape.coords)}
        left = min(half.values())
        rows: dict[int, list[Hole]] = {}
        for h, (r, _) in enumerate(shape.coords):
            rows.setdefault(r, []).append(h)
        if square:
            cols = sorted({c for _, c in shape.coords})
            letters = Static(self._column_labels(shape, cols), classes="label")
            yield Horizontal(letters, classes="board-row")
        for r in sorted(rows):
            cells: list[Static] = []
            if square:
                cells.append(Static(f"{self._row_label(shape, r):>3} ", classes="label"))
            at = 0  # character position along the row
            for h in sorted(rows[r], key=half.get):
                x = 2 * (half[h] - left)
                cell = HoleCell(h, f"hole {self.game.name(h)}")
                cell.styles.margin = (0, 0, 0, x - at)  # the gap before the hole, in characters
                cells.append(cell)
                at = x + 3
            if square:
                yield Horizontal(*cells, classes="board-row")
            else:
                # Triangles have no row and column labels: each hole's number goes under it,
                # in the blank line between rows, as the hints name holes by number.
                numbers = [" "] * at
                for h in rows[r]:
                    x = 2 * (half[h] - left)
                    numbers[x:x + 3] = f"{self.game.name(h):^3}"
                yield Horizontal(*cells, classes="board-row tight")
                yield Horizontal(Static("".join(numbers).rstrip(), classes="label hole-numbers"), classes="number-row")

    def _row_label(self, shape, r: int) -> str:
        return str(r + 1)  # the row number, whatever the notation

    def _column_labels(self, shape, cols: list[int]) -> str:
        text = "    "
        present = set(cols)
        for c in range(max(cols) + 1):
            label = "" if c not in present else column_letters(c) if self.game.style == "algebraic" else str(c + 1)
            text += f" {label:<3}"  # over the middle of the hole's three characters
        return text.rstrip()

    def on_mount(self) -> None:
        self.title = f"pegsolver play: {self.game.shape.name}"
        # A start with no jump (or already won) is told at once, not after a click.
        self.say(self.game.end() or
                 f"Click a peg, then its landing hole. Finish for hints: {self.game.finish_text()}.")
        # Arrow keys and Enter work at once: the first vacancy (else the first hole) has focus.
        first = next(iter(self.game.board.vacancies()), 0)
        self.query_one(f"#hole-{first}", HoleCell).focus()

    # ---- drawing -----------------------------------------------------------
    def say(self, text: str) -> None:
        self.message = text
        self.refresh_board()

    def refresh_board(self) -> None:
        game = self.game
        targets = game.targets()
        hint = self.hint if self.hint and (self.hint.pegs_mask, self.hint.goal) == (game.board.pegs_mask, game.goal) \
            else None
        for cell in self.query(HoleCell):
            h = cell.hole
            peg = bool(game.board.pegs_mask >> h & 1)
            cell.update("●" if peg else "○")
            cell.set_class(peg, "peg")
            cell.set_class(not peg, "empty")
            cell.set_class(h == game.selected, "selected")
            cell.set_class(h == game.over, "over")
            cell.set_class(h in targets, "target")
            cell.set_class(bool(hint and hint.jump and h == hint.jump.from_hole), "hint-from")
            cell.set_class(bool(hint and hint.jump and h == hint.jump.to_hole), "hint-to")
        self.query_one("#counts", Static).update(
            f"Jumps: {game.jumps}   Moves: {game.moves}   Pegs: {game.board.peg_count}")
        self.query_one("#finish", Static).update(f"Finish (for hints): {game.finish_text()}")
        mode = {"vacancy": "Click the hole to leave vacant in a new game (Esc: cancel).",
                "finish": "Click the finish hole, or press a for one peg anywhere (Esc: cancel)."}.get(game.mode, "")
        if self.thinking and self.thinking[0] == game.board.pegs_mask:
            mode = (mode + "\n" if mode else "") + "Hint: the solver is thinking..."
        self.query_one("#mode", Static).update(mode)
        moves = game.move_list()
        self.query_one("#moves", Static).update(
            "Moves: " + " ".join(f"{i}. {m}" for i, m in enumerate(moves, 1)) if moves else "")
        self.query_one("#message", Static).update(self.message)

    # ---- input ---------------------------------------------------------------
    def choose(self, hole: Hole) -> None:
        """A click (or Enter) on a hole."""
        self.say(self.game.click(hole))

    def action_undo(self) -> None:
        self.say(self.game.undo())

    def action_redo(self) -> None:
        self.say(self.game.redo())

    def action_new_game(self) -> None:
        text = self.game.new_game() + f" Finish: {self.game.finish_text()}."
        end = self.game.end()  # a start with no jump says so at once
        self.say(text + (f" {end}" if end else ""))

    def action_choose_vacancy(self) -> None:
        self.game.clear_selection()
        self.game.mode = "vacancy"
        self.say("Restart: click the hole to leave vacant.")

    def action_choose_finish(self) -> None:
        self.game.clear_selection()
        self.game.mode = "finish"
        self.say("Finish: click the hole where the last peg should be, or press a for anywhere.")

    def action_finish_anywhere(self) -> None:
        if self.game.mode != "finish":
            self.say("Press f first to choose a finish; then a means one peg anywhere.")
            return
        self.say(self.game.set_finish(None))

    def action_cancel(self) -> None:
        self.game.mode = "play"
        self.game.clear_selection()
        self.say("Cancelled.")

    def step_focus(self, hole: Hole, dr: int, dc: int) -> None:
        """Arrow keys: move the focus to the nearest hole from ``hole`` in direction (dr, dc)."""
        shape = self.game.shape
        r, c = shape.coords[hole]
        for k in range(1, max(max(rc) for rc in shape.coords) + 2):
            h = shape.index.get((r + k * dr, c + k * dc))
            if h is not None:
                self.query_one(f"#hole-{h}", HoleCell).focus()
                return

    # ---- hints ---------------------------------------------------------------
    def action_hint(self) -> None:
        game = self.game
        key = (game.board.pegs_mask, game.goal)
        if self.thinking == key:
            self.say("Still thinking about this position...")
            return
        jump = self.plan.get(game.board.pegs_mask) if self.plan_goal == game.goal else None
        if jump is not None:
            self.show_hint(Hint(game.board.pegs_mask, game.goal, jump, [jump], Reason.SOLVED,
                                strategy="earlier search"))
            return
        self.thinking = key
        self.say(f"Thinking (up to {self.hint_seconds:g} s); you can keep playing.")
        self.search_hint(game.board.with_pegs(game.board.pegs_mask), game.goal)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def search_hint(self, board: Board, goal: Goal) -> Hint:
        worker = get_current_worker()
        return find_hint(board, goal, self.hint_seconds, cancelled=lambda: worker.is_cancelled)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "hint" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        self.thinking = None
        if event.state == WorkerState.ERROR:
            err = event.worker.error
            if isinstance(err, (PegsolverError, CoreMissingError)):
                self.say(f"No hint: {err}")
                return
            raise err
        hint: Hint = event.worker.result
        if hint.path:  # remember the whole solution: later hints along it are instant
            if self.plan_goal != hint.goal:
                self.plan = {}
            self.plan_goal = hint.goal
            board = self.game.board.with_pegs(hint.pegs_mask)
            for j in hint.path:
                self.plan[board.pegs_mask] = j
                board.push(j)
        if hint.pegs_mask != self.game.board.pegs_mask or hint.goal != self.game.goal:
            self.refresh_board()  # the position changed meanwhile: this hint is for another one
            return
        self.show_hint(hint)

    def show_hint(self, hint: Hint) -> None:
        game = self.game
        self.hint = hint
        words = finish_words(hint.goal, game.style, game.shape)
        if hint.jump is not None:
            how = f"{hint.strategy} search, {hint.seconds:.2f} s" if hint.strategy != "earlier search" \
                else "from the solution found before"
            self.say(f"Hint: {game.jump_text(hint.jump)} (toward {game.finish_text()}; {how}).")
        elif hint.reason is Reason.SOLVED:
            self.say(f"The finish is reached: {game.finish_text()}.")
        elif hint.proved:
            self.say(f"No {words} from here: {hint.explanation}.")
        elif hint.reason == CANCELLED:
            self.refresh_board()
        else:
            self.say(f"No {words} found in {self.hint_seconds:g} s ({hint.reason}); nothing proved, "
                     "so this position may still have one.")


def run(board: Board, goal: Goal, style: str = "algebraic", hint_seconds: float = DEFAULT_HINT_SECONDS) -> None:
    """Open the game in the terminal and return when the player quits.

    :raises PegsolverError: a goal that does not fit the board, or a bad hint time limit.
    """
    PlayApp(board, goal, style, hint_seconds).run()


__all__ = ["Game", "Hint", "PlayApp", "find_hint", "run"]
