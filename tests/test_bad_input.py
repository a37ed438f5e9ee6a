"""Bad input found by trying the product as a new user: clear errors, never a traceback."""
import json
import math

import numpy as np
import pytest

import pegsolver
from pegsolver import Board, Goal, GoalError, Limit, PegsolverError, Shape, solve
from pegsolver.apps.cli import main
from replay import replay_coords


def test_goals_take_hole_names_and_check_themselves():
    assert solve("english", Goal.at("d4")).final.pegs() == [16]
    assert solve("english", "d7").solved                      # a hole name is a goal too
    assert solve("triangle5", Goal.at("1")).solved           # hole "1" is index 0
    with pytest.raises(GoalError, match="names 2 holes"):
        solve("english", Goal(pegs=1, finish=frozenset({15, 17})))
    with pytest.raises(GoalError, match="whole number of pegs"):
        solve("english", Goal(pegs=1.5))
    with pytest.raises(GoalError, match="at least one hole"):
        solve("english", Goal(pegs=1, finish=frozenset()))
    with pytest.raises(GoalError, match="twice"):
        Goal.pattern(["d4", "d4"])
    # the builders say it at once (these were refused only inside solve)
    for build in (lambda: Goal.anywhere(0), lambda: Goal.anywhere(-1)):
        with pytest.raises(GoalError, match="at least 1, not"):
            build()
    with pytest.raises(GoalError, match="must name at least one hole"):
        Goal.pattern([])
    with pytest.raises(pegsolver.UnknownHoleError):
        solve("english", Goal.at("z9"))


@pytest.mark.parametrize("limit", [dict(nodes=2**70), dict(nodes=1.5), dict(nodes=0), dict(seconds=math.nan),
                                   dict(seconds=math.inf), dict(seconds=True), dict(table_bytes=math.nan),
                                   dict(table_bytes=10), dict(seconds=10**400), dict(memory_bytes=10**400)])
@pytest.mark.filterwarnings("ignore:Limit\\(table_bytes:DeprecationWarning")   # the old name is checked too
def test_limits_are_checked(limit):
    with pytest.raises(PegsolverError) as error:   # an int past a float's range was an OverflowError
        Limit(**limit)
    assert len(str(error.value)) < 200   # a value of 400 digits is cut short in the message


def test_wrong_types_in_the_api():
    with pytest.raises(PegsolverError, match="limit must be"):
        solve("english", limit=5)
    with pytest.raises(PegsolverError, match="goal must be"):
        solve("english", goal=5)
    board = pegsolver.find_variant("english").board()
    with pytest.raises(pegsolver.UnknownHoleError):
        board.hole(16)
    with pytest.raises(pegsolver.UnknownHoleError):
        board.hole_name(-1)
    with pytest.raises(pegsolver.InvalidJumpError):
        board.push(5)
    with pytest.raises(pegsolver.BoardTextError, match="not rectangular"):
        Board.from_array([[1, 1], [1]])
    with pytest.raises(pegsolver.UnknownVariantError):
        pegsolver.find_variant(None)


def test_a_line_shifted_by_one_character_is_an_error_not_another_board():
    text = "   o o o\n    o o o\no o o o o o o\no o o . o o o\no o o o o o o\n    o o o\n    o o o"
    with pytest.raises(pegsolver.BoardTextError, match="line 1, column 4: .*shifted"):
        Board.from_text(text)


def test_numpy_flags_another_boards_shape_and_one_hole_are_named():
    # a numpy bool flag is named as such (it read "must be True or False, not np.False_")
    with pytest.raises(PegsolverError, match=r"proofs must be True or False \(a Python bool\), not np.False_ "
                                             r"\(a numpy.bool_?\)"):
        solve("english", proofs=np.False_)
    # an answer by moves given another board's shape says so (it said "illegal jump 1 (d3-e1)")
    from pegsolver.moves import shortest_over_board
    answer = shortest_over_board("triangle4")
    with pytest.raises(PegsolverError, match="does not play on board 'english': to_json needs the Shape"):
        answer.to_json(pegsolver.find_variant("english").board().shape)
    assert "(1 hole," in pegsolver.find_variant("triangle1").description


def test_a_cell_between_columns_is_named_where_it_sits():
    # as many cells on each side: the first cell sets the columns, so the third is off
    for text, column in (("o o  o .", 6), ("o o o  .", 8), ("o  o o .", 1)):
        with pytest.raises(pegsolver.BoardTextError, match=f"line 1, column {column}: .*between two columns"):
            Board.from_text(text)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv,message", [
    (["solve", "english", "--nodes", "99999999999999999999999"], "node limit must be"),
    (["solve", "english", "--table-mb", "nan"], "--table-mb must be"),
    (["solve", "english", "--table-mb", "inf"], "--table-mb must be"),
    (["solve", "english", "--seconds", "inf"], "--seconds must be"),
    (["solve", ""], "empty variant name"),
    (["count", "triangle1"], "the start has no pegs"),   # a trial's traceback from the memory note
    (["count", "square1"], "the start has no pegs"),
])
def test_cli_limits_and_names(capsys, argv, message):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 2 and message in err and "Traceback" not in err
    assert message in json.loads(out)["error"]


def test_endless_or_odd_files(tmp_path, capsys):
    code, _, err = run(capsys, "solve", "--board", "/dev/zero")
    assert code == 2 and "not a regular file" in err
    big = tmp_path / "big.txt"
    big.write_text("o" * (2**20 + 1))
    code, _, err = run(capsys, "solve", str(big))
    assert code == 2 and "larger than" in err
    bom = tmp_path / "bom.txt"
    bom.write_bytes("\ufeffo o . o\n".encode())
    assert run(capsys, "solve", str(bom))[0] == 0
    binary = tmp_path / "junk.txt"
    binary.write_bytes(b"\xff\xfe\x00o")
    code, _, err = run(capsys, "solve", str(binary))
    assert code == 2 and "not UTF-8" in err


def test_vacant_given_twice_adds_up(capsys):
    code, out, _ = run(capsys, "solve", "english", "--vacant", "d4", "--vacant", "d2", "--finish", "any", "--json")
    assert json.loads(out)["vacant"] == ["d2", "d4"]


def test_unsolved_json_has_no_final_position(capsys):
    code, out, _ = run(capsys, "solve", "triangle4", "--json")
    data = json.loads(out)
    assert code == 1 and data["solved"] is False and data["final"] is None


def test_second_trial_findings(capsys, tmp_path):
    english = pegsolver.find_variant("english").board()
    text = pegsolver.boardfile.dumps(english, Goal.at("d4"))      # goal given by name
    assert pegsolver.boardfile.loads(text)[1] == Goal.at(english.hole("d4"))
    diagonal = pegsolver.find_variant("english-diagonal").board()
    assert pegsolver.boardfile.loads(pegsolver.boardfile.dumps(diagonal))[1] == Goal.at(16)  # default goal kept
    with pytest.raises(GoalError):
        Goal.at(["d5"])
    code, _, err = run(capsys, "solve", "rect3x10", "--notation", "numeric")
    assert code == 2 and "at most 9 rows and columns" in err
    code, out, _ = run(capsys, "replay", "english", "d2 \u2013 d4, f3-d3 51-53")  # dash and spaces
    assert code == 0 and "jumps: 3" in out
    code, out, err = run(capsys, "replay", "english", "foo")
    assert code == 2 and "UNREADABLE" in out
    assert err.startswith("pegsolver: error: move 1 'foo' cannot be read: 'foo' is not a jump or move")
    code, _, err = run(capsys, "solve", "english", "--finish", "d4", "d4")
    assert code == 2 and "--finish lists hole d4 twice" in err
    code, _, err = run(capsys, "solve", "rect1x1")   # it named board 'square1'
    assert code == 2 and "the start has no pegs: every hole of board 'rect1x1' is vacant" in err


def test_ctrl_c_before_the_core_is_an_interrupted_answer(monkeypatch):
    # Ctrl-C while proofs run (Python, before the core's loop) gives the same answer as in the core.
    import pegsolver.engine.search as solver_module

    def interrupted(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(solver_module, "impossibility", interrupted)
    sol = pegsolver.solve("english")
    assert not sol.solved and sol.reason == "interrupted" and "Ctrl-C" in sol.explanation


def test_third_trial_findings(capsys, tmp_path):
    sol = solve(pegsolver.find_variant("rect3x3").board().with_vacant("a1"), Goal.anywhere())
    assert sol.reason == "pagoda" and "one peg at a1, the one hole of its position class" in sol.explanation
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nvariant = "englsh"\n')
    code, _, err = run(capsys, "solve", str(bad))
    assert code == 2 and "bad.toml, line 2: unsupported variant: 'englsh'" in err
    code, _, err = run(capsys, "count", "english", "--memory-gb", "100000")
    assert code == 2 and "--memory-gb 100000 is more than this machine's memory" in err
    code, _, err = run(capsys, "count", "english", "--memory-gb", "1000000")   # as typed, not 1e+06
    assert code == 2 and "--memory-gb 1000000 is more than this machine's memory" in err


def test_findings_of_the_trial_after_the_pieces(capsys, tmp_path):
    # a board file's mixed drawing names the other line from this one, not by the drawing's count
    mixed = tmp_path / "m.toml"
    mixed.write_text('name = "m"\nrules = "orthogonal"\nboard = """\no o o\nooo\n"""\n')
    code, _, err = run(capsys, "solve", str(mixed))
    assert code == 2 and "m.toml, line 4, column 2: this line's cells are one space apart, but the line below" in err
    # family errors name the board as typed
    for typed, said in [("square0", "'square0': unsupported variant: rectangle 0x0"),
                        ("Square12-Diagonal", "'Square12-Diagonal': rectangle 12x12 has 144 holes"),
                        ("tri0", "'tri0': unsupported variant: triangle of side 0")]:
        code, _, err = run(capsys, "solve", typed)
        assert code == 2 and said in err, err
    # a stray word after an option is not called its second value unless it reads as one
    with pytest.raises(SystemExit):
        main(["solve", "english", "--seconds", "5", "extra"])
    assert "unrecognized arguments: extra (see pegsolver solve --help)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "english", "--seconds", "5", "2"])
    assert "unrecognized arguments: 2 (--seconds takes one S, not a list)" in capsys.readouterr().err


@pytest.mark.parametrize("kwargs,message", [
    (dict(goal="13"), "goal must be a pegsolver.Goal, not str"),
    (dict(starts=[-1]), "starts must be a list of one or more bitboards"),
    (dict(starts=["1"]), "starts must be a list"),
    (dict(starts=[]), "starts must be a list of one or more"),
    (dict(progress=5), "progress must be a function or None, not int"),
    (dict(beam="x"), "beam must be a pegsolver.Limit"),
    (dict(forward_depth=-1), "forward_depth must be a whole number of 0 or more"),
    (dict(forward_depth=2.5), "forward_depth must be a whole number"),
])
def test_the_search_by_moves_refuses_bad_arguments(kwargs, message):
    from pegsolver.engine.fewest_moves import fewest_moves
    goal = kwargs.pop("goal", Goal.anywhere(1))
    with pytest.raises(PegsolverError, match=message):
        fewest_moves(pegsolver.find_variant("triangle5").board(), goal, **kwargs)


def test_fourth_trial_findings(capsys, tmp_path):
    # unsolved under a limit: the closest dead end, replayed independently to its pegs
    code, out, _ = run(capsys, "solve", "diamond", "--vacant", "e1", "--nodes", "20000", "--strategy", "dfs", "--json")
    data = json.loads(out)
    assert code == 1 and data["final"] is None and data["closest"]
    board = pegsolver.find_variant("diamond").board().with_vacant("e1")
    coords = board.shape.coords
    pairs = [(coords[board.hole(a)], coords[board.hole(b)]) for a, b in (n.split("-") for n in data["closest"])]
    left = replay_coords(board.shape.rules, coords, {coords[h] for h in board.pegs()}, pairs)
    assert len(left) == data["closest_pegs"]
    # a board file's vacancy list: empty, or a hole twice
    for text, message in (('variant = "french"\nvacant = []\n', "lists no hole"),
                          ('variant = "french"\nvacant = ["c1", "c1"]\n', "lists hole c1 twice"),
                          ('variant = "french"\nvacant = [true]\n', "a list of holes (names or numbers), not [true]"),
                          ('variant = "french"\nvacant = 1.5\n', "not 1.5"),
                          ('board = "o o . o"\nvacant = "a1"\n', "already has vacant holes (c1)"),
                          ('board = "o o o o"\nname = 5\n', "'name' must be a non-empty string, not 5"),
                          ('variant = "french"\nname = "mine"\n', "a variant keeps its own name")):
        path = tmp_path / "b.toml"
        path.write_text(text)
        code, _, err = run(capsys, "solve", str(path))
        assert code == 2 and "line 2" in err and message in err
    board, _ = pegsolver.boardfile.loads('board = "o o o o"\nvacant = "a1"\n')  # a full drawing, one hole
    assert board.pegs() == [1, 2, 3]
    assert pegsolver.find_variant("french").board().with_vacant(["c1"]).vacancies() == \
        pegsolver.find_variant("french").board().with_vacant("c1").vacancies()
    # a usage error is one line
    with pytest.raises(SystemExit) as stop:
        main(["solve", "english", "--seconds", "abc"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and "invalid number value: 'abc'" in err
    # a number that rounds to 0 is not the 0 of no limit (a trial's --seconds 1e-400 ran on)
    with pytest.raises(SystemExit) as stop:
        main(["solve", "diamond", "--seconds", "1e-400"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "argument --seconds: 1e-400 is too small: it rounds to 0" in err
    with pytest.raises(SystemExit) as stop:   # a count too (a trial's bench --nodes 1e-400 had no node limit)
        main(["bench", "--nodes", "1e-400"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "argument --nodes: 1e-400 is too small: it rounds to 0" in err
    with pytest.raises(pegsolver.BoardTextError, match="pegs mask -1 is negative"):
        pegsolver.find_variant("english").board().with_pegs(-1)


def test_the_public_modules_load_as_attributes_of_the_package():
    import subprocess
    import sys
    code = "import pegsolver; print(callable(pegsolver.moves.count_moves), callable(pegsolver.analysis.analyse))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["True", "True"], out.stderr


def test_board_methods_take_jumps_as_text_and_refuse_other_things():
    b = pegsolver.find_variant("english").board()
    assert b.is_legal("d2-d4") and b.why_illegal("d2-d4") is None
    assert not b.is_legal("d6-d5") and b.why_illegal("d2-d3") == "no jump from d2 to d3 on board 'english'"
    assert b.why_illegal("d1-d3") == "d3 is not empty"
    for bad in (None, 5, "zz", "a4-c4-e4"):
        with pytest.raises(pegsolver.PegsolverError):
            b.is_legal(bad)
    for bad in (1.5, "5", None, ["d4"], True):
        with pytest.raises(pegsolver.PegsolverError, match="int bitboard"):
            b.with_pegs(bad)
    assert b.with_pegs(np.uint64(b.pegs_mask)).pegs_mask == b.pegs_mask


def test_a_board_file_holds_the_fewest_pegs_goal_as_it_reads_it():
    # loads read finish = "fewest" but dumps refused that goal, so a loaded file could not be saved
    board = pegsolver.find_variant("french").board()
    text = pegsolver.boardfile.dumps(board, Goal.fewest())
    assert 'finish = "fewest"' in text and pegsolver.boardfile.loads(text) == (board, Goal.fewest())


def test_texts_of_an_answer_never_say_none():
    sol = pegsolver.solve("triangle5")
    assert "None" not in sol.moves_text() and sol.unsolved_text() == "solved"


@pytest.mark.parametrize("raw", [None, 5, b"board = 'o o .'"])
def test_board_file_text_that_is_not_a_str_is_refused(raw):
    with pytest.raises(pegsolver.PegsolverError, match="a board file's text is a str"):
        pegsolver.boardfile.loads(raw)


@pytest.mark.parametrize("board", ["english", "triangle5"])
def test_an_unknown_notation_style_is_refused_by_every_text(board):
    sol = pegsolver.solve(board)
    for text in (sol.to_text, sol.to_json, sol.move_names, sol.jump_names):
        with pytest.raises(PegsolverError, match="unknown notation style 'Numeric'"):
            text("Numeric")
    with pytest.raises(PegsolverError, match="unknown notation style"):
        pegsolver.find_variant(board).board().push_move("d2-d4" if board == "english" else "4-1", "rc")
    assert sol.move_names("numeric")   # the known ones still work


@pytest.mark.parametrize("kwargs", [dict(limit={"seconds": 3}), dict(limit=5), dict(beam=5), dict(beam="x"),
                                    dict(beam=True)])
def test_the_shortest_over_a_board_checks_its_limits_before_any_work(kwargs):
    with pytest.raises(PegsolverError, match=r"(limit|beam) must be a pegsolver.Limit or None, not"):
        pegsolver.moves.shortest_over_board("triangle7", **kwargs)


def test_a_path_given_to_the_api_as_a_variant_points_to_the_board_file_reader():
    with pytest.raises(pegsolver.UnknownVariantError, match=r"boardfile.load\(path\)"):
        solve("/nonexistent/x.txt")
    with pytest.raises(pegsolver.UnknownVariantError) as e:
        solve("englsh")
    assert "boardfile" not in str(e.value)


def test_a_beam_width_for_a_strategy_without_a_beam_is_refused():
    # as the command line refuses --beam-width with --strategy dfs
    with pytest.raises(PegsolverError, match="beam_width applies to strategy 'beam'.*not to 'dfs'"):
        pegsolver.solve("english", strategy="dfs", beam_width=10)
    assert pegsolver.solve("english", strategy="beam", beam_width=10_000).solved


def test_a_jump_order_for_the_seed_scan_is_refused():
    # as the command line refuses --order with --strategy seed; the guided sort uses it for ties
    with pytest.raises(PegsolverError, match="jump order does nothing with strategy 'seed'"):
        pegsolver.solve("english", strategy="seed", order="down")
    assert pegsolver.solve("triangle5", strategy="guided", order="down").solved


def test_a_table_of_a_one_hole_board_says_why_it_has_no_problems(capsys):
    code, _, err = run(capsys, "table", "rect1x1")
    assert code == 2 and "has 1 hole: a single-vacancy table needs at least 2" in err
    code, _, err = run(capsys, "count", "rect1x1", "--table")   # it said the start has no pegs
    assert code == 2 and "has 1 hole: a table of solution counts needs at least 2 (the vacancy and a peg)" in err
    code, out, _ = run(capsys, "table", "rect1x2")
    assert code == 0 and "solved: 2" in out


def test_rules_that_do_not_fit_the_grid_are_named_before_the_drawing_is_read(capsys, tmp_path):
    # a triangle drawn and read on a square grid got a drawing error, not the clash
    drawing = tmp_path / "t.txt"
    drawing.write_text("  .\n o o\no o o\n")
    code, _, err = run(capsys, "solve", str(drawing), "--grid", "square", "--rules", "triangular")
    assert code == 2 and "rules 'triangular' do not fit a square grid; expected orthogonal or diagonal" in err
    code, _, err = run(capsys, "solve", str(drawing), "--grid", "triangle", "--rules", "diagonal")
    assert code == 2 and "rules 'diagonal' do not fit a triangle grid; expected triangular" in err


def test_count_refuses_a_second_finish(capsys):
    # a second --finish replaced the first without a word (solve's adds holes)
    with pytest.raises(SystemExit) as stop:
        main(["count", "triangle5", "--finish", "1", "--finish", "13", "--json"])
    out = capsys.readouterr().out
    assert stop.value.code == 2
    assert json.loads(out)["error"] == "argument --finish: given twice (1 and 13); it takes one value"


@pytest.mark.parametrize("options, message", [
    (dict(workers=-1), "workers must be a whole number from 1 to 256, not -1"),   # it hung, starting no cluster
    (dict(workers=0), "workers must be a whole number from 1 to 256, not 0"),     # it ran, where --workers 0 is refused
    (dict(workers=True), "not True"),
    (dict(spill=123), "spill is a directory (a str or os.PathLike), not 123"),   # a bare TypeError
    (dict(cluster=5), "cluster is a scheduler's address"),
    (dict(workers=2, cluster="tcp://127.0.0.1:1"), "give one of them"),
])
def test_analyse_checks_where_a_run_goes_as_the_command_line_does(options, message):
    from pegsolver.analysis import analyse
    with pytest.raises(PegsolverError) as e:
        analyse("triangle5", **options)
    assert message in str(e.value)


def test_second_api_trial_findings():
    # numpy integers where ints go, and clear errors (raw OverflowError, TypeError, IndexError
    # or a wrong message before)
    from pegsolver.analysis import analyse
    from pegsolver.model.geometry import Jump
    from pegsolver.moves import count_moves
    english = pegsolver.find_variant("english").board()
    board = Board(english.shape, np.uint64(english.pegs_mask))
    assert type(board.pegs_mask) is int and board == english
    for bad in (5.0, True, None):
        with pytest.raises(pegsolver.BoardTextError, match="int bitboard"):
            Board(english.shape, bad)
    with pytest.raises(pegsolver.BoardTextError, match="needs a Shape"):
        Board(None, 5)
    wide = pegsolver.find_variant("rect8x16").board()
    jump = next(j for j in wide.shape.jumps if wide.is_legal(j))
    wide.push(Jump(*(np.int64(h) for h in jump)))
    assert type(wide.pegs_mask) is int and wide.history == [jump]
    for bad in (Jump(4, 9, 40), Jump("d2", "d3", "d4"), Jump(4, 9, 16.0)):
        with pytest.raises(pegsolver.UnknownHoleError):
            english.copy().push(bad)
    assert count_moves("triangle5", np.int64(12)).finish == 12
    assert Goal(pegs=np.int64(2)).pegs == 2 and Goal(finish="d4") == Goal.at("d4")
    # a full board backward: no dual problem (it said "a goal pattern must name at least one hole")
    full = Board.from_text("o o o o")
    for strategy in ("dfs", "table", "guided"):
        assert solve(full, Goal.at("a1"), strategy=strategy, backward=True).reason == "exhausted"
    for name in (5, None, "a\nb"):
        with pytest.raises(pegsolver.BoardTextError, match="a board's name is one line of text"):
            Board.from_text("o o .", name=name)
    with pytest.raises(PegsolverError, match="unknown board text style"):
        english.to_text("bogus")
    with pytest.raises(PegsolverError, match="progress must be a function or None, not int"):
        analyse("triangle5", progress=5)
    with pytest.raises(PegsolverError, match="progress must be a function or None, not int"):
        count_moves("triangle5", progress=5)
    with pytest.raises(PegsolverError, match="reduced must be True or False, not 'no'"):
        count_moves("triangle5", reduced="no")
    a = analyse("triangle5", finish=12)
    with pytest.raises(PegsolverError, match="no winning positions of level 14"):
        a.winning_positions(14)


ENGLISH_SHAPE = pegsolver.find_variant("english").board().shape


@pytest.mark.parametrize("call,error,words", [
    # an API trial's findings: each was an AttributeError, IndexError, ValueError or a silent
    # wrong answer from inside the package
    (lambda: Goal.at("d4").resolve(pegsolver.find_variant("english").board()), GoalError,
     "resolved against a Shape (board.shape), not a Board"),
    (lambda: Goal.at(-1).describe(ENGLISH_SHAPE), GoalError, "goal hole -1 is not a hole name"),   # named e7
    (lambda: Goal.at(40).to_json(ENGLISH_SHAPE), GoalError, "goal hole 40 is not a hole name or an index 0..32"),
    (lambda: Goal.at(-1).finish_mask(), GoalError, "goal hole -1 is no hole index"),
    (lambda: Goal.anywhere(2).reached(2.0), GoalError, "a position's bitboard must be a whole number, not 2.0"),
    (lambda: Goal.at(3).resolve(ENGLISH_SHAPE).check(ENGLISH_SHAPE, "x"), GoalError, "a start's bitboard"),
    (lambda: Goal.pattern(b"AB"), GoalError, "not b'AB'"),                       # holes 65 and 66
    (lambda: Goal(pegs=3, fewest_pegs=True), GoalError, "a fewest-pegs goal names no finish and no peg count"),
    (lambda: Goal(fewest_pegs="yes"), GoalError, "fewest_pegs is True or False, not 'yes'"),
    (lambda: Board(ENGLISH_SHAPE, 7, default_goal="x"), GoalError, "default goal is a Goal or None, not 'x'"),
    (lambda: pegsolver.find_variant("square" + "9" * 5000), pegsolver.BoardTooLargeError, "side of over 9 digits"),
    (lambda: pegsolver.survey.survey_vacancies("triangle4", progress="x"), PegsolverError,
     "progress must be a function or None, not str"),
    (lambda: pegsolver.analysis.solution_counts("triangle5", progress=5), PegsolverError,
     "progress must be a function or None, not int"),
    (lambda: pegsolver.Cancel().link(None), PegsolverError, "a writable numpy uint8 array of 1 item, not None"),
    (lambda: Shape("square", 5), pegsolver.BoardTextError, "holes are (row, column) pairs, not 5"),
    (lambda: Shape("square", "x"), pegsolver.BoardTextError, "a hole is a (row, column) pair, not 'x'"),
    (lambda: Shape("square", [(0,)]), pegsolver.BoardTextError, "a hole is a (row, column) pair, not (0,)"),
    (lambda: Shape("square", [("a", "b")]), pegsolver.BoardTextError, "row and column are whole numbers"),
    (lambda: Shape("square", [(0.5, 0), (0.5, 1), (0.5, 2)]), pegsolver.BoardTextError,
     "row and column are whole numbers, not (0.5, 0)"),   # to_text and solve raised TypeError later
    (lambda: Shape("square", [(0, 0), (1, 0)], name=None), pegsolver.BoardTextError, "name is a string, not None"),
    (lambda: Shape("square", [(0, 0), (10**4, 10**4)]), pegsolver.BoardTextError,
     "spans over 1,024 rows or columns"),   # its text took 4.2 s
])
def test_api_arguments_are_refused_with_the_package_errors(call, error, words):
    with pytest.raises(error) as caught:
        call()
    assert words in str(caught.value)


def test_a_limit_copies_with_its_cancel_and_styles_are_checked_where_nothing_is_named():
    import copy
    cancel = pegsolver.Cancel()
    copied = copy.deepcopy(Limit(nodes=5, cancel=cancel))   # it raised the Cancel's pickling TypeError
    assert copied.cancel is cancel and copied.nodes == 5 and copy.copy(cancel) is cancel
    with pytest.raises(PegsolverError, match="after\\(\\) takes the nodes spent"):
        Limit(nodes=10).after("x", 1.0)                     # int - str, from inside
    assert Limit(nodes=10).after(4, 0.5) == Limit(nodes=6) and Limit(nodes=10).after(10, 0.0) is None
    sol = solve("english")
    for method in (sol.explanation_in, sol.unsolved_text):   # any style was taken when nothing was named
        with pytest.raises(PegsolverError, match="unknown notation style 'bogus'"):
            method("bogus")


def test_a_hole_name_where_an_index_goes_says_how_to_get_the_index():
    # the message offered "names like 'c1'" and then refused 'c1'
    board = pegsolver.find_variant("english").board()
    with pytest.raises(pegsolver.UnknownHoleError, match=r"hole 'c1' is a name where an index 0\.\.32 of board "
                                                         r"'english' goes \(board.hole\('c1'\) gives its index\)"):
        board.hole_index("c1")
    with pytest.raises(pegsolver.UnknownHoleError, match="hole 'd2' is a name where an index"):
        board.push(pegsolver.Jump("d2", "d3", "d4"))
    assert board.hole("c1") == 0 and board.hole_index(np.int64(16)) == 16


def test_fifth_trial_findings(capsys, tmp_path):
    # board files: an empty [goal] read as one peg anywhere (dropping english's d4); a name
    # with a newline broke the header; a board too large lost the file's name
    for text, message in (('variant = "english"\n[goal]\n', "line 2: the [goal] table is empty"),
                          ('name = "a\\nb"\nboard = "o o ."\n', "line 1: 'name' must be one line"),
                          ("board = '''\n" + "o" * 12 + "\n" * 1 + ("o" * 12 + "\n") * 11 + "'''\n",
                           "b.toml: board text has more than 128 holes")):
        path = tmp_path / "b.toml"
        path.write_text(text)
        code, _, err = run(capsys, "solve", str(path))
        assert code == 2 and message in err, err
    # a TOML file under .txt says so, rather than only naming a character of the drawing
    (tmp_path / "b.txt").write_text('variant = "french"\n')
    code, _, err = run(capsys, "solve", str(tmp_path / "b.txt"))
    assert code == 2 and "name it .toml" in err
    # two-digit hole numbers on a board over 9 rows: refused as --notation numeric is
    code, out, _ = run(capsys, "replay", "square11", "11-31")
    assert code == 2 and "need at most 9 rows and columns" in out
    # a lone trailing dash is an item of its own, not glued to the legal move before it
    code, out, _ = run(capsys, "replay", "english", "d2-d4 b3-d3 -")
    assert code == 2 and "2. b3-d3        ok" in out and "3. -" in out
    # book numbering with a parenthesis
    code, out, _ = run(capsys, "replay", "english", "1) d2-d4 2) f3-d3")
    assert code == 0 and "2. f3-d3" in out
    # an unknown option is named alone, not with the moves that followed it
    with pytest.raises(SystemExit):
        main(["replay", "english", "--boards", "d2-d4"])
    assert "unknown option --boards (" in capsys.readouterr().err
    # '.svg' is a suffix with no name
    code, _, err = run(capsys, "solve", "english", "--svg", str(tmp_path / ".svg"))
    assert code == 2 and "after a name" in err


def test_third_api_trial_findings():
    import pickle

    from pegsolver.analysis import AnalysisStopped
    from pegsolver.moves import count_moves, shortest_over_board
    # exceptions with fields pickle back whole (a process pool sends them so)
    back = pickle.loads(pickle.dumps(AnalysisStopped("stopped", "time limit")))
    assert (str(back), back.reason) == ("stopped", "time limit")
    text = pickle.loads(pickle.dumps(pegsolver.BoardTextError("line 2: x", 2, 3, "x")))
    assert (text.line, text.column, text.reason) == (2, 3, "x")
    # bad values named by the package's errors, not raised from inside it
    with pytest.raises(PegsolverError, match="notation style or a function"):
        pegsolver.analysis.analyse("triangle4").to_json(None)
    for rules in ([None], "", 0):
        with pytest.raises(pegsolver.BoardTextError, match="unknown rules"):
            Shape("square", ((0, 0), (0, 1), (0, 2)), rules=rules)
    with pytest.raises(pegsolver.UnknownHoleError, match="no hole"):
        pegsolver.find_variant("english").board().hole("d" + "9" * 5000)
    with pytest.raises(PegsolverError, match="0 or more"):
        Limit(nodes=100, seconds=5).after(-5, -1.0)
    with pytest.raises(PegsolverError, match="has no field 'foo'"):
        Limit().replace(foo=1)
    for call in (lambda: count_moves("triangle5", limit=Limit(threads=2)),
                 lambda: shortest_over_board("triangle5", limit=Limit(threads=2))):
        with pytest.raises(PegsolverError, match="runs on one thread, not 2"):
            call()
    with pytest.raises(pegsolver.BoardTooLargeError, match="4,000,000 holes"):
        Board.from_array(np.ones((2000, 2000)))
    # any collection of holes; the name kept by repr; the shortest over a board as JSON
    english = pegsolver.find_variant("english").board()
    assert english.with_vacant({"c1", "d4"}).vacancies() == [0, 16]
    assert english.with_vacant(np.array([0, 16])).vacancies() == [0, 16]
    assert eval(repr(english), {"Board": Board}).shape.name == "english"
    shape = pegsolver.find_variant("triangle5").shape()
    answer = json.loads(json.dumps(shortest_over_board("triangle5").to_json(shape)))
    assert answer["optimal"] and answer["lower_bound"] == answer["upper_bound"] == len(answer["moves"]) == 9
