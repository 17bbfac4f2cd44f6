"""``raspis settle``: play until a rules question is decided, with the fewest games."""

from __future__ import annotations

import json
import math

import click
from raspis.strategies import catalogue

from .common import SEED, friendly_errors, level_option, split_specs
from .terminal import terminal_width, wrap

#: the study's lineup: two of the strongest batch players, the fast rules of thumb, the weakest
DEFAULT_LINEUP = ",".join(entry.name for entry in (catalogue.STRONG, catalogue.STRONG,
                                                    catalogue.FAST_HEURISTIC, catalogue.LOWEST))


@click.command("settle")
@click.argument("baseline")
@click.argument("variants", nargs=-1)
@click.option("--lineup", "lineups", multiple=True,
              help="comma-separated strategy specs, one per seat; repeat for several lineups "
                   f"[{DEFAULT_LINEUP}]")
@click.option("--question", "question", default=None, metavar="Q",
              help="what to settle: a group of the balance profile (fair, skill, luck, drama, "
                   "bidding) or a statistic (dealer_cost, joker_value, made_share, ...) [the "
                   "changed rules' own (the hook: dealer_cost), else fair]")
@click.option("--margin", type=float, default=None, metavar="D",
              help="a difference smaller than this does not matter: a sequence inside ±D "
                   "decides 'equivalent' [1 point of probability for a share; none in points]")
@click.option("--budget", type=click.IntRange(min=2), default=2000, show_default=True,
              help="the most deal sets to play (each under every rotation of the seats)")
@level_option
@click.option("--seed", "-s", type=SEED, default=0, show_default=True,
              help="root seed (0 to 2^64-1): the same seed, the same deal sets and decisions")
@click.option("--players", "-p", type=int, default=4, show_default=True)
@click.option("--out", "-o", "out_dir", required=True, type=click.Path(file_okay=False),
              help="the folder of the settle: its runs (one per lineup and variant) and its "
                   "log, settle.json")
@click.option("--resume", is_flag=True, help="go on with the settle in --out (kill -9, Ctrl-C)")
@click.option("--sweep", default=None, metavar="OPTION=VALUES",
              help="race variants of BASELINE with OPTION at each value: a range 1..8 or a list "
                   "a,b,c (e.g. bidding.hook_from_deal=1..8)")
@click.option("--target", default="0", show_default=True,
              help="what a sweep looks for in the question's statistic: a number (the value "
                   "nearest it), max or min")
@click.option("--first", type=click.IntRange(min=1), default=None,
              help="deal sets of the first round, at least 50 [twice --step, at least 50]")
@click.option("--step", type=click.IntRange(min=1), default=None,
              help="deal sets per shard: every round is a whole number of them "
                   "[budget / 80, at least 10]")
@click.option("--growth", type=click.FloatRange(min=1, min_open=True), default=1.5,
              show_default=True, help="each round plays this many times the deal sets so far")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
              help="worker processes [all cores]")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json: the final state for scripts")
@click.option("--quiet", "-q", is_flag=True, help="no line per round on stderr")
@friendly_errors
def settle_command(baseline: str, variants: tuple[str, ...], lineups: tuple[str, ...],
                   question: str | None, margin: float | None, budget: int, level: float,
                   seed: int, players: int, out_dir: str, resume: bool, sweep: str | None,
                   target: str, first: int | None, step: int | None, growth: float,
                   workers: int | None, output_format: str, quiet: bool) -> None:
    """Settle a rules question: play rounds of new deal sets until the answer is clear.

    Every variant and BASELINE are played on the same deal sets, each under every rotation of
    the seats, under each lineup; after each round a confidence sequence of each difference of
    the question (each variant minus BASELINE) is updated. It decides 'different' when it
    excludes 0, 'equivalent' when it lies inside ±margin, and at the budget 'undecided' with
    the deal sets it would need. The sequences are valid at every round at once (their error
    is the level's, however often they are looked at), and the family of differences is held
    to it as a whole. Rounds grow geometrically; what is decided stops being played.

    --out holds one ordinary run per lineup and variant (verify, stats, compare and report read
    them, or the folder) and settle.json, the log of every round. --resume after kill -9 or
    Ctrl-C reaches the same decisions as a run left alone. --sweep races the values of one
    option (successive elimination) for the value nearest --target.

    \b
    raspis settle classic classic-no-hook.toml --budget 2000 --seed 1 --out results/settle
    raspis settle classic classic-no-hook.toml --lineup strong,strong,fastheuristic,lowest \\
        --lineup fastheuristic,fastheuristic,lowest,lowest --question fair --out results/fair
    raspis settle classic-hook-from-4.toml --sweep bidding.hook_from_deal=1..8 \\
        --question dealer_cost --target 0 --out results/hook-sweep
    """
    from raspis.analysis.settle import SettleError, SettlePlan, settle, verdict_lines

    if not variants and not sweep:
        raise SettleError("give the variants to settle against the baseline (presets or files), "
                          "or --sweep OPTION=VALUES")
    if variants and sweep:
        raise SettleError("give either variants or --sweep, not both")
    specs = tuple(tuple(split_specs(lineup)) for lineup in (lineups or (DEFAULT_LINEUP,)))
    step = step or max(10, math.ceil(budget / 80))
    plan = SettlePlan(baseline, variants, specs, question, margin, budget, level, seed, players,
                      first or min(budget, max(50, 2 * step)), step, growth, sweep, target)

    def say(line: str) -> None:
        if not quiet:
            click.echo(wrap(line, terminal_width()), err=True)

    settlement = settle(plan, out_dir, resume=resume, workers=workers, say=say)
    if output_format == "json":
        click.echo(json.dumps({"deal_sets": settlement.deal_sets,
                               "games": settlement.rounds[-1]["games"],
                               "rounds": len(settlement.rounds),
                               "differences": settlement.records(),
                               "race": settlement.race, "out": str(settlement.out)},
                              indent=2))
        return
    for line in verdict_lines(settlement):
        click.echo(wrap(line, terminal_width()))
    click.echo(f"runs and log: {settlement.out} (raspis compare {settlement.out})", err=True)
