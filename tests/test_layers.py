"""The folders are the architecture: data flows one way and each folder imports only the ones before it.

card -> graph -> trace (``engine``) -> items (``perturb``) -> responses (``respond``) ->
parsed answers -> metrics -> summary (``scoring``) -> report (``report``); ``neighbours``
(the neighbouring benchmarks) stands beside them on the engine; ``distributed`` (the Ray
backend) sits on engine/perturb/respond/scoring; ``cli`` is on top. The base
(``ipb/*.py``: errors, atomic files) imports nothing of ours. Every import is checked,
including the ones inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: folder -> the ipb sub-packages its modules may import ("" is the base: ipb.errors, ipb._files, ipb._composed).
ALLOWED: dict[str, set[str]] = {
    "ipb": {""},
    "engine": {"", "engine", "grammar", "frameworks"},
    "perturb": {"", "engine", "grammar", "frameworks", "perturb"},
    "scoring": {"", "engine", "grammar", "frameworks", "perturb", "scoring"},
    "respond": {"", "engine", "grammar", "frameworks", "perturb", "respond", "scoring"},
    "report": {"", "engine", "grammar", "frameworks", "perturb", "scoring", "report"},
    "neighbours": {"", "engine", "grammar", "frameworks", "neighbours"},
    "integrations": {"", "engine", "grammar", "frameworks", "perturb", "respond", "scoring", "integrations"},
    "distributed": {"", "engine", "grammar", "frameworks", "perturb", "respond", "scoring", "distributed"},
}

#: What ``respond`` may take from ``scoring``: the shared text helpers, the sentence encoder
#: (condition B ranks knowledge cards with the encoder scoring uses), the registry helper, and
#: the parser's bounds (synthetic answers are written so the parser can read them). Nothing
#: that scores.
RESPOND_FROM_SCORING = {"ipb.scoring._text", "ipb.scoring.embeddings", "ipb.scoring.registry", "ipb.scoring.parse"}

BASE_MODULES = {"ipb.errors", "ipb._files", "ipb._composed"}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return [(line, name) for line, name in found if name == "ipb" or name.startswith("ipb.")]


def _layer(module: str) -> str:
    if module in BASE_MODULES or module == "ipb":
        return ""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _files(folder: str) -> list[Path]:
    files = sorted((ROOT / folder).rglob("*.py"))
    if folder == "ipb":
        files = [f for f in files if f.name != "__init__.py"]
    return files


@pytest.mark.parametrize("folder", sorted(ALLOWED))
def test_imports_follow_the_data_flow(folder):
    wrong = []
    for path in _files(folder):
        for line, name in _imports(path):
            layer = _layer(name)
            if layer not in ALLOWED[folder]:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {name}")
            elif folder == "respond" and layer == "scoring" and name not in RESPOND_FROM_SCORING:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {name} (respond takes only {sorted(RESPOND_FROM_SCORING)})")
    assert not wrong, "\n".join(wrong)


def test_the_rule_catches_a_backward_import(tmp_path):
    bad = tmp_path / "x.py"
    bad.write_text("def f():\n    from ipb.report.html import write_report\n", encoding="utf-8")
    assert [_layer(name) for _, name in _imports(bad)] == ["report"]
    assert "report" not in ALLOWED["scoring"]


def test_cli_command_table_matches_the_modules():
    from ipb.cli import COMMANDS, app, load_commands

    load_commands()
    registered = {c.name or c.callback.__name__ for c in app.registered_commands}
    registered |= {g.name for g in app.registered_groups}
    assert registered == set(COMMANDS)


def test_ipb_run_imports_no_scoring(tmp_path):
    import subprocess
    import sys

    code = ("import sys; from typer.testing import CliRunner; from ipb.cli import app; "
            "r = CliRunner().invoke(app, ['run', 'buffett_acquisition_checklist', '--set', 'ev_to_arr=3x']); "
            "assert r.exit_code == 0, r.output; "
            "print(sorted(m for m in sys.modules if m.split('.')[:2] in (['ipb', 'scoring'], ['ipb', 'respond'], ['ipb', 'report'])))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


MAX_MODULE_LINES = 900
MAX_CLASS_LINES = 400
PACKAGE_FOLDERS = (*ALLOWED, "cli")


def _package_files() -> list[Path]:
    return [f for folder in PACKAGE_FOLDERS for f in sorted((ROOT / folder).rglob("*.py"))]


def test_no_module_over_900_lines():
    long = [f"{f.relative_to(ROOT)}: {n} lines" for f in _package_files()
            if (n := len(f.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    assert not long, "\n".join(long)


def test_no_class_over_400_lines():
    long = []
    for f in _package_files():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and (n := node.end_lineno - node.lineno + 1) > MAX_CLASS_LINES:
                long.append(f"{f.relative_to(ROOT)}: class {node.name} {n} lines")
    assert not long, "\n".join(long)


def test_every_package_folder_is_installed():
    """A folder with an __init__.py that pyproject's package list leaves out is missing from a plain install."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folder_of = {v: k for k, v in config["package-dir"].items()}
    found = set()
    for folder in PACKAGE_FOLDERS:
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT).parts
            found.add(".".join([folder_of[rel[0]], *rel[1:]]))
    assert found <= set(config["packages"]), sorted(found - set(config["packages"]))
