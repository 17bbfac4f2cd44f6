"""Play until decided: settle a rules question with the fewest games (``raspis settle``).

``settle(plan, out)`` plays rounds of new deal sets, every variant under every lineup on the same
deal sets (their seeds follow the root seed and the deal set alone), each deal set under every
rotation of the seats, on the batch engine, and after each round updates a confidence sequence
for each difference of the question (``sequential``): a statistic, or every measure of a profile
group (``measures``), each variant minus the baseline, under each lineup. A difference is decided
when its sequence excludes 0 (``different``, with its direction) or lies inside ±margin
(``equivalent``); one still open at the budget is ``undecided``, with its bounds and about how many
deal sets it would need. Rounds grow geometrically (``sequential.schedule``), and a variant whose
differences are all decided under a lineup stops being played there (the baseline plays on while
any of its lineup's variants is open).

The folder ``out`` holds one ordinary run per lineup and variant (``l1-v00`` ...: verify, stats,
compare and report read them, or the folder itself: ``dataset.settle_runs``) and ``settle.json``:
the plan and, after each round (written atomically), the games played and each difference's
estimate, bounds and decision. The runs grow round by round on a fixed plan (their game ids and
blocks count from the budget: ``TournamentConfig.plan_deal_sets``), so ``--resume`` after a
kill -9 or Ctrl-C plays the rounds again from the shards written, the same games from the same
seeds, and reaches the same decisions as a run left alone: every round's decision depends on the
deal sets played by its end, nothing else.

A round's update reads only its new shards (``dataset.open_run(..., only=...)``) and adds their
per-deal-set totals to those already held: the totals are sums, one row a deal set
(``units.game_totals``, ``units.deal_totals``), and every estimate is a function of them.

``--sweep OPTION=VALUES`` races variants of the baseline that differ in one option (successive
elimination on the same sequences): each value's statistic has its own sequence, and a value is
dropped when its sequence says it is farther from the target than another value's (``race``).
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from raspis.engine.errors import RaspisError

from .dataset import SETTLE_LOG, open_run
from .estimates import Clusters, Statistic, cluster_estimate
from .measures import GROUPS
from .question import changed_options, lineup_text, topic_of
from .sequential import DIFFERENT, EQUIVALENT, UNDECIDED, Family, more_needed, schedule
from .units import Lineup, Unit, deal_totals, game_totals, strength_order

#: The format of ``settle.json``.
LOG_FORMAT = 1
#: The equivalence margin of a share when none is given: one point of probability.
SHARE_MARGIN = 0.01
#: The fewest deal sets a settle looks at first: the asymptotic sequence is a large-sample
#: result, and simulated skewed shares keep their error under the level from about here on.
MIN_FIRST = 50


class SettleError(RaspisError):
    """A settle that cannot run as asked (a bad question, budget, sweep, or folder)."""


@dataclass(frozen=True)
class SettlePlan:
    """What to settle: the baseline and the variants (presets or files; with ``sweep``, the
    variants are the baseline with ``sweep``'s option set to each value), the lineups, the
    question (a profile group or a statistic; None: the changed rules' own, else ``fair``), the
    margin of no difference that matters (None: a share's ``SHARE_MARGIN``, no equivalence for
    other statistics), the budget in deal sets, the level, the root seed, the players, and the
    round schedule (the first round's deal sets, the shard size every round is a multiple of,
    the growth of each round). ``target`` is what a sweep looks for: ``0`` (or any number: the
    value nearest it), ``max`` or ``min``."""

    baseline: str
    variants: tuple[str, ...]
    lineups: tuple[tuple[str, ...], ...]
    question: str | None = None
    margin: float | None = None
    budget: int = 2000
    level: float = 0.95
    seed: int = 0
    players: int = 4
    first: int = 50
    step: int = 25
    growth: float = 1.5
    sweep: str | None = None
    target: str = "0"
    #: per-deal rows in the runs (not needed: each game's sums carry the deal-level totals)
    deal_rows: bool = False

    def to_json(self) -> dict[str, Any]:
        """The plan as ``settle.json`` keeps it (and ``--resume`` compares)."""
        data = dataclasses.asdict(self)
        data["lineups"] = [list(lineup) for lineup in self.lineups]
        data["variants"] = list(self.variants)
        return data


@dataclass
class Difference:
    """One difference of the question: a statistic of ``variant`` minus the baseline's under a
    lineup, its sequence's state, and its decision once made."""

    lineup: int
    variant: int
    statistic: str
    label: str
    unit: str
    estimate: float = math.nan
    low: float = math.nan
    high: float = math.nan
    sd: float = math.nan
    deal_sets: int = 0
    decision: str = ""
    decided_at: int = 0
    needed: float = math.nan

    def record(self, lineups: Sequence[str], names: Sequence[str]) -> dict[str, Any]:
        """The difference as the log and ``--format json`` write it."""
        return {"lineup": lineups[self.lineup], "variant": names[self.variant],
                "statistic": self.statistic, "label": self.label, "unit": self.unit,
                "estimate": _finite(self.estimate), "low": _finite(self.low),
                "high": _finite(self.high), "decision": self.decision or "open",
                "deal_sets": self.deal_sets,
                "deal_sets_needed": _finite(self.needed) if self.decision == UNDECIDED else None}


def _finite(value: float) -> float | None:
    return float(value) if value is not None and math.isfinite(value) else None


@dataclass
class Settlement:
    """What ``settle`` found: every difference, the rounds played and where the runs are."""

    plan: SettlePlan
    out: Path
    differences: list[Difference]
    rounds: list[dict[str, Any]]
    names: list[str]
    lineups: list[str]
    race: list[dict[str, Any]] = field(default_factory=list)

    @property
    def deal_sets(self) -> int:
        """The deal sets the settle played (its last round's)."""
        return self.rounds[-1]["deal_sets"] if self.rounds else 0

    def records(self) -> list[dict[str, Any]]:
        """Each difference as a record (``Difference.record``)."""
        return [d.record(self.lineups, self.names) for d in self.differences]


# -- the plan, checked ---------------------------------------------------------------------------


def _check(plan: SettlePlan) -> None:
    if not isinstance(plan.budget, int) or plan.budget < 2:
        raise SettleError(f"--budget must be a whole number of at least 2 deal sets, got "
                          f"{plan.budget}")
    if not 0 < plan.level < 1:
        raise SettleError(f"--level must lie between 0 and 1, got {plan.level}")
    if plan.margin is not None and not (math.isfinite(plan.margin) and plan.margin > 0):
        raise SettleError(f"--margin must be a number above 0, got {plan.margin}")
    if not plan.lineups:
        raise SettleError("give at least one --lineup (strategy specs, one per seat)")
    for lineup in plan.lineups:
        if len(lineup) != plan.players:
            raise SettleError(f"the lineup {','.join(lineup)} has {len(lineup)} seats; "
                              f"--players is {plan.players}")
    if not plan.variants and not plan.sweep:
        raise SettleError("give at least one variant to settle against the baseline (or "
                          "--sweep OPTION=VALUES)")
    if plan.growth <= 1:
        raise SettleError(f"rounds must grow: the growth is {plan.growth}, give more than 1")
    if plan.first < MIN_FIRST and plan.first < plan.budget:
        raise SettleError(f"the first round must play at least {MIN_FIRST} deal sets (the "
                          "sequences are a large-sample result), got --first "
                          f"{plan.first}")


def sweep_values(text: str) -> tuple[str, list[Any]]:
    """``OPTION=VALUES`` of ``--sweep``: a range ``1..8`` or a list ``a,b,c`` (numbers read as
    numbers, ``true``/``false`` as booleans, the rest as text)."""
    option, sep, values = text.partition("=")
    option = option.strip()
    if not sep or not re.fullmatch(r"[a-z_]+(\.[a-z_0-9]+)+", option):
        raise SettleError(f"--sweep takes OPTION=VALUES, e.g. bidding.hook_from_deal=1..8 or "
                          f"scoring.under_nothing_taken=-200,-500; got {text!r}")
    found = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", values)
    if found:
        low, high = int(found[1]), int(found[2])
        if high < low or high - low > 99:
            raise SettleError(f"--sweep {option}: the range {values} must go up, at most 100 "
                              "values")
        return option, list(range(low, high + 1))
    items = [item.strip() for item in values.split(",") if item.strip()]
    if len(items) < 2:
        raise SettleError(f"--sweep {option}: give two values or more (a range 1..8 or a list "
                          "a,b,c)")
    return option, [_read_value(item) for item in items]


def _read_value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def sweep_variants(baseline: str, sweep: str, folder: Path) -> list[str]:
    """Variant files of the baseline with the swept option at each value, written into
    ``folder`` (one ``.toml`` each, extending the baseline), checked as variants are."""
    from raspis.engine import load_variant

    option, values = sweep_values(sweep)
    base = load_variant(baseline)
    folder.mkdir(parents=True, exist_ok=True)
    source = str(Path(baseline).resolve()) if Path(baseline).is_file() else baseline
    files = []
    for value in values:
        name = f"{option.rsplit('.', 1)[-1].replace('_', '-')}-{value}"
        path = folder / f"{name}.toml"
        path.write_text(f"# {base.name} with {option} = {value} (raspis settle --sweep)\n"
                        f'name = "{name}"\nextends = {_toml_value(source)}\n'
                        f"{option} = {_toml_value(value)}\n", encoding="utf-8")
        try:
            load_variant(str(path))
        except RaspisError as error:
            raise SettleError(f"--sweep {option}={value}: {error}") from None
        files.append(str(path))
    return files


# -- the question --------------------------------------------------------------------------------


def question_statistics(question: str, statistics: Sequence[Statistic]) -> list[Statistic]:
    """The statistics a question asks about: a profile group's measures, or the statistics whose
    name is the question or starts with it (``ahead[``, ``win_chance``)."""
    if question in GROUPS:
        chosen = [s for s in statistics if s.group == question]
    else:
        chosen = [s for s in statistics if s.name == question
                  or (question.endswith("[") and s.name.startswith(question))
                  or s.name.startswith(question + "[")]
    if not chosen:
        names = sorted({s.name.split("[")[0] for s in statistics})
        raise SettleError(f"--question {question!r} is no profile group or statistic; choose a "
                          f"group ({', '.join(GROUPS)}) or a statistic ({', '.join(names)})")
    return chosen


def default_question(baseline_options: dict[str, Any], other_options: dict[str, Any]) -> str:
    """The question a change asks when none is given: its topic's statistic (the hook: the
    dealer's edge), else the profile's fairness."""
    topic = topic_of(changed_options(baseline_options, other_options))
    return topic.question if topic is not None and topic.question else "fair"


# -- one round's totals -------------------------------------------------------------------------


@dataclass
class Totals:
    """A run's per-deal-set totals so far (game-level and deal-level), one row a deal set: added
    to round by round, never read again from the files."""

    games: pl.DataFrame | None = None
    deals: pl.DataFrame | None = None

    def add(self, games: pl.DataFrame, deals: pl.DataFrame | None) -> None:
        """Append a round's rows (new deal sets only)."""
        self.games = games if self.games is None else pl.concat([self.games, games],
                                                                how="diagonal_relaxed")
        if deals is not None:
            self.deals = deals if self.deals is None else pl.concat([self.deals, deals],
                                                                    how="diagonal_relaxed")

    def clusters(self, statistic: Statistic) -> Clusters | None:
        """The clusters a statistic reads."""
        frame = self.games if statistic.source == "games" else self.deals
        return None if frame is None else Clusters.of(frame.fill_null(0.0))


def round_totals(run_dir: Path, shard_ids: Sequence[str], lineup: Lineup
                 ) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """The per-deal-set totals of a run's shards ``shard_ids`` (a round's new ones)."""
    run = open_run(run_dir, only=shard_ids)
    variant_hash = str(run.manifest["variants"][0]["hash"])
    unit = Unit(run, variant_hash, "", "")
    games = game_totals(unit, lineup.strategies, None, lineup.players, lineup.order,
                        per_deal_set=True)
    deals, _ = deal_totals(unit, per_deal_set=True)
    return games, deals


# -- settle --------------------------------------------------------------------------------------


@dataclass
class _Run:
    """One run of the settle: a variant under a lineup, its totals so far."""

    lineup: int
    variant: int
    folder: str
    totals: Totals = field(default_factory=Totals)
    played: int = 0


@dataclass
class _Arm:
    """A swept value under a lineup: its statistic's value, sequence and whether it is still in
    the race."""

    lineup: int
    variant: int
    value: float = math.nan
    low: float = math.nan
    high: float = math.nan
    deal_sets: int = 0
    dropped_at: int = 0

    def record(self, lineups: Sequence[str], names: Sequence[str]) -> dict[str, Any]:
        return {"lineup": lineups[self.lineup], "variant": names[self.variant],
                "value": _finite(self.value), "low": _finite(self.low),
                "high": _finite(self.high), "deal_sets": self.deal_sets,
                "in_race": not self.dropped_at, "dropped_at": self.dropped_at or None}


class Settler:
    """The state of one settle: its plan, runs, lineups' settings, differences (or a sweep's
    arms) and rounds; ``play`` plays it to its end (``settle``)."""

    def __init__(self, plan: SettlePlan, folder: Path, workers: int | None) -> None:
        from raspis.engine import load_variant

        _check(plan)
        self.plan, self.folder, self.workers = plan, folder, workers
        self.variants = ([*sweep_variants(plan.baseline, plan.sweep, folder / "variants")]
                         if plan.sweep else [plan.baseline, *plan.variants])
        self.loaded = [load_variant(spec) for spec in self.variants]
        self.names = [variant.name for variant in self.loaded]
        if len(set(self.names)) < len(self.names):
            raise SettleError(f"two variants share a name ({', '.join(self.names)}); give each "
                              "file its own name = ...")
        for variant in self.loaded:
            variant.check_players(plan.players)
        self.lineups = [lineup_text(lineup) for lineup in plan.lineups]
        self.runs = [_Run(i, j, f"l{i + 1}-v{j:02d}") for i in range(len(plan.lineups))
                     for j in range(len(self.variants))]
        self.settings: list[Lineup] = []
        self.statistics: dict[tuple[int, str], Statistic] = {}
        self.differences: list[Difference] = []
        self.arms: list[_Arm] = []
        self.family: Family | None = None
        self.question = ""
        self.rounds: list[dict[str, Any]] = []
        self.pool: Any = None

    # -- the rounds --------------------------------------------------------------------------

    def play(self, say: Callable[[str], None]) -> Settlement:
        """Every round until the question is decided or the budget spent, on workers kept from
        round to round and run to run (``workers.WorkerPool``)."""
        from raspis.tournament.workers import WorkerPool

        with WorkerPool() as self.pool:
            return self._play(say)

    def _play(self, say: Callable[[str], None]) -> Settlement:
        from raspis.tournament.store import write_json_atomic

        plan = self.plan
        log_path = self.folder / SETTLE_LOG
        log: dict[str, Any] = {
            "format": LOG_FORMAT, "plan": plan.to_json(), "variants": self.names,
            "runs": [{"folder": run.folder, "lineup": self.lineups[run.lineup],
                      "variant": self.names[run.variant]} for run in self.runs],
            "rounds": [], "status": "running"}
        write_json_atomic(log, log_path)
        previous = 0
        for number, deal_sets in enumerate(schedule(plan.budget, plan.first, plan.step,
                                                    plan.growth), start=1):
            (played, played_cpu), (read, read_cpu) = self._play_round(deal_sets)
            started, cpu = time.perf_counter(), time.process_time()
            if self.family is None:
                self._ask()
            self._update(deal_sets)
            looked = read + time.perf_counter() - started
            looked_cpu = read_cpu + time.process_time() - cpu
            entry = {"round": number, "deal_sets": deal_sets,
                     "games": sum(run.played for run in self.runs) * plan.players,
                     "play_seconds": round(played, 3), "update_seconds": round(looked, 3),
                     "play_cpu_seconds": round(played_cpu, 3),
                     "update_cpu_seconds": round(looked_cpu, 3),
                     "differences": [d.record(self.lineups, self.names)
                                     for d in self.differences],
                     "race": [arm.record(self.lineups, self.names) for arm in self.arms]}
            self.rounds.append(entry)
            log["rounds"] = self.rounds
            write_json_atomic(log, log_path)
            say(self.round_line(entry))
            previous = deal_sets
            if self._done():
                break
        self._close()
        self.rounds[-1]["differences"] = [d.record(self.lineups, self.names)
                                          for d in self.differences]
        settlement = Settlement(plan, self.folder, self.differences, self.rounds, self.names,
                                self.lineups, [arm.record(self.lineups, self.names)
                                               for arm in self.arms])
        self._draw(settlement)
        log.update(status="complete", deal_sets=previous, question=self.question,
                   rounds=self.rounds, verdict=verdict_lines(settlement),
                   race=settlement.race)
        write_json_atomic(log, log_path)
        return settlement

    def _draw(self, settlement: Settlement) -> None:
        """The figures of how it was decided: ``figures/settle.png|svg`` (each difference's
        sequence against the deal sets) or, for a sweep, ``figures/sweep.png|svg`` (each
        value's statistic and sequence)."""
        from . import figures

        folder = self.folder / "figures"
        if self.plan.sweep:
            option, _ = sweep_values(self.plan.sweep)
            statistic = next(iter(self.statistics.values()))
            figures.save_figure(figures.sweep_race(settlement.race, option, statistic.name,
                                                   statistic.unit), folder, "sweep")
            return
        figures.save_figure(figures.settle_bounds(self.rounds, self.plan.level), folder,
                            "settle")

    def _active(self) -> set[tuple[int, int]]:
        """The (lineup, variant) runs the next round plays: those with an open difference (a
        sweep: a value still in the race), and each such lineup's baseline."""
        if self.family is None:
            return {(run.lineup, run.variant) for run in self.runs}
        active: set[tuple[int, int]] = set()
        if self.plan.sweep:
            for arm in self.arms:
                if not arm.dropped_at and not self._race_over(arm.lineup):
                    active.add((arm.lineup, arm.variant))
            return active
        for difference in self.differences:
            if not difference.decision:
                active |= {(difference.lineup, difference.variant), (difference.lineup, 0)}
        return active

    def _play_round(self, deal_sets: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """Play the round's new deal sets in every active run and add their totals; the (wall,
        CPU) seconds spent playing (the workers' CPU included) and reading (the cost of
        looking: only the round's new shards are read)."""
        from raspis.tournament import TournamentConfig, run_tournament

        plan, step = self.plan, self.plan.step
        active = self._active()
        played = read = played_cpu = read_cpu = 0.0
        for run in sorted(self.runs, key=lambda run: (run.lineup, run.variant)):
            if (run.lineup, run.variant) not in active:
                continue
            config = TournamentConfig(
                variants=(self.variants[run.variant],), players=plan.players,
                strategies=plan.lineups[run.lineup], games=deal_sets, seed=plan.seed,
                duplicate="rotations", shard_size=step, deal_rows=plan.deal_rows,
                plan_deal_sets=plan.budget)
            started, before = time.perf_counter(), _cpu()
            run_tournament(config, self.folder / run.folder, workers=self.workers, resume=True,
                           warm=not run.played, pool=self.pool)
            played += time.perf_counter() - started
            played_cpu += _cpu() - before
            started, before = time.perf_counter(), time.process_time()
            start = run.played
            ids = [f"v00-s{group:03d}-b{block:06d}"
                   for block in range(start // step, -(-deal_sets // step))
                   for group in range(plan.players)]
            if run.lineup == len(self.settings):  # the lineup's first round: its strength order
                self.settings.append(_lineup_setting(self.folder / run.folder, plan, ids))
            games, deals = round_totals(self.folder / run.folder, ids, self.settings[run.lineup])
            run.totals.add(games, deals)
            run.played = deal_sets
            read += time.perf_counter() - started
            read_cpu += time.process_time() - before
        return (played, played_cpu), (read, read_cpu)

    def _ask(self) -> None:
        """The question's differences (or a sweep's arms) and their family of sequences, once
        the first round has set each lineup's strength order."""
        plan = self.plan
        self.question = plan.question or default_question(
            self.loaded[0].model_dump(mode="json"), self.loaded[-1].model_dump(mode="json"))
        count = 0
        for lineup, setting in enumerate(self.settings):
            chosen = question_statistics(self.question, setting.statistics())
            if plan.sweep and len(chosen) != 1:
                raise SettleError(f"--sweep races one statistic; --question {self.question!r} "
                                  f"asks {len(chosen)} ({', '.join(s.name for s in chosen)})")
            for statistic in chosen:
                self.statistics[(lineup, statistic.name)] = statistic
                if plan.sweep:  # each value, and each two values' difference and sum
                    self.arms += [_Arm(lineup, variant) for variant in range(len(self.variants))]
                    count += len(self.variants) ** 2
                    continue
                for variant in range(1, len(self.variants)):
                    self.differences.append(Difference(lineup, variant, statistic.name,
                                                       statistic.label, statistic.unit))
                    count += 1
        # the sequences tightest at a quarter of the budget, where a clear answer is expected
        self.family = Family(1 - plan.level, count, max(2, plan.budget // 4), plan.margin)

    def _estimate(self, run: _Run, statistic: Statistic) -> Any:
        clusters = run.totals.clusters(statistic)
        return None if clusters is None else cluster_estimate(clusters, statistic)

    def _update(self, deal_sets: int) -> None:
        """Each open difference's (or arm's) sequence after the round, paired over the deal
        sets both sides played, and the decisions made now."""
        assert self.family is not None
        runs = {(run.lineup, run.variant): run for run in self.runs}
        if self.plan.sweep:
            self._race(runs, deal_sets)
            return
        for difference in self.differences:
            if difference.decision:
                continue
            statistic = self.statistics[(difference.lineup, difference.statistic)]
            a = self._estimate(runs[(difference.lineup, 0)], statistic)
            b = self._estimate(runs[(difference.lineup, difference.variant)], statistic)
            if a is None or b is None or a.influence is None or b.influence is None:
                continue
            _, at_a, at_b = np.intersect1d(a.influence[0], b.influence[0], assume_unique=True,
                                           return_indices=True)
            z = b.influence[1][at_b] - a.influence[1][at_a]
            units = len(z)
            family = dataclasses.replace(self.family,
                                         margin=_margin(self.plan, difference.unit))
            difference.estimate = b.value - a.value
            difference.sd = float(np.sqrt((z**2).sum() / max(units - 1, 1)))
            difference.deal_sets = units
            low, high = family.bounds(units, difference.estimate, difference.sd)
            difference.low, difference.high = float(low), float(high)
            said = str(family.decisions(units, difference.estimate, difference.sd))
            if said and units >= MIN_FIRST:  # no decision on fewer (a large-sample result)
                difference.decision, difference.decided_at = said, deal_sets

    def _race(self, runs: dict[tuple[int, int], _Run], deal_sets: int) -> None:
        """Each value's sequence, the sequences of every two values' difference and sum
        (paired over the deal sets both played: the card luck they share cancels), and the
        values these rule out (``race``)."""
        assert self.family is not None
        for lineup in range(len(self.settings)):
            statistic = next(s for (where, _), s in self.statistics.items() if where == lineup)
            alive = [arm for arm in self.arms if arm.lineup == lineup and not arm.dropped_at]
            found = {}
            for arm in alive:
                estimate = self._estimate(runs[(arm.lineup, arm.variant)], statistic)
                if estimate is None or estimate.influence is None:
                    continue
                ids, psi = estimate.influence
                sd = float(np.sqrt((psi**2).sum() / max(len(psi) - 1, 1)))
                low, high = self.family.bounds(len(psi), estimate.value, sd)
                arm.value, arm.low, arm.high = estimate.value, float(low), float(high)
                arm.deal_sets = len(psi)
                found[arm.variant] = (estimate.value, ids, psi)
            pairs: dict[tuple[int, int], tuple[float, float, float, float]] = {}
            for first in alive:
                for second in alive:
                    if first.variant >= second.variant or first.variant not in found \
                            or second.variant not in found:
                        continue
                    value_a, ids_a, psi_a = found[first.variant]
                    value_b, ids_b, psi_b = found[second.variant]
                    _, at_a, at_b = np.intersect1d(ids_a, ids_b, assume_unique=True,
                                                   return_indices=True)
                    bounds = []
                    for sign in (-1.0, 1.0):  # the difference a - b, then the sum a + b
                        z = psi_a[at_a] + sign * psi_b[at_b]
                        sd = float(np.sqrt((z**2).sum() / max(len(z) - 1, 1)))
                        bounds.extend(float(x) for x in self.family.bounds(
                            len(z), value_a + sign * value_b, sd))
                    pairs[(first.variant, second.variant)] = tuple(bounds)  # type: ignore
            if deal_sets < MIN_FIRST:
                continue
            for arm in race(alive, self.plan.target, pairs):
                arm.dropped_at = deal_sets

    def _race_over(self, lineup: int) -> bool:
        return sum(1 for arm in self.arms if arm.lineup == lineup and not arm.dropped_at) <= 1

    def _done(self) -> bool:
        if self.plan.sweep:
            return all(self._race_over(lineup) for lineup in range(len(self.settings)))
        return all(difference.decision for difference in self.differences)

    def _close(self) -> None:
        """What is still open at the end: undecided, with the deal sets it would need."""
        assert self.family is not None
        for difference in self.differences:
            if not difference.decision:
                difference.decision = UNDECIDED
                difference.needed = more_needed(
                    difference.deal_sets, difference.estimate, difference.sd, self.family.each,
                    self.family.rho2, _margin(self.plan, difference.unit))

    # -- words ---------------------------------------------------------------------------------

    def round_line(self, entry: dict[str, Any]) -> str:
        """One line for a round: the deal sets and games so far, each open difference's bounds,
        what was decided."""
        open_, decided = [], []
        for record in entry["differences"]:
            where = f"{record['variant']}" + (f" ({record['lineup']})" if len(self.lineups) > 1
                                              else "")
            name = record["statistic"]
            if record["decision"] == "open":
                open_.append(f"{where} {name} [{_short(record['low'])}, "
                             f"{_short(record['high'])}]")
            else:
                decided.append(f"{where} {name} {record['decision']}")
        for record in entry["race"]:
            where = record["variant"] + (f" ({record['lineup']})" if len(self.lineups) > 1
                                         else "")
            if record["in_race"]:
                open_.append(f"{where} [{_short(record['low'])}, {_short(record['high'])}]")
            else:
                decided.append(f"{where} out")
        parts = [f"round {entry['round']}: {entry['deal_sets']:,} deal sets "
                 f"({entry['games']:,} games)"]
        if open_:
            parts.append("open: " + "; ".join(open_))
        if decided:
            parts.append("decided: " + "; ".join(decided))
        return " | ".join(parts)


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _short(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value:.3g}"


def _margin(plan: SettlePlan, unit: str) -> float | None:
    """The margin of no difference that matters for a statistic of ``unit``: the plan's, else a
    share's ``SHARE_MARGIN``, else none (a difference in points is never called equivalent
    without a margin in its own points)."""
    if plan.margin is not None:
        return plan.margin
    return SHARE_MARGIN if unit.startswith("(share") else None


def race(alive: Sequence[_Arm], target: str,
         pairs: dict[tuple[int, int], tuple[float, float, float, float]] | None = None
         ) -> list[_Arm]:
    """The values of a race the sequences rule out now (successive elimination). Each arm has
    its value's sequence (``low``, ``high``); ``pairs[(a, b)]`` (a < b) holds the sequences of
    value a minus value b and of their sum, paired over the deal sets both played. With ``max``,
    a value is out when another is surely higher (their difference's sequence says so); with
    ``min``, surely lower; with a number t as the target, when another is surely nearer t:
    |a - t| - |b - t| is a - b, b - a, or ±(a + b - 2t) where the values' own sequences place
    them on either side of t, and without that the values' own sequences bound it."""
    arms = [arm for arm in alive if math.isfinite(arm.low) and math.isfinite(arm.high)]
    pairs = pairs or {}
    if len(arms) < 2:
        return []

    def paired(a: _Arm, b: _Arm) -> tuple[float, float, float, float] | None:
        """(low, high) of a - b and of a + b."""
        if (a.variant, b.variant) in pairs:
            return pairs[(a.variant, b.variant)]
        if (b.variant, a.variant) in pairs:
            low, high, sum_low, sum_high = pairs[(b.variant, a.variant)]
            return -high, -low, sum_low, sum_high
        return None

    def surely_worse(a: _Arm, b: _Arm) -> bool:
        both = paired(a, b)
        if target in ("max", "min"):
            if both is not None:
                return both[1] < 0 if target == "max" else both[0] > 0
            return a.high < b.low if target == "max" else a.low > b.high
        t = float(target)
        sides = {}
        for arm in (a, b):
            sides[arm.variant] = 1 if arm.low > t else -1 if arm.high < t else 0
        if both is not None and sides[a.variant] and sides[b.variant]:
            diff_low, diff_high, sum_low, sum_high = both
            if sides[a.variant] > 0 and sides[b.variant] > 0:
                return diff_low > 0                      # a - b
            if sides[a.variant] < 0 and sides[b.variant] < 0:
                return -diff_high > 0                    # b - a
            if sides[a.variant] > 0:
                return sum_low - 2 * t > 0               # (a - t) + (b - t)
            return -(sum_high - 2 * t) > 0               # -(a - t) - (b - t)
        nearest = max(0.0, a.low - t, t - a.high)
        farthest = max(abs(b.low - t), abs(b.high - t))
        return nearest > farthest

    return [a for a in arms if any(surely_worse(a, b) for b in arms if b is not a)]


def _lineup_setting(run_dir: Path, plan: SettlePlan, ids: Sequence[str]) -> Lineup:
    """A lineup's setting, read from its baseline's first round: the strategies by strength (the
    skill measures' pairs), fixed for the rest of the settle."""
    run = open_run(run_dir, only=ids)
    unit = Unit(run, str(run.manifest["variants"][0]["hash"]), "", "")
    strategies = list(dict.fromkeys(run.strategies))
    return Lineup(tuple(strategies), plan.players, None,
                  tuple(strength_order(unit, strategies)), True)


def settle(plan: SettlePlan, out: str | Path, *, resume: bool = False,
           workers: int | None = None, say: Callable[[str], None] | None = None) -> Settlement:
    """Play rounds until every difference of the question is decided or the budget is spent
    (see the module doc); ``say`` is told one line a round. ``resume``: go on with the settle
    in ``out`` (the same plan), playing again what it had not finished."""
    import json

    folder = Path(out)
    log_path = folder / SETTLE_LOG
    if log_path.is_file():
        try:
            old = json.loads(log_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise SettleError(f"{log_path} cannot be read ({error}); choose another --out") \
                from None
        if not resume:
            raise SettleError(f"{folder} already holds a settle; add --resume to go on with it, "
                              "or choose another --out")
        if old.get("plan") != plan.to_json():
            raise SettleError(f"{folder} holds a settle of another question (its plan differs: "
                              "variants, lineups, question, margin, budget, seed or rounds); "
                              "repeat its exact options to resume it, or choose another --out")
    elif folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise SettleError(f"{folder} is not an empty folder and holds no settle; choose another "
                          "--out")
    folder.mkdir(parents=True, exist_ok=True)
    return Settler(plan, folder, workers).play(say or (lambda line: None))


# -- the verdict ---------------------------------------------------------------------------------


def _amount(record: dict[str, Any]) -> tuple[str, str]:
    """A difference's size with its sequence's bounds, in its unit (shares in points of
    probability), and the unit's words."""
    from .formats import interval_text

    share = str(record["unit"]).startswith("(share")
    scale = 100.0 if share else 1.0
    estimate = abs(record["estimate"] or 0.0) * scale
    low, high = (record["low"] or 0.0) * scale, (record["high"] or 0.0) * scale
    if record["estimate"] is not None and record["estimate"] < 0:
        low, high = -high, -low
    unit = "points of probability" if share else str(record["unit"]).strip("()")
    return interval_text(estimate, low, high, ""), unit


def verdict_lines(settlement: Settlement) -> list[str]:
    """The settle's answer in words: the question, then per variant and lineup what its
    sequence decided (with the deal sets it took and its bounds), or, undecided at the budget,
    its bounds and about how many deal sets it would need; a sweep's values still in the race."""
    records = settlement.records()
    several = len(settlement.lineups) > 1
    lines = []
    if settlement.race:
        return _race_lines(settlement)
    decided = [r for r in records if r["decision"] in (DIFFERENT, EQUIVALENT)]
    played = settlement.deal_sets
    budget = settlement.plan.budget
    head = (f"Settled in {played:,} of the budget's {budget:,} deal sets "
            f"({settlement.rounds[-1]['games']:,} games)" if len(decided) == len(records)
            else f"Not all settled within the budget of {budget:,} deal sets "
                 f"({settlement.rounds[-1]['games']:,} games)")
    lines.append(head + f", each sequence at {settlement.plan.level:.0%} for the family:")
    for record in records:
        who = f"{record['variant']}" + (f" with {record['lineup']}" if several else "")
        amount, unit = _amount(record)
        label = record["label"]
        if record["decision"] == DIFFERENT:
            direction = "higher" if record["estimate"] > 0 else "lower"
            lines.append(f"{who}: {label} is {direction} by {amount} {unit} than under "
                         f"{settlement.names[0]} (different, decided after "
                         f"{record['deal_sets']:,} deal sets).")
        elif record["decision"] == EQUIVALENT:
            lines.append(f"{who}: {label} is the same as under {settlement.names[0]} within "
                         f"the margin ({amount} {unit}; equivalent, decided after "
                         f"{record['deal_sets']:,} deal sets).")
        else:
            needed = record.get("deal_sets_needed")
            more = (f"about {needed:,.0f} deal sets would decide it" if needed is not None
                    else "no size would decide it as it stands")
            lines.append(f"{who}: {label}: undecided after {record['deal_sets']:,} deal sets "
                         f"({amount} {unit}); {more}.")
    lines.append("The bounds are confidence sequences: valid at every round, so stopping when "
                 "they decide keeps the error promised; the estimate at a stop leans away from 0 "
                 "(a test stops when it happens to look large).")
    return lines


def _race_lines(settlement: Settlement) -> list[str]:
    plan = settlement.plan
    target = {"max": "the highest", "min": "the lowest"}.get(plan.target,
                                                             f"the nearest {plan.target}")
    lines = []
    for lineup in settlement.lineups:
        arms = [arm for arm in settlement.race if arm["lineup"] == lineup]
        alive = [arm["variant"] for arm in arms if arm["in_race"]]
        where = f" with {lineup}" if len(settlement.lineups) > 1 else ""
        if len(alive) == 1:
            lines.append(f"{target.capitalize()} value{where}: {alive[0]} (every other value "
                         f"ruled out after {settlement.deal_sets:,} deal sets).")
        else:
            lines.append(f"{target.capitalize()} value{where} is one of {', '.join(alive)}: "
                         f"these cannot be told apart within {settlement.deal_sets:,} deal sets; "
                         "the others are ruled out.")
    return lines
