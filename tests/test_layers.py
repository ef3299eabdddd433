"""The layer rule of DESIGN.md holds: stages import only the stages before them."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_importing_the_stages_loads_no_heavy_library():
    code = (
        "import sys, calibration, vision, tracking, adjudication, adjudication.rules, cueref.cli\n"
        "heavy = {'onnxruntime', 'torch', 'ultralytics', 'av', 'ray', 'fastapi'}\n"
        "print(sorted(heavy & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_ruff_finds_nothing():
    ruff = Path(sys.executable).with_name("ruff")
    result = subprocess.run([str(ruff), "check", "."], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
