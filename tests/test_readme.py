"""Every shell command of the README and of the guides in docs/ runs as written, in a fresh
directory.

The ``sh`` blocks of README.md and of the guides (``DOCUMENTS``: tournaments, analysis, variants,
strategies; the pages of measurements, benchmarks.md and strength.md, run for minutes, and
cluster.md needs a cluster) are split into commands (comments dropped, backslash continuations
joined) and run in the README's order with bash, in three independent groups (``group``: the
study, the tournaments and their readers, the rest), each in a temporary directory that holds what
a fresh clone has next to them: links to the project's ``.venv``, ``examples/``, ``Makefile`` and
``pyproject.toml``, and the files the README shows in full (its ``toml`` blocks, written under the
name their first comment gives them; ``my-variant.toml`` is the same file). Only sizes change:
``--games``, ``--budget``, ``--simulate`` and ``make run`` get small counts so the test stays
short, and ``make``
is told not to reinstall the environment (``-o .venv/.installed``). ``make test`` itself is left out
(it runs this test).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: The documents whose commands run, in this order (the README's ``make run`` first: the study's
#: commands of docs/analysis.md read what it writes).
DOCUMENTS = (README, *(ROOT / "docs" / name for name in ("tournaments.md", "analysis.md",
                                                         "variants.md", "strategies.md")))
LINKED = (".venv", "examples", "Makefile", "pyproject.toml")


def _blocks(language: str) -> list[str]:
    blocks = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        blocks += re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)
    return blocks


def readme_commands() -> list[str]:
    """The README's shell commands, in order, continuations joined and comments removed."""
    commands = []
    for block in _blocks("sh"):
        joined = block.replace("\\\n", " ")
        for line in joined.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                commands.append(re.sub(r"\s+", " ", command))
    return commands


def shrink(command: str) -> str | None:
    """The command with small counts (None: not run here)."""
    if command.startswith("make test"):
        return None
    command = re.sub(r"--games \d+", "--games 4", command)
    command = re.sub(r"--budget \d+", "--budget 60", command)
    command = re.sub(r"(-n|--simulate) \d+", r"\1 2000", command)
    if command.startswith("make run"):
        command = command.replace("make run", "make -o .venv/.installed run GAMES=8", 1)
    return command


def test_readme_has_the_commands_of_every_section() -> None:
    commands = readme_commands()
    assert any(c.startswith("make run") for c in commands)
    for name in ("tournament", "stats", "balance", "compare", "report"):
        assert any(f"raspis {name} " in c for c in commands), name


def group(command: str) -> str:
    """Which of the independent runs a command belongs to: ``study`` (``make run`` and what reads
    its results), ``results`` (the tournaments and what reads theirs), ``rest`` (the others). Each
    group runs in a directory of its own, in the README's order, so the groups can run side by
    side."""
    if command.startswith("make run") or re.search(r"results/(study|variants|settle\b)", command):
        return "study"
    if re.search(r"\b(results|reports)/|ranking\.csv", command):
        return "results"
    return "rest"


GROUPS = ("study", "results", "rest")


def test_every_readme_command_is_in_a_group_that_holds_its_inputs() -> None:
    """A command reading ``results/NAME`` is in the group of the command that writes it."""
    commands = readme_commands()
    writers = {}
    for command in commands:
        match = re.search(r"--out (results/\w+)", command)
        if match:
            writers[match.group(1)] = group(command)
    writers["results/study"] = writers["results/variants"] = "study"
    assert {group(c) for c in commands} == set(GROUPS)
    for command in commands:
        for path in re.findall(r"results/\w+", command):
            assert writers.get(path) == group(command), (command, path)


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "raspis").exists(),
                    reason="needs the project's .venv (make test creates it)")
@pytest.mark.parametrize("which", GROUPS)
def test_every_readme_command_runs(tmp_path: Path, which: str) -> None:
    for name in LINKED:
        (tmp_path / name).symlink_to(ROOT / name)
    for block in _blocks("toml"):
        match = re.match(r"#\s*([\w.-]+\.toml)", block)
        if match:
            (tmp_path / match.group(1)).write_text(block)
            (tmp_path / "my-variant.toml").write_text(block)
    environment = {**os.environ, "COLUMNS": "100", "PYTHONDONTWRITEBYTECODE": "1"}
    environment.pop("VIRTUAL_ENV", None)
    for command in readme_commands():
        if group(command) != which:
            continue
        shrunk = shrink(command)
        if shrunk is None:
            continue
        result = subprocess.run(
            ["bash", "-c", shrunk], cwd=tmp_path, env=environment, capture_output=True,
            text=True, check=False,
        )
        assert result.returncode == 0, (
            f"README command failed: {command}\nran: {shrunk}\n{result.stdout[-2000:]}"
            f"\n{result.stderr[-2000:]}"
        )
        assert "Traceback" not in result.stderr, (command, result.stderr[-2000:])
    assert sys.executable  # the commands ran with the project's .venv, not this interpreter
