"""The layout holds: one door to the compiled core, arrows that point down (apps -> public
modules -> engine and proofs -> model), and functions and files a reader can take in."""
import ast
from pathlib import Path

import pytest

import pegsolver

PACKAGE = Path(pegsolver.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))
MAX_FUNCTION_LINES, MAX_FILE_LINES = 80, 400


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, by absolute name (relative imports resolved)."""
    package = ".".join(("pegsolver", *path.relative_to(PACKAGE).parent.parts))
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            name = ".".join(p for p in (base, node.module or "") if p)
            out.add(name)
            out |= {f"{name}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "_load"):   # importlib's, and engine.core's loader around it
            out |= {a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return out


def test_only_engine_core_loads_the_compiled_core():
    loaders = [p.relative_to(PACKAGE).as_posix() for p in SOURCES
               if any(m == "pegcore" or m.startswith("pegcore.") for m in imported_modules(p))]
    assert loaders == ["engine/core.py"]


@pytest.mark.parametrize("part", ["model", "proofs"])
def test_model_and_proofs_do_not_import_the_engine_or_the_apps(part):
    for path in (PACKAGE / part).rglob("*.py"):
        above = {m for m in imported_modules(path)
                 if m.startswith(("pegsolver.engine", "pegsolver.apps", "pegsolver.solver", "pegsolver.analysis"))}
        assert not above, f"{path.name} imports {sorted(above)}"


def test_the_engine_does_not_import_the_apps_or_the_public_modules():
    for path in (PACKAGE / "engine").rglob("*.py"):
        above = {m for m in imported_modules(path)
                 if m.startswith(("pegsolver.apps", "pegsolver.solver", "pegsolver.analysis", "pegsolver.survey"))}
        assert not above, f"{path.name} imports {sorted(above)}"


def test_functions_and_files_stay_short():
    long_ones = []
    for path in SOURCES:
        text = path.read_text()
        if len(text.splitlines()) > MAX_FILE_LINES:
            long_ones.append(f"{path.name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long_ones.append(f"{path.name}:{node.lineno} {node.name}: {lines} lines")
    assert not long_ones, long_ones
