"""The package's layers: tools -> engine -> cardset -> lang -> errors, no cycles, no inner imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from importlinter import cli as importlinter_cli

import rulecore

REPO = Path(__file__).resolve().parent.parent
PACKAGE = Path(rulecore.__file__).resolve().parent

# Modules of ours that may be imported inside a function because they pull in an optional
# extra (pip install 'rulecore[...]'); nothing else may hide an import there.
OPTIONAL_EXTRAS: frozenset[str] = frozenset({"rulecore.serve.app", "rulecore.serve.config"})  # the serve extra


def test_the_checked_package_is_this_checkout() -> None:
    """The contracts below read the rulecore of this checkout, not an installed copy."""
    assert PACKAGE == REPO / "rulecore"


def test_import_linter_contracts_hold() -> None:
    """Every [tool.importlinter] contract in pyproject.toml is kept (lint-imports exits 0)."""
    status = importlinter_cli.lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True)
    assert status == importlinter_cli.EXIT_STATUS_SUCCESS


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle_between_modules() -> None:
    """No rulecore module imports, directly or through others, a module that imports it (TYPE_CHECKING aside)."""
    graph = grimp.build_graph("rulecore", exclude_type_checking_imports=True)
    assert _cycles(graph) == []


def _inner_imports(path: Path) -> list[str]:
    """Imports of our own modules inside function bodies of one file, as 'file:line: module'."""
    out = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")] if node.level or (node.module or "").startswith(
                    "rulecore") else []
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name == "rulecore" or a.name.startswith("rulecore.")]
            else:
                continue
            out += [f"{path.relative_to(REPO)}:{node.lineno}: {name}" for name in names if name not in OPTIONAL_EXTRAS]
    return out


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_import_of_our_modules_inside_a_function(path: Path) -> None:
    """Our own modules are imported at the top of a file, never inside a function to dodge a cycle."""
    assert _inner_imports(path) == []


def test_no_folder_holds_more_than_twelve_modules() -> None:
    """Each folder of the package stays small enough to take in at a glance (at most 12 modules)."""
    crowded = {str(d.relative_to(REPO)): n for d in [PACKAGE, *PACKAGE.rglob("*")] if d.is_dir()
               and (n := len(list(d.glob("*.py")))) > 12}
    assert crowded == {}


def test_the_core_imports_nothing_of_the_rl_extra() -> None:
    """Playing a game with action ids and observations loads none of the rl extra's packages."""
    code = (
        "import sys, rulecore\n"
        "g = rulecore.Game(rulecore.load_cardset('witty-witches'), 3)\n"
        "s = g.new_game(1); s.apply_id(s.legal_action_ids()[0]); s.observation(0)\n"
        "import rulecore.adapters\n"
        "bad = {'numpy', 'pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)
