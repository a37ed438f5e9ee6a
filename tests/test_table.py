"""Single-vacancy tables: every entry solved (replayed) or proved, and proofs checked."""
import json
import re

import pytest

import pegsolver
from pegsolver import Goal, solve
from pegsolver.apps.cli import main
from pegsolver.engine.outcome import Reason
from pegsolver.solver import Solution
from pegsolver.survey import survey_vacancies
from replay import assert_solves

PROOFS = ("position class", "pagoda", "exhausted")


@pytest.mark.parametrize("name", ["triangle4", "triangle5"])
def test_table_agrees_with_plain_exhaustive_search(name):
    board = pegsolver.find_variant(name).board()
    shape = board.shape
    entries = survey_vacancies(board)
    assert len(entries) == shape.size ** 2
    for e in entries:
        start = board.with_pegs(shape.full_mask & ~(1 << e.vacancy))
        plain = solve(start, Goal.at(e.finish), strategy="table", proofs=False)  # no shortcuts
        assert plain.reason in ("solved", "exhausted")
        assert (e.reason == "solved") == plain.solved, (e.vacancy, e.finish, e.reason)
        assert e.reason == "solved" or e.reason in PROOFS
        if e.reason == "solved":  # mapped by symmetry or duality or searched: replay independently
            sol = Solution(start, Goal.at(e.finish), True, "solved", e.jumps, plain.stats)
            assert_solves(sol, finish=[e.finish])


def test_every_single_vacancy_of_the_15_hole_triangle_finishes_somewhere():
    # design.md: every single vacancy can be reduced to one peg
    board = pegsolver.find_variant("triangle5").board()
    solved = {e.vacancy for e in survey_vacancies(board) if e.reason == "solved"}
    assert solved == set(range(15))


def test_table_command(capsys):
    assert main(["table", "triangle4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["entries"]) == 100
    corners = {e["vacancy"] for e in data["entries"] if e["reason"] == "solved"} & {"1", "7", "10"}
    assert corners == set()
    assert all(e["solved"] is (e["reason"] == "solved") for e in data["entries"])
    assert 0 < sum(e["solved"] for e in data["entries"]) < 100
    assert main(["table", "triangle4"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split() == [str(i) for i in range(1, 11)]


def test_the_survey_takes_one_limit_per_pair():
    from pegsolver import Limit, PegsolverError
    board = pegsolver.find_variant("triangle5").board()
    survey = survey_vacancies(board, limit=Limit(nodes=1))
    assert len(survey) == 15 * 15 and survey.board is board
    assert {e.reason for e in survey} <= {"solved", "position class", "pagoda", "exhausted", "node limit"}
    assert any(e.reason == "node limit" for e in survey) and not survey.settled
    with pytest.raises(PegsolverError, match="limit must be"):
        survey_vacancies(board, limit=5)


def test_solution_counts_stopped_by_a_limit_print_what_they_finished(capsys, monkeypatch):
    import pegsolver.analysis as analysis
    real, calls = analysis.analyse, []

    def third_runs_out_of_time(board, **kw):   # the third vacancy's count meets its time limit
        calls.append(board)
        if len(calls) == 3:
            kw["limit"] = kw["limit"].replace(seconds=1e-9)
        return real(board, **kw)
    monkeypatch.setattr(analysis, "analyse", third_runs_out_of_time)
    code = main(["count", "triangle6", "--table", "--json"])
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert code == 1 and data["stopped"] == "time limit" and data["complete"] is False
    done = {v for b in calls[:2] for v in b.vacancies()}    # and their images under the symmetries
    assert len(data["solutions"]) >= len(done) > 0 and "vacancies were done" in captured.err
    whole = analysis.solution_counts("triangle6").to_json()["solutions"]
    assert all(data["solutions"][v] == whole[v] for v in data["solutions"])


def test_a_table_by_moves_counts_a_solution_found_before_its_limit_as_solved_not_settled():
    # as solve() answers it: solved, not optimal; the grid shows the bound and the solution's moves
    from pegsolver import Limit
    from pegsolver.engine.outcome import Reason
    s = survey_vacancies("triangle5", minimize="moves", limit=Limit(nodes=1000))   # node counts: exact
    found = [e for e in s if e.reason is Reason.SOLVED and not e.optimal]
    assert found and all(e.jumps and e.lower_bound < e.moves for e in found)
    assert not s.settled and s.shortest is None
    text = s.to_text()
    assert all(f"{e.lower_bound}-{e.moves}" in text for e in found) and "L-U: at least L proved" in text
    # every pair tried: the shortest is bracketed (triangle 5's is 9, OEIS A127500)
    low, high = map(int, re.search(r"shortest: not known \(at least (\d+), (\d+) found\)", text).groups())
    assert low <= 9 <= high and f"fewest moves proved: {sum(1 for e in s if e.optimal)})" in text
    data = s.to_json()
    assert data["counts"]["solved"] == sum(1 for e in s if e.reason is Reason.SOLVED)
    assert any(d["solved"] and d["optimal"] is False and d["move_count"] > d["lower_bound"]
               for d in data["entries"])
    # each such pair names what stopped its proof, as solve's reason does (a trial could not tell)
    assert all(e.proof_stopped_by is Reason.NODE_LIMIT for e in found)
    assert all(d["proof_stopped_by"] == ("node limit" if d["solved"] and not d["optimal"] else None)
               for d in data["entries"])
    alone = solve(pegsolver.find_variant("triangle5").board().with_vacant(found[0].vacancy), Goal.at(found[0].finish),
                  minimize="moves", limit=Limit(nodes=1000))
    assert alone.reason is found[0].proof_stopped_by


def test_ctrl_c_in_a_pair_whose_solution_was_found_still_ends_a_table_by_moves(monkeypatch):
    # solve() answers such a pair solved (reason: interrupted); the table must stop there
    from dataclasses import replace

    from pegsolver import survey
    from pegsolver.engine.outcome import Reason
    real, calls = survey.solve, []

    def stopped_after_a_solution(board, goal, **kwargs):
        calls.append(goal)
        sol = real(board, goal, **kwargs)
        return replace(sol, reason=Reason.INTERRUPTED, optimal=False) if sol.solved else sol
    monkeypatch.setattr(survey, "solve", stopped_after_a_solution)
    s = survey_vacancies("triangle4", minimize="moves")
    assert s.interrupted and s[-1].jumps and len(s) < 16 and len(calls) <= len(s)


def test_ctrl_c_between_two_searches_ends_the_table_as_inside_one(monkeypatch):
    # solve answers a Ctrl-C inside its search; one that lands between two searches (here
    # in the replay of the third solution) ends the survey with that pair interrupted
    import pegsolver.survey as S
    real, calls = S._replay, []

    def replay(*args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)
    monkeypatch.setattr(S, "_replay", replay)
    survey = survey_vacancies("triangle5")
    assert survey.interrupted and len([e for e in survey if e.jumps]) == 2
    assert survey[-1].reason is pegsolver.Reason.INTERRUPTED and len(survey) < 15 * 15
    said = survey.to_json()   # the JSON says so too, as the whole table's does
    assert (said["interrupted"], said["settled"]) == (True, False) and "shortest" not in said
    whole = survey_vacancies("triangle4").to_json()
    assert (whole["interrupted"], whole["settled"]) == (False, True)


def test_a_table_by_moves_knows_the_shortest_before_its_pairs_are_settled():
    # one search over every pair at once settles the board's shortest first: a trial's
    # triangle 7 table (784 pairs) was stopped after minutes with no shortest, which that
    # search proves in seconds
    from pegsolver import Cancel, Limit
    cancel = Cancel()
    s = survey_vacancies("triangle6", minimize="moves", limit=Limit(cancel=cancel),
                         progress=lambda done, total: cancel.set())
    assert s.interrupted and not s.settled and len(s) < 21 * 21
    best = s.shortest
    assert best is s.overall and best.moves == best.lower_bound == 9   # OEIS A127500
    board = pegsolver.find_variant("triangle6").board().with_pegs((1 << 21) - 1 & ~(1 << best.vacancy))
    for j in best.jumps:
        board.push(j)
    assert board.pegs() == [best.finish]
    assert "(proved by one search over every pair at once)" in s.to_text()
    assert s.to_json()["shortest"] == {"moves": 9, "vacancy": str(best.vacancy + 1),
                                       "finish": str(best.finish + 1), "all_pairs_at_once": True}


def test_a_stop_inside_the_search_over_every_pair_ends_the_table(monkeypatch):
    # that search answers Ctrl-C (or a cancel) with what it proved; the table took the
    # answer for a limit's and went on to the pairs, so a trial's first Ctrl-C in the first
    # seconds of `table triangle7 --fewest-moves` was ignored and the whole table ran
    import threading

    from pegsolver import Cancel, Limit
    from pegsolver import survey as survey_module

    def no_pairs(*args, **kwargs):
        raise AssertionError("a pair was searched after the stop")
    monkeypatch.setattr(survey_module, "solve", no_pairs)
    cancel = Cancel()
    timer = threading.Timer(0.3, cancel.set)   # inside triangle 8's search over every pair (seconds)
    timer.start()
    try:
        s = survey_vacancies("triangle8", minimize="moves", limit=Limit(cancel=cancel))
    finally:
        timer.cancel()
    # no pair was tried, so none is listed (a placeholder pair (0, 0) was, marked interrupted)
    assert len(s) == 0 and s.interrupted and s.overall is None and not s.settled
    assert s.stopped_at_once is Reason.CANCELLED and s.to_json()["stopped_at_once"] == "cancelled"
    assert s.to_json()["entries"] == []
    # no grid of blank cells and "0 of 0 pairs tried" (a trial's), but what that search proved
    assert s.bound_at_once is not None and 1 <= s.bound_at_once <= 13   # triangle 8's fewest: 13 (OEIS A127500)
    assert s.to_text() == (f"board: triangle8; no problem tried: stopped in the search over every pair at once (it "
                           f"proved that every problem takes at least {s.bound_at_once} moves); {s.seconds:.1f} s")
    assert s.to_json()["bound_at_once"] == s.bound_at_once


def test_a_settled_table_by_moves_names_the_search_over_every_pair_as_its_shortest(capsys):
    # a trial's settled triangle 6 table said all_pairs_at_once: false, though that search
    # ran first and proved 9; the shortest was picked again from the pairs
    code = main(["table", "triangle6", "--fewest-moves", "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 0 and answer["settled"] and answer["shortest"]["all_pairs_at_once"]
    assert answer["shortest"]["moves"] == 9 and answer["bound_at_once"] is None   # OEIS A127500


def test_the_bound_of_the_search_over_every_pair_bounds_and_can_prove_the_shortest():
    # 1,000 nodes stop that search on triangle 5 at 9 moves (the board's fewest, OEIS A127500)
    # and prove pairs of 10 only: the bound is kept, and brackets the shortest
    from pegsolver import Limit
    s = survey_vacancies("triangle5", minimize="moves", limit=Limit(nodes=1000))   # node counts: exact
    assert s.overall is None and s.bound_at_once == 9 and s.shortest is None
    assert "shortest: not known (at least 9, " in s.to_text() and s.to_json()["bound_at_once"] == 9
    # were that bound 10, a pair proved in 10 would be the shortest, whatever the pairs not settled
    s.bound_at_once = 10
    best = s.shortest
    assert best is not None and best.optimal and best.moves == 10
    assert "(proved: the search over every pair at once proved that every problem takes at least as many)" \
        in s.to_text()


def test_a_table_whose_proved_pair_is_as_short_as_every_open_bound_knows_the_shortest(capsys):
    # a trial's table under a small budget said "shortest: not known (at least 9, 9 found)"
    # while pairs were proved at 9 and every pair left open was proved at least 9
    code = main(["table", "triangle6", "--fewest-moves", "--table-mb", "0.2", "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 1 and not answer["settled"] and not answer["shortest"]["all_pairs_at_once"]
    assert answer["shortest"]["moves"] == 9   # OEIS A127500
    open_ = [e for e in answer["entries"] if e["reason"] == "solved" and not e["optimal"]]
    assert open_ and all(e["lower_bound"] >= 9 for e in open_)
    best = next(e for e in answer["entries"] if e["vacancy"] == answer["shortest"]["vacancy"]
                and e["finish"] == answer["shortest"]["finish"])
    assert best["optimal"] and best["move_count"] == len(best["moves"]) == 9
    # the search over every pair at once now proves 9 here too (after its memory stop, passes
    # pruned to fewer moves fit), so the text names it; without that bound the open pairs prove it
    from pegsolver import Limit
    s = survey_vacancies("triangle6", minimize="moves", limit=Limit(memory_bytes=int(0.2 * 2**20)))
    assert s.bound_at_once == 9 and s.shortest is not None and s.shortest.moves == 9
    assert "(proved: the search over every pair at once proved that every problem takes at least as many)" \
        in s.to_text()
    s.bound_at_once = None
    assert s.shortest is not None and s.shortest.moves == 9
    assert "(proved: the pairs not settled take at least as many)" in s.to_text()
