"""Play peg solitaire by hand in the terminal (``pegsolver play english``), with hints.

Three layers, so each can be tested alone:

* :class:`~pegsolver.apps.game.Game`: the state of a game played by clicks and what each
  click does, in words;
* :func:`~pegsolver.apps.hint.find_hint`: the solver's next jump from a position toward a
  finish, or the verdict that there is none;
* :class:`PlayApp` (here): the Textual app that draws the board and runs hints in a worker
  thread, so the board stays playable while the solver works.
"""
from __future__ import annotations

from typing import Any, cast

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.widgets import Footer, Header, Static
from textual.worker import Worker, WorkerState

from ..engine.limits import Cancel
from ..engine.outcome import Reason
from ..errors import CoreMissingError, PegsolverError
from ..model.board import Board
from ..model.geometry import SQUARE, Hole, Jump, Shape
from ..model.goal import Goal, plural
from ..model.notation import column_letters
from ..solver import Limit
from .game import Game
from .hint import CANCELLED, DEFAULT_HINT_SECONDS, NO_JUMP, Hint, find_hint, finish_words


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

    @property
    def play_app(self) -> PlayApp:
        """The app drawing this cell: a HoleCell is made only by :class:`PlayApp`."""
        return cast(PlayApp, self.app)  # Textual types a widget's app as any App

    def on_click(self) -> None:
        self.play_app.choose(self.hole)

    def action_choose(self) -> None:
        self.play_app.choose(self.hole)

    def action_step(self, dr: int, dc: int) -> None:
        self.play_app.step_focus(self.hole, dr, dc)


class PlayApp(App[None]):
    """The board in the terminal: click or select with arrows and Enter; keys in the footer.

    :param board: the start position.
    :param goal: the finish hints aim for.
    :param style: hole names: ``"algebraic"`` or ``"numeric"``.
    :param hint_seconds: the time limit of one hint, > 0.
    """

    TITLE = "pegsolver play"
    CSS = """
    #board-area { width: auto; max-width: 75%; min-width: 30; height: 1fr; padding: 1 2; }
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
        # position -> next jump of the last solution found, the fewest moves left from there
        # when proved and the least proved (None: unknown), and the hole of the peg whose move
        # it then continues
        self.plan: dict[int, tuple[Jump, int | None, int | None, Hole | None]] = {}
        self.plan_goal: Goal | None = None   # the finish that plan leads to
        self.thinking: tuple[int, Goal] | None = None
        self.hint_cancel: Cancel | None = None   # stops the hint being searched for
        self.message = ""

    # ---- layout ------------------------------------------------------------
    def compose(self) -> ComposeResult:
        shape = self.game.shape
        yield Header()
        with Horizontal():
            with ScrollableContainer(id="board-area"):
                yield from self._board_rows(shape)
            with Vertical(id="side"):
                yield Static(id="counts")
                yield Static(id="finish")
                yield Static(id="mode")
                yield Static(id="moves")
        yield Static(id="message")
        yield Footer()

    def _board_rows(self, shape: Shape) -> ComposeResult:
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
            for h in sorted(rows[r], key=half.__getitem__):
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

    def _row_label(self, shape: Shape, r: int) -> str:
        return str(r + 1)  # the row number, whatever the notation

    def _column_labels(self, shape: Shape, cols: list[int]) -> str:
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
                # at once, not as widget.focus() does after the events queued: arrows that
                # came in one read (a held key, a paste) each stepped from the same hole
                self.screen.set_focus(self.query_one(f"#hole-{h}", HoleCell))
                return

    # ---- hints ---------------------------------------------------------------
    def action_hint(self) -> None:
        game = self.game
        key = (game.board.pegs_mask, game.goal)
        if self.thinking == key:
            self.say("Still thinking about this position...")
            return
        moving = game.board.history[-1].to_hole if game.board.history else None
        planned = self.plan.get(game.board.pegs_mask) if self.plan_goal == game.goal else None
        if planned is not None:
            jump, left, least, then = planned
            # the moves left hold where the peg moving is the one the solution's count assumed
            same = then == moving
            self.show_hint(Hint(game.board.pegs_mask, game.goal, jump, [jump], Reason.SOLVED,
                                strategy="earlier search", moves_left=left if same else None,
                                moves_at_least=least if same else None))
            return
        self.thinking = key
        self.say(f"Thinking (up to {self.hint_seconds:g} s); you can keep playing.")
        self.stop_hint()   # the worker below replaces the one running (exclusive)
        self.hint_cancel = Cancel()
        self.search_hint(game.board.with_pegs(game.board.pegs_mask), game.goal, moving, self.hint_cancel)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def search_hint(self, board: Board, goal: Goal, moving: Hole | None, cancel: Cancel) -> Hint:
        return find_hint(board, goal, self.hint_seconds, cancel=cancel, moving=moving)

    def stop_hint(self) -> None:
        """Stop the hint being searched for, if any: its search ends within milliseconds
        (Textual can only mark a thread worker cancelled, and waits for it on exit)."""
        if self.hint_cancel is not None:
            self.hint_cancel.set()

    def exit(self, *args: Any, **kwargs: Any) -> None:
        """Quit at once, the hint's search stopped first (App.exit's arguments)."""
        self.stop_hint()
        super().exit(*args, **kwargs)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "hint" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        self.thinking = None
        if event.state == WorkerState.ERROR:
            err = event.worker.error
            if isinstance(err, (PegsolverError, CoreMissingError)):
                self.say(f"No hint: {err}")
                return
            # Any other error is a bug: raised here, it ends the app with its traceback.
            raise err if err is not None else RuntimeError("the hint's search failed without saying why")
        hint = event.worker.result
        if not isinstance(hint, Hint):  # search_hint returns a Hint when it succeeds
            raise TypeError(f"the hint's search returned {hint!r}, not a Hint")
        if hint.path:  # remember the whole solution: later hints along it are instant
            self.remember(hint)
        if hint.pegs_mask != self.game.board.pegs_mask or hint.goal != self.game.goal:
            self.refresh_board()  # the position changed meanwhile: this hint is for another one
            return
        self.show_hint(hint)

    def remember(self, hint: Hint) -> None:
        """Keep ``hint``'s path for later hints along it, with the moves left from each
        position: a fewest-moves path's rest is the fewest from there (were one shorter, so
        would the whole be), and from a bound of at least L moves one of L - k holds after k
        moves along the path. A jump from another hole than the last landing starts a move."""
        if self.plan_goal != hint.goal:
            self.plan = {}
        self.plan_goal = hint.goal
        board = self.game.board.with_pegs(hint.pegs_mask)
        left, least, moving = hint.moves_left, hint.moves_at_least, hint.moving
        for j in hint.path:
            self.plan[board.pegs_mask] = (j, left, least, moving)
            if j.from_hole != moving:
                left = None if left is None else left - 1
                least = None if least is None else max(least - 1, 0)
            moving = j.to_hole
            board.push(j)

    def show_hint(self, hint: Hint) -> None:
        game = self.game
        self.hint = hint
        words = finish_words(hint.goal, game.style, game.shape)
        if hint.jump is not None:
            how = f"{hint.strategy} search, {hint.seconds:.2f} s" if hint.strategy != "earlier search" \
                else "from the solution found before"
            self.say(f"Hint: {game.jump_text(hint.jump)} (toward {game.finish_text()}; {how}){moves_words(hint)}.")
        elif hint.reason is Reason.SOLVED:
            self.say(f"The finish is reached: {game.finish_text()}.")
        elif hint.proved:
            self.say(f"No {words} from here: {hint.explanation_in(game.style)}.")
        elif hint.reason == CANCELLED:
            self.refresh_board()
        else:
            self.say(f"No {words} found in {self.hint_seconds:g} s ({hint.reason}); nothing proved, "
                     "so this position may still have one.")


def moves_words(hint: Hint) -> str:
    """What the hint knows of the moves left: ``; 5 moves left at best`` (proved), ``; this
    move reaches the finish`` (none after the one being made), ``; at least 9 moves left``,
    or nothing."""
    if hint.moves_left == 0:   # jumps of the move being made are left (a trial read "0 moves" as done)
        return "; this move reaches the finish"
    if hint.moves_left is not None:
        return f"; {plural(hint.moves_left, 'move')} left at best"
    if hint.moves_at_least:
        return f"; at least {plural(hint.moves_at_least, 'move')} left"
    return ""


def run(board: Board, goal: Goal, style: str = "algebraic", hint_seconds: float = DEFAULT_HINT_SECONDS) -> None:
    """Open the game in the terminal and return when the player quits.

    :raises PegsolverError: a goal that does not fit the board, or a bad hint time limit.
    """
    PlayApp(board, goal, style, hint_seconds).run()


# Game and the hint's names live in apps.game and apps.hint; still importable from here.
__all__ = ["CANCELLED", "DEFAULT_HINT_SECONDS", "NO_JUMP", "Game", "Hint", "PlayApp", "find_hint",
           "finish_words", "run"]
