"""SVG pictures: documents that parse, one diagram per move plus the final position, and
in each diagram the pegs of the position, put back on the board's holes by this test's
own reading of the drawing and checked against an independent replay."""
import json
import math
import os
import xml.etree.ElementTree as ET

import pytest

import pegsolver
from pegsolver import solve
from pegsolver.apps import svg
from pegsolver.apps.cli import main
from pegsolver.model.notation import group_moves
from replay import replay_coords

NS = "{http://www.w3.org/2000/svg}"


def diagrams(text):
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root.findall(f"{NS}g[@class='diagram']")


def circles(diagram, kind):
    return [c for c in diagram.iter(NS + "circle") if kind in c.get("class", "").split()]


def centre(c):
    return float(c.get("cx")), float(c.get("cy"))


def read_board(diagram, grid, side=None):
    """(hole coordinates, a function from a circle to its hole's coordinates), read back
    from a diagram's circles.

    The spacing is the smallest distance between two holes; square grids map (x, y) to
    (row, col) directly, triangles of side ``side`` through skew coordinates.
    """
    holes = [centre(c) for c in circles(diagram, "hole")]
    spacing = min(math.dist(a, b) for i, a in enumerate(holes) for b in holes[i + 1:])
    x0 = min(x for x, _ in holes)
    y0 = min(y for _, y in holes)

    def coord(circle):
        p = centre(circle) if isinstance(circle, ET.Element) else circle
        x, y = (p[0] - x0) / spacing, (p[1] - y0) / spacing
        if grid == "square":
            rc = (y, x)
        else:  # rows sqrt(3)/2 apart, each row shifted half a spacing left of the one above
            r = y / (math.sqrt(3) / 2)
            rc = (r, x - (side - 1) / 2 + r / 2)
        assert all(abs(v - round(v)) < 0.01 for v in rc), f"{p} is not on a grid point"
        return tuple(round(v) for v in rc)
    return {coord(h) for h in holes}, coord


def check_solution_picture(text, sol, grid, side=None):
    shape = sol.start.shape
    coords = shape.coords
    moves = group_moves(sol.jumps)
    found = diagrams(text)
    assert len(found) == len(moves) + 1
    pegs = {coords[h] for h in sol.start.pegs()}
    for k, d in enumerate(found):
        holes, coord = read_board(d, grid, side)
        assert holes == set(coords)
        drawn = [coord(c) for c in circles(d, "peg")]
        assert len(drawn) == len(set(drawn)) == len(pegs)
        assert set(drawn) == pegs
        if k < len(moves):
            move = [(coords[j.from_hole], coords[j.to_hole]) for j in moves[k]]
            assert [coord(c) for c in circles(d, "mover")] == [move[0][0]]
            jumped = {((a[0] + b[0]) // 2, (a[1] + b[1]) // 2) for a, b in move}  # midpoints, skew or not
            assert {coord(c) for c in circles(d, "jumped")} == jumped
            pegs = replay_coords(shape.rules, coords, pegs, move)
    assert len(pegs) == 1


def test_english_solution_grid():
    sol = solve("english")
    text = svg.solution_svg(sol.start, sol.jumps, heading="english")
    check_solution_picture(text, sol, "square")


def test_triangle_drawn_as_a_triangle():
    sol = solve("triangle5")
    check_solution_picture(svg.solution_svg(sol.start, sol.jumps), sol, "triangle", side=5)
    # The holes sit one spacing apart in all six directions: an equilateral lattice.
    d = diagrams(svg.board_svg(sol.start))[0]
    holes = [centre(c) for c in circles(d, "hole")]
    spacing = min(math.dist(a, b) for i, a in enumerate(holes) for b in holes[i + 1:])
    apex, left, right = holes[0], holes[10], holes[14]
    for a, b in ((apex, left), (apex, right), (left, right)):
        assert math.isclose(math.dist(a, b), 4 * spacing, rel_tol=1e-3)


@pytest.mark.parametrize("variant", [v.name for v in pegsolver.model.variants.catalogue()])
def test_every_variant_drawn(variant):
    board = pegsolver.find_variant(variant).board()
    d = diagrams(svg.board_svg(board))
    assert len(d) == 1
    assert len(circles(d[0], "hole")) == board.shape.size
    assert len(circles(d[0], "peg")) == board.peg_count == board.shape.size - 1
    names = [t.text for t in d[0].iter(NS + "text") if "name" in t.get("class", "").split()]
    assert sorted(names) == sorted(board.hole_name(h) for h in range(board.shape.size))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_svg_from_the_shell(tmp_path, capsys):
    path = tmp_path / "t5.svg"
    code, out, _ = run(capsys, "solve", "triangle5", "--svg", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["solved"]
    found = diagrams(path.read_text())
    assert len(found) == len(data["moves"]) + 1
    shape = pegsolver.find_variant("triangle5").shape()
    pegs = shape.size - 1
    for d, move in zip(found, data["moves"] + [""]):
        assert len(circles(d, "peg")) == pegs
        pegs -= move.count("-")  # one peg leaves the board per jump of the move


def test_unsolved_svg_shows_the_start(tmp_path, capsys):
    path = tmp_path / "no.svg"
    code, out, _ = run(capsys, "solve", "english", "--finish", "a3", "--svg", str(path))
    assert code == 1 and "impossible" in out
    found = diagrams(path.read_text())
    assert len(found) == 1 and len(circles(found[0], "peg")) == 32
    assert "impossible (position class)" in path.read_text()


def test_boards_svg_directory(tmp_path, capsys):
    folder = tmp_path / "pictures"   # made, in a directory that exists
    code, out, _ = run(capsys, "boards", "--svg", str(folder))
    variants = pegsolver.model.variants.catalogue()
    assert code == 0 and f"svg: {len(variants)} pictures" in out
    files = sorted(p.name for p in folder.iterdir())
    assert files == sorted(f"{v.name}.svg" for v in variants)
    for v in variants:
        d = diagrams((folder / f"{v.name}.svg").read_text())
        assert len(circles(d[0], "peg")) == v.board().peg_count


def test_unwritable_svg_paths(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for argv, message in [
        (["solve", "triangle5", "--svg", str(tmp_path / "missing" / "x.svg")], "no directory"),
        (["solve", "triangle5", "--svg", str(tmp_path)], "it is a directory"),
        (["boards", "--svg", str(blocker)], "it is a file, not a directory"),
        (["boards", "--svg", str(blocker / "sub")], "cannot create the directory"),
        (["boards", "--svg", str(tmp_path / "missing" / "sub")], "no directory"),   # not made up
        (["solve", "triangle5", "--svg", str(blocker / "x.svg")], f"{str(blocker)!r} is not a directory"),
        (["bench", "--problems", "triangle5-corner", "--csv", str(tmp_path / "x.png"), "--plot",
          str(tmp_path / "x.png")], "name the same file"),
        (["solve", "triangle5", "--svg", str(tmp_path / "x.png")], "must end in .svg"),
    ]:
        code, out, err = run(capsys, *argv)
        assert code == 2 and message in err and "Traceback" not in err, (argv, err)
        assert str(tmp_path) in err
    assert not (tmp_path / "missing").exists()
    for argv in (["solve", "triangle5", "--svg", ""], ["boards", "--svg", ""], ["bench", "--csv", ""]):
        code, out, err = run(capsys, *argv)   # an empty path is no path: refused, not ignored
        assert code == 2 and "path is empty" in err and not out, argv
    with pytest.raises(pegsolver.PegsolverError, match="cannot write the SVG file"):
        svg.write_svg(tmp_path, "<svg/>")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_an_output_path_whose_directory_refuses_new_files_is_refused_before_the_work(capsys):
    # /proc passes the permission bits (for root, all do) but makes no files: refused at once,
    # not after the search; its file system is left as it was
    code, out, err = run(capsys, "solve", "english", "--fewest-moves", "--svg", "/proc/pegsolver.svg")
    assert code == 2 and "cannot write the SVG file '/proc/pegsolver.svg'" in err and "Traceback" not in err
    assert "board:" not in out   # nothing printed: no search ran
    code, _, err = run(capsys, "boards", "--svg", "/proc/pegsolver")
    assert code == 2 and "cannot create the directory '/proc/pegsolver'" in err and "no directory" not in err
    code, out, err = run(capsys, "bench", "--problems", "triangle5-corner", "--csv", "/proc/pegsolver.csv")
    assert code == 2 and "cannot write the CSV file '/proc/pegsolver.csv'" in err and not out


def test_bad_arguments():
    board = pegsolver.find_variant("english").board()
    with pytest.raises(pegsolver.PegsolverError, match="at least 1"):
        svg.solution_svg(board, [], columns=0)
    jump = board.legal_jumps()[0]
    with pytest.raises(pegsolver.IllegalJumpError):
        svg.solution_svg(board, [jump, jump])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_odd_output_paths_and_file_names(tmp_path, capsys):
    # A trial's findings: a named pipe as the SVG hung before any solving (opened to check
    # it, it waits for a reader); a name past the file system's limit said only "cannot
    # write the output"; a directory in the way of one picture left a partial set.
    pipe = tmp_path / "pipe.svg"
    os.mkfifo(pipe)
    code, out, err = run(capsys, "solve", "triangle5", "--svg", str(pipe))
    assert code == 2 and f"cannot write the SVG file {str(pipe)!r}: not a regular file" in err and not out
    long = str(tmp_path / ("a" * 300 + ".svg"))
    code, out, err = run(capsys, "solve", "triangle5", "--svg", long, "--json")
    assert code == 2 and f"cannot write the SVG file {long!r}: File name too long" in err
    assert json.loads(out)["error"].startswith("cannot write the SVG file")
    folder = tmp_path / "pictures"
    (folder / "wiegleb.svg").mkdir(parents=True)
    code, out, err = run(capsys, "boards", "--svg", str(folder))
    assert code == 2 and "wiegleb.svg" in err and "it is a directory" in err
    assert [p.name for p in folder.iterdir()] == ["wiegleb.svg"]   # nothing written


def test_a_board_named_by_its_file_is_printable_in_every_answer(tmp_path, capsys):
    # A board drawn in a file takes the file's name: a byte that is not UTF-8 made the SVG
    # writer raise (leaving an empty file) and the JSON carry a lone surrogate; a control
    # character made the SVG ill-formed XML.
    drawing = "  ooo\n  ooo\nooooooo\nooo.ooo\nooooooo\n  ooo\n  ooo\n"
    for raw, shown in [(b"x\xffy.txt", "x?y"), (b"a\x01b.txt", "a?b"), ("caf\u00e9.txt".encode(), "caf\u00e9")]:
        board_file = os.path.join(os.fsencode(tmp_path), raw)
        with open(board_file, "w") as f:
            f.write(drawing)
        picture = tmp_path / "out.svg"
        code, out, err = run(capsys, "solve", os.fsdecode(board_file), "--svg", str(picture), "--json")
        assert code == 0 and "Traceback" not in err
        assert json.loads(out)["board"] == shown
        json.loads(out.encode("utf-8"))   # strict UTF-8: no lone surrogate
        ET.fromstring(picture.read_bytes())   # well-formed XML
        assert shown in picture.read_text(encoding="utf-8")
