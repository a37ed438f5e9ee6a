"""The strategy benchmark: problem set, strategy table, runner, reports and `pegsolver bench`."""
import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import interrupting
import pegsolver
from pegsolver import Limit
from pegsolver.apps import bench_report as report
from pegsolver.apps.bench import (
    BENCH_STRATEGIES,
    REFERENCE,
    RunResult,
    default_problems_path,
    load_problems,
    plan_bench,
    run_bench,
    run_one,
)
from pegsolver.apps.bench_report import best_run, speedup, tables
from pegsolver.apps.bench_strategies import _strategy_table
from pegsolver.apps.cli import main
from pegsolver.engine.compile import ORDERS
from pegsolver.engine.compile import STRATEGY_SPECS as STRATEGIES
from pegsolver.errors import BenchError, PegsolverError
from replay import assert_solves

PROBLEM_SET = load_problems()
PROBLEMS = {p.name: p for p in PROBLEM_SET.problems}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- the problem set ---------------------------------------------------------------

def test_problem_set_is_versioned_and_packaged():
    assert default_problems_path().is_file()
    assert isinstance(PROBLEM_SET.version, int) and PROBLEM_SET.version >= 1
    assert len(set(PROBLEM_SET.names())) == len(PROBLEM_SET.problems)
    assert all(p.source for p in PROBLEM_SET.problems)


def test_problem_set_covers_the_issue():
    boards = [p.board for p in PROBLEM_SET.problems]
    assert {"english", "wiegleb", "diamond", "triangle5", "triangle6", "triangle7", "triangle8"} <= set(boards)
    french = [p for p in PROBLEM_SET.problems if p.board == "french"]
    assert {p.vacant for p in french} == {("a3",), ("c1",), ("d2",)}
    assert sorted(p.finish is None for p in french) == [False] * 3 + [True] * 3
    assert any(p.start().shape.size > 64 for p in PROBLEM_SET.problems)
    assert any(p.small for p in PROBLEM_SET.problems) and not all(p.small for p in PROBLEM_SET.problems)


def test_fixed_french_finishes_are_allowed_by_position_class():
    from pegsolver.proofs.classes import class_finishes
    for p in PROBLEM_SET.problems:
        if p.board == "french" and p.finish:
            start = p.start()
            assert start.hole(p.finish[0]) in class_finishes(start.shape, start.pegs_mask), p.name


@pytest.mark.parametrize("text,words", [
    ('problems = []', "version"),
    ('version = 1', "no [[problems]]"),
    ('version = "1"\n[[problems]]\nname = "x"', "version"),
    ('version = 1\n[[problems]]\nname = "x"\nboard = "english"\nfinish = "d4"\nexpect = "solved"\n'
     'source = "s"\ncolour = "red"', "unknown key 'colour'"),
    ('version = 1\n[[problems]]\nname = "x"\nboard = "english"\nexpect = "solved"\nsource = "s"',
     "missing key 'finish'"),
    ('version = 1\n[[problems]]\nname = "x"\nboard = "nosuchboard"\nfinish = "any"\nexpect = "solved"\n'
     'source = "s"', "nosuchboard"),
    ('version = 1\n[[problems]]\nname = "x"\nboard = "english"\nfinish = "z9"\nexpect = "solved"\nsource = "s"',
     "z9"),
    ('version = 1\n[[problems]]\nname = "x"\nboard = "english"\nfinish = "any"\nexpect = "maybe"\nsource = "s"',
     "expect"),
    ('version = 1\n[[problems]]\nname = "x"\nboard = "english"\nfinish = "any"\nexpect = "solved"\nsource = "s"\n'
     '[[problems]]\nname = "x"\nboard = "english"\nfinish = "any"\nexpect = "solved"\nsource = "s"', "twice"),
    ('version = 1\n[[problems', "not valid TOML"),
])
def test_malformed_problem_sets_are_named(tmp_path, text, words):
    path = tmp_path / "set.toml"
    path.write_text(text)
    with pytest.raises(BenchError) as e:
        load_problems(path)
    assert words in str(e.value) and "set.toml" in str(e.value)


def test_missing_problem_set_file(tmp_path):
    with pytest.raises(BenchError, match="cannot read"):
        load_problems(tmp_path / "none.toml")


# --- the strategy table --------------------------------------------------------------

def test_every_strategy_and_order_is_benched():
    assert set(STRATEGIES) <= set(BENCH_STRATEGIES)
    measured = {spec[3] for spec in STRATEGIES.values()} | {kw.get("order") for kw in BENCH_STRATEGIES.values()}
    assert set(ORDERS) <= measured
    kinds = {tuple(sorted(kw)) for kw in BENCH_STRATEGIES.values()}
    assert ("backend", "strategy") in kinds and ("backward", "strategy") in kinds and ("proofs", "strategy") in kinds


def test_a_new_core_strategy_shows_up(monkeypatch):
    monkeypatch.setitem(STRATEGIES, "newcomer", STRATEGIES["symmetry"])
    assert _strategy_table()["newcomer"] == {"strategy": "newcomer"}


# --- published figures and determinism ----------------------------------------------

def test_seed_strategy_makes_the_seed_articles_391859_tests():
    result, sol = run_one(PROBLEMS["english-any"], "seed", Limit())
    assert result.tests == 391_859  # the seed article's count of canMove tests
    assert_solves(sol)


def counters(results):
    return {(r.problem, r.strategy): (r.reason, r.tests, r.nodes, r.table_entries, r.pagoda_prunes)
            for r in results}


def test_counters_are_deterministic_across_runs_and_processes():
    # Node limits only, so no run is cut by the clock; a second process with another
    # hash seed rules out counters that depend on Python's set or dict order.
    argv = ["bench", "--problems", "english-centre", "french-a3-g5", "--nodes", "200000", "--seconds", "0", "--json"]
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-m", "pegsolver", *argv], capture_output=True, text=True,
                              env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        outs.append(counters(RunResult(**r) for r in json.loads(proc.stdout)["results"]))
    plan = plan_bench(["english-centre", "french-a3-g5"])
    here = counters(run_bench(plan, Limit(nodes=200_000)).results)
    assert outs[0] == outs[1] == here
    assert len(here) == len(plan.runs) and any(v[0] == "node limit" for v in here.values())


# --- the runner -------------------------------------------------------------------------

def test_a_run_stopped_by_its_limit_is_not_solved(capsys):
    result, sol = run_one(PROBLEMS["diamond-d2-f2"], "dfs", Limit(nodes=1000))
    assert result.reason == "node limit" and result.hit_limit
    assert not result.solved and not result.settled and not sol.solved
    code, out, _ = run(capsys, "bench", "--problems", "diamond-d2-f2", "--strategies", "dfs", "--nodes", "1000")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("dfs"))
    assert "stopped: node limit" in line and "solved" not in line


def test_plan_skips_what_does_not_apply():
    plan = plan_bench(["english-any", "wiegleb-centre"], ["symmetry-backward", REFERENCE, "seed"])
    ran = {(p.name, s) for p, s in plan.runs}
    skipped = {(s.problem, s.strategy) for s in plan.skipped}
    assert ran == {("english-any", REFERENCE), ("english-any", "seed"), ("wiegleb-centre", "seed"),
                   ("wiegleb-centre", "symmetry-backward")}
    assert skipped == {("english-any", "symmetry-backward"), ("wiegleb-centre", REFERENCE)}


def test_small_bench_results_replay():
    plan = plan_bench(["english-centre", "triangle5-corner"])
    bench = run_bench(plan, Limit(nodes=200_000))
    assert not bench.interrupted and len(bench.results) == len(plan.runs)
    for problem, strategy in plan.runs:
        result, sol = run_one(problem, strategy, Limit(nodes=200_000))
        if result.solved:
            assert_solves(sol, finish=sol.goal.finish)


def test_an_answer_contradicting_the_set_is_reported(tmp_path, capsys):
    path = tmp_path / "wrong.toml"
    path.write_text('version = 1\n[[problems]]\nname = "wrong"\nboard = "english"\nvacant = ["d4"]\n'
                    'finish = "d4"\nexpect = "impossible"\nsource = "a deliberately wrong expectation"\n')
    plan = plan_bench(strategies=["symmetry"], problem_set=load_problems(path))
    bench = run_bench(plan, Limit(nodes=100_000))
    assert [r.unexpected for r in bench.results] == ["solved a problem the set lists as impossible"]
    assert "UNEXPECTED" in tables(bench)


def test_ctrl_c_keeps_the_finished_runs(monkeypatch):
    import pegsolver.apps.bench as bench_module
    real, calls = bench_module.run_one, []

    def interrupted_third(problem, strategy, limit):
        calls.append(strategy)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(problem, strategy, limit)

    monkeypatch.setattr(bench_module, "run_one", interrupted_third)
    bench = run_bench(plan_bench(["english-centre"], ["seed", "dfs", "table", "symmetry"]), Limit(nodes=100_000))
    assert bench.interrupted and [r.strategy for r in bench.results] == ["seed", "dfs"]
    # what the stop left unrun is said, not shown as if the bench were complete (a trial's
    # summary named the fastest of 7 strategies of 13 as the problem's fastest)
    assert bench.unfinished == [("english-centre", "table"), ("english-centre", "symmetry")]
    assert "not run: table, symmetry (the bench was stopped)" in report.tables(bench)
    assert "(of 2 run; 2 not: stopped)" in report.summary_markdown(bench)
    assert bench.to_json()["unfinished"][0] == {"problem": "english-centre", "strategy": "table"}


def test_ctrl_c_stops_pegsolver_bench_cleanly():
    proc = interrupting.start(["bench", "--problems", "english-centre", "diamond-d2-f2", "--strategies", "seed",
                               "dfs", "--nodes", "0", "--seconds", "120"])
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    out, err = interrupting.finish(proc, 60)
    assert proc.returncode == 130, err
    assert "stopped by Ctrl-C after" in err and "of 4 runs" in err and "Traceback" not in err


def test_two_signals_close_together_still_print_the_report():
    # timeout(1) and a terminal may both signal the group: the second signal must not cut
    # the clean stop short (it did: exit 130 with nothing printed)
    proc = interrupting.start(["bench", "--problems", "english-centre", "diamond-d2-f2", "--strategies", "seed",
                               "dfs", "--nodes", "0", "--seconds", "120"])
    time.sleep(4)
    proc.send_signal(signal.SIGTERM)
    time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    out, err = interrupting.finish(proc, 60)
    assert proc.returncode == 130, (proc.returncode, err)
    # Python runs pending handlers lowest signal first, so under load the SIGINT may be the first seen
    assert ("stopped by SIGTERM after" in err or "stopped by Ctrl-C after" in err) and "of 4 runs" in err
    assert "Traceback" not in err and "english-centre" in out   # the runs that finished are reported


# --- reports -----------------------------------------------------------------------------

def fake(strategy, seconds, reason="solved", backend="core"):
    settled = reason in ("solved", "position class", "pagoda", "exhausted")
    return RunResult(problem="p", strategy=strategy, reason=reason, solved=reason == "solved", settled=settled,
                     hit_limit=reason in ("node limit", "time limit"), jumps=1, tests=1, nodes=1, table_entries=0,
                     table_bytes=0, pagoda_prunes=0, seconds=seconds, search_seconds=seconds, backend=backend,
                     direction="forward")


def test_speedup_is_a_lower_bound_when_the_baseline_hit_its_limit():
    assert speedup(fake("symmetry", 0.5), fake("seed", 2.0)) == "4.0x"
    assert speedup(fake("symmetry", 0.5), fake("seed", 2.0, "time limit")) == ">=4.0x"
    assert speedup(fake("symmetry", 0.5, "node limit"), fake("seed", 2.0)) == "-"
    assert speedup(fake("symmetry", 0.5), None) == "-"
    from dataclasses import replace
    proof, base = (replace(fake(s, t, "position class"), nodes=0) for s, t in (("symmetry", 2e-5), ("seed", 3e-5)))
    assert speedup(proof, base) == "-"   # both answered by a proof: the ratio of their seconds is noise


def test_best_run_is_the_fastest_settled_core_run():
    runs = [fake("seed", 1.0), fake("dfs", 0.01, "node limit"), fake("table", 0.2),
            fake(REFERENCE, 0.001, backend="reference")]
    assert best_run(runs).strategy == "table"
    assert best_run([fake("dfs", 0.01, "node limit")]) is None


def test_summary_is_a_markdown_table(capsys):
    code, out, _ = run(capsys, "bench", "--problems", "english-centre", "triangle5-corner", "--strategies",
                       "seed", "symmetry", REFERENCE, "--summary")
    assert code == 0
    lines = [x for x in out.splitlines() if x.startswith("|")]
    assert [x.strip() for x in lines[0].split("|")[1:-1]] == ["problem", "fastest strategy", "result", "seconds",
                                                             "vs seed", "vs reference"]
    assert set(lines[1].replace("|", "")) <= {"-", ":"}
    assert [x.split("|")[1].strip() for x in lines[2:]] == ["english-centre", "triangle5-corner"]
    assert all(x.split("|")[2].strip() in ("seed", "symmetry") for x in lines[2:])
    code, out, _ = run(capsys, "bench", "--problems", "triangle7-corner", "--summary")   # proofs only: no race
    assert "| every strategy: a proof, no search |" in out and "x |" not in out


def test_json_csv_and_plot(tmp_path, capsys):
    csv_path, png, svg = tmp_path / "runs.csv", tmp_path / "chart.png", tmp_path / "chart.svg"
    code, out, _ = run(capsys, "bench", "--problems", "english-any", "triangle7-corner", "--strategies", "seed",
                       "symmetry-no-proofs", "--nodes", "100000", "--json", "--csv", str(csv_path), "--plot", str(png))
    assert code == 0
    data = json.loads(out)
    assert data["version"] == PROBLEM_SET.version and data["limit"]["nodes"] == 100_000
    by_pair = {(r["problem"], r["strategy"]): r for r in data["results"]}
    assert by_pair[("english-any", "seed")]["tests"] == 391_859
    seed = pegsolver.solve("english", pegsolver.Goal.anywhere(), strategy="seed", limit=pegsolver.Limit(nodes=100_000))
    assert [by_pair[("english-any", "seed")][k] for k in ("dead_ends", "table_hits", "runs", "member")] == [
        seed.stats.dead_ends, seed.stats.table_hits, seed.stats.runs, seed.stats.member]   # every counter of solve's
    assert by_pair[("triangle7-corner", "seed")]["reason"] == "position class"
    assert by_pair[("triangle7-corner", "symmetry-no-proofs")]["reason"] == "node limit"
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["problem"], r["strategy"]) for r in rows] == list(by_pair)
    assert rows[0]["tests"] == "391859" and rows[0]["version"] == str(PROBLEM_SET.version)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, _ = run(capsys, "bench", "--problems", "triangle5-corner", "--strategies", "seed", "--plot", str(svg))
    assert code == 0 and "<svg" in svg.read_text()


def test_list(capsys):
    code, out, _ = run(capsys, "bench", "--list")
    assert code == 0
    assert all(name in out for name in PROBLEMS) and all(name in out for name in BENCH_STRATEGIES)
    # options for runs are refused with it, not ignored (a new user's find)
    code, out, err = run(capsys, "bench", "--list", "--problems", "english-centre", "--csv", "x.csv")
    assert code == 2 and not out and "--problems and --csv would do nothing: drop --list" in err


# --- bad input ------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,words", [
    (["--problems", "english-nowhere"], "unknown problem 'english-nowhere'"),
    (["--strategies", "fastest"], "unknown strategy 'fastest'"),
    (["--problems", ","], "no problem names"),
    (["--nodes", "-5"], "--nodes"),
    (["--seconds", "-1"], "--seconds"),
    (["--seconds", "inf"], "--seconds"),
    (["--seconds", "0", "--nodes", "0"], "node limit or a time limit"),
    (["--csv", "/nonexistent-dir/x.csv"], "no directory"),
    (["--plot", "chart.gif"], ".png"),
])
def test_bad_bench_input_exits_2_with_a_message(capsys, argv, words):
    code, out, err = run(capsys, "bench", *argv)
    assert code == 2, err
    assert words in err and "Traceback" not in err


def test_output_that_is_a_directory(tmp_path, capsys):
    code, _, err = run(capsys, "bench", "--problems", "triangle5-corner", "--csv", str(tmp_path))
    assert code == 2 and "is a directory" in err


def test_bad_names_in_the_api_raise_bench_errors():
    with pytest.raises(BenchError, match="unknown strategy"):
        run_one(PROBLEMS["english-any"], "nope", Limit())
    with pytest.raises(PegsolverError):
        plan_bench(problems=["nope"])
    assert issubclass(BenchError, PegsolverError)
