"""The command line: text and JSON output, exit codes, errors, Ctrl-C."""
import json
import re
import signal
import time

import pytest

import interrupting
from pegsolver.apps.cli import main
from replay import replay_coords

ENGLISH_HOLES = {(r, c) for r in range(7) for c in range(7) if 2 <= r <= 4 or 2 <= c <= 4}


def coord(name):
    """Algebraic name -> (row, col), written here independently of pegsolver."""
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_english_text(capsys):
    code, out, _ = run(capsys, "solve", "english")
    assert code == 0
    assert "goal: one peg at d4" in out
    assert "solved: 31 jumps" in out
    assert "final: d4" in out
    assert "tests " in out and "nodes " in out


def test_solve_english_json_replays(capsys):
    code, out, _ = run(capsys, "solve", "english", "--json")
    data = json.loads(out)
    assert code == 0 and data["solved"] is True
    assert {"goal", "jumps", "final", "stats"} <= data.keys()
    assert {"tests", "nodes", "seconds"} <= data["stats"].keys()
    jumps = [tuple(coord(h) for h in j.split("-")) for j in data["jumps"]]
    final = replay_coords("square", ENGLISH_HOLES, ENGLISH_HOLES - {(3, 3)}, jumps)
    assert final == {(3, 3)} and data["final"] == ["d4"]


def test_seed_strategy_from_the_shell(capsys):
    code, out, _ = run(capsys, "solve", "english", "--strategy", "seed", "--json")
    data = json.loads(out)
    assert data["stats"]["tests"] == 391_859
    assert data["goal"]["text"] == "one peg anywhere"


def test_boards_flag_prints_each_position(capsys):
    code, out, _ = run(capsys, "solve", "triangle5", "--boards")
    assert code == 0
    assert out.count("\n    .\n") >= 1  # the start: apex empty


def test_vacant_and_finish(capsys):
    code, out, _ = run(capsys, "solve", "french", "--vacant", "e1", "--finish", "any", "--json")
    data = json.loads(out)
    assert data["vacant"] == ["e1"] and data["solved"]


def test_board_file(tmp_path, capsys):
    path = tmp_path / "row.txt"
    path.write_text("o o . o\n")
    code, out, _ = run(capsys, "solve", "--board", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["jumps"] == ["a1-c1", "d1-b1"] and data["final"] == ["b1"]


@pytest.mark.parametrize("name, text, fix", [
    ("start.toml", 'variant = "french"\nvacant = ["c1"]\n', "its 'vacant' key"),
    ("start.toml", 'board = """\no o . o\n"""\n', "its 'vacant' key"),
    ("start.txt", "o o . o\n", "draw every hole of the file filled"),
])
def test_vacant_is_refused_where_the_board_file_gives_its_own_start(tmp_path, capsys, name, text, fix):
    # --vacant used to replace the file's start silently; the file reader refuses two starts too
    path = tmp_path / name
    path.write_text(text)
    for cmd in (["solve"], ["replay", "--board", str(path), "a1-c1"]):
        argv = cmd + ([str(path)] if cmd == ["solve"] else []) + ["--vacant", "d1"]
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == ""
        assert "gives its own start" in err and "vacant) and --vacant" in err and fix in err


def test_vacant_naming_the_files_own_start_is_the_same_start(tmp_path, capsys):
    (tmp_path / "start.txt").write_text("o o . o\n")
    code, out, _ = run(capsys, "solve", str(tmp_path / "start.txt"), "--vacant", "c1", "--json")
    assert code == 0 and json.loads(out)["vacant"] == ["c1"]


def test_vacant_applies_where_the_board_file_gives_no_start(tmp_path, capsys):
    # a variant without 'vacant' takes the variant's start, which --vacant replaces as on the variant
    (tmp_path / "v.toml").write_text('variant = "french"\n')
    (tmp_path / "full.txt").write_text("o o o o\n")
    for path, hole, final in (("v.toml", "e1", None), ("full.txt", "b1", ["c1"])):
        code, out, _ = run(capsys, "solve", str(tmp_path / path), "--vacant", hole, "--finish", "any", "--json")
        data = json.loads(out)
        assert code == 0 and data["vacant"] == [hole] and data["solved"]
        assert final is None or data["final"] == final


def test_count_aims_at_the_board_files_finish(tmp_path, capsys):
    # the file's one-peg finish counts as --finish would; goals counts cannot use get a note
    (tmp_path / "t5.toml").write_text('variant = "triangle5"\n[goal]\nfinish = 13\n')
    (tmp_path / "two.toml").write_text('variant = "triangle5"\n[goal]\nfinish = "any"\npegs = 2\n')
    code, out, _ = run(capsys, "count", str(tmp_path / "t5.toml"), "--json")
    flagged = json.loads(run(capsys, "count", "triangle5", "--finish", "13", "--json")[1])
    data = json.loads(out)
    assert code == 0 and data["solutions"] == flagged["solutions"] == 16_128  # triangle 5, 1 -> 13
    code, out, err = run(capsys, "count", str(tmp_path / "two.toml"), "--json")
    assert code == 0 and json.loads(out)["solutions"] is None and "[goal] is not used" in err
    code, _, err = run(capsys, "table", str(tmp_path / "t5.toml"))
    assert "covers every vacancy and finish; the board file's [goal] is not used" in err
    # the file's start is named too (a trial's vacant = [4] went unsaid)
    (tmp_path / "start.toml").write_text('variant = "triangle5"\nvacant = [4]\n')
    code, _, err = run(capsys, "table", str(tmp_path / "start.toml"), "--seconds", "5")
    assert code == 0 and "the board file's start is not used" in err


def test_a_board_file_named_with_a_dash_after_double_dash(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-row.txt").write_text("o o . o\n")
    code, out, _ = run(capsys, "solve", "--json", "--", "-row.txt")
    data = json.loads(out)
    assert code == 0 and data["jumps"] == ["a1-c1", "d1-b1"]
    # a word after '--' is never an option: here one of the moves, which cannot be read
    code, out, err = run(capsys, "replay", "english", "--", "d2-d4", "--json")
    assert code == 2 and "2. --json       UNREADABLE" in out and "move 2 '--json' cannot be read" in err


def test_a_negative_number_is_read_as_the_value_of_its_option(capsys):
    # argparse took '-1e3' for an option: "expected one argument"; now the value is named
    with pytest.raises(SystemExit) as stop:
        main(["solve", "english", "--nodes", "-2.5"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "argument --nodes: invalid whole number value: '-2.5'" in err
    code, _, err = run(capsys, "solve", "english", "--nodes", "-1e3")
    assert code == 2 and "--nodes must be at least 1, not -1000" in err


def test_a_count_of_nodes_is_read_as_seconds_are(capsys):
    # --seconds took 1e3 and --nodes refused it; both take it now, and a fraction is refused
    code, out, _ = run(capsys, "solve", "triangle5", "--nodes", "1e3", "--json")
    assert code == 0 and json.loads(out)["solved"]
    with pytest.raises(SystemExit) as stop:
        main(["solve", "english", "--strategy", "beam", "--beam-width", "2.5"])
    assert stop.value.code == 2 and "--beam-width: invalid whole number value: '2.5'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:   # not the float's digits, 1000000000000000019884624838656
        main(["solve", "english", "--nodes", "1e30"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "--nodes: 1e30 is past the largest count" in err
    assert "9,223,372,036,854,775,807" in err


def test_exhausted_search_exits_1(capsys):
    code, out, _ = run(capsys, "solve", "triangle3", "--vacant", "1", "--no-proofs")
    assert code == 1 and "no solution" in out
    code, out, _ = run(capsys, "solve", "triangle3", "--vacant", "1")
    assert code == 1 and "impossible" in out


@pytest.mark.parametrize("argv,message", [
    (["solve", "hexagon"], "unsupported variant: 'hexagon'"),
    (["solve", "english", "--vacant", "a1"], "no hole 'a1'"),
    (["solve", "english", "--finish", "z9"], "no hole 'z9'"),
    (["solve", "--board", "/nonexistent/board.txt"], "cannot read board file"),
    (["solve", "./nonexistent-board"], "cannot read board file './nonexistent-board'"),   # as given
    (["solve", "./nonexistent.toml"], "cannot read board file './nonexistent.toml'"),
    (["solve", "english", "--nodes", "0"], "--nodes must be at least 1"),
    (["solve", "english", "--seconds", "-1"], "--seconds must be 0"),
    # a value is quoted as typed, and one that argparse would take for an option is still a value
    (["solve", "english", "--seconds", "-1"], "positive, finite number, not -1\n"),
    (["solve", "english", "--seconds", "1e999"], "positive, finite number, not 1e999\n"),
    (["solve", "english", "--seconds", "-1e3"], "positive, finite number, not -1e3\n"),
    (["solve", "english", "--sec", "-inf"], "positive, finite number, not -inf\n"),
    (["count", "english", "--memory-gb", "-.5"], "--memory-gb must be a number of GiB from 1 MiB to 1 PiB, not -.5\n"),
    (["solve", "english", "--table-mb", "-1E3"], "--table-mb must be a number of MiB from 1 KiB to 1 TiB, not -1E3\n"),
    (["solve", "triangle16"], "136 holes; the largest board supported has 128"),
    (["solve", "diamond-diagonal-diagonal"], "the suffix -diagonal is given once"),
    (["solve", "triangle5-diagonal"], "diagonal jumps need a square grid"),
    (["replay", "triangle5", "--notation", "numeric", "4-1"], "--notation numeric is for square boards"),
    (["count", "triangle5", "--notation", "numeric-rc"], "--notation numeric-rc is for square boards"),
    (["solve", "triangle5", "--vacant", "\u0664"], "no hole '\u0664' on board 'triangle5'"),  # an Arabic-Indic 4
    (["solve", "english", "--vacant", "\u0664\u0664"], "is not a hole name on board 'english'"),
    (["solve", "triangle\u0665"], "unsupported variant: 'triangle\u0665'"),
    (["count", "english", "--memory-gb", "0.001", "--threads", "1"],
     "below the 2 MiB that an enumeration of 'english' on 1 thread"),
])
def test_bad_input_exits_2_with_a_message(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("text,message", [
    ("", "board text is empty"),
    ("- - -", "has no pegs"),
    ("o o\no @ o", "line 2, column 3: unknown character '@'"),
    ("o" * 129, "more than 128 holes"),
])
def test_bad_board_files_exit_2(tmp_path, capsys, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    code, _, err = run(capsys, "solve", "--board", str(path))
    assert code == 2 and message in err


def test_goal_with_more_pegs_than_the_start(tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text("o o .\n")
    code, _, err = run(capsys, "solve", "--board", str(path), "--finish", "a1", "b1", "c1")
    assert code == 2 and "leaves 3 pegs but the start has only 2" in err


def stopped_by(sig, argv, after, timeout):
    """The output of ``pegsolver ARGV`` sent ``sig`` after ``after`` s: it must end with
    exit 130 and no traceback within ``timeout`` s."""
    proc = interrupting.start(argv)
    time.sleep(after)
    proc.send_signal(sig)
    out, err = interrupting.finish(proc, timeout)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    return out, err


def test_ctrl_c_stops_the_search_and_reports(tmp_path):
    # French centre -> anywhere has no solution and a long search: interrupt it.
    out, _ = stopped_by(signal.SIGINT, ["solve", "french", "--vacant", "d4", "--seconds", "0", "--no-proofs"], 1.5, 20)
    assert "Ctrl-C stopped the portfolio after" in out and "nothing proved" in out and "nodes" in out


def test_sigterm_stops_a_search_as_ctrl_c_does():
    # a batch system's time limit: the answer so far, exit 130, and which signal it was
    out, err = stopped_by(signal.SIGTERM, ["solve", "diamond", "--strategy", "dfs"], 1.5, 20)
    assert "not solved: stopped by SIGTERM before a solution was found" in out and "nodes" in out
    assert "Ctrl-C" not in out + err
    out, err = stopped_by(signal.SIGTERM, ["count", "english", "--by", "moves"], 2.0, 30)
    assert "the levels above are complete" in out and "Ctrl-C" not in out + err
    out, err = stopped_by(signal.SIGTERM, ["count", "english"], 2.0, 30)
    assert "stopped by SIGTERM" in out + err and "Ctrl-C" not in out + err


def test_ctrl_c_stops_a_whole_table():
    # diamond e1 is settled by no member in minutes, so the table is still running
    _, err = stopped_by(signal.SIGINT, ["table", "diamond", "--seconds", "0"], 2.5, 30)
    assert "stopped by Ctrl-C after" in err
    # by moves: the pairs tried are those done and the interrupted one, in both counts
    out, err = stopped_by(signal.SIGINT, ["table", "triangle7", "--fewest-moves", "--seconds", "0.2"], 4.0, 30)
    tried = int(re.search(r"of (\d+) pairs tried not settled \(stopped before the rest\)", out)[1])
    done = int(re.search(r"after (\d+) of 784 problems; problem (\d+), interrupted", err)[1])
    assert tried == done + 1


def test_a_triangle_drawn_on_the_square_grid_is_named_as_such(tmp_path, capsys):
    path = tmp_path / "half.txt"
    path.write_text(". o o\n o o\n  o\n")
    code, _, err = run(capsys, "solve", str(path), "--grid", "square")
    assert code == 2 and "line 2, column 2" in err and "read on the triangle grid" in err
    # rules that cannot run on the grid named are the error, before the drawing is read
    code, _, err = run(capsys, "solve", str(path), "--rules", "triangular", "--grid", "square")
    assert code == 2 and "rules 'triangular' do not fit a square grid" in err and "line 2" not in err
    code, out, _ = run(capsys, "solve", str(path), "--rules", "triangular", "--json")
    assert code == 1 and json.loads(out)["start"] == ". o o\n o o\n  o"   # read as a triangle


def test_rules_only_for_drawn_boards(capsys):
    code, _, err = run(capsys, "solve", "english", "--rules", "diagonal")
    assert code == 2 and "english-diagonal" in err


def test_an_extra_word_points_to_its_command_help(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["count", "english", "--finish", "d4", "d5"])
    assert stop.value.code == 2
    # and says --finish takes one hole (count aims at one finish; a trial read the bare message as a bug)
    assert ("pegsolver: error: unrecognized arguments: d5 (--finish takes one HOLE, not a list) "
            "(see pegsolver count --help)") in capsys.readouterr().err
    with pytest.raises(SystemExit):   # after a flag, no such hint
        main(["count", "--positions-only", "english", "d5"])
    assert "error: unrecognized arguments: d5 (see pegsolver count --help)" in capsys.readouterr().err


def test_a_signal_stops_the_moves_of_one_sparse_position_at_once():
    # rect7x7-diagonal: one core call lists millions of moves; it took 46 s to see Ctrl-C
    import time
    t0 = time.monotonic()
    out, _ = stopped_by(signal.SIGTERM, ["solve", "rect7x7-diagonal", "--fewest-moves", "--seconds", "60"], 4.0, 30)
    assert time.monotonic() - t0 < 15 and "proved >= " in out


def test_ctrl_c_after_fewest_moves_found_a_solution_is_still_exit_130():
    # triangle 11: the first search finds a solution in under a second, the beams then run on
    # (a full run once answered unsolved at 4 s, not seen alone: 8 s, and the answer shown)
    out, _ = stopped_by(signal.SIGINT, ["solve", "triangle11", "--fewest-moves", "--json"], 8.0, 30)
    answer = json.loads(out)
    assert answer["solved"] is True and answer["reason"] == "interrupted" and answer["optimal"] is False, out
    assert len(answer["moves"]) >= 19 > answer["lower_bound"]   # A127500: 19 <= S(11)


def test_fewest_moves_with_too_many_finishes_prints_only_its_error(capsys):
    # 10 pegs anywhere on the English board is 92,561,040 finishes: refused before the header
    code, out, err = run(capsys, "solve", "english", "--fewest-moves", "--pegs", "10")
    assert code == 2 and out == "" and "92,561,040 finishes" in err and "name the finish holes" in err


def test_sigterm_while_the_program_loads_ends_it_as_ctrl_c_does():
    # the command line's modules take about half a second to load: SIGTERM then ended the
    # process by the signal, silently; now exit 130 and an answer on stdout (JSON here)
    # whether it lands in the loading or, on a fast machine, in the search
    proc = interrupting.start(["solve", "english", "--fewest-moves", "--json"])
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    out, err = interrupting.finish(proc, 30)
    assert proc.returncode == 130 and json.loads(out)["reason"] == "interrupted" and "Traceback" not in err, \
        (proc.returncode, out, err)


def test_the_status_line_rate_counts_from_the_first_report():
    from pegsolver.apps.progress import Rate
    r = Rate(gap=0.2)
    assert r.update(1_000, 5.0) is None          # 5 s of set-up before the first report: no rate yet
    assert r.update(3_000, 5.1) is None          # too soon after it
    assert r.update(11_000, 6.0) == 10_000.0     # 10,000 nodes in the second since
    assert r.update(12_000, 6.1) == 10_000.0     # kept until the next gap
    assert r.update(500, 6.5) is None            # a new count starts anew


def test_an_interruption_while_the_answer_is_written_adds_no_answer_of_its_own(monkeypatch, capsys):
    # Ctrl-C or SIGTERM as a long --json answer waits on a full pipe: the half-written
    # answer gets no second JSON object after it, and stderr says the output is cut short.
    import sys

    import pegsolver.apps.cli as cli

    def half(args):
        print('{"board": "french", "table": [', end="")
        raise KeyboardInterrupt
    monkeypatch.setitem(cli.COMMANDS, "table", half)
    assert main(["table", "french", "--json"]) == 130
    out, err = capsys.readouterr()
    assert out == '{"board": "french", "table": ['
    assert "while the answer was written: the output is incomplete" in err
    assert not isinstance(sys.stdout, cli._Watched)   # put back after the command
    monkeypatch.setitem(cli.COMMANDS, "table", lambda args: (_ for _ in ()).throw(KeyboardInterrupt))
    assert main(["table", "french", "--json"]) == 130   # nothing written yet: the interruption's answer
    assert json.loads(capsys.readouterr().out)["reason"] == "interrupted"


def test_a_proof_names_its_holes_in_the_chosen_notation(capsys):
    # the class and pagoda proofs spoke algebraic whatever --notation said
    code, out, _ = run(capsys, "solve", "english", "--vacant", "44", "--finish", "33", "--notation", "numeric")
    assert code == 1 and "impossible: the start and the finish one peg at 33 are in different" in out
    assert "c3" not in out
    code, out, _ = run(capsys, "solve", "english", "--vacant", "d4", "--finish", "c3", "--json")
    assert code == 1 and "one peg at c3 are in different" in json.loads(out)["explanation"]
    code, out, _ = run(capsys, "solve", "rect3x3", "--vacant", "11", "--notation", "numeric", "--json")
    answer = json.loads(out)
    assert answer["reason"] == "pagoda" and "one peg at 11, the one hole of its position class" in answer["explanation"]


def test_second_cli_trial_findings(capsys):
    # a finish in another position class fixes no symmetry: the header said "start and finish"
    code, out, _ = run(capsys, "count", "triangle5", "--vacant", "4", "--finish", "13")
    assert code == 0 and "(2 symmetries fix the start)" in out
    code, out, _ = run(capsys, "count", "triangle5", "--vacant", "1", "--finish", "1")  # hole index 0
    assert code == 0 and "(2 symmetries fix the start and finish)" in out
    code, out, _ = run(capsys, "count", "triangle5", "--by", "moves")   # by moves, with no finish too
    assert code == 0 and "(2 symmetries fix the start)" in out and "backward" in out
    # --finish any counts toward no finish, as solve reads the word (it was "no hole 'any'")
    code, out, _ = run(capsys, "count", "triangle5", "--finish", "any", "--json")
    assert code == 0 and json.loads(out)["finish"] is None and json.loads(out)["total"] == 1_544
    # a board number after --vacant is read as a hole of english, and said so
    code, out, err = run(capsys, "solve", "--vacant", "a3", "37", "--nodes", "1000")
    assert "board: english" in out and "vacant: a3 c7" in out
    assert "note: 37 is read as a hole of the default board, english; for board 37 (french)" in err
    code, out, err = run(capsys, "solve", "--finish", "d4", "37", "--nodes", "1000")
    assert "goal: 2 pegs at" in out and "note: 37 is read as a hole of the default board" in err
    code, _, err = run(capsys, "solve", "--vacant", "33", "--notation", "numeric")
    assert "note" not in err
    code, out, err = run(capsys, "solve", "--finish", "d4", "33", "--nodes", "1000")   # board 33 meant?
    assert "goal: 2 pegs at c3 d4" in out and "note: 33 is read as a hole of the default board, english; " \
        "for board 33 name it before" in err
    code, _, err = run(capsys, "solve", "rect1x12", "--notation", "numeric")
    assert code == 2 and "has 1 row and 12 columns" in err
    code, out, _ = run(capsys, "boards")
    assert "of at most 128 holes (triangle15, square11)" in out


def _pegsolver(args, **popen):
    import subprocess
    import sys
    return subprocess.Popen([sys.executable, "-m", "pegsolver", *args], text=True, **popen)


def test_a_reader_that_goes_away_gives_141_not_a_success():
    # `solve ... | head -n1` exited 0 for an unsolved problem: the answer was cut short
    import subprocess
    proc = _pegsolver(["solve", "french", "--vacant", "d4"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()   # gone before the answer is written
    err = proc.stderr.read()
    assert proc.wait(60) == 141 and "Traceback" not in err, err


def test_closed_output_streams_are_an_error_or_ignored_not_a_traceback():
    import os
    import subprocess
    proc = _pegsolver(["solve", "english"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                      preexec_fn=lambda: os.close(1))   # >&-
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "standard output is closed" in err and "Traceback" not in err, err
    # 2>&-: the note that 37 was read as a hole went into the JSON on stdout
    proc = _pegsolver(["solve", "--vacant", "d4", "37", "--json"], stdout=subprocess.PIPE,
                      preexec_fn=lambda: os.close(2))
    out, _ = proc.communicate(timeout=60)
    assert json.loads(out)["solved"] in (True, False)


def test_an_os_error_without_words_is_named_by_its_type(monkeypatch, capsys):
    # Dask's start-up TimeoutError reached this handler as "cannot write the output: " and nothing
    from pegsolver.apps import cli

    def fails(args):
        raise TimeoutError()
    monkeypatch.setitem(cli.COMMANDS, "boards", fails)
    assert main(["boards"]) == 2
    assert capsys.readouterr().err.endswith("cannot write the output: TimeoutError\n")


def test_a_second_board_file_is_refused_and_a_triangle_drawn_names_the_options(tmp_path, capsys):
    # a trial's second --board was used and the first dropped without a word
    row = tmp_path / "row.txt"
    row.write_text("o o .\n")
    other = tmp_path / "other.txt"
    other.write_text(". o o\n")
    with pytest.raises(SystemExit) as stop:   # argparse's own error
        main(["solve", "--board", str(row), "--board", str(other)])
    assert stop.value.code == 2 and "argument --board: given twice" in capsys.readouterr().err
    tri = tmp_path / "tri.txt"
    tri.write_text("    o\n   o o\n  o . o\n")
    code, _, err = run(capsys, "solve", "--board", str(tri))
    assert code == 2 and "on the command line --rules triangular or --grid triangle" in err
    code, out, _ = run(capsys, "solve", "--board", str(tri), "--grid", "triangle")
    assert code in (0, 1) and "(6 holes, triangular jumps)" in out


@pytest.mark.parametrize("argv", [
    ["solve", "english", "--strategy", "seed", "--strategy", "guided"],
    ["solve", "english", "--svg", "a.svg", "--svg", "b.svg"],
    ["solve", "english", "--backend", "core", "--backend", "reference"],
    ["bench", "--nodes", "10", "--nodes", "20"],
    ["table", "triangle5", "--seconds=1", "--seconds", "5"],
    ["count", "triangle5", "--threads", "1", "--threads", "2"],
])
def test_a_single_value_option_given_twice_is_refused(argv, capsys, tmp_path, monkeypatch):
    # a trial's --strategy seed --strategy guided ran guided, and --svg a.svg --svg b.svg
    # never wrote a.svg: argparse keeps the last value without a word
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and f"argument {argv[-2].split('=')[0]}: given twice" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_the_same_value_given_twice_is_taken_once(capsys):
    code, out, _ = run(capsys, "solve", "english", "--strategy", "seed", "--strategy", "seed")
    assert code == 0 and "tests 391,859" in out


def test_the_text_gives_the_closest_dead_end_as_the_json_does(capsys):
    # a trial found closest (12 jumps, 2 pegs) in --json and nothing in the text
    code, out, _ = run(capsys, "solve", "rect3x5", "--json")
    closest = json.loads(out)
    code, out, _ = run(capsys, "solve", "rect3x5")
    line = next(x for x in out.splitlines() if x.startswith("closest: "))
    assert line.startswith(f"closest: {closest['closest_pegs']} pegs left")
    assert line.split(": ", 2)[2].count("-") == len(closest["closest"]) == 12   # one dash a jump


def test_k_pegs_anywhere_past_64_holes_is_not_refused_for_its_finishes(capsys):
    # only beams run there, forward: the 2**20 finishes of the backward side do not apply
    code, out, _ = run(capsys, "solve", "triangle11", "--fewest-moves", "--pegs", "60", "--seconds", "20", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["solved"] and len(answer["moves"]) == answer["lower_bound"]


def test_a_count_far_past_its_memory_says_so_before_it_starts(capsys):
    # a trial's count wiegleb (about 95 G positions) ran a minute and 5.4 GB, then stopped
    code, _, err = run(capsys, "count", "wiegleb", "--memory-gb", "1", "--seconds", "0.5")
    assert code == 1 and "note: this count may need up to" in err and "--spill DIR" in err
    code, _, err = run(capsys, "count", "triangle5", "--memory-gb", "1")
    assert code == 0 and "note:" not in err
    code, _, err = run(capsys, "count", "english", "--memory-gb", "1")   # it fits: 0.5 GB at its peak
    assert code == 0 and "note:" not in err
    # a budget refused as too small is refused before the note (a trial got both, note first)
    code, _, err = run(capsys, "count", "french", "--memory-gb", "0.001", "--threads", "2")
    assert code == 2 and "note:" not in err and "is below the 3 MiB that an enumeration of 'french' on 2 " in err


def test_standard_finish_kept_after_another_vacancy_is_noted(capsys):
    # --vacant a3 keeps english's d4 finish, impossible by class: the answer says where the finish came from
    code, out, _ = run(capsys, "solve", "english", "--vacant", "a3")
    assert code == 1 and "goal: one peg at d4" in out and "position classes" in out
    assert "note: the finish is english's standard one" in out
    for extra in (["--finish", "d4"], ["--pegs", "1"]):   # a finish the user chose is not questioned
        code, out, _ = run(capsys, "solve", "english", "--vacant", "a3", "--nodes", "1000", *extra)
        assert "note: the finish" not in out
    code, out, _ = run(capsys, "solve", "english", "--vacant", "a3", "--json")
    assert json.loads(out)["reason"] == "position class"   # JSON stays one object


def test_the_first_signal_stops_a_table_by_moves_in_its_search_over_every_pair():
    # a trial's Ctrl-C or SIGTERM in the first seconds of this table was ignored: the table
    # ran on for 75 s and said it was not interrupted (triangle 8's search takes seconds)
    out, err = stopped_by(signal.SIGTERM, ["table", "triangle8", "--fewest-moves", "--json"], 2.0, 30)
    answer = json.loads(out)
    assert answer["interrupted"] is True and answer["shortest"] is None
    assert "stopped by SIGTERM in the search over every pair at once" in err


def test_count_by_moves_names_the_symmetries_it_used(capsys):
    # a finish out of reach fixes nothing, and --unreduced uses no symmetry: the header said
    # "2 symmetries fix the start and finish" and "only the identity fixes the start and finish"
    code, out, _ = run(capsys, "count", "triangle4", "--by", "moves", "--vacant", "1", "--finish", "2")
    assert "(2 symmetries fix the start)" in out.splitlines()[0]
    code, out, _ = run(capsys, "count", "triangle5", "--by", "moves", "--finish", "13", "--unreduced")
    assert code == 0 and out.splitlines()[0].endswith("levels by moves, every position (no symmetry used)")
    code, out, _ = run(capsys, "count", "triangle5", "--by", "moves", "--finish", "13")
    assert "(2 symmetries fix the start and finish)" in out.splitlines()[0]


def test_count_refuses_a_board_over_64_holes_without_memory_advice(capsys):
    # a trial: before the refusal, a note said the count may need 7.7e+04 PiB and sent the
    # user to --spill or Dask, neither of which takes more than 64 holes either
    code, out, err = run(capsys, "count", "triangle11", "--json")
    assert code == 2 and "has 66 holes; the enumeration takes at most 64" in err
    assert "note:" not in err and "--spill" not in err
