"""The first run: numba's inliner without its wasted copies (``engine.core.inliner``), the notice
while a compile runs (``engine.core.compiling``), and the run's one compile before its workers
start (``tournament.warm``)."""

from __future__ import annotations

import inspect
import io
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from numba import njit
from numba.core import inline_closurecall
from raspis.engine.core import compiling, inliner
from raspis.tournament import runner, warm
from raspis.tournament.runner import TournamentConfig


class _CountingCopy:
    """The ``copy`` module, counting the deep copies asked of it."""

    def __init__(self) -> None:
        import copy

        self.module = copy
        self.deep = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.module, name)

    def deepcopy(self, value: Any, memo: Any = None) -> Any:
        self.deep += 1
        return self.module.deepcopy(value, memo)


def _inlining_pair() -> tuple[Any, Any]:
    """A caller with a callee inlined twice (new functions: compiled afresh, never cached)."""

    @njit(inline="always")
    def square_plus(values: np.ndarray, index: int) -> int:
        total = 0
        for offset in range(index + 1):
            total += values[offset] * values[offset]
        return total + index

    @njit
    def caller(values: np.ndarray) -> int:
        return square_plus(values, 1) - square_plus(values, 2)

    return caller, square_plus


def test_the_inliner_is_patched_on_this_numba_or_numba_copies_no_more() -> None:
    source = inline_closurecall.InlineWorker.inline_ir
    assert inliner.INSTALLED or "copy.deepcopy" not in inspect.getsource(source)


@pytest.mark.skipif(not inliner.INSTALLED, reason="numba's inliner differs: not patched")
def test_inlining_a_fresh_ir_copies_nothing_and_computes_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    counting = _CountingCopy()
    monkeypatch.setattr(inliner, "copy", counting)
    caller, _ = _inlining_pair()
    values = np.array([3, 4, 5], dtype=np.int64)
    # (9 + 16 + 1) - (9 + 16 + 25 + 2), worked by hand
    assert caller(values) == 26 - 52
    assert counting.deep == 0
    # numba's other caller of inline_ir (its overload inliner) keeps its copies: a direct deep
    # copy outside inline_function goes through
    inliner._CopyUnlessFresh.deepcopy([1, [2]])
    assert counting.deep == 1


def test_install_is_idempotent() -> None:
    assert inliner.install() is inliner.INSTALLED


def test_the_notice_says_a_compile_once_with_what_and_how_long() -> None:
    stream = io.StringIO()

    @njit
    def fresh(value: int) -> int:
        return value * 3 + 1

    with compiling.compile_notice("the test's function", stream=stream, moving=False):
        assert fresh(2) == 7
    text = stream.getvalue()
    assert text.startswith("raspis: compiling the test's function (once per machine and raspis "
                           "version")
    assert text.count("raspis: compiling") == 1
    assert "compiled 1 functions in" in text


def test_the_notice_is_silent_when_nothing_compiles() -> None:
    stream = io.StringIO()

    @njit
    def fresh(value: int) -> int:
        return value - 1

    fresh(1)
    with compiling.compile_notice(stream=stream, moving=False):
        assert fresh(5) == 4
    assert stream.getvalue() == ""


def _tasks(strategies: tuple[str, ...]) -> list[Any]:
    config = TournamentConfig(variants=("classic",), players=4, strategies=strategies, games=8)
    return runner.plan_shards(config, runner.validate_config(config))


def test_the_warm_up_plays_built_ins_only_one_game_a_kind() -> None:
    tasks = _tasks(("mine=./examples/greedy_bot.py:GreedyBot", "isolated+strong", "heuristic",
                    "mc:time=30"))
    mini = warm.warm_task(tasks[0])
    assert mini.engine == "scalar"
    # a user's file played by random; a search player without its user's 30 s a decision
    assert mini.strategies == ("random", "strong", "heuristic", "mc:samples=2")
    assert len(mini.games) == 1 and mini.decision_seconds is None
    batch = warm.warm_task(replace(tasks[0], engine="batch",
                                   strategies=("strong", "lowest", "fastheuristic", "./b.py:B")))
    assert batch.strategies == ("strong", "lowest", "fastheuristic", "heuristic")


def test_a_run_warms_once_before_its_workers(tmp_path: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    started: list[int] = []
    monkeypatch.setattr(warm, "warm_up", lambda tasks, stream=None: seen.append(len(tasks)))
    real = runner.shard_results

    def executor(*args: Any, **kwargs: Any) -> Any:
        started.append(len(seen))
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "shard_results", executor)
    config = TournamentConfig(variants=("classic",), players=4,
                              strategies=("lowest", "lowest", "random", "random"), games=4)
    runner.run_tournament(config, tmp_path / "run", workers=1)
    assert seen and started == [1]  # warmed once, before the executor started
    seen.clear()
    runner.run_tournament(config, tmp_path / "run", workers=1, resume=True)
    assert seen == []  # nothing left to play: nothing to warm


_BESIDE = '''
import sys
from numba import njit, types
from numba.core import event

from raspis.engine.core import compiling

compiling.spare_cores = lambda: 2.0  # side by side even while the test suite loads the machine

@njit(cache=True)
def twice_plus_one(value):
    return 2 * value + 1

class Count(event.Listener):
    compiled = 0

    def on_start(self, started):
        pass

    def on_end(self, ended):
        Count.compiled += 1


wait = compiling.compile_beside([(twice_plus_one, (types.int64,))])
wait()
with event.install_listener("numba:compile", Count()):
    answer = twice_plus_one(20)
print(answer, sum(twice_plus_one.stats.cache_hits.values()), Count.compiled)
'''


def test_code_compiled_beside_is_loaded_from_the_cache_not_compiled_again(tmp_path: Any) -> None:
    """``compile_beside``: the child compiles into the on-disk cache, and the parent's first call
    after the wait loads that code (a cache hit, no compile of its own)."""
    import os
    import subprocess
    import sys

    module = tmp_path / "beside.py"
    module.write_text(_BESIDE)
    env = {**os.environ, "RASPIS_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run([sys.executable, str(module)], capture_output=True, text=True,
                            env=env, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    answer, hits, compiled_here = result.stdout.split()
    assert (answer, hits, compiled_here) == ("41", "1", "0"), result.stdout


def test_a_job_that_fails_beside_is_left_to_the_first_call(monkeypatch: Any) -> None:
    """A child that cannot compile its job exits at once with status 1 (it never runs on as a
    second copy of this process); the wait reaps it, and the first call compiles the function."""
    import os

    monkeypatch.setattr(compiling, "spare_cores", lambda: 2.0)
    reaped = []
    waitpid = os.waitpid

    def recording_waitpid(pid: int, options: int) -> tuple[int, int]:
        answer = waitpid(pid, options)
        reaped.append(os.waitstatus_to_exitcode(answer[1]))
        return answer

    monkeypatch.setattr(os, "waitpid", recording_waitpid)

    @njit
    def negate(value: int) -> int:
        return -value

    wait = compiling.compile_beside([(negate, ("not a numba type",))])
    wait()
    assert reaped == [1]
    assert not negate.overloads  # nothing compiled here before the first call
    assert negate(3) == -3


def test_nothing_is_compiled_beside_without_a_spare_core(monkeypatch: Any) -> None:
    """A busy machine: no child (it would slow this process down and repeat shared compiles).
    Two cores 60% busy while the process waits leave 0.8 idle; where /proc/stat cannot be read,
    the load average counts instead."""
    import os

    def no_fork() -> int:
        raise AssertionError("forked on a busy machine")

    samples = iter([[100, 0, 0, 100, 0, 0, 0], [160, 0, 0, 140, 0, 0, 0]])
    monkeypatch.setattr(os, "fork", no_fork)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(compiling, "_cpu_times", lambda: next(samples))
    assert compiling.spare_cores(sample=0) == pytest.approx(0.8)
    samples = iter([[100, 0, 0, 100, 0, 0, 0], [160, 0, 0, 140, 0, 0, 0]])
    compiling.compile_beside([(None, ())])()

    def unreadable() -> list[int]:
        raise OSError("no /proc here")

    monkeypatch.setattr(compiling, "_cpu_times", unreadable)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.2, 1.0, 1.0))
    assert compiling.spare_cores(sample=0) == pytest.approx(0.8)
    compiling.compile_beside([(None, ())])()


def test_the_policies_compiled_beside_a_warm_up_have_the_loops_types(monkeypatch: Any) -> None:
    """A tournament's warm-up compiles ``decide_strong`` and ``fast_decision`` beside the rules
    core (``compiled.compile_policies_beside``); the child's work is used only if it compiles them
    for the very types the compiled loop passes (the state buffer, the plan and the policies'
    table of ``run_games``, and the table's int64 entry), else the loop compiles them again."""
    import numpy as np
    from numba import typeof
    from raspis.engine import load_variant
    from raspis.engine.core.plan import rule_plan
    from raspis.strategies.policies import compiled

    jobs: list[Any] = []
    monkeypatch.setattr(compiling, "compile_beside",
                        lambda given: jobs.extend(given) or (lambda: None))
    compiled.compile_policies_beside()
    plan = rule_plan(load_variant("classic"), 4)
    tables = plan.machine()
    table = compiled.policy_table(tables, plan, strong_on=True)
    state = np.zeros(tables.length, dtype=np.int64)
    loop = (typeof(state), typeof(tables.plan), typeof(table))
    assert [function for function, _ in jobs] == [compiled.decide_strong, compiled.fast_decision]
    assert tuple(jobs[0][1]) == (*loop, typeof(table[compiled.T_STRONG_AT]))
    assert tuple(jobs[1][1]) == loop
