"""Board text in and out, arrays, apply/undo, symmetry groups, and bad input."""
import os
import sys
import time

import numpy as np
import pytest

import pegsolver
from pegsolver import Board, BoardTextError, BoardTooLargeError, IllegalJumpError, solve

SEED_ENGLISH = "..xxx..\n..xxx..\nxxxxxxx\nxxx-xxx\nxxxxxxx\n..xxx..\n..xxx.."


def english():
    return pegsolver.find_variant("english").board()


def test_seed_format_spaced_and_dense_common_format_read_the_same():
    dense = SEED_ENGLISH.replace(".", " ").replace("x", "o").replace("-", ".")
    ragged = "\n".join(line.rstrip() for line in dense.splitlines())
    spaced = english().to_text()
    circles = spaced.replace("o", "●").replace(".", "○")
    boards = [Board.from_text(t) for t in (SEED_ENGLISH, dense, ragged, spaced, circles, "\n\n" + spaced + "\n\n")]
    assert all(b == english() for b in boards)


def test_text_round_trips_in_both_styles():
    for name in ("english", "french", "triangle5", "triangle7"):
        board = pegsolver.find_variant(name).board()
        for style in ("common", "seed"):
            again = Board.from_text(board.to_text(style), grid=board.shape.grid)
            assert again == board, (name, style)


def test_written_format_is_the_documented_one():
    assert english().to_text().splitlines()[3] == "o o o . o o o"
    assert english().to_text("seed").splitlines()[0] == "..xxx.."
    assert pegsolver.find_variant("triangle3").board().to_text() == "  .\n o o\no o o"


def test_repr_evaluates_to_an_equal_board():
    for name in ("english", "triangle5"):
        board = pegsolver.find_variant(name).board()
        assert eval(repr(board), {"Board": Board}) == board


def test_array_round_trip():
    board = english()
    arr = board.to_array()
    assert arr.shape == (7, 7) and arr.dtype == np.int8
    assert arr[3, 3] == 0 and arr[0, 0] == -1 and arr.sum() == 32 - 16
    assert Board.from_array(arr) == board
    tri = pegsolver.find_variant("triangle5").board()   # as the docstring says: its grid and rules passed
    back = Board.from_array(tri.to_array(), tri.shape.grid, rules=tri.shape.rules)
    assert back.pegs_mask == tri.pegs_mask and back.shape.coords == tri.shape.coords


def test_push_pop_and_illegal_reasons():
    board = english()
    assert len(board.legal_jumps()) == 4
    board.push_move("d2-d4")
    assert board.peg_count == 31
    with pytest.raises(IllegalJumpError, match="d4 is not empty"):
        board.push_move("d6-d4")
    with pytest.raises(IllegalJumpError, match="no peg on d2"):
        board.push_move("d2-d4")
    board.pop()
    assert board == english()
    with pytest.raises(IndexError):
        board.pop()


@pytest.mark.parametrize("name,size", [
    ("english", 8), ("french", 8), ("triangle5", 6), ("triangle3", 6), ("triangle1", 1)])
def test_symmetry_groups_are_derived_from_the_shape(name, size):
    text = pegsolver.find_variant(name).text
    shape = Board.from_text(text.replace(".", "o"), grid=pegsolver.find_variant(name).grid).shape
    assert len(shape.symmetries) == size
    jumps = set(shape.jumps)
    for perm in shape.symmetries:
        assert sorted(perm) == list(range(shape.size))
        assert all(type(j)(perm[j.from_hole], perm[j.over], perm[j.to_hole]) in jumps for j in jumps)


def test_asymmetric_board_has_only_the_identity_and_solves_the_same_either_way():
    text = "o o o o o\no o . o o\no o o o\no o o"
    board = Board.from_text(text)
    assert len(board.shape.symmetries) == 1
    a = solve(board, pegsolver.Goal.anywhere(), strategy="table")
    b = solve(board, pegsolver.Goal.anywhere(), strategy="symmetry")
    assert (a.solved, a.stats.nodes, a.stats.tests) == (b.solved, b.stats.nodes, b.stats.tests)


@pytest.mark.parametrize("text,message", [
    ("", "empty"),
    ("   \n  ", "empty"),
    ("...\n...", "no pegs"),  # only dots: empty holes of the o/. format
    ("- - -", "no pegs"),
    ("o o x", "mixes"),
    ("o o\no ? o", "line 2, column 3: unknown character '?'"),
    ("ｏｏ．", "unknown character 'ｏ' in board text \\(o, ● or \\* peg, \\. or ○ empty, .* or the seed format: x peg"),
    ("o\to", "tab"),
    # one tight pair in a spaced drawing: read side by side, line 2 would have no jumps
    ("oo . o\no o o o", "line 2, column 2: this line's cells are one space apart, but the line above has cells side "
                         "by side"),
    # two cells are enough (a trial's "o o" over "oo" was read as a gap); a gap is drawn o#o
    ("o o\noo", "line 1, column 2: this line's cells are one space apart, but the line below has cells side by side"),
    # an off-board mark between spaces is drawn spaced too (a trial's "o # o" became a 5-wide row)
    ("ooo\nooo\no # o", "line 3, column 4: this line's cells are one space apart, but the line 2 lines above"),
    ("o#o\no # o", "line 2, column 4: this line's cells are one space apart, but the line above"),
    ("ooo\no o\nooo", "line 2, column 2: this line's cells are one space apart, but the line above"),
    # a line of one cell with off-board marks beside it is drawn side by side (a trial's "#o#" was
    # reported as a line shifted by one character)
    ("o . o\n#o#", "line 1, column 2: this line's cells are one space apart, but the line below has cells side"),
    ("x - x\n.x.", "line 1, column 2: this line's cells are one space apart, but the line below"),
])
def test_malformed_text_is_refused_with_the_reason(text, message):
    with pytest.raises(BoardTextError, match=message.replace("?", r"\?")):
        Board.from_text(text)


def test_a_line_drawn_side_by_side_with_off_board_marks_is_read_as_drawn():
    board = Board.from_text("ooooo\no#o#o")   # holes under the 1st, 3rd and 5th: meant
    assert board.shape.size == 8 and set(board.shape.coords) >= {(1, 0), (1, 2), (1, 4)}
    # alone too (they were read as spaced: three neighbouring holes with jumps between them)
    for text in ("o#o#o", "x.x.-", "o#o#o\no#o#o"):
        shape = Board.from_text(text).shape
        assert {c for _, c in shape.coords} == {0, 2, 4} and not shape.jumps, text
    with pytest.raises(BoardTextError, match="line 2, column 2: this line's cells are one space apart"):
        Board.from_text("o#o#o\no o o")
    assert Board.from_text("ooo\no#o\nooo").shape.size == 8   # the ring, its gap drawn #


def test_triangle_text_off_the_lattice_is_refused():
    with pytest.raises(BoardTextError, match="line 2, column 2: hole is off the triangular lattice"):
        Board.from_text(" o\noo", grid="triangle")


def test_boards_too_large():
    assert solve(Board.from_text("o" * 64 + "."), strategy="dfs").reason == "exhausted"  # 65 holes
    with pytest.raises(BoardTooLargeError, match="136 holes; the largest board supported has 128"):
        solve("triangle16")
    with pytest.raises(BoardTooLargeError, match="more than 128 holes"):
        Board.from_text("o" * 200)
    with pytest.raises(BoardTooLargeError):
        pegsolver.find_variant("triangle40")


def test_unknown_variant_and_hole():
    with pytest.raises(pegsolver.UnknownVariantError, match="unsupported variant: 'hexagon'"):
        pegsolver.find_variant("hexagon")
    with pytest.raises(pegsolver.UnknownHoleError, match="no hole 'a1'"):
        english().hole("a1")
    with pytest.raises(pegsolver.UnknownHoleError, match="numbered 1..15"):
        pegsolver.find_variant("triangle5").board().hole("16")


def test_a_board_has_its_shape_s_name():
    # from_text takes a name; the board had none to give back (only its shape did)
    assert Board.from_text("o o .", name="row").name == "row"
    assert pegsolver.find_variant("french").board().name == "french"


def test_a_shape_is_equal_to_its_copy_in_another_process():
    # Shapes compared by identity: an answer with a proof, pickled to another process
    # (a process pool), was not equal to itself there. The hash is made again on loading,
    # since a str's hash differs from process to process.
    import copy
    import pickle
    import subprocess
    import sys
    shape = pegsolver.find_variant("french").shape()
    assert pickle.loads(pickle.dumps(shape)) == shape and copy.deepcopy(shape) == shape
    assert hash(pickle.loads(pickle.dumps(shape))) == hash(shape)
    assert shape != pegsolver.find_variant("english").shape() and shape != "french"
    answer = pegsolver.solve("french", pegsolver.Goal.at("d4"))   # impossible: a proof with its shape
    assert answer.proof is not None and pickle.loads(pickle.dumps(answer)) == answer
    code = ("import pickle, sys, pegsolver; s = pickle.loads(sys.stdin.buffer.read()); "
            "print(s == pegsolver.find_variant('french').shape(), "
            "hash(s) == hash(pegsolver.find_variant('french').shape()))")
    run = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(shape), capture_output=True,
                         env={**os.environ, "PYTHONHASHSEED": "12345"}, timeout=120)
    assert run.stdout.split() == [b"True", b"True"], run.stderr


def test_solve_reads_the_board_once_while_another_thread_plays_on_it():
    # solve() searched one reading of the board and built its answer from a second: a jump
    # played meanwhile by another thread made it raise IllegalJumpError on legal input.
    import threading
    board = pegsolver.find_variant("english").board()
    stop, errors, answers = threading.Event(), [], []

    def solver():
        while not stop.is_set():
            try:
                answers.append(pegsolver.solve(board, pegsolver.Goal.anywhere(), strategy="table",
                                               limit=pegsolver.Limit(nodes=5000)))
            except Exception as e:   # noqa: BLE001 - any error is the finding
                errors.append(e)

    def player():
        while not stop.is_set():
            board.push(board.legal_jumps()[0])
            board.pop()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    threads = [threading.Thread(target=solver), threading.Thread(target=player)]
    try:
        for t in threads:
            t.start()
        time.sleep(2)
    finally:
        stop.set()
        for t in threads:
            t.join()
        sys.setswitchinterval(old)
    assert not errors and answers
    for a in answers:   # each answer is of a position the board held, replayed from it
        assert a.start.peg_count in (31, 32) and (not a.jumps or a.final.pegs_mask != a.start.pegs_mask)


class _CountingBoard(pegsolver.Board):
    """A board that counts how often its pegs are read."""
    reads = 0

    @property
    def pegs_mask(self):
        self.reads += 1
        return self._pegs

    @pegs_mask.setter
    def pegs_mask(self, value):
        self._pegs = value


@pytest.mark.parametrize("entry", ["solve", "count_moves", "analyse", "find_hint"])
def test_entry_points_read_the_callers_pegs_once(entry):
    # each takes one reading of a caller's board, so another thread playing on it meanwhile
    # cannot mix two positions in one answer (solve did before 0cd06f3; the others after it)
    shape = pegsolver.find_variant("triangle5").shape()
    board = _CountingBoard(shape, shape.full_mask & ~1)
    board.reads = 0
    from pegsolver.analysis import analyse
    from pegsolver.apps.hint import find_hint
    from pegsolver.moves import count_moves
    goal = pegsolver.Goal.anywhere()
    run = {"solve": lambda: pegsolver.solve(board, goal), "count_moves": lambda: count_moves(board, finish=0),
           "analyse": lambda: analyse(board, finish=0, threads=1), "find_hint": lambda: find_hint(board, goal)}
    run[entry]()
    assert board.reads == 1
