"""The compiled core's cache folders (``engine.core.cache``): one per version of the compiled
sources, the most recently used kept, so two checkouts (or a build and the one before it that a
benchmark compares) do not delete each other's compiled code."""

from __future__ import annotations

import os
from pathlib import Path

import numba
import pytest
from raspis.engine import warmth
from raspis.engine.core import cache


def _folders(root: Path, names: list[str]) -> None:
    """Cache folders named ``numba-NAME``, each used at a time of its own (the list's order)."""
    for used, name in enumerate(names):
        folder = root / f"numba-{name}"
        folder.mkdir()
        (folder / "index.nbi").write_bytes(b"x")
        (folder / cache.OWNER).touch()
        os.utime(folder, (1_000_000 + used, 1_000_000 + used))


def test_prune_keeps_the_most_recently_used_caches_of_other_sources(tmp_path: Path) -> None:
    _folders(tmp_path, ["a", "b", "c", "d", "e"])  # e the most recently used
    (tmp_path / "unrelated").mkdir()
    current = tmp_path / "numba-now"
    current.mkdir()
    removed = cache.prune(tmp_path, current, keep=3)
    assert sorted(path.name for path in removed) == ["numba-a", "numba-b"]
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "numba-c", "numba-d", "numba-e", "numba-now", "unrelated"]


def test_prune_passes_over_a_folder_that_vanishes(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _folders(tmp_path, ["a", "b"])
    original = Path.stat

    def stat(self: Path, *args: object, **kwargs: object) -> os.stat_result:
        if self.name == "numba-a":  # another process removed it between the listing and now
            raise FileNotFoundError(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Path, "stat", stat)
    removed = cache.prune(tmp_path, tmp_path / "numba-now", keep=1)
    assert [path.name for path in removed] == ["numba-a"]


def test_configure_marks_its_folder_used_and_keeps_a_few_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RASPIS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after
    names = [f"old{index}" for index in range(cache.KEEP_OTHERS + 2)]
    _folders(tmp_path, names)
    folder = cache.configure()
    assert folder == tmp_path / f"numba-{warmth.source_hash()}"
    assert numba.config.CACHE_DIR == str(folder)
    assert folder.stat().st_mtime > 2_000_000  # used now, not in 1970
    kept = sorted(path.name for path in tmp_path.iterdir() if path != folder)
    assert kept == sorted(f"numba-{name}" for name in names[-cache.KEEP_OTHERS:])
    cache.configure()  # the same sources again: nothing of theirs is removed
    assert folder.is_dir() and (tmp_path / f"numba-{names[-1]}").is_dir()


def test_prune_removes_no_folder_raspis_did_not_make(tmp_path: Path) -> None:
    _folders(tmp_path, ["a", "b"])
    for name in ("mine-not", "theirs"):  # numba-* folders of someone else, older than all
        (tmp_path / f"numba-{name}").mkdir()
        os.utime(tmp_path / f"numba-{name}", (1_000, 1_000))
    removed = cache.prune(tmp_path, tmp_path / "numba-now", keep=1)
    assert [path.name for path in removed] == ["numba-a"]
    assert (tmp_path / "numba-mine-not").is_dir() and (tmp_path / "numba-theirs").is_dir()


def test_an_unwritable_cache_folder_gives_way_to_a_temporary_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")  # a cache root under a file: it cannot be made (root too)
    monkeypatch.setenv("RASPIS_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after
    folder = cache.configure()
    assert folder is not None and folder.name.startswith("raspis-numba-")
    assert numba.config.CACHE_DIR == str(folder)
    assert Path(__file__).resolve().parents[1] not in folder.parents  # not beside the package
    warning = capsys.readouterr().err
    assert "cannot write the compile cache" in warning and str(folder) in warning
