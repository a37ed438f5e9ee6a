"""Position classes: published figures, instant impossibility proofs, the classes command."""
import json

import pytest

import pegsolver
from pegsolver import Goal, solve
from pegsolver.apps.cli import main
from pegsolver.proofs.classes import class_finishes, position_class


def vacate(name, hole):
    board = pegsolver.find_variant(name).board()
    return board.with_pegs(board.shape.full_mask & ~(1 << board.hole(hole)))


def test_english_centre_can_finish_only_on_five_holes():
    # design.md: one peg can finish from the centre start only at d4, d1, a4, g4, d7
    board = vacate("english", "d4")
    assert sorted(board.hole_name(h) for h in class_finishes(board.shape, board.pegs_mask)) == \
        sorted(["d4", "d1", "a4", "g4", "d7"])


def test_no_jump_changes_the_class():
    board = pegsolver.find_variant("french").board()
    sol = solve(board)
    replay = board.copy()
    before = position_class(board.shape, board.pegs_mask)
    for j in sol.jumps:
        replay.push(j)
        assert position_class(board.shape, replay.pegs_mask) == before


@pytest.mark.parametrize("name,vacancy,finish", [
    ("french", "d4", None),      # the French centre has no one-peg finish
    ("diamond", "e5", None),     # nor has the diamond's
    ("english", "c1", "d4"),     # c1 and d4 lie in different classes
    ("triangle4", "1", None),    # a corner of the 10-hole triangle
    ("triangle4", "10", None),
])
def test_impossible_problems_are_answered_at_once_with_the_reason(name, vacancy, finish):
    start = vacate(name, vacancy)
    goal = Goal.at(start.hole(finish)) if finish else Goal.anywhere()
    sol = solve(start, goal)
    assert not sol.solved and sol.reason == "position class"
    assert "position class" in sol.explanation and sol.stats.nodes == 0


def test_cli_says_impossible_and_why(capsys):
    code = main(["solve", "french", "--vacant", "d4", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["solved"] is False and data["reason"] == "position class"
    assert "class" in data["explanation"]


def test_classes_command(capsys):
    assert main(["classes", "english", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)["finishes"]
    assert len(table) == 33 and sorted(table["d4"]) == sorted(["d1", "a4", "d4", "g4", "d7"])
    assert main(["classes", "english-diagonal"]) == 2
    assert "no position classes" in capsys.readouterr().err


@pytest.mark.parametrize("variant", pegsolver.model.variants.catalogue(), ids=lambda v: v.name)
def test_no_standard_start_is_impossible_by_class(variant):
    board = variant.board()
    if board.shape.rules != "diagonal":
        assert class_finishes(board.shape, board.pegs_mask), variant.name
        goal = variant.goal(board.shape)
        if goal.finish is not None:
            assert position_class(board.shape, board.pegs_mask) == position_class(board.shape, goal.finish_mask())


@pytest.mark.parametrize("name,hole", [("triangle5", "1"), ("triangle5", "4"), ("rect3x5", "a1")])
def test_level_bound_counts_the_start_class_by_pegs(name, hole):
    # the bound the enumeration plans its memory with, against a count of every subset
    from pegsolver.analysis import level_bound
    board = vacate(name, hole)
    shape, start = board.shape, board.pegs_mask
    want = [0] * (shape.size + 1)
    cls = position_class(shape, start)
    for pegs in range(1 << shape.size):
        if position_class(shape, pegs) == cls:
            want[pegs.bit_count()] += 1
    assert [level_bound(shape, start, k) for k in range(shape.size + 1)] == want
    assert level_bound(shape, start, -1) == level_bound(shape, start, shape.size + 1) == 0


def test_a_proof_is_kept_as_data_and_stated_in_any_notation_without_solving_again(monkeypatch):
    # explanation_in ran the pagoda LP again to restate a proof in another notation
    from pegsolver.proofs import pagoda
    sol = solve("rect3x3", Goal.anywhere())
    assert sol.reason == "pagoda" and sol.proof is not None and not sol.proof.by_classes
    assert sol.proof.start == sol.start.pegs_mask and len(sol.proof.weights) == len(sol.proof.finishes) >= 1
    for w, finish in zip(sol.proof.weights, sol.proof.finishes):   # each finish has its own pagoda function
        assert pagoda.is_pagoda(sol.start.shape, w) and pagoda.value(w, sol.start.pegs_mask) < pagoda.value(w, finish)
    monkeypatch.setattr(pagoda, "certificate", lambda *a: pytest.fail("the LP ran again"))
    assert sol.explanation_in("algebraic") == sol.explanation and "one peg at a1," in sol.explanation
    numeric = sol.explanation_in("numeric")
    assert "one peg at 11, the one hole of its position class" in numeric and "a1" not in numeric
    by_class = solve("english", Goal.at("c3"))
    assert by_class.reason == "position class" and by_class.proof.by_classes
    assert "one peg at c3" in by_class.explanation and "one peg at 33" in by_class.explanation_in("numeric")


def test_a_hint_states_its_proof_in_the_games_notation():
    from pegsolver.apps.hint import find_hint
    hint = find_hint("english", Goal.at("c3"), seconds=5)
    assert hint.proof is not None and "one peg at 33" in hint.explanation_in("numeric")
    assert hint.explanation_in("algebraic") == hint.explanation and "c3" in hint.explanation
