"""The .pyi stubs of the compiled core agree with the built modules: mypy's stubtest, run
where mypy is installed."""
from pathlib import Path

import pytest

import pegcore

stubtest = pytest.importorskip("mypy.stubtest")

MODULES = ["pegcore._search64", "pegcore._search128", "pegcore._enum64", "pegcore._enum64_v2", "pegcore._enum64_bmi2"]
ALLOW = [
    r"pegcore\._search(64|128)\.SearchResult",  # only in the stubs: search() returns a plain dict
    r"pegcore\..*__(reduce|setstate)_cython__",  # Cython's pickling support
    r"pegcore\..*\.__test__",                    # Cython's doctest dict
]


def test_stubs_match_the_built_modules(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pegcore._enum64_bmi2")  # x86-64 only
    monkeypatch.chdir(tmp_path)  # mypy's cache goes here
    where = Path(pegcore.__file__).parent.parent
    if where.name != "site-packages":  # a source tree: show mypy the stubs (an install shows them itself)
        monkeypatch.setenv("MYPYPATH", str(where))
    allow = tmp_path / "allow.txt"
    allow.write_text("\n".join(ALLOW) + "\n")
    args = [*MODULES, "--allowlist", str(allow)]
    try:  # extension types are disjoint bases (PEP 800); newer stubtests check for the marker
        options = stubtest.parse_options([*args, "--ignore-disjoint-bases"])
    except SystemExit:
        options = stubtest.parse_options(args)
    code = stubtest.test_stubs(options)
    assert code == 0, capsys.readouterr().out
