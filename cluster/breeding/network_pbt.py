"""Learning inside evolution: population-based training of staged networks
by temporal differences (``breeding.method = "pbt-td"``).

Every generation each member learns a *slice*: ``learning_games`` ε-greedy
self-play games at its own search depth, learned from by TD(λ)
(:func:`genethello.core.learning.self_play.learn`, CTDL's learning:
Szubert, Jaśkowski & Krawiec). Between slices the run's fitness ranks the
members (at ``fitness.depth``: coevolution, fixed opponents or the hall),
and selection works as in Jaderberg et al.'s population-based training:

* **exploit**: each of the bottom ``exploit_fraction`` of the ranking
  takes the weights and hyperparameters of a member drawn from the top
  ``exploit_fraction``;
* **explore**: a copied member's α, λ and ε are each multiplied by
  ``perturb_factor`` or its inverse (a coin each; λ and ε kept within
  [0, 1], α within (0, 1]) and its depth moved one ply up or down or kept
  (within 1 .. ``learning_max_depth``);
* every member then learns its slice, from its own or its copied weights.

``exploit_fraction = 0`` is temporal-difference learning alone: every
member learns from itself with its generation-1 hyperparameters and
selection never acts (the baseline evolution must beat). Generation 1 is
the start network (``learning_start``: zero weights, or a shipped network
such as ``patterns-v2-net``) with N(0, ``start_sigma``²) discs of noise a
member, so the members are distinct (``start_sigma = 0``: the start
network itself, in slot k > 0 with one weight moved by k/64 disc: a large
start is best kept as it is); with selection, slot 0 keeps the
configured hyperparameters and every other slot's are perturbed once.

**Where it runs.** Deciding (who copies whom, what is perturbed, every
slice's seed) is :meth:`PbtTdBreeder.plan`, pure; the slices are
:class:`LearningSlices` tasks, the work of the breeder's
:class:`~genethello.cluster.breeding.protocols.BreedingPlan`
(:meth:`PbtTdBreeder.next_plan`), which the run's breed step runs on the
workers as it runs any breeder's; :meth:`PbtTdBreeder.bred` turns their
results into the next generation. :meth:`PbtTdBreeder.next_population`
does the three in this process (serial runs and tests): the same members.
Each worker process keeps the Learner a slice ended with
(:mod:`~genethello.cluster.breeding.learner_cache`), and a slice that
starts from exactly the member it holds learns on it: a member learning
slice after slice pays its games, not an evaluator build (``patterns-v2-net``:
about 2 s) a slice, and learns the same bits.

**State.** The members' weights are the players' payloads; the
hyperparameters of every slot, and what each copied slot's perturbation
was, are the breeder state (JSON, sorted keys: equal states are equal
bytes), kept with every generation (a few hundred bytes); every draw comes
from the generation's Generator. A run stopped anywhere resumes to the same
content: a breed step stopped mid-slice stores nothing and is redone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from genethello.cluster.breeding.learner_cache import LearnerCache, process_learners, start_learner
from genethello.cluster.breeding.network_breeders import MAX_REDRAWS, network_kind, networks_of, new_individual
from genethello.cluster.breeding.origins import COPIED, INITIAL, LEARNED, Origin
from genethello.cluster.breeding.pbt_selection import HyperPrior, bounded, ready, resampled, since_copy_after
from genethello.cluster.breeding.pbt_td_state import METHOD, STATE_FORMAT, StoredStateError, slot_learning, stored_slots
from genethello.cluster.breeding.protocols import Bred, BreedingPlan, RatedGeneration, bred_here
from genethello.cluster.config import RANGES, BreedingConfig, ConfigError, RunConfig
from genethello.core.families.individual_names import looks_like_path, resolve_individual
from genethello.core.families.network_family import NetworkIndividual, NetworkKind
from genethello.core.families.networks import DISC_UNITS, Network
from genethello.core.families.registry import Individual, Kind, family_of, parse_individual
from genethello.core.families.stage_smoothing import smoothed_change
from genethello.core.frontend.wording import counted
from genethello.core.learning.self_play import LearningSettings, SliceReport, on_learned_grid

__all__ = ["STATE_FORMAT", "Hyper", "LearnedSlice", "LearningPlan", "LearningSlices", "PbtTdBreeder", "SliceSpec",
           "check_learning_config", "dump_state", "learn_slice", "load_state", "slot_learning", "start_network"]

#: The deepest self-play depth any config allows (breeding.learning_max_depth's range).
MAX_LEARNING_DEPTH: int = RANGES["breeding.learning_max_depth"][1]
#: The deepest search of a target any config allows.
MAX_SEARCH_TARGETS: int = RANGES["breeding.learning_max_search_targets"][1]


@dataclass(frozen=True)
class Hyper:
    """One member's learning hyperparameters (what PBT perturbs)."""

    alpha: float
    lam: float
    epsilon: float
    depth: int
    search_targets: int = 0     # the search depth of its bootstrapped targets (0: the static value)

    def settings(self, config: BreedingConfig) -> LearningSettings:
        """This member's slice settings under the run's ``config``."""
        return LearningSettings(alpha=self.alpha, lam=self.lam, epsilon=self.epsilon, depth=self.depth,
                                exact_empties=config.learning_exact, games=config.learning_games,
                                batch_games=config.learning_batch, opening_plies=config.learning_opening_plies,
                                exact_targets=config.learning_exact_targets, search_targets=self.search_targets)

    def perturbed(self, factor: float, max_depth: int, rng: np.random.Generator,
                  max_search_targets: int = 0) -> tuple[Hyper, str]:
        """PBT's explore: each of α, λ, ε times ``factor`` or divided by it
        (a coin each), the depth one ply up, down or kept, and with
        ``max_search_targets``, the target depth too (within
        1..max_search_targets, drawn last: without it, the draws of
        before); with a line saying what changed
        (``alpha x1.25 lambda /1.25 epsilon x1.25 depth 2``, then ``search 3``)."""
        ups = rng.random(3) < 0.5
        step = int(rng.integers(-1, 2))
        alpha = min(1.0, self.alpha * factor if ups[0] else self.alpha / factor)
        lam = min(1.0, self.lam * factor if ups[1] else self.lam / factor)
        epsilon = min(1.0, self.epsilon * factor if ups[2] else self.epsilon / factor)
        depth = min(max_depth, max(1, self.depth + step))
        said = " ".join(f"{name} {'x' if up else '/'}{factor:g}" for name, up in zip(("alpha", "lambda", "epsilon"),
                                                                                     ups, strict=True))
        said = f"{said} depth {depth}"
        search = self.search_targets
        if max_search_targets > 0 and search > 0:
            search = min(max_search_targets, max(1, search + int(rng.integers(-1, 2))))
            said = f"{said} search {search}"
        return Hyper(alpha, lam, epsilon, depth, search), said

    def as_json(self) -> dict[str, float | int]:
        """The slot's stored hyperparameters (a target depth only where
        there is one: the state of a run without is that of before)."""
        stored: dict[str, float | int] = {"alpha": self.alpha, "lambda": self.lam, "epsilon": self.epsilon,
                                          "depth": self.depth}
        if self.search_targets:
            stored["search_targets"] = self.search_targets
        return stored


def dump_state(hypers: Sequence[Hyper], perturbed: Sequence[str | None],
               since_copy: Sequence[int] | None = None) -> bytes:
    """The breeder state of a generation: every slot's hyperparameters and,
    for a copied slot, what its perturbation was (JSON, sorted keys); with
    ``breeding.ready_slices``, each slot's slices since its last copy."""
    slots = [{**h.as_json(), "perturbed": p} for h, p in zip(hypers, perturbed, strict=True)]
    if since_copy is not None:
        slots = [{**slot, "since_copy": n} for slot, n in zip(slots, since_copy, strict=True)]
    return json.dumps({"format": STATE_FORMAT, "method": PbtTdBreeder.name, "slots": slots},
                      sort_keys=True, separators=(",", ":")).encode()


def load_state(state: bytes | None, size: int, max_depth: int | None = None) -> list[Hyper]:
    """The hyperparameters of every slot of a stored state, each within
    the ranges a slot can hold (a depth of at most ``max_depth``, the run's
    ``learning_max_depth``, when given: a state altered in the database is
    refused, not learned from unbounded).

    Raises:
        ValueError: one line naming what is wrong (missing, too large, not
            this breeder's, a slot count other than ``size``, a value out of range).
    """
    if state is None:
        raise StoredStateError("pbt-td: the generation has no stored breeder state (its hyperparameters)")
    try:
        hypers = [Hyper(float(s["alpha"]), float(s["lambda"]), float(s["epsilon"]), int(s["depth"]),
                        int(s.get("search_targets", 0))) for s in stored_slots(state)]
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise StoredStateError(f"pbt-td: the stored breeder state cannot be read: {exc}") from None
    if len(hypers) != size:
        raise StoredStateError(f"pbt-td: the stored breeder state has {len(hypers)} slots for {size} members")
    top = MAX_LEARNING_DEPTH if max_depth is None else max_depth
    for slot, h in enumerate(hypers):
        if not (0 < h.alpha <= 1 and 0 <= h.lam <= 1 and 0 <= h.epsilon <= 1):
            raise StoredStateError(f"pbt-td: the stored breeder state's slot {slot} holds hyperparameters out of "
                                   f"range: alpha {h.alpha:.4g}, lambda {h.lam:.4g}, epsilon {h.epsilon:.4g} "
                                   "(alpha in (0, 1], lambda and epsilon in [0, 1])")
        if not 1 <= h.depth <= top:
            raise StoredStateError(f"pbt-td: the stored breeder state's slot {slot} learns at depth {h.depth}, "
                                   f"outside 1..{top} (breeding.learning_max_depth)")
        if not 0 <= h.search_targets <= MAX_SEARCH_TARGETS:
            raise StoredStateError(f"pbt-td: the stored breeder state's slot {slot} bootstraps from searches of "
                                   f"depth {h.search_targets}, outside 0..{MAX_SEARCH_TARGETS}")
    return hypers


def start_network(kind: NetworkKind, start: str) -> Network:
    """Generation 1's network before its noise: zero weights (``""``), or
    the shipped network ``start`` names (a name, never a file: the stored
    config names it to every resume).

    A staged network's real weights are discs whatever its whole-disc
    weight (networks.py), so a start of the kind's architecture and stages
    but another whole-disc weight is that kind's network on the same
    weights: ``table-player`` (``-w10``: whole discs, as p_1_10 plays the
    table) starts a ``patterns-v2-s30`` run whose members play and learn on
    1/64-disc values. Likewise a start with or without mobility entries
    keeps its LUTs, the kind's mobility entries starting at 0 (or dropped).

    Raises:
        ValueError: for a file, an unknown name, or a network of another kind.
    """
    if not start:
        return kind.network(np.zeros(kind.n_weights))
    if looks_like_path(start):
        raise ValueError(f"breeding.pbt-td.learning_start: {start!r} names a file, which a run's stored config may not "
                         "(a database never makes genethello read a path it names): name a shipped network")
    found = resolve_individual(start)
    network = family_of(found).network(found)
    if network is None or network.architecture != kind.architecture or network.stages != kind.stages:
        raise ValueError(f"breeding.pbt-td.learning_start: {start} is not a {kind.name} network")
    if NetworkKind.of(network) != kind:
        tuples = network.weights[:kind.stages * kind.architecture.n_weights]
        mobility = np.zeros(kind.n_weights - tuples.size)     # a start without mobility entries: all 0
        return kind.network(np.concatenate([tuples, mobility]))
    return network


def check_learning_config(config: RunConfig) -> None:
    """A pbt-td run's keys fit together (the run check calls this):
    fitness with search (a staged network has no 1-ply fast loop), no League
    measure on that loop, and a start network of the run's kind.

    Raises:
        ConfigError: naming the key.
    """
    if config.breeding.learning_games < 1:
        raise ConfigError("breeding.pbt-td.learning_games: pbt-td learns from at least one game a generation (a copy "
                          "that learned nothing would be its parent again)")
    if not config.fitness.depth:
        raise ConfigError("fitness.depth: pbt-td learns staged networks, whose fitness is played with search "
                          "(fitness.depth >= 1; the 1-ply fast loop sums one set of LUTs)")
    if config.yardstick.league_double_games and config.yardstick.every:
        raise ConfigError("yardstick.league_double_games: the League measure plays on the 1-ply fast loop, which "
                          "cannot play a staged network (set it to 0; genethello match measures a run's best)")
    if not PbtTdBreeder(config.breeding).breeds(config.chromosome_type):
        return                                  # the run check names population.type
    try:
        start_network(network_kind(config.chromosome_type), config.breeding.learning_start)
    except ValueError as exc:
        raise ConfigError(str(exc) if str(exc).startswith("breeding.") else f"breeding.pbt-td.learning_start: {exc}") \
            from None


@dataclass(frozen=True)
class SliceSpec:
    """One slot's slice of the next generation: the weights it starts from
    (a member's text and payload), its hyperparameters and seed."""

    slot: int
    text: str
    payload: bytes
    hyper: Hyper
    seed: int
    birth: int


@dataclass(frozen=True)
class LearnedSlice:
    """A slice's result: the learned member's text and payload, and its report."""

    slot: int
    text: str
    payload: bytes
    report: SliceReport


@dataclass(frozen=True)
class LearningSlices:
    """The workers' task: learn each :class:`SliceSpec` (a pure function of it)."""

    config: BreedingConfig

    def run(self, items: Sequence[SliceSpec]) -> list[LearnedSlice]:
        return [learn_slice(item, self.config, process_learners()) for item in items]


def learn_slice(spec: SliceSpec, config: BreedingConfig, learners: LearnerCache | None = None) -> LearnedSlice:
    """The member ``spec`` makes: its start weights after one slice; with
    ``learners``, on a Learner kept from the slice that ended at its start
    when there is one, and kept for the next (the same bits: learner_cache).
    With ``learning_stage_smoothing``, the start plus the slice's change
    smoothed across the stages (:func:`smoothed_change`), on a Learner
    built for the slice: ``learners`` is not used."""
    smoothing = config.learning_stage_smoothing
    if learners is None or smoothing:
        # A smoothed member is not the learner's weights, so no learner is kept for it.
        kind, learner = start_learner(spec.text, spec.payload)
    else:
        kind, learner = learners.take(spec.text, spec.payload, spec.birth)
    start = learner.network() if smoothing else None
    report = learner.slice(spec.hyper.settings(config), spec.seed)
    network = learner.network()
    if start is not None:
        network = on_learned_grid(smoothed_change(start, network, smoothing))
    member = NetworkIndividual(kind, spec.birth, network)
    payload = family_of(member).storage(member).payload or b""
    if learners is not None and not smoothing:
        learners.keep(str(member), payload, spec.birth, kind, learner)
    return LearnedSlice(spec.slot, str(member), payload, report)


@dataclass(frozen=True)
class LearningPlan:
    """What :meth:`PbtTdBreeder.plan` decided: a slice a slot, and each
    slot's origin and (for a copied slot) its perturbation."""

    slices: tuple[SliceSpec, ...]
    origins: tuple[Origin, ...]
    perturbed: tuple[str | None, ...]
    since_copy: tuple[int, ...] | None = None     # with breeding.ready_slices: each slot's slices since a copy


@dataclass(frozen=True)
class PbtTdBreeder:
    """pbt-td (module docstring)."""

    config: BreedingConfig
    name: ClassVar[str] = METHOD

    def breeds(self, kind: Kind) -> bool:
        """Staged networks only: their values are discs, which TD learns."""
        try:
            return network_kind(kind).stages > 1
        except ValueError:
            return False

    def check(self, config: RunConfig) -> None:
        """:func:`check_learning_config`."""
        check_learning_config(config)

    def _hyper(self) -> Hyper:
        c = self.config
        return Hyper(c.learning_alpha, c.learning_lambda, c.learning_epsilon, c.learning_depth,
                     c.learning_search_targets)

    def first_population(self, kind: Kind, size: int, initial: Sequence[Individual],
                         rng: np.random.Generator) -> Bred:
        """The start network plus noise, ``size`` distinct members (with
        ``start_sigma`` 0, the start network nudged by one weight a slot); slot 0 with the
        configured hyperparameters, every other slot's perturbed once when
        selection acts (module docstring)."""
        kind = network_kind(kind)
        if initial:
            raise ValueError("pbt-td starts from breeding.pbt-td.learning_start, not population.initial")
        start = start_network(kind, self.config.learning_start)
        members: list[NetworkIndividual]
        if self.config.start_sigma == 0:
            # The start network itself, and in slot k > 0 with one weight
            # moved by k/64 disc (the smallest step a search sees): distinct
            # members that play as the start does.
            members = [NetworkIndividual(kind, 1, start)]
            for k in range(1, size):
                weights = np.array(start.weights)
                weights[int(rng.integers(kind.n_weights))] += k / DISC_UNITS
                members.append(new_individual(kind, 1, weights))
            return Bred(members, self._first_state(size, rng), [Origin(INITIAL)] * size)
        members = []
        seen: set[str] = set()
        redraws = 0
        while len(members) < size:
            noise = rng.normal(0.0, self.config.start_sigma, kind.n_weights)
            member = new_individual(kind, 1, start.weights + noise)
            if str(member) in seen:
                redraws += 1
                if redraws > MAX_REDRAWS:
                    raise ValueError(f"pbt-td: cannot draw {size} distinct members with breeding.pbt-td.start_sigma "
                                     f"{self.config.start_sigma:g} (a larger noise makes them distinct)")
                continue
            seen.add(str(member))
            members.append(member)
        return Bred(members, self._first_state(size, rng), [Origin(INITIAL)] * size)

    def _first_state(self, size: int, rng: np.random.Generator) -> bytes:
        base = self._hyper()
        hypers: list[Hyper] = [base]
        perturbed: list[str | None] = [None]
        for _ in range(1, size):
            if self.config.exploit_fraction > 0:
                hyper, said = base.perturbed(self.config.perturb_factor, self.config.learning_max_depth, rng,
                                             self.config.learning_max_search_targets)
                hypers.append(hyper)
                perturbed.append(said)
            else:
                hypers.append(base)
                perturbed.append(None)
        return dump_state(hypers, perturbed)

    def plan(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> LearningPlan:
        """Exploit and explore on ``rated``'s ranking, then a slice a slot:
        slot k of the next generation descends from rank k (module docstring)."""
        ranked = networks_of(rated.ranked)
        if len(ranked) != size:
            raise ValueError(f"pbt-td keeps its population size: {len(ranked)} ranked for {size} members")
        by_slot = load_state(rated.state, size, self.config.learning_max_depth)
        slots = list(rated.slots) if rated.slots else list(range(size))
        hypers = [by_slot[slot] for slot in slots]            # in rank order
        copies = int(self.config.exploit_fraction * size)
        sources = list(range(size))
        perturbed: list[str | None] = [None] * size
        origins = [Origin(LEARNED, (k,)) for k in range(size)]
        since = self._since_copy(rated, slots)
        for k in range(size - copies, size):
            top = int(rng.integers(copies))
            if since is not None and not self._ready(rated, since, top, k):
                continue          # the donor is not ready: slot k learns on from its own weights
            sources[k] = top
            hypers[k], perturbed[k] = hypers[top].perturbed(self.config.perturb_factor,
                                                            self.config.learning_max_depth, rng,
                                                            self.config.learning_max_search_targets)
            hypers[k], perturbed[k] = self._kept_learning(hypers[k], perturbed[k], rng)
            origins[k] = Origin(COPIED, (top,), perturbed[k])
        seeds = rng.integers(0, 2 ** 63, size=size)
        # A copied parent's payload once (a large network's packing costs a fraction of a second).
        payloads = {i: family_of(ranked[i]).storage(ranked[i]).payload or b"" for i in set(sources)}
        slices = [SliceSpec(k, str(ranked[sources[k]]), payloads[sources[k]], hypers[k], int(seeds[k]),
                            rated.number + 1) for k in range(size)]
        after = None if since is None else tuple(since_copy_after(since, [sources[k] != k for k in range(size)]))
        return LearningPlan(tuple(slices), tuple(origins), tuple(perturbed), after)

    def _since_copy(self, rated: RatedGeneration, slots: Sequence[int]) -> list[int] | None:
        """Each ranked member's slices since its last copy (a slot the state
        does not count has learned on its own since generation 1); None
        when no ready criterion is configured (today's PBT)."""
        c = self.config
        if c.ready_slices == 0 and c.ready_z == 0:
            return None
        if c.ready_z > 0 and rated.games_per_member <= 0:
            raise ValueError("pbt-td: breeding.ready_z needs the games of each member's fitness (the run passes them)")
        stored = stored_slots(rated.state) if rated.state is not None else []
        by_slot = [int(entry.get("since_copy", rated.number)) for entry in stored]
        return [by_slot[slot] if slot < len(by_slot) else rated.number for slot in slots]

    def _ready(self, rated: RatedGeneration, since: Sequence[int], donor: int, receiver: int) -> bool:
        """breeding.ready_slices and ready_z on ranks ``donor`` and ``receiver``."""
        points = rated.points
        games = rated.games_per_member if points else 0
        return ready(since[donor], self.config.ready_slices, points[donor] if points else 0.0,
                     points[receiver] if points else 0.0, games, self.config.ready_z)

    def _kept_learning(self, hyper: Hyper, said: str | None, rng: np.random.Generator) -> tuple[Hyper, str | None]:
        """Explore's result resampled and floored as breeding.resample_probability
        and the floors say (unchanged, and no draw, by default)."""
        c = self.config
        if c.resample_probability == 0 and c.alpha_floor == 0 and c.lambda_floor == 0 and c.epsilon_floor == 0:
            return hyper, said
        alpha_high = min(1.0, c.learning_alpha * 10)
        prior = HyperPrior(alpha=(min(alpha_high, max(c.alpha_floor, c.learning_alpha / 10)), alpha_high),
                           lam=(c.lambda_floor, 1.0),
                           epsilon=(c.epsilon_floor, max(c.epsilon_floor, min(1.0, 2 * c.learning_epsilon))),
                           max_depth=c.learning_max_depth, alpha_floor=c.alpha_floor, lambda_floor=c.lambda_floor,
                           epsilon_floor=c.epsilon_floor)
        values, drawn = resampled((hyper.alpha, hyper.lam, hyper.epsilon, hyper.depth), prior,
                                  c.resample_probability, rng)
        alpha, lam, epsilon, depth = bounded(values, prior)
        return Hyper(alpha, lam, epsilon, depth, hyper.search_targets), \
            f"{said}; resampled {drawn}" if drawn else said

    def bred(self, plan: LearningPlan, learned: Sequence[LearnedSlice]) -> Bred:
        """The next generation from the plan and its slices' results (any order)."""
        by_slot = {r.slot: r for r in learned}
        if sorted(by_slot) != list(range(len(plan.slices))):
            raise ValueError(f"pbt-td: {len(by_slot)} slices learned of {len(plan.slices)}")
        members = [parse_individual(by_slot[k].text, by_slot[k].payload) for k in range(len(plan.slices))]
        if len({str(m) for m in members}) != len(members):
            raise ValueError("pbt-td: two members learned the same network (breeding.pbt-td.learning_games is too few "
                             "to part a copy from its parent)")
        state = dump_state([s.hyper for s in plan.slices], plan.perturbed, plan.since_copy)
        return Bred(members, state, plan.origins)

    def next_plan(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> BreedingPlan:
        """:meth:`plan`, whose slices the workers learn (:class:`LearningSlices`),
        then :meth:`bred` of their results."""
        plan = self.plan(rated, size, rng)
        return BreedingPlan(lambda learned: self.bred(plan, learned), LearningSlices(self.config), plan.slices,
                            f"generation {rated.number}: {counted(len(plan.slices), 'member')} learn "
                            f"{counted(self.config.learning_games, 'self-play game')} each")

    def next_population(self, rated: RatedGeneration, size: int, rng: np.random.Generator) -> Bred:
        """:meth:`next_plan` with every slice learned in this process."""
        return bred_here(self.next_plan(rated, size, rng))

    def champion(self, rated: RatedGeneration) -> Individual:
        """The top of the generation's ranking."""
        return rated.ranked[0]
