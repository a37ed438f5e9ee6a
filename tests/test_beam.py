"""The beam strategy: level by level, only the best positions of each level kept.

It reaches boards where depth-first search stalls (diamond 41, triangle 14), stays
inside its memory budget, and never calls a failure after a cut a proof. Core and
reference agree on cut beams in test_differential.py.
"""
import json

import pytest

from pegsolver import Goal, Limit, PegsolverError, solve
from pegsolver.apps.cli import main
from pegsolver.engine.compile import MAX_BEAM_WIDTH
from replay import assert_solves


def test_diamond_off_centre_d2_to_f2():
    # The diamond 41 problem: depth-first search in every order finds nothing in
    # seconds; the default beam does it in about half a second.
    sol = solve("diamond", Goal.at("f2"), strategy="beam")
    assert sol.solved and sol.stats.nodes < 1_000_000
    assert_solves(sol, finish=[sol.start.shape.index[(1, 5)]], pegs_left=1)


def test_diamond_standard_start_is_solved():
    sol = solve("diamond", strategy="beam")
    assert sol.solved and sol.start.vacancies() == [sol.start.shape.index[(1, 3)]]
    assert_solves(sol, pegs_left=1)


def test_triangle_14_in_the_128_bit_core():
    sol = solve("triangle14", strategy="beam", beam_width=2000)
    assert sol.start.shape.size == 105 and sol.solved
    assert_solves(sol, pegs_left=1)


def test_beam_memory_budget_stops_cleanly():
    sol = solve("diamond", strategy="beam", limit=Limit(memory_bytes=1 << 20))
    assert not sol.solved and sol.reason == "memory limit"
    assert sol.stats.table_bytes <= 1 << 20


def test_a_cut_beam_proves_nothing():
    sol = solve("english", strategy="beam", beam_width=1)
    assert sol.reason == "beam" and not sol.solved


def test_node_and_time_limits_apply():
    assert solve("wiegleb", strategy="beam", beam_width=50_000, limit=Limit(nodes=1000)).reason == "node limit"


@pytest.mark.parametrize("width", [0, -3, MAX_BEAM_WIDTH + 1, 2.5, True, "10"])
def test_bad_widths_are_refused(width):
    with pytest.raises(PegsolverError, match="beam width"):
        solve("english", strategy="beam", beam_width=width)


def test_cli_beam(capsys):
    assert main(["solve", "diamond", "--finish", "f2", "--strategy", "beam", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solved"] and out["final"] == ["f2"] and out["stats"]["strategy"] == "beam"
    assert main(["solve", "english", "--strategy", "beam", "--beam-width", "1"]) == 1
    assert "nothing proved" in capsys.readouterr().out
    assert main(["solve", "english", "--strategy", "beam", "--beam-width", "0"]) == 2
    assert "beam width" in capsys.readouterr().err
