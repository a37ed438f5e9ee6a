"""Playing by hand: the Textual app driven headless by its pilot (clicks and keys).

Every game played here is replayed independently (tests/replay.py) from the app's own
record of the jumps, so a board drawn right but updated wrong fails.
"""
import asyncio
import math

import pytest

import pegsolver
from pegsolver import Goal, solve
from pegsolver.apps.cli import main
from pegsolver.apps.play import Game, PlayApp, find_hint
from pegsolver.engine.search import impossibility
from replay import UNIT_STEPS, replay_coords

SIZE = (110, 36)


def english():
    return pegsolver.find_variant("english").board()


def app_for(board, goal, seconds=20.0):
    return PlayApp(board, goal, hint_seconds=seconds)


async def click(pilot, hole):
    assert await pilot.click(f"#hole-{hole}") is not None
    await pilot.pause()


def classes_of(app, hole):
    return set(app.query_one(f"#hole-{hole}").classes)


def replayed(app):
    """Pegs (as coordinates) after replaying the app's jumps independently."""
    board = app.game.board
    coords = board.shape.coords
    start = {coords[h] for h in range(board.shape.size) if app.game.start.pegs_mask >> h & 1}
    return replay_coords(board.shape.rules, coords, start,
                         [(coords[j.from_hole], coords[j.to_hole]) for j in board.history])


def no_jump_left(rules, holes, pegs):
    """True when no peg can jump, checked from coordinates alone."""
    for r, c in pegs:
        for dr, dc in UNIT_STEPS[rules]:
            if (r + dr, c + dc) in pegs and (r + 2 * dr, c + 2 * dc) in holes and (r + 2 * dr, c + 2 * dc) not in pegs:
                return False
    return True


def counts(app):
    return str(app.query_one("#counts").render())


def test_a_full_english_solution_played_by_clicks():
    sol = solve("english")
    assert sol.solved

    async def scenario():
        app = app_for(english(), Goal.at("d4"))
        async with app.run_test(size=SIZE) as pilot:
            for k, jump in enumerate(sol.jumps):
                if k % 3 == 2:  # peg, the peg it jumps, landing hole: the seed's C game
                    if app.game.selected != jump.from_hole or app.game.chained:
                        await click(pilot, jump.from_hole)
                    assert app.game.selected == jump.from_hole
                    await click(pilot, jump.over)
                    assert app.game.over == jump.over
                    assert classes_of(app, jump.to_hole) >= {"target"}
                else:  # peg, then landing hole
                    if app.game.selected != jump.from_hole:
                        await click(pilot, jump.from_hole)
                    assert "selected" in classes_of(app, jump.from_hole)
                    assert "target" in classes_of(app, jump.to_hole)
                    assert "target" not in classes_of(app, jump.over)
                await click(pilot, jump.to_hole)
                assert len(app.game.board.history) == k + 1
            d4 = app.game.board.hole("d4")
            assert replayed(app) == {english().shape.coords[d4]}
            assert app.game.board.history == sol.jumps
            assert app.message.startswith("Solved!")
            assert f"Jumps: {len(sol.jumps)}" in counts(app)
            assert f"Moves: {len(sol.moves)}" in counts(app) and "Pegs: 1" in counts(app)
            assert "peg" in classes_of(app, d4)
    asyncio.run(scenario())


def test_undo_redo_and_new_game():
    board = english()
    jumps = []
    b = board.copy()
    for _ in range(4):
        jumps.append(b.legal_jumps()[-1])
        b.push(jumps[-1])

    async def scenario():
        app = app_for(english(), Goal.at("d4"))
        async with app.run_test(size=SIZE) as pilot:
            for j in jumps:
                if app.game.selected != j.from_hole:
                    await click(pilot, j.from_hole)
                await click(pilot, j.to_hole)
            after = [app.game.board.pegs_mask]
            await pilot.press("u", "u")
            assert len(app.game.board.history) == 2 and "Jumps: 2" in counts(app)
            assert app.game.board.history == jumps[:2]
            await pilot.press("r")
            assert app.game.board.history == jumps[:3]
            await pilot.press("r")
            assert app.game.board.pegs_mask == after[0] and "Jumps: 4" in counts(app)
            await pilot.press("r")
            assert app.message == "Nothing to redo."
            # Undo, then a different jump: the jump undone can no longer be redone.
            await pilot.press("u")
            other = next(j for j in app.game.board.legal_jumps() if j != jumps[3])
            await click(pilot, other.from_hole)
            await click(pilot, other.to_hole)
            await pilot.press("r")
            assert app.message == "Nothing to redo." and app.game.board.history[-1] == other
            assert replayed(app) == {board.shape.coords[h] for h in app.game.board.pegs()}
            await pilot.press("n")
            assert app.game.board.pegs_mask == board.pegs_mask and "Jumps: 0" in counts(app)
            await pilot.press("u")
            assert app.message == "Nothing to undo."
    asyncio.run(scenario())


def test_hints_lead_to_the_finish():
    board = english()
    coords = board.shape.coords

    async def scenario():
        app = app_for(english(), Goal.at("d4"))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            first = app.hint.jump
            assert app.message.startswith(f"Hint: {app.game.jump_text(first)} (toward one peg at d4")
            assert "hint-from" in classes_of(app, first.from_hole) and "hint-to" in classes_of(app, first.to_hole)
            # The solution behind the hint reaches the finish, replayed independently.
            path = [(coords[j.from_hole], coords[j.to_hole]) for j in app.hint.path]
            assert replay_coords("orthogonal", coords, {coords[h] for h in board.pegs()}, path) == {(3, 3)}
            # Follow a few hints by clicks: the next ones come from that solution at once, with
            # the moves left along it (the rest of a fewest-moves path is the fewest from there;
            # a trial saw the count dropped), counted here from coordinates
            assert app.message.endswith("; 18 moves left at best.")
            for k in range(5):
                if k:
                    await pilot.press("h")
                    left = sum(1 for i in range(k, len(path)) if path[i][0] != path[i - 1][1])
                    assert "from the solution found before" in app.message
                    assert app.message.endswith(f"; {left} moves left at best."), (k, app.message)
                jump = app.hint.jump
                if app.game.selected != jump.from_hole or app.game.chained:
                    await click(pilot, jump.from_hole)
                await click(pilot, jump.to_hole)
                assert "hint-from" not in classes_of(app, jump.from_hole)
            played = [(coords[j.from_hole], coords[j.to_hole]) for j in app.game.board.history]
            assert played == path[:5]
            assert replayed(app) == {coords[h] for h in app.game.board.pegs()}
    asyncio.run(scenario())


def test_hint_says_why_there_is_no_finish():
    board = english()
    goal = Goal.at(board.hole("d4"))
    # A single vacancy whose position class rules out a finish at d4, found by the proofs.
    vacancy = next(v for v in range(board.shape.size)
                   if (impossibility(board.with_pegs(board.shape.full_mask & ~(1 << v)), goal) or ("",))[0]
                   == "position class")

    async def scenario():
        app = app_for(english(), Goal.at("d4"))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("v")
            await click(pilot, vacancy)
            assert app.game.board.vacancies() == [vacancy] and "Jumps: 0" in counts(app)
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.message.startswith("No single-peg finish at d4 from here")
            assert "position class" in app.message and app.hint.jump is None
            # Another finish the class allows: the hint then finds a jump.
            finish = next(f for f in range(board.shape.size)
                          if not impossibility(app.game.board.with_pegs(app.game.board.pegs_mask), Goal.at(f)))
            await pilot.press("f")
            await click(pilot, finish)
            assert app.game.goal == Goal.at(finish)
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.message.startswith("Hint: ")
            assert app.hint.jump in app.game.board.legal_jumps()
            await pilot.press("f", "a")
            assert app.game.goal == Goal.anywhere()
    asyncio.run(scenario())


def test_a_dead_end_is_recognised():
    # Always the last legal jump on the 15-hole triangle: a game that sticks with several pegs left.
    board = pegsolver.find_variant("triangle5").board()
    path = []
    b = board.copy()
    while b.legal_jumps():
        path.append(b.legal_jumps()[-1])
        b.push(path[-1])
    assert b.peg_count > 1

    async def scenario():
        app = app_for(board.copy(), Goal.anywhere())
        async with app.run_test(size=SIZE) as pilot:
            for j in path:
                if app.game.selected != j.from_hole or app.game.chained:
                    await click(pilot, j.from_hole)
                await click(pilot, j.to_hole)
            pegs = replayed(app)
            assert no_jump_left("triangular", set(board.shape.coords), pegs)
            assert app.message.startswith(f"Dead end: no jump left, {len(pegs)} pegs remain")
            assert f"Pegs: {len(pegs)}" in counts(app)
            await click(pilot, app.game.board.pegs()[0])
            assert app.message.startswith("Dead end")
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.message.startswith("No single-peg finish from here: no jump is left")
            await pilot.press("u")
            assert len(app.game.board.history) == len(path) - 1 and not app.game.end()
    asyncio.run(scenario())


def test_illegal_choices_say_why():
    async def scenario():
        app = app_for(english(), Goal.at("d4"))
        b = app.game.board
        h = b.hole
        async with app.run_test(size=SIZE) as pilot:
            await click(pilot, h("d4"))
            assert app.message == "d4 is empty: choose a peg to move."
            await click(pilot, h("d1"))
            assert app.message.startswith("The peg on d1 has no jump (d1-d3: d3 is not empty")
            await click(pilot, h("d2"))
            assert app.game.selected == h("d2") and app.game.targets() == {h("d4")}
            assert "target" in classes_of(app, h("d4")) and "selected" in classes_of(app, h("d2"))
            await click(pilot, h("f4"))  # another peg with a legal jump: selected instead
            assert app.game.selected == h("f4")
            await click(pilot, h("f4"))
            assert app.game.selected is None and app.message == "f4 put back."
            await click(pilot, h("b4"))
            await click(pilot, h("c4"))  # the peg b4 jumps: three-click entry
            assert app.game.over == h("c4")
            await click(pilot, h("d4"))
            assert b.history == [(h("b4"), h("c4"), h("d4"))]
            await click(pilot, h("a4"))
            assert app.message == "The peg on a4 has no jump (a4-c4: no peg on b4 to jump over)."
            await click(pilot, h("e4"))
            assert app.game.targets() == {h("c4")}
            await click(pilot, h("b4"))
            assert app.message.startswith("Illegal: no jump from e4 to b4")
            await click(pilot, h("f4"))
            assert app.message == "Illegal: e4-g4: g4 is not empty."
            assert len(b.history) == 1 and "Jumps: 1" in counts(app)
    asyncio.run(scenario())


def test_keyboard_play_and_triangle_layout():
    board = pegsolver.find_variant("triangle5").board()

    async def scenario():
        app = app_for(board, Goal.anywhere())
        async with app.run_test(size=SIZE) as pilot:
            # Drawn as a triangle: each row centred under the one above, holes evenly spaced.
            x = {h: app.query_one(f"#hole-{h}").region.x for h in range(board.shape.size)}
            y = {h: app.query_one(f"#hole-{h}").region.y for h in range(board.shape.size)}
            for h, (r, c) in enumerate(board.shape.coords):
                assert x[h] - x[0] == 4 * c - 2 * r
                assert y[h] - y[0] == 2 * r
            # Hole 4 (row 3, left) jumps 2 into the apex: arrows and Enter.
            app.query_one("#hole-3").focus()
            await pilot.press("enter")
            assert app.game.selected == 3
            await pilot.press("up", "up")
            assert app.focused.hole == 0
            await pilot.press("enter")
            assert app.game.board.history == [(3, 1, 0)]
            assert replayed(app) == {board.shape.coords[h] for h in range(15)} - {(1, 0), (2, 0)}
    asyncio.run(scenario())


def test_game_model_and_hint_function():
    row = pegsolver.Board.from_text("o . . o o . o")
    game = Game(row, Goal.anywhere())
    assert game.click(row.hole("d1")).startswith("d1 selected: jump to f1")
    assert game.click(row.hole("b1")) == "Illegal: d1-b1: no peg on c1 to jump over."
    with pytest.raises(pegsolver.UnknownHoleError):
        game.click(99)
    board = english()
    hint = find_hint(board, Goal.at("d4"), seconds=20)
    assert hint.reason == "solved" and hint.jump == hint.path[0]
    assert replay_coords("orthogonal", board.shape.coords,
                         {board.shape.coords[h] for h in board.pegs()},
                         [(board.shape.coords[j.from_hole], board.shape.coords[j.to_hole]) for j in hint.path]) \
        == {(3, 3)}
    tri = pegsolver.find_variant("triangle5").board()
    assert find_hint(tri, Goal.anywhere(), seconds=5).jump in tri.legal_jumps()
    with pytest.raises(pegsolver.PegsolverError):
        find_hint(board, Goal.at("d4"), seconds=math.inf)
    with pytest.raises(pegsolver.GoalError):
        find_hint(board.with_pegs(1), Goal.anywhere(2))


def test_numpy_holes_and_a_hole_name_as_the_hints_goal():
    import numpy as np
    row = pegsolver.Board.from_text("o . . o o . o")
    assert row.hole_name(np.int64(3)) == "d1" and row.hole_index(np.uint8(3)) == 3
    for bad in (3.0, True, "d1", 7):
        with pytest.raises(pegsolver.UnknownHoleError):
            row.hole_name(bad)
    assert Game(row, Goal.anywhere()).click(np.int64(3)).startswith("d1 selected")
    board = english()
    hint = find_hint(board, "d4", seconds=20)
    assert hint.reason == "solved" and hint.goal.finish_holes() == [board.hole("d4")]
    with pytest.raises(pegsolver.PegsolverError, match="goal must be"):
        find_hint(board, 16)


@pytest.mark.parametrize("variant", ["triangle14", "triangle15"])
def test_hint_on_big_triangles_replays(variant):
    # A fixed schedule (guided, one default-width beam) found no hint here in 10 s; the
    # solve command's portfolio answers in about a second.
    board = pegsolver.find_variant(variant).board()
    hint = find_hint(board, Goal.anywhere(), seconds=10)
    assert hint.reason == "solved" and hint.jump == hint.path[0]
    coords = board.shape.coords
    final = replay_coords("triangular", coords, {coords[h] for h in board.pegs()},
                          [(coords[j.from_hole], coords[j.to_hole]) for j in hint.path])
    assert len(final) == 1


@pytest.mark.parametrize("argv,message", [
    (["play", "nosuch"], "unsupported variant"),
    (["play", "english", "--finish", "z9"], "no hole 'z9'"),
    (["play", "english", "--seconds", "0"], "--seconds must be"),
    (["play", "english", "--json"], "unknown option --json"),   # not in its help either
    (["play", "english"], "interactive terminal"),  # pytest's stdin is not a terminal
])
def test_play_command_errors(capsys, argv, message):
    try:
        code = main(argv)
    except SystemExit as e:   # argparse's own errors
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2 and message in err and "Traceback" not in err
    assert out == ""   # play prints no answer: no JSON error either, even with --json


def test_a_hint_takes_a_variant_name_a_fewest_pegs_goal_and_checks_the_moving_hole():
    import numpy as np
    hint = find_hint("english", Goal.fewest(), seconds=20)   # a GoalError from goal.reached before
    assert hint.reason == "solved" and hint.jump is not None
    board = english()
    assert board.is_legal(hint.jump)
    for bad in (-1, "d4", 1.0, 99):
        with pytest.raises(pegsolver.UnknownHoleError):
            find_hint(board, "d4", moving=bad)
    assert find_hint(board, "d4", moving=np.int64(16), seconds=20).reason == "solved"


def test_arrows_in_one_read_each_step_and_wide_boards_scroll_sideways():
    # A held key or a paste brings several arrows in one read: each steps on from where
    # the last left the focus (they all stepped from the same hole, a trial found). On a
    # board wider than the screen the board scrolls sideways and the side panel stays.
    from textual import events
    board = pegsolver.find_variant("rect1x128").board()

    async def scenario():
        app = app_for(board, Goal.anywhere())
        async with app.run_test(size=(120, 20)) as pilot:
            app.query_one("#hole-0").focus()
            await pilot.pause()
            for _ in range(40):   # queued together, none handled before the last is posted
                app.post_message(events.Key("right", None))
            await pilot.pause()
            assert app.focused.hole == 40
            assert app.query_one("#counts").region.right <= 120   # the side panel is on screen
            for _ in range(50):   # the scroll shows on screen a refresh or two later
                cell = app.query_one("#hole-40").region
                if cell.right <= 120:
                    break
                await pilot.pause(0.05)
            assert 0 <= cell.x and cell.right <= 120 and cell.width == 3   # scrolled into view
    asyncio.run(scenario())


def test_a_finish_of_several_pegs_ends_the_game_and_redo_keeps_a_moving_peg():
    h = english().hole
    g = Game(english(), Goal.anywhere(31))   # one jump leaves 31 pegs, with jumps still left
    g.click(h("d2"))
    assert g.click(h("d4")).startswith("Solved! 31 pegs anywhere reached: 1 jump in 1 move")
    assert g.click(h("f4")).startswith("Solved!")   # the game is over: undo or a new game
    g.undo()
    assert g.redo().startswith("Redid d2-d4. Solved!")
    assert Game(english(), Goal.anywhere(32)).end().startswith("Solved! 32 pegs anywhere reached: 0 jumps")
    with pytest.raises(pegsolver.PegsolverError, match="fewest-pegs goal is a question for solve"):
        Game(english(), Goal.fewest())
    # A redone jump that can go on leaves its peg selected, as the jump did when played:
    # first jumps until one lands where its peg can jump again.
    g = Game(english(), Goal.at("d4"))

    def goes_on(j):
        after = g.board.copy()
        after.push(j)
        return any(x.from_hole == j.to_hole for x in after.legal_jumps())
    while not any(goes_on(j) for j in g.board.legal_jumps()):
        g.play(g.board.legal_jumps()[0])
        g.clear_selection()
    jump = next(j for j in g.board.legal_jumps() if goes_on(j))
    g.play(jump)
    assert g.selected == jump.to_hole and g.chained
    g.undo()
    assert g.selected is None
    text = g.redo()
    assert g.selected == jump.to_hole and g.chained and "can jump on" in text
    assert g.board.history[-1] == jump


def test_a_hint_for_more_pegs_than_the_position_has_names_the_position():
    b = english()
    b.push(b.legal_jumps()[0])
    with pytest.raises(pegsolver.PegsolverError, match="this position has only 31"):
        find_hint(b, Goal.anywhere(32), seconds=1.0)


def test_sigterm_ends_a_game_in_a_terminal_and_says_so():
    # SIGTERM mid-game said "before the command had an answer", which play never has.
    # Textual draws on stderr: all three streams are the terminal.
    import os
    import select
    import signal
    import subprocess
    import sys
    import time
    master, slave = os.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="30")
    proc = subprocess.Popen([sys.executable, "-m", "pegsolver", "play", "english"], stdin=slave, stdout=slave,
                            stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    screen, deadline = b"", time.monotonic() + 60

    def read(until):
        nonlocal screen
        while not until() and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    screen += os.read(master, 1 << 16)
                except OSError:   # the child closed the terminal
                    return
    try:
        read(lambda: b"Jumps" in screen)   # the board is drawn
        assert b"Jumps" in screen, "the game never drew its board"
        proc.send_signal(signal.SIGTERM)
        read(lambda: proc.poll() is not None)
        read(lambda: False) if proc.poll() is not None else None   # what it printed last
        assert proc.wait(timeout=30) == 130
        tail = screen[screen.rindex(b"Jumps"):].decode(errors="replace")
        assert "stopped by SIGTERM: the game ended" in tail
        assert "answer" not in tail and "Traceback" not in tail
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


def test_the_solution_remembered_keeps_a_proved_bound_along_it():
    # a hint that proved "at least L moves" from here: after k moves along its solution, at
    # least L - k (a trial saw later hints drop the bound); moves counted here from coordinates
    from pegsolver.apps.hint import Hint
    from pegsolver.engine.outcome import Reason
    board = english()
    goal = Goal.at(board.hole("d4")).resolve(board.shape)
    sol = solve(board, goal)
    path, coords = list(sol.jumps), board.shape.coords
    app = app_for(board, Goal.at("d4"))
    app.remember(Hint(board.pegs_mask, goal, path[0], path, Reason.SOLVED, moves_at_least=12))
    position, made = board.copy(), 0
    for k, j in enumerate(path):
        if k == 0 or coords[j.from_hole] != coords[path[k - 1].to_hole]:
            entry = app.plan[position.pegs_mask]
            assert entry[0] == j and entry[1] is None and entry[2] == max(12 - made, 0)
            made += 1
        position.push(j)
    # a hint whose move goes on reaching the finish says so, not "0 moves left"
    from pegsolver.apps.play import moves_words
    assert moves_words(Hint(0, goal, None, [], Reason.SOLVED, moves_left=0)) == "; this move reaches the finish"
