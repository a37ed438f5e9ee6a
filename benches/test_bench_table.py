"""The French single-vacancy table: every vacancy x finish settled (issue target: under
5 minutes, under 4 GB); counts and work in extra_info."""
from collections import Counter

import pytest

import pegsolver
from pegsolver.survey import MARKS, survey_vacancies


@pytest.mark.benchmark(group="tables")
def test_french_single_vacancy_table(benchmark):
    board = pegsolver.find_variant("french").board()
    entries = benchmark.pedantic(lambda: survey_vacancies(board, 300.0), rounds=1, iterations=1)
    counts = Counter(e.reason for e in entries)
    assert len(entries) == 37 * 37
    assert all(e.reason in MARKS for e in entries), counts     # nothing left unknown
    assert counts["solved"] > 0 and counts["position class"] > 0
    # the centre start has no one-peg finish
    centre = board.hole("d4")
    assert not any(e.reason == "solved" for e in entries if e.vacancy == centre)
    benchmark.extra_info.update(counts=dict(counts), nodes=sum(e.nodes for e in entries),
                                searched=sum(1 for e in entries if e.nodes))
