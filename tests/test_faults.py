"""Faults found by users of the command line, the board text reader, play and the SVG
pictures: each test shows one fault's expected behaviour."""
import asyncio
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import pegsolver
from pegsolver import Board, BoardTextError, Goal, PegsolverError
from pegsolver.apps import svg
from pegsolver.apps.cli import main
from pegsolver.apps.play import Game, PlayApp
from pegsolver.model import boardfile
from replay import assert_solves

NS = "{http://www.w3.org/2000/svg}"
SIZE = (110, 36)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    return code, json.loads(out), err


def algebraic(rc_number):
    """Row-column two-digit hole number -> algebraic name, written here independently."""
    return "abcdefghi"[int(rc_number[1]) - 1] + rc_number[0]


# ---- F1: an option between the board name and the move list --------------------------

def test_replay_board_option_moves(capsys):
    code, data, _ = run_json(capsys, "replay", "english", "d2-d4")
    assert code == 0 and data["jumps"] == ["d2-d4"]
    code, out, _ = run(capsys, "replay", "english", "--json", "d2-d4")
    assert code == 0 and json.loads(out)["jumps"] == ["d2-d4"] and json.loads(out)["board"] == "english"
    code, out, _ = run(capsys, "replay", "english", "--notation", "numeric", "46-44", "--json")
    assert code == 0 and json.loads(out)["jumps"] == ["46-44"]
    code, out, _ = run(capsys, "replay", "triangle5", "--vacant", "3", "10-3")
    assert code == 0 and "board: triangle5" in out and "10-3" in out and "ok (1 jump)" in out
    code, _, err = run(capsys, "replay", "english")  # the board, and no moves
    assert code == 2 and "no moves to replay: 'english' names a board" in err
    # moves as several words, unquoted (a trial's `replay english d2-d4 d2-d4` was refused),
    # and with no board before them: the default board's
    code, data, _ = run_json(capsys, "replay", "english", "d2-d4", "f3-d3")
    assert code == 0 and data["jumps"] == ["d2-d4", "f3-d3"]
    code, data, _ = run_json(capsys, "replay", "d2-d4,", "f3-d3")
    assert code == 0 and data["board"] == "english" and data["jumps"] == ["d2-d4", "f3-d3"]
    code, data, _ = run_json(capsys, "replay", "english-diagonal", "d2-d4")
    assert code == 0 and data["board"] == "english-diagonal"
    # a numbered list with no board (a trial's `replay 1. d2-d4 2. f3-d3` read "1." as a board)
    code, data, _ = run_json(capsys, "replay", "1.", "d2-d4", "2)", "f3-d3")
    assert code == 0 and data["board"] == "english" and data["jumps"] == ["d2-d4", "f3-d3"]
    # a board's name among the moves
    code, _, err = run(capsys, "replay", "english", "d2-d4", "french")
    assert code == 2 and "'french' names a board, among the moves (the board is 'english' already)" in err


def test_a_second_board_is_named_as_such(capsys):
    # a trial's `solve english french` was told only "unrecognized arguments: french"
    with pytest.raises(SystemExit):
        main(["solve", "english", "french"])
    assert "unrecognized arguments: french (the board is 'english' already; give one board)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "english", "frnech"])
    assert "unrecognized arguments: frnech (see" in capsys.readouterr().err


# ---- F2: --vacant and --finish do not swallow what follows them ----------------------

def test_hole_lists_end_before_the_board_or_the_moves(capsys):
    code, data, err = run_json(capsys, "solve", "--vacant", "a3", "french")
    assert code == 0, err
    assert data["board"] == "french" and data["vacant"] == ["a3"]
    code, data, err = run_json(capsys, "replay", "english", "--vacant", "13", "15-13 34-14")
    assert code == 0, err
    assert data["jumps"] == ["a5-a3", "c4-a4"]
    code, data, _ = run_json(capsys, "solve", "--finish", "any", "triangle5")
    assert code == 0 and data["board"] == "triangle5" and data["goal"]["finish"] is None
    # A list still takes several holes, before or after the board's name.
    code, data, _ = run_json(capsys, "solve", "--vacant", "d4", "d2", "english", "--finish", "any")
    assert data["vacant"] == ["d2", "d4"] and data["board"] == "english"
    code, data, _ = run_json(capsys, "solve", "triangle5", "--finish", "1", "13", "--vacant", "4", "--nodes", "10")
    assert data["goal"]["finish"] == ["1", "13"] and data["vacant"] == ["4"]


# ---- F6: a start with no jump is announced at once -----------------------------------

@pytest.mark.parametrize("name,vacant", [("triangle2", None), ("triangle3", 1)])
def test_play_announces_a_start_with_no_jump(name, vacant):
    board = pegsolver.find_variant(name).board()
    if vacant is not None:
        board = board.with_pegs(board.shape.full_mask & ~(1 << vacant))
    assert not board.legal_jumps()

    async def scenario():
        app = PlayApp(board, Goal.anywhere())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.message.startswith("No jump from this start"), app.message
            assert f"{board.peg_count} pegs" in app.message
            assert "undo" not in app.message.lower()
            await pilot.press("n")  # a new game from the same dead start says so again
            assert "No jump from this start" in app.message and "undo" not in app.message.lower()
    asyncio.run(scenario())


def test_restart_into_a_dead_start_says_so():
    game = Game(pegsolver.find_variant("triangle3").board(), Goal.anywhere())
    game.mode = "vacancy"
    text = game.click(1)  # hole 2: no jump lands there
    assert "No jump from this start" in text and "undo" not in text.lower()


# ---- F7: column-row and row-column hole numbers --------------------------------------

def test_numeric_rc_notation_everywhere(capsys):
    code, data, _ = run_json(capsys, "solve", "english", "--notation", "numeric-rc")
    _, plain, _ = run_json(capsys, "solve", "english")
    assert code == 0 and data["vacant"] == ["44"]
    assert [[algebraic(h) for h in j.split("-")] for j in data["jumps"]] == [j.split("-") for j in plain["jumps"]]
    # A board that is not its own transpose: 3 rows, 4 columns.
    _, data, _ = run_json(capsys, "classes", "rect3x4", "--notation", "numeric-rc")
    assert "14" in data["finishes"] and "41" not in data["finishes"]
    _, data, _ = run_json(capsys, "classes", "rect3x4", "--notation", "numeric")
    assert "41" in data["finishes"] and "14" not in data["finishes"]
    code, data, _ = run_json(capsys, "count", "rect3x4", "--notation", "numeric-rc", "--vacant", "12",
                             "--finish", "14")
    assert code == 0 and data["vacant"] == ["12"] and data["finish"] == "14"
    code, _, err = run(capsys, "solve", "rect3x10", "--notation", "numeric-rc")
    assert code == 2 and "--notation numeric-rc needs at most 9 rows and columns" in err


def test_replay_reads_row_column_numbers_on_request(capsys):
    code, data, _ = run_json(capsys, "replay", "english", "--notation", "numeric-rc", "24-44")
    assert code == 0 and data["jumps"] == ["24-44"]
    assert data["final_board"].splitlines()[1] == "    o . o"  # d2 jumped into d4: d2 empty
    code, data, _ = run_json(capsys, "replay", "english", "24-44")
    assert code == 0 and data["final_board"].splitlines()[3] == "o . . o o o o"  # b4 over c4 into d4


def test_replay_says_when_both_readings_are_legal(capsys):
    moves = "24-44, 32-34, 44-24, 36-34"
    code, out, _ = run(capsys, "replay", "english", moves)
    assert code == 0
    assert "read column then row (24 is b4, --notation numeric)" in out
    assert "row then column (24 is d2, --notation numeric-rc), the moves are legal too" in out
    code, data, _ = run_json(capsys, "replay", "english", moves)
    assert data["numbers"] == {"used": "numeric", "other": "numeric-rc", "other_legal": True}
    code, data, _ = run_json(capsys, "replay", "english", "--notation", "numeric-rc", moves)
    assert data["numbers"] == {"used": "numeric-rc", "other": "numeric", "other_legal": True}
    # Legal row-column only: 33-13 is c3-c1 read row first, c3-a3 read column first.
    code, data, _ = run_json(capsys, "replay", "english", "--vacant", "c1", "--notation", "numeric-rc", "33-13")
    assert code == 0 and data["numbers"]["other_legal"] is False
    code, out, _ = run(capsys, "replay", "english", "--vacant", "c1", "--notation", "numeric-rc", "33-13")
    assert "note:" not in out
    code, out, _ = run(capsys, "replay", "english", "--vacant", "c1", "33-13")
    assert code == 1 and "read row then column (13 is c1, --notation numeric-rc), every move is legal" in out
    # Names that read the same either way, or algebraic names: nothing to say.
    assert run_json(capsys, "replay", "english", "d2-d4")[1]["numbers"] is None
    assert run_json(capsys, "replay", "triangle5", "4-1")[1]["numbers"] is None


# ---- F8: plurals -----------------------------------------------------------------------

def test_one_jump_one_move_one_hole(tmp_path, capsys):
    row = tmp_path / "row.txt"
    row.write_text("o o .\n")
    code, out, _ = run(capsys, "solve", str(row), "--svg", str(tmp_path / "row.svg"))
    assert code == 0 and "solved: 1 jump in 1 move, 1 peg left\n" in out
    title = ET.parse(tmp_path / "row.svg").getroot().find(NS + "title").text
    assert title.endswith(": 1 jump in 1 move")
    single = tmp_path / "one.txt"
    single.write_text("o\n")
    code, out, _ = run(capsys, "solve", str(single))
    assert "board: one (1 hole, orthogonal jumps)" in out and "solved: 0 jumps in 0 moves, 1 peg left" in out
    assert "board: one (1 hole, orthogonal jumps)" in run(capsys, "replay", str(single), "a1-a1")[1]
    assert svg.board_svg(Board.from_text("o")).count("1 hole, 1 peg") == 2  # title and caption


# ---- F9: '#' off the board, '*' pegs ------------------------------------------------------

def test_hash_is_off_board_and_star_is_a_peg(tmp_path, capsys):
    english = pegsolver.find_variant("english").board()
    sites = "##ooo##\n##ooo##\nooooooo\nooo.ooo\nooooooo\n##ooo##\n##ooo##"
    assert Board.from_text(sites) == english
    assert Board.from_text(sites.replace("o", "*")) == english
    assert Board.from_text(sites.replace("o", "x").replace(".", "-")) == english  # seed format with '#'
    assert Board.from_text("# * * . *").pegs() == [0, 1, 3]
    with pytest.raises(BoardTextError, match="both '\\*' and 'o'"):
        Board.from_text("* * o .")
    with pytest.raises(BoardTextError, match="both '\\*' and 'x'"):
        Board.from_text("**x-")
    path = tmp_path / "site.txt"
    path.write_text(sites)
    code, data, _ = run_json(capsys, "solve", str(path), "--finish", "d4")
    assert code == 0 and data["vacant"] == ["d4"] and data["final"] == ["d4"]


# ---- F10: from-over-to notation ----------------------------------------------------------

def test_from_over_to_is_named_with_the_jump_meant(capsys):
    code, out, _ = run(capsys, "replay", "triangle5", "4-2-1")
    assert code == 1
    assert "no jump from 4 to 2" in out and "from-over-to" in out and "write 4-1" in out
    code, data, _ = run_json(capsys, "replay", "english", "d2-d3-d4")
    assert code == 1 and "write d2-d4" in data["error"]["reason"]
    code, data, _ = run_json(capsys, "replay", "triangle5", "4-2-1-3-6")  # two jumps, from-over-to
    assert "write 4-1-6" in data["error"]["reason"]
    code, data, _ = run_json(capsys, "replay", "english", "d2-d5")
    assert code == 1 and "from-over-to" not in data["error"]["reason"]


# ---- F11: a file named like a variant --------------------------------------------------------

def test_a_variant_name_means_the_variant(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "english").write_text("o o .\n")
    code, data, err = run_json(capsys, "solve", "english")
    assert code == 0 and len(data["jumps"]) == 31
    assert "'english' is read as the variant english" in err and "./english" in err and "--board english" in err
    code, data, err = run_json(capsys, "solve", "./english")
    assert code == 0 and data["jumps"] == ["a1-c1"] and err == ""
    code, data, _ = run_json(capsys, "solve", "--board", "english")
    assert code == 0 and data["jumps"] == ["a1-c1"]
    (tmp_path / "myboard").write_text("o o .\n")  # not a variant's name: the file
    assert run_json(capsys, "solve", "myboard")[1]["jumps"] == ["a1-c1"]
    (tmp_path / "english").unlink()
    code, _, err = run(capsys, "solve", "english", "--json")
    assert code == 0 and err == ""


# ---- F13: API errors are the project's -------------------------------------------------------

def test_api_misuse_raises_project_errors():
    with pytest.raises(PegsolverError, match="path"):
        boardfile.load(None)
    with pytest.raises(PegsolverError, match="Board"):
        boardfile.dumps(None, None)
    with pytest.raises(PegsolverError, match="Goal"):
        boardfile.dumps(pegsolver.find_variant("english").board(), "d4")
    board = pegsolver.find_variant("english").board()
    with pytest.raises(PegsolverError, match="no jump to undo"):
        board.pop()
    with pytest.raises(IndexError):  # as before, for callers that caught IndexError
        board.pop()


def test_toml_finish_takes_triangle_numbers():
    text = 'variant = "triangle5"\nvacant = [4]\n[goal]\nfinish = 13\n'
    board, goal = boardfile.loads(text)
    assert board.vacancies() == [3] and goal == Goal.at(12)
    _, goal = boardfile.loads('variant = "triangle5"\n[goal]\nfinish = [13, 1]\n')
    assert goal == Goal.pattern([12, 0])
    with pytest.raises(BoardTextError, match="line 3: .*, not true$"):  # TOML's spelling
        boardfile.loads('variant = "triangle5"\n[goal]\nfinish = true\n')
    with pytest.raises(BoardTextError, match="no hole '16'"):
        boardfile.loads('variant = "triangle5"\n[goal]\nfinish = 16\n')


def test_toml_finish_fewest_is_solve_s_fewest_pegs_question(tmp_path, capsys):
    text = 'board = """\nooooo\n"""\n[goal]\nfinish = "fewest"\n'
    assert boardfile.loads(text)[1] == Goal.fewest()
    with pytest.raises(BoardTextError, match=r"line 6: .*fewest.*leave pegs out"):
        boardfile.loads(text + "pegs = 2\n")
    path = tmp_path / "row.toml"
    path.write_text('board = """\no o . o o\n"""\n[goal]\nfinish = "fewest"\n')
    assert main(["solve", str(path), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["final"]) == 2   # oo.oo leaves 2 at best
    assert main(["play", str(path)]) == 2
    assert "finish = \"fewest\" is a question for solve" in capsys.readouterr().err


def test_toml_goal_with_more_pegs_than_the_start_names_the_file_and_line():
    with pytest.raises(BoardTextError, match=r"^v.toml, line 7: goal pegs = 40 but the start has only 8$"):
        boardfile.loads('board = """\nooo\no.o\nooo\n"""\n[goal]\npegs = 40\n', "v.toml")
    every = ", ".join(f'"{r}{c}"' for r in "abc" for c in "123")   # 9 holes, 8 pegs at the start
    lists_9 = r"^v.toml, line 7: goal finish lists 9 holes but the start has only 8 pegs$"
    with pytest.raises(BoardTextError, match=lists_9):
        boardfile.loads(f'board = """\nooo\no.o\nooo\n"""\n[goal]\nfinish = [{every}]\n', "v.toml")
    with pytest.raises(BoardTextError, match=r"line 8: goal pegs = 2 but finish lists 1 hole$"):
        boardfile.loads('board = """\nooo\no.o\nooo\n"""\n[goal]\nfinish = "b2"\npegs = 2\n', "v.toml")


# ---- F14 --------------------------------------------------------------------------------------

IMPORT_INTERRUPTED = r"""
import builtins, sys
import pegsolver                     # the package, then the command line's own imports
if "rich.console" in sys.modules:
    sys.exit(99)                     # nothing left to interrupt: the test would prove nothing
real_import = builtins.__import__
def ctrl_c(name, *args, **kwargs):
    if name == "rich.console":
        raise KeyboardInterrupt
    return real_import(name, *args, **kwargs)
builtins.__import__ = ctrl_c
from pegsolver.apps.cli import main      # what the pegsolver script does
sys.exit(main())
"""


def test_ctrl_c_while_the_command_line_loads():
    proc = subprocess.run([sys.executable, "-c", IMPORT_INTERRUPTED, "solve", "english"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip() == "pegsolver: stopped by Ctrl-C before the command began: nothing was done"


def test_ctrl_c_while_numpy_loads():
    # The package itself loads its parts on first use, so numpy comes in inside the
    # command line's guarded imports, and a Ctrl-C there ends as quietly.
    script = IMPORT_INTERRUPTED.replace('"rich.console"', '"numpy"')
    proc = subprocess.run([sys.executable, "-c", script, "solve", "english"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip() == "pegsolver: stopped by Ctrl-C before the command began: nothing was done"
    lazy = subprocess.run([sys.executable, "-c", "import sys, pegsolver; sys.exit('numpy' in sys.modules)"])
    assert lazy.returncode == 0


def test_ctrl_c_while_loading_still_answers_json(monkeypatch, capsys):
    proc = subprocess.run([sys.executable, "-c", IMPORT_INTERRUPTED, "count", "english", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 130 and json.loads(proc.stdout)["reason"] == "interrupted"
    import pegsolver.apps.cli_count as count_module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(count_module, "load_start", interrupted)   # Ctrl-C before the count has levels
    assert main(["count", "english", "--json"]) == 130
    assert json.loads(capsys.readouterr().out)["reason"] == "interrupted"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_not_read_as_a_board(tmp_path):
    fifo = tmp_path / "board.txt"
    os.mkfifo(fifo)
    for argv in (["--board", str(fifo)], [str(fifo)]):
        try:
            proc = subprocess.run([sys.executable, "-m", "pegsolver", "solve", *argv],
                                  capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("reading a FIFO as a board blocked")
        assert proc.returncode == 2
        assert f"cannot read board file {str(fifo)!r}: not a regular file" in proc.stderr
    with pytest.raises(BoardTextError, match="not a regular file"):
        boardfile.load(tmp_path)  # a directory is no board file either


@pytest.mark.parametrize("argv,message", [
    (["solve", "english", "--finish", "any", "d4"], "--finish any stands alone (one peg anywhere); to name the "
                                                    "finish, give only holes: --finish d4"),
    (["solve", "english", "--finish", "d4", "anywhere"], "--finish anywhere stands alone"),
    (["solve", "english", "--vacant", "d4", "d4"], "--vacant lists hole d4 twice"),
    (["solve", "english", "--vacant", "d4", "44"], "--vacant lists hole d4 twice (as d4 and 44)"),
    (["solve", "english", "--vacant", "d4", "--vacant", "d4"], "--vacant lists hole d4 twice"),
    (["solve", "english", "--finish", "d4", "d4"], "--finish lists hole d4 twice"),
    (["solve", "english", "--strategy", "symmetry", "--beam-width", "100"],
     "--beam-width applies to --strategy beam (or auto), not to --strategy symmetry"),
    (["solve", "english", "--boards", "--json"], "--boards draws the boards in the text output"),
    (["count", "triangle5", "--table", "--unreduced"], "--unreduced does not apply to --table"),
])
def test_options_out_of_place_are_refused(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_beam_width_with_the_beam(capsys):
    code, data, _ = run_json(capsys, "solve", "english", "--strategy", "beam", "--beam-width", "3000")
    assert code == 0 and data["stats"]["strategy"] == "beam"


def test_a_move_no_jump_joins_is_illegal_not_unreadable(capsys):
    code, out, _ = run(capsys, "replay", "english", "d2-d3")
    assert code == 1 and "ILLEGAL: no jump from d2 to d3" in out
    assert "(stopped at the illegal move)" in out
    code, out, _ = run(capsys, "replay", "english", "d2-d9")
    assert code == 2 and "UNREADABLE: no hole 'd9'" in out
    assert "(stopped at the unreadable move)" in out   # the summary said illegal for both
    code, out, _ = run(capsys, "replay", "english", "d2")
    assert code == 2 and "UNREADABLE" in out


def test_play_shows_triangle_hole_numbers():
    board = pegsolver.find_variant("triangle5").board()

    async def scenario():
        app = PlayApp(board, Goal.anywhere())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            rows = list(app.query(".hole-numbers"))
            assert len(rows) == 5
            for label in rows:
                text = str(label.render())
                for number in text.split():
                    hole = app.query_one(f"#hole-{int(number) - 1}")
                    # Right under its hole: the next line, the digits centred on the cell.
                    assert label.region.y == hole.region.y + 1
                    at = label.region.x + text.index(f"{number}")
                    assert hole.region.x <= at and at + len(number) <= hole.region.x + 3
            shown = sorted(int(n) for label in rows for n in str(label.render()).split())
            assert shown == list(range(1, 16))
    asyncio.run(scenario())


def _panels(text):
    return ET.fromstring(text).findall(f"{NS}g[@class='diagram']")


def test_solution_svg_has_coordinates():
    sol = pegsolver.solve("english", strategy="symmetry")
    panels = _panels(svg.solution_svg(sol.start, sol.jumps[:3]))
    assert len(panels) == 4
    for g in panels:
        holes = [(float(c.get("cx")), float(c.get("cy"))) for c in g.iter(NS + "circle") if c.get("class") == "hole"]
        xs, ys = sorted({x for x, _ in holes}), sorted({y for _, y in holes})
        columns = [t for t in g.iter(NS + "text") if t.get("class") == "coord column"]
        rows = [t for t in g.iter(NS + "text") if t.get("class") == "coord row"]
        assert [t.text for t in columns] == list("abcdefg")
        assert [float(t.get("x")) for t in columns] == xs  # each letter over its column
        assert all(float(t.get("y")) < ys[0] for t in columns)
        assert [t.text for t in rows] == [str(r) for r in range(1, 8)]
        assert [float(t.get("y")) for t in rows] == ys
        assert all(float(t.get("x")) < xs[0] for t in rows)
    numeric = _panels(svg.solution_svg(sol.start, sol.jumps[:1], style="numeric"))[0]
    assert [t.text for t in numeric.iter(NS + "text") if t.get("class") == "coord column"] == list("1234567")


def test_triangle_solution_svg_numbers_its_holes():
    sol = pegsolver.solve("triangle5", strategy="symmetry")
    for g in _panels(svg.solution_svg(sol.start, sol.jumps[:2])):
        holes = [(c.get("cx"), c.get("cy")) for c in g.iter(NS + "circle") if c.get("class") == "hole"]
        names = {(t.get("x"), t.get("y")): t.text for t in g.iter(NS + "text") if "name" in t.get("class", "")}
        assert [names[h] for h in holes] == [str(n) for n in range(1, 16)]


# ---- a second new-user review ------------------------------------------------------

@pytest.mark.parametrize("argv", [["solve", "english", "--strategy", "nope", "--json"],
                                  ["solve", "english", "--nodes", "x", "--json"],
                                  ["solve", "english", "--json", "--bogus"]])
def test_json_usage_errors_print_json(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "error" in json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("argv,message", [
    (["solve", "--board", ""], "empty board file name after --board"),
    (["replay", "--board", "", "d2-d4"], "empty board file name after --board"),
    (["solve", "english", "--strategy", "seed", "--order", "down"], "--order does nothing with --strategy seed"),
    (["solve", "english", "--strategy", "dfs", "--table-mb", "1"], "--table-mb does nothing with --strategy dfs"),
    (["solve", "english", "--finish", "fewest", "d4"], "--finish fewest stands alone (the fewest pegs possible)"),
    (["bench", "--problems", "french-a3-any", "--strategies", "reference"], "nothing to run: reference on "
                                                                             "french-a3-any"),
])
def test_inputs_a_second_user_found(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_too_large_drawn_board_names_its_file(tmp_path, capsys):
    big = tmp_path / "sq12.txt"
    big.write_text("\n".join(["o" * 12] * 12) + "\n")
    code, _, err = run(capsys, "solve", str(big))
    assert code == 2 and f"board file {str(big)!r}" in err and "128" in err


def test_api_order_hole_twice_and_with_vacant():
    with pytest.raises(PegsolverError, match="unknown jump order 'sideways'"):
        pegsolver.solve("english", order="sideways")
    board = pegsolver.find_variant("english").board()
    with pytest.raises(PegsolverError, match="lists a hole twice"):
        Goal.pattern([16, "d4"]).resolve(board.shape)
    start = board.with_vacant("c1", 1)  # c1 is hole 0, d1 hole 1
    assert start.vacancies() == [0, 1] and start.peg_count == 31
    with pytest.raises(PegsolverError, match="given twice"):
        board.with_vacant("c1", 0)
    assert board.with_vacant("d4") == board
    for bad in [(), ("d4", "d4"), ("zz",), (99,)]:
        with pytest.raises(PegsolverError):
            board.with_vacant(*bad)


def test_header_comes_before_the_search(capsys):
    code, out, _ = run(capsys, "solve", "english")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("board: english") and lines[1] == "goal: one peg at d4"
    assert lines[2].startswith("strategy: auto")


def test_early_interrupt_keeps_the_symmetries(monkeypatch):
    from pegsolver.engine import search as solver

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(solver, "impossibility", interrupted)
    sol = pegsolver.solve("english")
    assert sol.reason == "interrupted" and sol.stats.symmetries == 8


def test_a_signal_turned_into_an_import_error_leaves_the_guard_as_the_stop():
    # HiGHS (loaded on first use) turns a signal that comes while it loads into an
    # ImportError; the command's guard makes it the SIGTERM (or Ctrl-C) it was again
    import signal
    import time

    from pegsolver.engine.stopping import interrupt_guard
    from pegsolver.errors import Terminated
    with pytest.raises(Terminated) as stop:
        with interrupt_guard():
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(1.0)   # the handler runs here
            except Terminated:
                raise ImportError("initialization failed") from None
    assert isinstance(stop.value.__cause__, ImportError)
    with pytest.raises(ImportError):   # with no signal, a missing module stays what it is
        with interrupt_guard():
            raise ImportError("no module named highspy")


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_stop_noted_by_other_handlers_keeps_the_signals_ignored_after_an_ending_guard(sig):
    # a Dask cluster's start notes a Ctrl-C with handlers of its own: the guard put Python's
    # back, and a later Ctrl-C could end the process by the signal (exit -2, not 130)
    import signal

    from pegsolver.engine.stopping import interrupt_guard, interrupt_name, note_stop, stop_requested
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with pytest.raises(KeyboardInterrupt):
            with interrupt_guard(ending=True):
                note_stop(signal.Signals[sig])
                assert interrupt_name() == ("SIGTERM" if sig == "SIGTERM" else "Ctrl-C")
                raise KeyboardInterrupt
        assert signal.getsignal(signal.SIGINT) is signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
        note_stop(signal.SIGINT)   # outside a guard: no run to stop
        assert not stop_requested()
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    assert interrupt_name() == "Ctrl-C"


@pytest.fixture
def sigint_default():
    # Python's own Ctrl-C handler for the test: a run started as a shell's background job
    # (a CI runner, say) inherits SIGINT ignored, and the guard leaves an ignored signal so
    import signal
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def test_a_signal_whose_exception_was_caught_still_stops_the_enumeration_at_its_next_level(sigint_default):
    # a library's except clause (around an import, say) could swallow the KeyboardInterrupt
    # a signal raised: the guard keeps the signal, and the level loop raises it again
    import signal
    import time

    from pegsolver.analysis import analyse
    from pegsolver.engine.outcome import Reason
    from pegsolver.engine.stopping import interrupt_guard
    with interrupt_guard():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1.0)   # the handler runs here
        except KeyboardInterrupt:
            pass              # swallowed
        a = analyse("triangle6")
    assert a.stopped is Reason.INTERRUPTED and len(a.levels) == 1   # no level past the start
    assert analyse("triangle6").stopped is None   # the next run, out of the guard, is not stopped


@pytest.mark.parametrize("where", ["memory", "spill", "workers"])
def test_a_signal_caught_mid_run_stops_every_kind_of_enumeration(sigint_default, tmp_path, where):
    # a Dask future's __del__ swallowed the KeyboardInterrupt of a Ctrl-C once (CI, under
    # load): the run went on to the end. Every level loop must notice the signal anyway.
    import signal
    import time

    from pegsolver.analysis import analyse
    from pegsolver.engine.outcome import Reason
    from pegsolver.engine.stopping import interrupt_guard
    if where == "workers":
        pytest.importorskip("distributed")

    def swallow_at_2(k, n):
        if k == 2:
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(1.0)   # the handler runs here
            except KeyboardInterrupt:
                pass              # swallowed
    extra = {"memory": {}, "spill": {"spill": tmp_path, "memory_bytes": 8 << 20},
             "workers": {"workers": 2, "memory_bytes": 64 << 20}}[where]
    with interrupt_guard():
        a = analyse("english", progress=swallow_at_2, **extra)
    assert a.stopped is Reason.INTERRUPTED and 3 <= len(a.levels) <= 4, (a.stopped, a.message, len(a.levels))


def test_the_program_ends_on_a_signal_that_came_as_it_loaded_even_if_caught(monkeypatch, capsys):
    # pegsolver's entry point keeps a signal that came while its modules loaded: one whose
    # exception something caught on the way still ends the program, with exit 130
    import signal

    from pegsolver.apps import entry
    from pegsolver.engine import stopping
    monkeypatch.setattr(stopping, "early_signals", [KeyboardInterrupt()])
    monkeypatch.setattr(sys, "argv", ["pegsolver", "solve", "english", "--json"])
    old = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with pytest.raises(SystemExit) as stop:
            entry.run()
    finally:   # run() takes the signals for the program: give them back to pytest
        for sig, handler in old.items():
            signal.signal(sig, handler)
    out, err = capsys.readouterr()
    assert stop.value.code == 130 and "stopped by Ctrl-C before the command began" in err
    assert json.loads(out)["reason"] == "interrupted"


def test_an_error_that_a_signal_became_leaves_the_guard_as_the_stop(sigint_default):
    # Python wraps an exception raised in a class's __set_name__ in a RuntimeError: a Ctrl-C
    # as numpy made a class came out as one (a new user's find); after a signal, the guard
    # makes any error the stop, and with no signal an error stays what it is
    import signal
    import time

    from pegsolver.engine.stopping import interrupt_guard
    with pytest.raises(KeyboardInterrupt) as stop:
        with interrupt_guard():
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(1.0)
            except KeyboardInterrupt as e:
                raise RuntimeError("Error calling __set_name__") from e
    assert isinstance(stop.value.__cause__, RuntimeError)
    with pytest.raises(RuntimeError):
        with interrupt_guard():
            raise RuntimeError("a fault of its own")


def test_the_program_ends_on_a_signal_that_became_another_error_as_it_loaded(monkeypatch, capsys):
    import builtins
    import signal

    from pegsolver.apps import entry
    from pegsolver.engine import stopping
    real_import = builtins.__import__

    def loading(name, *args, **kwargs):   # the signal comes as cli loads, and becomes a RuntimeError
        if name == "cli":
            stopping.early_signals.append(KeyboardInterrupt())
            raise RuntimeError("Error calling __set_name__ on 'cached_property' instance")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(stopping, "early_signals", [])
    monkeypatch.setattr(builtins, "__import__", loading)
    monkeypatch.setattr(sys, "argv", ["pegsolver", "solve", "english"])
    old = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with pytest.raises(SystemExit) as stop:
            entry.run()
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    assert stop.value.code == 130 and "stopped by Ctrl-C before the command began" in capsys.readouterr().err


@pytest.mark.parametrize("swallowed", [False, True])
def test_a_signal_as_the_arguments_are_read_is_the_stop(monkeypatch, capsys, swallowed):
    # a new user's find: SIGTERM as argparse read the arguments came out as its clean-up's
    # AttributeError (a traceback), and a Ctrl-C there was lost (the run went on, exit 0)
    import argparse

    from pegsolver.apps.cli import main
    from pegsolver.engine import stopping
    monkeypatch.setattr(stopping, "early_signals", [])
    real = argparse.ArgumentParser.parse_known_args

    def reading(self, *args, **kwargs):   # the signal comes as the arguments are read
        stopping.early_signals.append(KeyboardInterrupt())
        if swallowed:
            return real(self, *args, **kwargs)
        raise AttributeError("'_StoreAction' object has no attribute 'save_nargs'")
    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", reading)
    assert main(["solve", "english", "--json"]) == 130
    out, err = capsys.readouterr()
    said = json.loads(out)
    assert said["reason"] == "interrupted" and "Traceback" not in err
    assert err == f"pegsolver: {said['error']}\n" == "pegsolver: stopped by Ctrl-C before the command had an answer\n"



def _ends_with_the_answer(script: str) -> bool:
    # the script run with Ctrl-C at its default (a test runner may ignore it): exit 0, the
    # answer alone on stdout and nothing on stderr
    import signal
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    return (done.returncode, done.stdout, done.stderr) == (0, "the answer\n", "")


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_after_the_answer_ends_the_program_with_the_answer_s_code(sig):
    # a signal as the interpreter shut down (an exit hook, Dask's threads) came out as a
    # traceback after a complete answer; it now ends the program at once with the answer's code
    script = (
        "import atexit, os, signal, sys, time\n"
        "import pegsolver.apps.cli as cli\n"
        "from pegsolver.apps import entry\n"
        f"atexit.register(lambda: (os.kill(os.getpid(), signal.{sig}), time.sleep(2)))\n"
        "cli.main = lambda: (print('the answer'), 0)[1]\n"
        "sys.argv = ['pegsolver']\n"
        "entry.run()\n")
    assert _ends_with_the_answer(script)


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_after_the_exit_hooks_does_not_kill_a_process_whose_answer_is_complete(sig):
    # past the exit hooks the interpreter puts back the default action of its handlers: a
    # trial's SIGTERM there ended a complete answer with exit 143 (death by the signal). The
    # last hook now ignores the signals, so the process ends with the answer's code; here the
    # signal comes right after that hook has run
    script = (
        "import os, signal, sys\n"
        "from pegsolver.apps import entry\n"
        "entry._take(entry._signalled)\n"
        "entry._take_after_answer(0)\n"
        "entry._ignore_late_signals()\n"
        f"os.kill(os.getpid(), signal.{sig})\n"
        "print('the answer')\n")
    assert _ends_with_the_answer(script)


def test_a_signal_as_the_command_returns_says_its_answer_is_complete(monkeypatch, capsys):
    # it ended the program with exit 130 and nothing on stderr, after a whole "solved" answer
    import pegsolver.apps.cli as cli
    from pegsolver.apps import entry
    from pegsolver.errors import Terminated

    def answered_then_stopped():
        print("the answer")
        raise Terminated
    monkeypatch.setattr(cli, "main", answered_then_stopped)
    monkeypatch.setattr(sys, "argv", ["pegsolver"])
    import signal
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with pytest.raises(SystemExit) as stop:
            entry.run()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    out, err = capsys.readouterr()
    assert stop.value.code == 130 and out == "the answer\n"
    assert err == "pegsolver: stopped by SIGTERM as the command returned; its answer above is complete\n"


# ---- memory the system refuses within the budget (a trial ran under ulimit -v) ----------

def test_a_refused_allocation_in_the_levels_by_moves_is_a_memory_stop(monkeypatch):
    from pegsolver.engine import move_levels
    real, calls = move_levels.encode, []

    def refusing(keys, *args):   # the fourth level kept finds no memory (zstd's error became this)
        calls.append(len(keys))
        if len(calls) == 4:
            raise MemoryError("compressing 9 positions: not enough memory")
        return real(keys, *args)
    monkeypatch.setattr(move_levels, "encode", refusing)
    sol = pegsolver.solve("english", minimize="moves", limit=pegsolver.Limit(seconds=30))
    # the levels stopped (before, a traceback), the beams found 18 and the pruned passes proved it
    assert calls[:4] == [1, 1, 1, 1] and "after a limit stopped the search by moves" in sol.to_text()
    assert sol.optimal and sol.lower_bound == 18 == len(sol.moves)
    assert_solves(sol)


def test_a_refused_table_in_count_is_named_as_the_system_s_refusal(monkeypatch):
    from pegsolver.analysis import analyse
    from pegsolver.engine import levels

    class Refusing:   # the enumeration core, whose tables the system refuses
        def __init__(self, E):
            self.inner = E

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def Level(self, *args):
            raise MemoryError("region counts")
    real = levels.LevelRun.__init__

    def init(self, *args, **kwargs):
        real(self, *args, **kwargs)
        self.E = Refusing(self.E)
    monkeypatch.setattr(levels.LevelRun, "__init__", init)
    a = analyse("english", memory_bytes=1 << 30, keep_positions=False, threads=1)
    assert a.stopped == "memory limit" and "the system refused memory for a table for level " in a.message
    assert "within the memory budget of 1 GiB" in a.message


def test_memory_refused_outside_a_search_is_a_one_line_error(monkeypatch, capsys):
    from pegsolver.apps import cli

    def refused(args):
        raise MemoryError("a set of 2936012 positions")
    monkeypatch.setitem(cli.COMMANDS, "count", refused)
    code, out, err = run(capsys, "count", "english", "--json")
    assert code == 1 and json.loads(out)["reason"] == "memory limit" and "Traceback" not in err
    assert err.count("\n") == 1 and "out of memory (a set of 2936012 positions): the system refused" in err
