"""The house rules of the package's files: small modules with one job each, and package
``__init__.py`` files that only say what the package holds and re-export its public names.
(The layers, inner imports and modules per folder are kept by tests/test_layers.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import rulecore

REPO = Path(__file__).resolve().parent.parent
PACKAGE = Path(rulecore.__file__).resolve().parent

#: Lines a module may have: past this a file holds more than one job (split it along a seam it has).
MAX_LINES = 600

#: Names an ``__init__.py`` may bind besides its imports, per file: ``__all__`` everywhere, and
#: the version in the top-level package (the one place it is written, read by the build).
ALLOWED_NAMES = {"__all__"}
TOP_LEVEL_NAMES = {"__all__", "__version__"}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _where(path: Path) -> str:
    return str(path.relative_to(REPO))


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_checked_package_is_this_checkout() -> None:
    """The rules below read the rulecore of this checkout, not an installed copy."""
    assert PACKAGE == REPO / "rulecore"


def test_no_module_is_over_600_lines() -> None:
    """Every module of rulecore/ has at most 600 lines; a failure names each file and its size."""
    over = [f"{_where(p)}: {n} lines (at most {MAX_LINES})" for p in _modules() if (n := _lines(p)) > MAX_LINES]
    assert not over, "modules too big to read as one job:\n" + "\n".join(over)


def _init_problems(path: Path, root: Path = REPO) -> list[str]:
    """What an ``__init__.py`` holds besides its docstring, imports and allowed names (``__all__``: a
    literal list of names it imports), each as 'file (N lines):line: what', the file named from ``root``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed = TOP_LEVEL_NAMES if path.parent == PACKAGE else ALLOWED_NAMES
    where = f"{path.relative_to(root)} ({_lines(path)} lines)"
    problems: list[str] = []
    imported: set[str] = set()
    exported: list[tuple[int, str]] = []
    for index, node in enumerate(tree.body):
        if index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            continue  # the package docstring
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names)
            continue
        if _type_checking_imports(node):  # names loaded on first use, imported here for type checkers
            imported.update((a.asname or a.name).split(".")[0] for i in node.body for a in i.names)  # type: ignore[attr-defined]
            continue
        target = _assigned_name(node)
        if target in allowed:
            value = node.value  # type: ignore[attr-defined]
            if target == "__all__":
                names = _literal_names(value)
                if names is None:
                    problems.append(f"{where}:{node.lineno}: __all__ is not a literal list of names")
                else:
                    exported += [(node.lineno, name) for name in names]
            elif not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                problems.append(f"{where}:{node.lineno}: {target} is not a literal text")
            continue
        problems.append(f"{where}:{node.lineno}: {_describe(node)}")
    problems += [f"{where}:{line}: __all__ names {name!r}, which the file does not import"
                 for line, name in exported if name not in imported]
    return problems


def _type_checking_imports(node: ast.stmt) -> bool:
    """Whether ``node`` is ``if TYPE_CHECKING:`` over imports only, with no else."""
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
            and not node.orelse and all(isinstance(i, (ast.Import, ast.ImportFrom)) for i in node.body))


def _assigned_name(node: ast.stmt) -> str | None:
    """The one plain name that ``node`` assigns, if it is such an assignment."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        return node.target.id
    return None


def _literal_names(value: ast.expr) -> list[str] | None:
    if isinstance(value, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts):
        return [e.value for e in value.elts]  # type: ignore[attr-defined]
    return None


def _describe(node: ast.stmt) -> str:
    """A statement an ``__init__`` should not hold, in a few words."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"a function ({node.name})"
    if isinstance(node, ast.ClassDef):
        return f"a class ({node.name})"
    name = _assigned_name(node)
    if name is not None:
        return f"an assignment ({name})"
    return f"a statement ({type(node).__name__.lower()}: {ast.unparse(node).splitlines()[0][:60]})"


def test_init_files_hold_only_a_docstring_and_re_exports() -> None:
    """Each __init__.py holds only its docstring, imports and a literal __all__ of names it imports
    (rulecore/__init__.py also __version__); a failure names the file, its size and each line."""
    problems = [problem for p in _modules() if p.name == "__init__.py" for problem in _init_problems(p)]
    assert not problems, "logic in __init__.py (move it to a module of its own):\n" + "\n".join(problems)


def test_every_module_opens_with_a_docstring() -> None:
    """Every module of rulecore/ starts with a docstring saying what it holds."""
    bare = [_where(p) for p in _modules() if ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) is None]
    assert not bare, "modules without a docstring:\n" + "\n".join(bare)


def test_the_init_check_finds_logic(tmp_path: Path) -> None:
    """The __init__ check reports a function, a constant, a computed __all__ and an unimported export."""
    package = tmp_path / "pkg"
    package.mkdir()
    init = package / "__init__.py"
    init.write_text('"""Doc."""\nfrom .a import x\nLIMIT = 3\ndef f():\n    pass\n'
                    '__all__ = ["x", "y"]\n__version__ = "1"\n', encoding="utf-8")
    problems = _init_problems(init, root=tmp_path)
    assert [p.split(": ", 1)[1] for p in problems] == [
        "an assignment (LIMIT)", "a function (f)", "an assignment (__version__)", "__all__ names 'y', which the file "
        "does not import"]
    assert all(p.startswith("pkg/__init__.py (7 lines):") for p in problems)


def test_the_names_loaded_on_first_use_are_those_imported_for_type_checkers() -> None:
    """Every name of rulecore's __all__ is there, and a lazy name is the object its TYPE_CHECKING import names."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    typed = {alias.asname or alias.name: f"rulecore.{node.module}"
             for block in tree.body if _type_checking_imports(block)
             for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    from rulecore import _lazy
    assert _lazy.LAZY_NAMES == typed
    for name in rulecore.__all__:
        assert getattr(rulecore, name) is not None
    assert set(rulecore.__all__) <= set(dir(rulecore))
