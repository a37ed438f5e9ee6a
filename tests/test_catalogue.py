"""Issue 3: the board catalogue, board files, notations, replay and symmetry."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pegsolver
from pegsolver import Board, BoardTextError, Goal, Shape, solve
from pegsolver.apps.cli import main
from pegsolver.model import boardfile
from pegsolver.model.notation import hole_name, jump_name, parse_hole, parse_move
from pegsolver.model.variants import catalogue, find_variant
from replay import UNIT_STEPS, assert_solves, replay_coords


def cross(n, arm_from, arm_to):
    return {(r, c) for r in range(n) for c in range(n) if arm_from <= r <= arm_to or arm_from <= c <= arm_to}


# Hole sets written out here from the definitions, independently of variants.py.
SHAPES = {
    "english": cross(7, 2, 4),
    "french": {(r, c) for r in range(7) for c in range(7) if abs(r - 3) + abs(c - 3) <= 4},
    "wiegleb": cross(9, 3, 5),
    "diamond": {(r, c) for r in range(9) for c in range(9) if abs(r - 4) + abs(c - 4) <= 4},
    "asymmetric": {(r, c) for r in range(8) for c in range(8) if 3 <= r <= 5 or 2 <= c <= 4},
}
SIZES = {"english": 33, "french": 37, "wiegleb": 45, "diamond": 41, "asymmetric": 39}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_named_boards_have_their_published_shapes(name):
    shape = find_variant(name).shape()
    assert set(shape.coords) == SHAPES[name]
    assert shape.size == SIZES[name]


@pytest.mark.parametrize("name,group", [
    ("english", 8), ("french", 8), ("wiegleb", 8), ("diamond", 8), ("asymmetric", 2),
    ("square6", 8), ("rect4x7", 4), ("triangle5", 6), ("triangle11", 6), ("english-diagonal", 8)])
def test_symmetry_group_sizes(name, group):
    assert len(find_variant(name).shape().symmetries) == group


@pytest.mark.parametrize("variant", catalogue(), ids=lambda v: v.name)
def test_every_variant_round_trips_through_text_and_board_files(variant):
    board = variant.board()
    goal = variant.goal(board.shape)
    assert Board.from_text(board.to_text(), rules=board.shape.rules) == board
    again, goal_again = boardfile.loads(boardfile.dumps(board, goal))
    assert again == board and goal_again == goal
    assert again.shape.rules == board.shape.rules


def test_diagonal_rules_add_the_diagonal_jumps():
    ortho = find_variant("english").shape()
    diag = find_variant("english-diagonal").shape()
    holes = set(ortho.coords)
    expected = sum(1 for (r, c) in holes for dr, dc in UNIT_STEPS["diagonal"]
                   if (r + dr, c + dc) in holes and (r + 2 * dr, c + 2 * dc) in holes)
    assert len(ortho.jumps) == 76 and len(diag.jumps) == expected > 76
    sol = solve("english-diagonal")
    assert_solves(sol, finish=[sol.start.hole("d4")])


@st.composite
def random_boards(draw):
    rules = draw(st.sampled_from(["orthogonal", "diagonal", "triangular"]))
    cells = [(r, c) for r in range(5) for c in range(5) if rules != "triangular" or c <= r]
    holes = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=25, unique=True))
    shape = Shape("triangle" if rules == "triangular" else "square", tuple(holes), rules=rules)
    return Board(shape, draw(st.integers(0, shape.full_mask)))


@settings(max_examples=200, deadline=None)
@given(random_boards())
def test_every_generated_jump_is_legal_and_every_legal_jump_is_generated(board):
    coords = board.shape.coords
    pegs = {coords[h] for h in board.pegs()}
    holes = set(coords)
    found = set()
    for j in board.legal_jumps():
        a, over, b = coords[j.from_hole], coords[j.over], coords[j.to_hole]
        assert a in pegs and over in pegs and b in holes - pegs
        replay_coords(board.shape.rules, holes, pegs, [(a, b)])  # independent rule check
        found.add((a, b))
    expected = {(a, (a[0] + 2 * dr, a[1] + 2 * dc)) for a in pegs for dr, dc in UNIT_STEPS[board.shape.rules]
                if (a[0] + dr, a[1] + dc) in pegs and (a[0] + 2 * dr, a[1] + 2 * dc) in holes - pegs}
    assert found == expected


def test_triangle4_finishes_from_each_vacancy():
    board = find_variant("triangle4").board()
    shape = board.shape
    table = {}
    for v in range(shape.size):
        start = board.with_pegs(shape.full_mask & ~(1 << v))
        finishes = set()
        for f in range(shape.size):
            sol = solve(start, Goal.at(f))
            if sol.solved:
                assert_solves(sol, finish=[f])
                finishes.add(f)
            else:
                assert sol.reason in ("exhausted", "position class")
            # exhaustive search without the class proof, in pure Python, agrees
            ref = solve(start, Goal.at(f), backend="reference", proofs=False)
            assert ref.solved == sol.solved and ref.reason in ("solved", "exhausted")
        table[v] = finishes
    corners = [parse_hole(shape, n) for n in ("1", "7", "10")]
    assert all(not table[c] for c in corners)
    assert any(table.values())
    # The table is a property of the board: symmetric images of a problem agree.
    for perm in shape.symmetries:
        for v, fs in table.items():
            assert table[perm[v]] == {perm[f] for f in fs}


def test_wiegleb_centre_solves_to_one_peg():
    sol = solve("wiegleb", strategy="ordered", limit=pegsolver.Limit(nodes=20_000_000))
    assert_solves(sol, finish=[sol.start.hole("e5")])


@pytest.mark.parametrize("name", ["english", "french", "wiegleb", "diamond", "asymmetric", "square9"])
def test_algebraic_and_two_digit_names_round_trip(name):
    shape = find_variant(name).shape()
    for h in range(shape.size):
        r, c = shape.coords[h]
        alg, num = hole_name(shape, h), hole_name(shape, h, "numeric")
        assert alg == "abcdefghi"[c] + str(r + 1)
        assert num == f"{c + 1}{r + 1}"
        assert parse_hole(shape, alg) == parse_hole(shape, num) == parse_hole(shape, alg.upper()) == h
        assert shape.index[(r, c)] == h


def test_two_digit_jumps_read_like_the_literature():
    shape = find_variant("english").shape()
    assert parse_move(shape, "46-44") == parse_move(shape, "d6-d4")
    assert jump_name(shape, parse_move(shape, "d6-d4")[0], "numeric") == "46-44"


def test_triangle_numbering_round_trips():
    shape = find_variant("triangle6").shape()
    for h in range(shape.size):
        r, c = shape.coords[h]
        assert hole_name(shape, h) == str(r * (r + 1) // 2 + c + 1)
        assert parse_hole(shape, hole_name(shape, h)) == h


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_accepts_a_solution_typed_in_either_notation(capsys):
    sol = solve("english")
    for style in ("algebraic", "numeric"):
        typed = ", ".join(sol.move_names(style))
        code, out, _ = run_cli(capsys, "replay", "english", typed, "--json")
        data = json.loads(out)
        assert code == 0 and data["legal"] and data["jump_count"] == 31
        assert data["move_count"] == len(sol.moves) and data["final"] == ["d4"]


def test_replay_names_the_first_illegal_jump(capsys):
    code, out, _ = run_cli(capsys, "replay", "english", "d2-d4 d4-d2 f4-d4")
    assert code == 1
    assert "2. d4-d2" in out and "ILLEGAL" in out and "no peg on d3 to jump over" in out
    assert "f4-d4" not in out  # nothing after the first illegal move is played
    code, out, _ = run_cli(capsys, "replay", "english", "d2-d4, d2-d4", "--json")
    data = json.loads(out)
    assert data["legal"] is False and data["jump_count"] == 1
    assert data["error"]["move"] == 2 and "no peg on d2" in data["error"]["reason"]
    code, out, _ = run_cli(capsys, "replay", "english", "d2-d5", "--json")
    assert code == 1 and "no jump from d2 to d5" in json.loads(out)["error"]["reason"]


@pytest.mark.parametrize("notation,moves,said", [
    ("numeric", "46-44 45-43", "illegal jump 45-43: no peg on 45"),   # d6-d4 leaves d5 empty
    ("numeric-rc", "64-44 54-34", "illegal jump 54-34: no peg on 54"),
    ("algebraic", "d6-d4 d5-d3", "illegal jump d5-d3: no peg on d5"),
    (None, "46-44 43-63", "illegal jump 43-63: 63 is not empty"),   # numbers with no notation given
    (None, "d6-d4 d3-f3", "illegal jump d3-f3: f3 is not empty"),
    (None, "D6-D4 D5-D3", "illegal jump D5-D3: no peg on D5"),   # as written (a trial's D2-D4 became d2-d4)
    (None, "d06-d04 d05-d03", "illegal jump d05-d03: no peg on d05")])
def test_an_illegal_jump_is_named_as_the_moves_were_read(capsys, notation, moves, said):
    # a trial's numeric 44-46 was told "illegal jump d4-d6: no peg on d4"
    code, out, _ = run_cli(capsys, "replay", "english", *(["--notation", notation] if notation else []), moves)
    assert code == 1 and said in out



def test_replay_refuses_an_empty_move_between_two_commas(capsys):
    # "d2-d4,,f3-d3" was read as two moves; a separator at either end is still dropped
    code, out, err = run_cli(capsys, "replay", "english", "d2-d4,, f3-d3")
    assert code == 2 and "empty move between two separators, after 'd2-d4'" in out + err
    assert "f3-d3" not in out
    code, out, _ = run_cli(capsys, "replay", "english", ", d2-d4; f3-d3,", "--json")
    assert code == 0 and json.loads(out)["jump_count"] == 2


TOML_BOARD = """\
name = "little"
rules = "orthogonal"
board = '''
o o . o
'''
[goal]
finish = "b1"
"""


def test_board_file_solves_from_the_shell(tmp_path, capsys):
    path = tmp_path / "little.toml"
    path.write_text(TOML_BOARD)
    code, out, _ = run_cli(capsys, "solve", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["final"] == ["b1"] and data["goal"]["finish"] == ["b1"]


@pytest.mark.parametrize("text,message", [
    (TOML_BOARD.replace("o o . o", "o o ? o"), "line 4, column 5: unknown character '?'"),
    (TOML_BOARD.replace('rules = "orthogonal"', 'rules = "hexagonal"'), "line 2: unknown rules 'hexagonal'"),
    (TOML_BOARD.replace('finish = "b1"', 'finish = "z9"'), "line 7: no hole 'z9'"),
    ("colour = 3\n" + TOML_BOARD, "line 1: unknown key 'colour'"),
    (TOML_BOARD + "colour = 3\n", "line 8: unknown goal key 'colour'"),
    ("size = 3\ncolour = 3\n" + TOML_BOARD, "line 1: unknown keys 'size', 'colour'; expected"),
    # both kinds in one error (a trial fixed the top key, then was told of the goal's)
    ("colour = 3\n" + TOML_BOARD + "pegz = 1\n", "line 1: unknown key 'colour'; expected .*; and in \\[goal\\], "
                                                "unknown key 'pegz' \\(expected finish or pegs\\)"),
    (TOML_BOARD + "[goal.extra]\nx = 1\n", "line 8: unknown goal key 'extra'"),   # a table in [goal]
    # a variant is named by a string (or 33, 37); a trial's true was 'True', 37.0 got an API hint
    ("variant = true\n", "line 1: 'variant' must be a variant's name, such as \"french\", not true"),
    ("variant = 37.0\n", "line 1: 'variant' must be a variant's name, such as \"french\", not 37.0"),
    (TOML_BOARD.replace('[goal]\nfinish = "b1"', 'goal.finish = "b1"\ngoal.extra = 1'),
     "line 7: unknown goal key 'extra'"),
    (TOML_BOARD + "extra.x = 1\n", "line 8: unknown goal key 'extra'"),
    (TOML_BOARD.replace('finish = "b1"', 'finish = ["b1", "b1"]'), "line 7: goal finish lists hole b1 twice"),
    (TOML_BOARD.replace("name = ", "name = = "), "not valid TOML"),
    ('name = "x"\n', "give exactly one of 'board'"),
    (TOML_BOARD.replace('rules = "orthogonal"', 'rules = "triangular"').replace("o o . o", " o\noo"),
     "line 5, column 2: hole is off the triangular lattice"),
])
def test_malformed_board_files_name_the_line(text, message):
    with pytest.raises(BoardTextError, match=message.replace("?", r"\?")):
        boardfile.loads(text)


def test_board_file_from_a_variant_with_vacancies():
    board, goal = boardfile.loads('variant = "french"\nvacant = ["c1"]\n[goal]\nfinish = "any"\n')
    assert board.vacancies() == [board.hole("c1")] and goal == Goal.anywhere()


def test_rows_of_off_board_cells_and_ragged_rows():
    text = "..xxx..\n..xxx\nxxxxxxx\nxxx-xxx\nxxxxxxx\n..xxx..\n..xxx"
    board = Board.from_text(text)
    assert board == find_variant("english").board()
    padded = Board.from_text(".......\n" + text)   # a row of only off-board cells on top
    assert padded == board


def test_boardfile_load_reads_a_drawing_as_the_command_line_does(tmp_path):
    # a path not ending in .toml was read as TOML ("not valid TOML"); the README reads it as a drawing
    from pegsolver import BoardTextError, boardfile
    (tmp_path / "row.txt").write_text("o o . o\n")
    board, goal = boardfile.load(tmp_path / "row.txt")
    assert goal is None and board.shape.size == 4 and board.vacancies() == [2] and board.shape.name == "row"
    (tmp_path / "bad.txt").write_text("o x o\n")
    with pytest.raises(BoardTextError, match="board file '.*bad.txt'"):
        boardfile.load(tmp_path / "bad.txt")
    (tmp_path / "tri.txt").write_text("   o\n  o o\n o . o\no o o o\n")   # a triangle: its rules as on the CLI
    tri, _ = boardfile.load(tmp_path / "tri.txt", rules="triangular")
    assert tri.shape.size == 10 and tri.shape.rules == "triangular" and len(tri.vacancies()) == 1
    (tmp_path / "v.toml").write_text('variant = "french"\n')
    with pytest.raises(BoardTextError, match="names its own rules"):
        boardfile.load(tmp_path / "v.toml", rules="triangular")


def test_replay_skips_move_numbers_as_solve_and_books_write_them(capsys):
    # `replay english "$(pegsolver solve english | grep '^ *[0-9]*\.')"` failed on "1."
    code, out, _ = run_cli(capsys, "solve", "english")
    listed = "\n".join(line for line in out.splitlines() if line.strip()[:1].isdigit() and ". " in line)
    code, out, _ = run_cli(capsys, "replay", "english", listed, "--json")
    assert code == 0 and json.loads(out)["jump_count"] == 31 and json.loads(out)["final"] == ["d4"]
    code, out, _ = run_cli(capsys, "replay", "english", "1.d2-d4 2. f3-d3", "--json")
    assert code == 0 and json.loads(out)["jump_count"] == 2
    for skipped in ("1. d2-d4 3. f3-d3", "1. 2. d2-d4"):   # a move lost in copying the list
        code, _, err = run_cli(capsys, "replay", "english", skipped)
        assert code == 2 and "is due: is a move missing from the list" in err, err
