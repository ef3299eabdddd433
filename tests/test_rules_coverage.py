"""The rule-coverage audit (adjudication/rules/COVERAGE.md) stays true: every code location
and test it names exists, and every clause of RULES.md's call tables has a row."""

from __future__ import annotations

import ast
import os
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COVERAGE = ROOT / "adjudication" / "rules" / "COVERAGE.md"
CAMERA = {"yes", "no", "partly"}
# The per-game section items of RULES.md §3–§6 that the audit lists (ids as in the table).
GAME_ITEMS = [
    *(f"WPA 2.{k}" for k in range(1, 10)),
    *(f"WPA 9.{k}" for k in range(1, 13) if k != 10), "WPA 9.10",
    *(f"WPA 3.{k}" for k in range(1, 10)), "WPA 3.10/3.11", "Reg. 10",
    *(f"WPA 4.{k}" for k in range(1, 13)),
    "EST §7.2", "EST §7.5", "EST §7.7", "EST §13",
    "WPA 1.2", "WPA 1.4", "WPA 1.5", "WPA 1.6", "WPA 8.3", "WPA 8.4",
]


def _rules_md() -> Path | None:
    for p in (os.environ.get("CUEREF_RULES_MD"), ROOT.parent / "shared" / "rules" / "RULES.md",
              ROOT / "shared" / "rules" / "RULES.md"):
        if p and Path(p).is_file():
            return Path(p)
    return None


@cache
def rows() -> list[list[str]]:
    out = []
    for line in COVERAGE.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith("| Clause") or set(line) <= set("|- "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 6, f"a coverage row needs 6 cells: {line}"
        out.append(cells)
    return out


@cache
def defined_test_names() -> frozenset[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return frozenset(names)


@cache
def definitions(path: str) -> frozenset[str]:
    """``name`` and ``Class.name`` of every function defined in the module."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    out = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            out.add(node.name)
        elif isinstance(node, ast.ClassDef):
            out.update(f"{node.name}.{f.name}" for f in node.body
                       if isinstance(f, ast.FunctionDef))
    return frozenset(out)


def _items(cell: str) -> list[str]:
    return [] if cell in ("—", "-", "") else [x.strip() for x in cell.split(",")]


def test_coverage_rows_are_well_formed() -> None:
    ids = [r[0] for r in rows()]
    assert len(ids) == len(set(ids)), "a clause has two rows"
    for clause, rule, camera, code, tests, status in rows():
        assert camera in CAMERA, f"{clause}: camera must be one of {sorted(CAMERA)}"
        assert re.match(r"^(WPA|Novuss|EST|Reg\.) ", rule), f"{clause}: rule {rule!r}"
        assert status, f"{clause}: a status is needed"
        if status.startswith("covered"):
            assert code != "—" and tests != "—", f"{clause}: covered needs code and a test"
        if camera == "no":
            assert code == "—", f"{clause}: not decidable, no code"


def test_coverage_code_locations_exist() -> None:
    for clause, _rule, _camera, code, _tests, _status in rows():
        for loc in _items(code):
            path, _, name = loc.partition(":")
            assert (ROOT / path).is_file(), f"{clause}: no file {path}"
            assert name in definitions(path), f"{clause}: {path} defines no {name}"


def test_coverage_test_names_exist() -> None:
    for clause, _rule, _camera, _code, tests, _status in rows():
        for name in _items(tests):
            assert name in defined_test_names(), f"{clause}: no test named {name}"


@pytest.mark.parametrize("prefix, n", [("N", 33), ("P", 19)])
def test_coverage_lists_every_call_table_clause(prefix: str, n: int) -> None:
    want = {f"{prefix}{k}" for k in range(1, n + 1)}
    rules_md = _rules_md()
    if rules_md is not None:  # the clause tables of RULES.md themselves
        text = rules_md.read_text(encoding="utf-8")
        found = set(re.findall(rf"^\| ({prefix}\d+) \|", text, flags=re.M))
        assert found >= want, f"RULES.md lacks {sorted(want - found)}"
        want = found
    have = {r[0] for r in rows()}
    assert not want - have, f"COVERAGE.md lacks {sorted(want - have)}"


def test_coverage_lists_the_game_section_items() -> None:
    have = {r[0] for r in rows()}
    missing = [c for c in GAME_ITEMS if c not in have]
    assert not missing, f"COVERAGE.md lacks {missing}"
