"""Outcomes as a type: Reason knows what it proves, equals its words, and is the only place
the words are spelled."""
import io
import json
import tokenize
from pathlib import Path

import pytest

import pegsolver
from pegsolver import Goal, Limit, Reason, solve
from pegsolver.engine.outcome import CORE_STOPS


def test_reason_is_its_words():
    assert Reason.NODE_LIMIT == "node limit" and f"{Reason.POSITION_CLASS}" == "position class"
    assert json.dumps({"reason": Reason.EXHAUSTED}) == '{"reason": "exhausted"}'
    assert Reason("time limit") is Reason.TIME_LIMIT


def test_what_each_reason_proves():
    assert {r for r in Reason if r.proves_impossible} == {Reason.POSITION_CLASS, Reason.PAGODA, Reason.EXHAUSTED}
    assert {r for r in Reason if r.settles} == {Reason.SOLVED, Reason.POSITION_CLASS, Reason.PAGODA,
                                                Reason.EXHAUSTED}
    assert {r for r in Reason if r.is_limit} == {Reason.NODE_LIMIT, Reason.TIME_LIMIT, Reason.MEMORY_LIMIT}
    assert all(r.explanation for r in CORE_STOPS)


def test_solutions_carry_a_reason():
    board = pegsolver.find_variant("english").board()
    assert solve(board).reason is Reason.SOLVED
    assert solve(board, Goal.at("c3")).reason is Reason.POSITION_CLASS
    stopped = solve(board, strategy="symmetry", order="right", limit=Limit(nodes=1000))
    assert stopped.reason is Reason.NODE_LIMIT and stopped.reason == "node limit"
    with pytest.raises(ValueError):
        pegsolver.Solution(board, Goal.at("d4"), False, "gave up", [], stopped.stats)


# The words every module would otherwise repeat; "solved", "beam" and "pagoda" are left out,
# as they also name a JSON key, a strategy and a module.
WORDS = {r.value for r in Reason} - {"solved", "beam", "pagoda"}
KEYS = {("bench_results.py", '"interrupted"')}  # a JSON key of the bench's output (whether Ctrl-C ended it)


def test_no_outcome_words_outside_the_outcome_module():
    package = Path(pegsolver.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "outcome.py":
            continue
        for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
            if (tok.type == tokenize.STRING and tok.string.strip("\"'") in WORDS
                    and (path.name, tok.string) not in KEYS):
                found.append(f"{path.name}:{tok.start[0]} {tok.string}")
    assert not found, found


def test_old_module_names_still_import_with_a_warning():
    import importlib
    import sys

    from pegsolver.model import board as new_board
    sys.modules.pop("pegsolver.board", None)
    with pytest.warns(DeprecationWarning, match="pegsolver.board has moved to pegsolver.model.board"):
        old = importlib.import_module("pegsolver.board")
    assert old is new_board  # one module under both names: same classes, same state
