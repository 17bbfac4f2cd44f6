"""Distil ``mc``'s card play into ``strong``'s card model (``policies.model.card_features``).

``label_cards`` plays games of ``strong`` seats (with the model shipped now) and, at every card
where the rules (``policies.cards.choose_play``) play a plain card and the seat has two or more
distinct plain cards to choose from (``search.distinct_plays``' classes of equivalent cards), asks
``mc`` (``LABEL_SPEC``) on the same observation; it records the features of every plain card the
seat may play, the class of ``mc``'s choice and ``mc``'s mean value of each card's class, and plays
``strong``'s card. ``fit_cards`` fits each of the model's four weight rows (a lead or a follow;
the seat wants tricks or none: ``policies.model.card_row``) as a conditional logit (a card's
chance is ``exp(score) / sum(exp(score))`` over the cards the seat may play): first the weights
under which ``mc``'s classes are likeliest, with a small ridge, then on from there to the weights
whose cards ``mc`` values highest. The rules' own card is a feature, so the fit starts from the
rules and moves off them where ``mc`` does.

Deterministic: the same arguments give the same samples (game seeds from ``seed``; ``mc`` seeded
per game and seat) and the same weights (L-BFGS from zero).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from raspis.engine import Play, Variant
from raspis.engine.cards import JOKER
from raspis.engine.game import Game, Phase
from scipy.optimize import minimize

from ..players.search import distinct_plays, representative
from ..players.strong import action_of, policy_table
from ..policies import compiled
from ..policies.fitted import NET_KEYS, card_arrays, fit_path, rules_hash, write_archive
from ..policies.model import BASE_FEATURE, card_position
from ..policies.section import CARD_FEATURES, CARD_MODELS, CardModel
from ..policies.strong import decide_strong
from ..registry import load_strategy

#: the search whose card play is distilled: the ``mc`` measured against ``strong`` in
#: docs/strength.md
LABEL_SPEC = "mc:samples=100,objective=relative,inference=1"
#: the arrays of ``CardSamples``
FIELDS = ("features", "legal", "target", "base", "model", "value")
#: the ridge on the weights (per sample)
RIDGE = 1e-3


@dataclass
class CardSamples:
    """Cards labelled by the search: ``features[i]`` (``JOKER`` x ``CARD_FEATURES``) of sample
    ``i``, the plain cards it may play (``legal``, a mask), ``mc``'s class (``target``, a mask),
    the rules' card (``base``), the model's weight row (``model``: ``policies.model.card_row``)
    and ``mc``'s mean value of each card's class (``value``, samples x ``JOKER``; NaN where not
    legal)."""

    features: np.ndarray
    legal: np.ndarray
    target: np.ndarray
    base: np.ndarray
    model: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.legal)

    @staticmethod
    def join(parts: list[CardSamples]) -> CardSamples:
        """The samples of ``parts``, one after the other."""
        return CardSamples(*(np.concatenate([getattr(part, name) for part in parts])
                             for name in FIELDS))

    def rows(self, selected: np.ndarray) -> CardSamples:
        """The samples where ``selected`` (a boolean array) holds."""
        return CardSamples(*(getattr(self, name)[selected] for name in FIELDS))

    def split(self) -> tuple[CardSamples, CardSamples]:
        """(the first three quarters of the samples, the last quarter): to fit on the one and
        measure on the other, held out (the last games labelled)."""
        held = np.arange(len(self)) >= len(self) * 3 // 4
        return self.rows(~held), self.rows(held)

    def save(self, path: Path) -> None:
        """Write the samples to ``path`` (``.npz``; ``load`` reads them back)."""
        np.savez_compressed(path, **{name: getattr(self, name) for name in FIELDS})

    @staticmethod
    def load(path: Path) -> CardSamples:
        """The samples ``save`` wrote to ``path``."""
        with np.load(path) as data:
            return CardSamples(*(data[name] for name in FIELDS))


def label_cards(variant: Variant, players: int, games: int, seed: int = 1,
                spec: str = LABEL_SPEC,
                progress: Callable[[int, int], None] | None = None) -> CardSamples:
    """The cards of ``games`` self-play games of ``strong`` (game seeds from ``seed``), labelled
    by ``spec`` (see the module's docstring)."""
    found: dict[str, list] = {name: [] for name in FIELDS}

    def visit(game: Game, searcher: Recording, table: np.ndarray, at: int) -> None:
        if game.phase != Phase.PLAY:
            return
        sample = np.zeros((JOKER, CARD_FEATURES), dtype=np.float64)
        legal, base, row = (int(value) for value in
                            card_position(game.state, game.tables.plan, table, at, sample))
        if base < JOKER and legal & (legal - 1):
            _label(game, searcher, found, sample, legal, base, row)

    self_play(variant, players, games, seed, spec, visit, progress)
    return samples_of(found, JOKER, CARD_FEATURES)


def self_play(variant: Variant, players: int, games: int, seed: int, spec: str,
              visit: Callable[[Game, Recording, np.ndarray, int], None],
              progress: Callable[[int, int], None] | None = None) -> None:
    """Play ``games`` games of ``strong`` seats (game seeds from ``seed``), calling
    ``visit(game, searcher, table, at)`` before each decision: the seat to move's ``spec``
    search (seeded per game and seat), and ``strong``'s policy table; ``progress(done, games)``
    after each game. The labellers of the card and bid models."""
    for number in range(games):
        game_seed = seed * 1_000_003 + number
        game = Game(variant, players, game_seed, log=False)
        table = policy_table(game.tables, game.plan)
        at = int(table[compiled.T_STRONG_AT])
        plan = game.tables.plan
        searchers = [Recording(load_strategy(spec)) for _ in range(players)]
        for seat, searcher in enumerate(searchers):
            searcher.start_game(game.variant, seat, players, random.Random(game_seed * 16 + seat))
        while not game.is_over():
            code = int(decide_strong(game.state, plan, table, at))
            visit(game, searchers[game.to_move], table, at)
            game.apply_unchecked(action_of(code, game.phase))
        if progress is not None:
            progress(number + 1, games)


def samples_of(found: dict[str, list], width: int, features: int) -> CardSamples:
    """The samples gathered in ``found`` (``FIELDS``' lists), ``width`` choices of ``features``
    features each."""
    return CardSamples(np.array(found["features"]).reshape(-1, width, features),
                       *(np.array(found[name], dtype=np.int64)
                         for name in ("legal", "target", "base", "model")),
                       np.array(found["value"]).reshape(-1, width))


def _label(game: Game, searcher: Recording, found: dict[str, list], sample: np.ndarray,
           legal: int, base: int, row: int) -> None:
    """Ask ``searcher`` at the card to play in ``game`` and add the sample to ``found``, where
    the plain cards of ``legal`` fall in two or more classes and ``mc`` plays one of them."""
    observation = game.observation(game.to_move)
    choices = distinct_plays(observation)
    held = {card: representative(choices, Play(card)) for card in _cards(legal)}
    if len(set(held.values())) < 2:
        return
    chosen = representative(choices, searcher.act(observation))
    means = searcher.last_values
    target = sum(1 << card for card, kind in held.items() if kind == chosen)
    if not target:  # the search played a Joker: not the model's choice
        return
    value = np.full(JOKER, np.nan)
    for card, kind in held.items():
        value[card] = means[kind]
    for name, item in zip(FIELDS, (sample, legal, target, base, row, value), strict=True):
        found[name].append(item)


class Recording:
    """A search strategy whose candidates' mean values at its last search are kept
    (``last_values``: candidate to value), read from its ``pick``."""

    def __init__(self, strategy) -> None:  # noqa: ANN001 - an ``mc`` strategy
        self.strategy = strategy
        self.last_values: dict = {}
        choose = strategy.pick

        def pick(observation, candidates, codes, totals, preferred):  # noqa: ANN001, ANN202
            self.last_values = dict(zip(candidates, totals / strategy.samples, strict=True))
            return choose(observation, candidates, codes, totals, preferred)

        strategy.pick = pick

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self.strategy, name)


def _cards(mask: int) -> list[int]:
    return [card for card in range(JOKER) if mask >> card & 1]


def masks(samples: CardSamples) -> tuple[np.ndarray, np.ndarray]:
    """(legal, target) as boolean arrays, samples x choices (``JOKER`` cards, or a bid model's
    bids)."""
    bits = np.arange(samples.features.shape[1], dtype=np.int64)
    legal = (samples.legal[:, None] >> bits & 1).astype(bool)
    target = (samples.target[:, None] >> bits & 1).astype(bool)
    return legal, target


def _choice_loss(features: np.ndarray, allowed: np.ndarray, wanted: np.ndarray, ridge: float
                 ) -> Callable[[np.ndarray], tuple[float, np.ndarray]]:
    """The conditional logit's loss and gradient: minus the mean log chance of ``mc``'s class."""
    count = len(features)

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        chances = _chances(features, allowed, flat)
        hit = np.where(wanted, chances, 0.0)
        held = hit.sum(axis=1)
        value = -np.mean(np.log(held)) + ridge * flat @ flat
        gradient = -np.einsum("sc,scf->f", hit / held[:, None] - chances, features) / count
        return value, gradient + 2 * ridge * flat

    return loss


def _value_loss(features: np.ndarray, allowed: np.ndarray, values: np.ndarray, ridge: float
                ) -> Callable[[np.ndarray], tuple[float, np.ndarray]]:
    """Minus the mean of ``mc``'s value of the model's card, each card weighed by its chance (the
    values less the position's best, in units of the mean spread of a position's values)."""
    count = len(features)
    best = np.nanmax(values, axis=1, keepdims=True)
    spread = float(np.mean(best[:, 0] - np.nanmin(values, axis=1))) or 1.0
    lost = np.where(allowed, values - best, 0.0) / spread

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        chances = _chances(features, allowed, flat)
        mean = (chances * lost).sum(axis=1, keepdims=True)
        value = -np.mean(mean) + ridge * flat @ flat
        gradient = -np.einsum("sc,scf->f", chances * (lost - mean), features) / count
        return value, gradient + 2 * ridge * flat

    return loss


def _chances(features: np.ndarray, allowed: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """The model's chance of each card (samples x ``JOKER``), 0 where not allowed."""
    scores = np.where(allowed, features @ flat, -np.inf)
    exp = np.exp(scores - scores.max(axis=1, keepdims=True))
    return exp / exp.sum(axis=1, keepdims=True)


def fit_cards(samples: CardSamples, ridge: float = RIDGE, by_value: bool = True) -> np.ndarray:
    """The card model's weights (``CARD_MODELS`` x ``CARD_FEATURES``) fitted to ``samples`` (see
    the module's docstring): first to ``mc``'s choices, then, with ``by_value``, on to the best
    of ``mc``'s values; a row without samples is the rules' card alone."""
    return fit_rows(samples, CARD_MODELS, BASE_FEATURE, ridge, by_value)


def fit_rows(samples: CardSamples, models: int, base_feature: int, ridge: float = RIDGE,
             by_value: bool = True) -> np.ndarray:
    """A linear choice model's weights (``models`` rows of the samples' features) fitted to
    ``samples`` as ``fit_cards`` fits the card model (the bid model too:
    ``fitting.bid_values``); a row without samples weighs the feature ``base_feature`` (the
    rules' own choice) alone."""
    weights = np.zeros((models, samples.features.shape[2]))
    legal, target = masks(samples)
    for model in range(models):
        rows = samples.model == model
        if not rows.any():
            weights[model, base_feature] = 1.0
            continue
        features, allowed = samples.features[rows], legal[rows]
        start = np.zeros(samples.features.shape[2])
        start = minimize(_choice_loss(features, allowed, target[rows], ridge), start,
                         jac=True, method="L-BFGS-B").x
        if by_value:
            start = minimize(_value_loss(features, allowed, samples.value[rows], ridge), start,
                             jac=True, method="L-BFGS-B").x
        weights[model] = start
    return weights


def _picks(samples: CardSamples, weights: np.ndarray) -> np.ndarray:
    """The model's card at each sample, as ``policies.model.model_card`` picks (ties to the lower
    rank)."""
    from .net import picks

    legal, _ = masks(samples)
    return picks(samples.features, legal, samples.model, CardModel(weights))


def agreement(samples: CardSamples, weights: np.ndarray) -> tuple[float, float]:
    """(share of samples where the model's card is in ``mc``'s class, the same for the rules'
    card)."""
    _, target = masks(samples)
    rows = np.arange(len(samples))
    return (float(target[rows, _picks(samples, weights)].mean()),
            float(target[rows, samples.base].mean()))


def regret(samples: CardSamples, weights: np.ndarray) -> tuple[float, float]:
    """(mean of ``mc``'s best value less its value of the model's card, the same for the rules'
    card), in points a card."""
    return regret_of(samples, _picks(samples, weights)), regret_of(samples, samples.base)


def regret_of(samples: CardSamples, chosen: np.ndarray) -> float:
    """The mean of ``mc``'s best value less its value of ``chosen`` (a choice a sample), in
    points."""
    rows = np.arange(len(samples))
    return float(np.mean(np.nanmax(samples.value, axis=1) - samples.value[rows, chosen]))


__all__ = ["LABEL_SPEC", "CardSamples", "agreement", "fit_cards", "fit_net_on", "fit_rows",
           "label_cards", "main", "masks", "regret", "regret_of", "samples_of", "save_cards",
           "self_play"]


def save_cards(name: str, players: int, model: CardModel | None,
               notes: dict[str, object]) -> Path:
    """Write the card model ``model`` into preset ``name``'s shipped table at ``players``
    (``policies.fitted.fit_path``), beside its bid outcomes, with ``notes`` (``cards_*`` entries:
    how it was fitted); None takes the model out. The other entries of the file are kept
    (``policies.fitted.write_archive``: the same weights give the same bytes)."""
    path = fit_path(name, players)
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files if not key.startswith("cards")}
    if model is not None:
        arrays.update(card_arrays(model))
        arrays.update({f"cards_{key}": np.asarray(value) for key, value in notes.items()})
    write_archive(path, arrays)
    return path


def _round(variant: Variant, arguments, number: int, seed: int) -> CardSamples:  # noqa: ANN001
    """A round's samples: kept in ``--labels`` from an earlier call, else labelled (and kept
    there)."""
    kept = None if arguments.labels is None else (
        arguments.labels / f"{variant.name}-{number + 1}.npz")
    if kept is not None and kept.is_file():
        return CardSamples.load(kept)
    samples = label_cards(variant, arguments.players, arguments.games, seed)
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        samples.save(kept)
    return samples


def _with_net(samples: CardSamples, weights: np.ndarray, units: int, seed: int,
              name: str, refit: bool = True) -> CardModel:
    """The card model with its nonlinear part fitted on ``samples`` on top of the linear
    ``weights``; says the regret held out (the last quarter of the samples, the model fitted
    again on the rest: the linear weights too with ``refit``, else the same ``weights``) of the
    rules' card, the linear model and the net."""
    from . import net

    part, test = samples.split()
    part_weights = fit_cards(part) if refit else weights
    part_net = fit_net_on(part, part_weights, units, seed)
    legal = masks(test)[0]
    linear = regret_of(test, net.picks(test.features, legal, test.model,
                                       CardModel(part_weights)))
    nonlinear = regret_of(test, net.picks(test.features, legal, test.model, part_net))
    print(f"{name}: mc's regret a card held out ({len(test):,} cards): rules "
          f"{regret_of(test, test.base):.3f}, linear {linear:.3f}, with {units} hidden units "
          f"{nonlinear:.3f}", flush=True)
    return fit_net_on(samples, weights, units, seed)


def fit_net_on(samples: CardSamples, weights: np.ndarray, units: int, seed: int) -> CardModel:
    """The card model with the linear ``weights`` and a nonlinear part of ``units`` hidden units
    a row fitted on top of them to ``samples`` (``fitting.net.fit_net``)."""
    from .net import fit_net

    return fit_net(samples.features, masks(samples)[0], samples.value, samples.model, weights,
                   units, seed=seed)


def _add_net(name: str, arguments) -> None:  # noqa: ANN001
    """``--keep-linear``: the preset's shipped linear weights (at ``--players``) and a nonlinear
    part fitted on top of them, written into every player count's table with the linear model's
    notes kept."""
    from raspis.engine import load_variant

    from ..policies.fitted import fit_cards as shipped_cards

    variant = load_variant(name)
    tables = [players for players in range(2, 11) if fit_path(name, players).is_file()]
    with np.load(fit_path(name, arguments.players)) as data:
        shipped = shipped_cards(data)
        notes = {key[len("cards_"):]: data[key] for key in data.files
                 if key.startswith("cards_") and key not in (
                     *NET_KEYS, "cards_units", "cards_net_rounds", "cards_net_seed",
                     "cards_net_made_by")}
    if shipped is None:
        raise SystemExit(f"{name}: its table has no card model to keep (fit one first)")
    rounds = [_round(variant, arguments, number, arguments.seed + number)
              for number in range(arguments.rounds)]
    samples = CardSamples.join(rounds)
    card_model = _with_net(samples, shipped.weights, arguments.net, arguments.seed, name,
                           refit=False)
    notes.update(units=arguments.net, net_rounds=arguments.rounds, net_seed=arguments.seed,
                 net_made_by=_command(name, arguments))
    for players in tables:
        save_cards(name, players, card_model, notes)
    compiled.policy_table.cache_clear()
    print(f"{name}: nonlinear part on the shipped linear weights, {len(samples):,} cards -> "
          f"{len(tables)} tables", flush=True)


def _command(name: str, arguments) -> str:  # noqa: ANN001
    """The command that fits preset ``name``'s card model as ``arguments`` say (``main``)."""
    words = [f"python -m raspis.strategies.fitting.distil --variant {name} --players "
             f"{arguments.players} --games {arguments.games} --rounds {arguments.rounds} --seed "
             f"{arguments.seed}"]
    if arguments.net:
        words.append(f"--net {arguments.net}")
    if arguments.keep_linear:
        words.append("--keep-linear")
    if arguments.labels is not None:
        words.append(f"--labels {arguments.labels}")
    return " ".join(words)


def main(argv: list[str] | None = None) -> int:
    """Refit the card model of presets and ship it in their tables (``data/strong``)::

        .venv/bin/python -m raspis.strategies.fitting.distil --variant classic --variant joker \\
            --variant oh-hell --games 40 --rounds 2

    Each preset starts from the rules alone; each round labels ``--games`` games played with the
    model of the round before (``mc``'s playouts play it too), fits on the samples of every round
    so far, and writes the model into every player count's table of the preset (fitted at
    ``--players``)."""
    import argparse
    import time

    from raspis.engine import load_variant

    parser = argparse.ArgumentParser(description="distil mc's card play into strong's card model")
    parser.add_argument("--variant", action="append", required=True, help="a preset's name")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=40, help="games labelled a round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--net", type=int, default=0, metavar="UNITS",
                        help="fit the model's nonlinear part too, UNITS hidden units a row "
                        "(strategies.fitting.net), on the last round's samples and model")
    parser.add_argument("--keep-linear", action="store_true",
                        help="with --net: keep the preset's shipped linear weights and fit only "
                        "the nonlinear part on top of them, on --rounds rounds of samples "
                        "labelled with the shipped model (or kept in --labels)")
    parser.add_argument("--labels", type=Path, metavar="DIR",
                        help="keep each round's samples in DIR (VARIANT-ROUND.npz), and read a "
                        "round's from there where it is already kept instead of labelling it")
    arguments = parser.parse_args(argv)
    if arguments.keep_linear:
        if not arguments.net:
            parser.error("--keep-linear fits the nonlinear part: give --net UNITS")
        for name in arguments.variant:
            _add_net(name, arguments)
        return 0
    for name in arguments.variant:
        variant = load_variant(name)
        tables = [players for players in range(2, 11) if fit_path(name, players).is_file()]
        for players in tables:  # the first round labels the rules' card play
            save_cards(name, players, None, {})
        compiled.policy_table.cache_clear()
        rounds: list[CardSamples] = []
        for number in range(arguments.rounds):
            started = time.perf_counter()
            seed = arguments.seed + number
            rounds.append(_round(variant, arguments, number, seed))
            samples = CardSamples.join(rounds)
            weights = fit_cards(samples)
            card_model = CardModel(weights)
            notes = {"spec": LABEL_SPEC, "games": arguments.games, "seed": seed,
                     "made_by": _command(name, arguments),
                     "round": number + 1, "players": arguments.players,
                     "rules": rules_hash(variant.for_player_count(arguments.players))}
            if arguments.net and number + 1 == arguments.rounds:
                card_model = _with_net(samples, weights, arguments.net, seed, name)
                notes["units"] = arguments.net
            paths = [save_cards(name, players, card_model, notes) for players in tables]
            compiled.policy_table.cache_clear()
            model, rules = regret(samples, weights)
            print(f"{name} round {number + 1}: {len(samples):,} cards so far, mc's regret a card "
                  f"{rules:.3f} -> {model:.3f} (in sample), "
                  f"{time.perf_counter() - started:.0f} s -> {len(paths)} tables", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
