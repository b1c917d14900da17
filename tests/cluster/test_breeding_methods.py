"""The breeders behind the coordinator's one breeder interface (GeneThello's
GA and random search, its baseline), and the config keys of the second pass
(breeding.method, hall.games_per_member, the yardstick's budgets)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from genethello.cluster.breeding.breeders import (
    BREEDERS,
    Bred,
    GeneticBreeder,
    RandomSearchBreeder,
    RatedGeneration,
    breeder_for,
)
from genethello.cluster.breeding.population import generation_rng, next_population_with_origins
from genethello.cluster.config import BreedingConfig, ConfigError
from genethello.cluster.run.run_check import BREEDING_METHODS, config_from_mapping
from genethello.core.families.chromosome import Chromosome, ChromosomeType
from genethello.core.families.registry import parse_kind

FDMXCP = ChromosomeType.parse("fdmxcp")


def first(size: int, seed: int = 3, method: str = "ga") -> list[Chromosome]:
    bred = breeder_for(BreedingConfig(method=method)).first_population(FDMXCP, size, (), generation_rng(seed, 1))
    assert bred.state is None
    return bred.members


def breed(ranked, size: int, generation: int, config: BreedingConfig, rng, injected=()) -> list[Chromosome]:
    """Generation ``generation`` bred by the breeder ``config`` names, as the coordinator asks for it."""
    bred = breeder_for(config).next_population(RatedGeneration(generation - 1, FDMXCP, ranked, injected), size, rng)
    assert isinstance(bred, Bred) and bred.state is None   # GeneThello's breeders are stateless
    return bred.members


def test_every_breeding_method_names_a_breeder_and_no_other():
    assert BREEDING_METHODS == tuple(BREEDERS) == ("ga", "random-search", "cma-es", "pbt-td")
    for method in BREEDING_METHODS:
        breeder = breeder_for(BreedingConfig(method=method))
        assert breeder.name == method and breeder.breeds(FDMXCP) == (method not in ("cma-es", "pbt-td"))
        # pbt-td learns values in discs: staged networks only.
        assert breeder.breeds(parse_kind("all-2")) == (method != "pbt-td")
        assert breeder.breeds(parse_kind("all-2-s8"))
    assert isinstance(breeder_for(BreedingConfig()), GeneticBreeder)
    assert isinstance(breeder_for(BreedingConfig(method="random-search")), RandomSearchBreeder)
    with pytest.raises(ValueError,
                       match=r"breeding\.method: 'annealing' is not one of ga, random-search, cma-es, pbt-td"):
        breeder_for(BreedingConfig(method="annealing"))


def test_both_breeders_draw_the_same_first_generation_from_the_run_seed():
    assert first(12, method="ga") == first(12, method="random-search")
    assert first(12, seed=3) != first(12, seed=4)
    assert len({c.genes for c in first(12)}) == 12 and all(c.birth == 1 for c in first(12))


def test_the_ga_breeder_breeds_as_genethellos_next_population():
    ranked = first(12)
    config = BreedingConfig(elites=2)
    star = Chromosome.parse("fdmxcp_1_0:0:10:0:0:10")
    assert breed(ranked, 12, 5, config, np.random.default_rng(1), [star]) == next_population_with_origins(
        ranked, 12, 5, config, np.random.default_rng(1), [star])[0]


def test_random_search_keeps_the_elites_and_draws_everyone_else_afresh():
    ranked = first(12)
    config = BreedingConfig(elites=2, method="random-search")
    new = breed(ranked, 12, 5, config, np.random.default_rng(1))
    assert new[:2] == ranked[:2]
    assert len({c.genes for c in new}) == 12
    assert all(c.birth == 5 for c in new[2:])
    assert not {c.genes for c in new[2:]} & {c.genes for c in ranked}
    again = breed(ranked, 12, 5, config, np.random.default_rng(1))
    assert again == new


def test_random_search_keeps_an_absent_injected_chromosome():
    ranked = first(6)
    star = Chromosome.parse("fdmxcp_1_0:0:10:0:0:10")
    new = breed(ranked, 6, 2, BreedingConfig(elites=1, method="random-search"),
                np.random.default_rng(0), injected=[star, ranked[0]])
    assert new[0] == ranked[0] and new[1] == star and len(new) == 6


def test_ga_and_random_search_breed_differently_from_the_same_ranking():
    ranked = first(12)
    ga = breed(ranked, 12, 2, BreedingConfig(elites=2), np.random.default_rng(1))
    rs = breed(ranked, 12, 2, BreedingConfig(elites=2, method="random-search"), np.random.default_rng(1))
    assert ga[:2] == rs[:2] and ga != rs


def test_the_store_keeps_a_breeder_state_and_payloads(tmp_path):
    """From migration 0004 a breeder's state is stored with the generation
    it bred, and a member's payload (a network's weights) beside its text:
    both come back as they went in."""
    from genethello.cluster.db import Database
    from genethello.cluster.run.coordinator import create_run
    from genethello.cluster.run.run_store import RunStore
    from genethello.core.families.registry import parse_individual

    db = Database.open(tmp_path / "runs.db", create=True)
    try:
        store = RunStore(db, create_run(db, config_from_mapping({"population": {"type": "fdmxcp", "size": 4}})))
        members = first(4)
        store.start_generation(1, members, 1500.0)
        assert [text for _, text in store.population(1)] == [str(c) for c in members]
        assert store.breeder_state(1) is None
        nets = breeder_for(BreedingConfig(method="cma-es")).first_population(
            parse_kind("all-2"), 4, [], np.random.default_rng(5))
        store.start_generation(2, nets.members, 1500.0, breeder_state=nets.state)
        assert store.breeder_state(2) == nets.state
        stored = store.population_individuals(2)
        assert [parse_individual(text, payload) for _, text, payload in stored] == list(nets.members)
        assert all(np.array_equal(parse_individual(t, p).network.weights, m.network.weights)
                   for (_, t, p), m in zip(stored, nets.members))
    finally:
        db.dispose()


@pytest.mark.parametrize("data, key", [
    ({"breeding": {"method": "annealing"}}, "breeding.method"),
    ({"hall": {"games_per_member": 7}}, "hall.games_per_member"),
    ({"hall": {"games_per_member": -2}}, "hall.games_per_member"),
    ({"yardstick": {"gtp_games": 3}}, "yardstick.gtp_games"),
    ({"yardstick": {"league_double_games": -1}}, "yardstick.league_double_games"),
    ({"yardstick": {"opponents": ["p_1_99"]}}, "yardstick.opponents"),
    ({"hall": {"size": 3}}, "hall.size"),
])
def test_bad_second_pass_keys_name_themselves(data, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        config_from_mapping(data)


def test_defaults_measure_with_five_point_intervals():
    config = config_from_mapping({})
    assert config.hall.games_per_member == 540
    assert config.yardstick.games_per_opponent >= 385
    assert config.breeding.method == "ga" and config.rating.selection == "score"


def test_the_shipped_best_chromosomes_read_as_an_initial_population(tmp_path):
    from pathlib import Path

    from genethello.cluster.run.coordinator import read_chromosome_file

    shipped = read_chromosome_file(Path(__file__).parents[2] / "config" / "strong-best.txt")
    assert len(shipped) == 8 and all(c.type == FDMXCP for c in shipped)
    assert all(isinstance(c, Chromosome) for c in shipped)
    bad = tmp_path / "initial.txt"
    bad.write_text("# comment\nfdmxcp_1_0:0:0:0:0:10   # p only\n\nfdmxcp_1_0:0:0:0:0:99\n")
    with pytest.raises(ValueError, match=r"initial\.txt:4: "):
        read_chromosome_file(bad)
    with pytest.raises(ValueError, match="cannot read"):
        read_chromosome_file(tmp_path / "missing.txt")


# Each method's own section; the flat legacy form (configs written before
# the sections, and every stored run's config) reads to the same config.
SECTIONED_AND_FLAT = [
    ({"elites": 3, "ga": {"mutation_rate": 0.2, "parent_fraction": 0.5}},
     {"elites": 3, "mutation_rate": 0.2, "parent_fraction": 0.5}),
    ({"method": "cma-es", "cma-es": {"cma_variant": "separable", "sigma0": 0.5}},
     {"method": "cma-es", "cma_variant": "separable", "sigma0": 0.5}),
    ({"method": "pbt-td", "pbt-td": {"learning_alpha": 0.2, "learning_start": "", "exploit_fraction": 0.0}},
     {"method": "pbt-td", "learning_alpha": 0.2, "learning_start": "", "exploit_fraction": 0.0}),
]


@pytest.mark.parametrize("sectioned, flat", SECTIONED_AND_FLAT, ids=["ga", "cma-es", "pbt-td"])
def test_a_method_section_and_the_legacy_flat_keys_read_alike(sectioned, flat):
    from genethello.cluster.config import RunConfig, parse_config
    new, old = parse_config({"breeding": sectioned}), parse_config({"breeding": flat})
    assert new == old and new.breeding != BreedingConfig()
    # The stored JSON stays flat (the bytes of before) and reads back.
    assert json.loads(new.to_json())["breeding"] == dataclasses.asdict(old.breeding)
    assert RunConfig.from_json(new.to_json()) == new


def test_every_breeding_section_is_a_method_and_a_key_is_set_once():
    from genethello.cluster.config import BREEDING_SECTIONS, parse_config
    assert set(BREEDING_SECTIONS) <= set(BREEDERS)
    for data, key in [({"pbt-td": {"learning_alpha": 0.2}, "learning_alpha": 0.3}, "breeding.learning_alpha"),
                      ({"ga": {"sigma0": 1.0}}, "breeding.ga.sigma0"),
                      ({"pbt-td": 3}, "[breeding.pbt-td]"),
                      ({"cma-es": {"sigma0": 0.0}}, "breeding.cma-es.sigma0")]:
        with pytest.raises(ConfigError) as caught:
            parse_config({"breeding": data})
        assert str(caught.value).startswith(key) and "\n" not in str(caught.value), (data, caught.value)


def test_the_shipped_configs_use_the_sections_and_a_legacy_flat_file_loads(tmp_path):
    import tomllib
    from pathlib import Path

    from genethello.cluster.config import BREEDING_KEY_SECTION
    from genethello.cluster.run.run_check import load_config
    for path in sorted(Path(__file__).parents[2].glob("config/*.toml")):
        flat = set(tomllib.loads(path.read_text()).get("breeding", {})) & set(BREEDING_KEY_SECTION)
        assert not flat, (path.name, flat)
        load_config(path)
    legacy = tmp_path / "legacy.toml"
    legacy.write_text('[population]\ntype = "all-2-s4"\nsize = 4\n[fitness]\ndepth = 1\n'
                      '[yardstick]\nleague_double_games = 0\n'
                      '[breeding]\nmethod = "pbt-td"\nlearning_games = 20\nlearning_exact = 4\n')
    config = load_config(legacy)
    assert (config.breeding.learning_games, config.breeding.learning_exact) == (20, 4)
