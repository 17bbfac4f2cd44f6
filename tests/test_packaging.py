"""A non-editable install carries every package and every preset."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(out), str(ROOT)],
        check=True, capture_output=True,
    )
    (built,) = out.glob("raspis-*.whl")
    return built


def test_wheel_holds_every_package_and_preset(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in ("engine", "strategies", "cli", "tournament", "analysis", "data"):
        assert f"raspis/{package}/__init__.py" in names, package
    # every subpackage too (pyproject.toml lists each one: a folder left out would be missing)
    for init in (ROOT / "strategies").rglob("__init__.py"):
        assert f"raspis/{init.relative_to(ROOT).as_posix()}" in names, init
    for init in (ROOT / "engine").rglob("__init__.py"):
        assert f"raspis/{init.relative_to(ROOT).as_posix()}" in names, init
    presets = {path.name for path in (ROOT / "data" / "variants").glob("*.toml")}
    assert presets and {f"raspis/data/variants/{name}" for name in presets} <= names
    for folder, pattern in (("data/strong", "*.npz"), ("analysis/templates", "*")):
        files = {path.name for path in (ROOT / folder).glob(pattern)}
        assert files and {f"raspis/{folder}/{name}" for name in files} <= names, folder


def test_installed_wheel_runs_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    code = ("import raspis, raspis.engine as e; "
            f"assert raspis.__file__.startswith({str(target)!r}), raspis.__file__; "
            "print(len(e.preset_names())); "
            "g = e.Game(e.load_variant('joker'), 4, 1); print(g.deal.hand_size)")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                            text=True, env={"PYTHONPATH": str(target)}, check=False)
    assert result.returncode == 0, result.stderr
    count, hand = result.stdout.split()
    assert int(count) == len(list((ROOT / "data" / "variants").glob("*.toml")))
    assert hand == "1"
