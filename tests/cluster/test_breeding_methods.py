"""Random search, the GA's baseline, and the config keys of the second pass
(breeding.method, hall.games_per_member, the yardstick's budgets)."""

from __future__ import annotations

import numpy as np
import pytest

from genethello.cluster.config import BreedingConfig, ConfigError, config_from_mapping
from genethello.cluster.population import first_population, next_population
from genethello.core.chromosome import Chromosome, ChromosomeType

FDMXCP = ChromosomeType.parse("fdmxcp")


def test_random_search_keeps_the_elites_and_draws_everyone_else_afresh():
    ranked = first_population(FDMXCP, 12, seed=3)
    config = BreedingConfig(elites=2, method="random-search")
    new = next_population(ranked, 12, 5, config, np.random.default_rng(1))
    assert new[:2] == ranked[:2]
    assert len({c.genes for c in new}) == 12
    assert all(c.birth == 5 for c in new[2:])
    assert not {c.genes for c in new[2:]} & {c.genes for c in ranked}
    again = next_population(ranked, 12, 5, config, np.random.default_rng(1))
    assert again == new


def test_random_search_keeps_an_absent_injected_chromosome():
    ranked = first_population(FDMXCP, 6, seed=3)
    star = Chromosome.parse("fdmxcp_1_0:0:10:0:0:10")
    new = next_population(ranked, 6, 2, BreedingConfig(elites=1, method="random-search"),
                          np.random.default_rng(0), injected=[star, ranked[0]])
    assert new[0] == ranked[0] and new[1] == star and len(new) == 6


def test_ga_and_random_search_breed_differently_from_the_same_ranking():
    ranked = first_population(FDMXCP, 12, seed=3)
    ga = next_population(ranked, 12, 2, BreedingConfig(elites=2), np.random.default_rng(1))
    rs = next_population(ranked, 12, 2, BreedingConfig(elites=2, method="random-search"), np.random.default_rng(1))
    assert ga[:2] == rs[:2] and ga != rs


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

    from genethello.cluster.coordinator import read_chromosome_file

    shipped = read_chromosome_file(Path(__file__).parents[2] / "config" / "strong-best.txt")
    assert len(shipped) == 8 and all(c.type == FDMXCP for c in shipped)
    bad = tmp_path / "initial.txt"
    bad.write_text("# comment\nfdmxcp_1_0:0:0:0:0:10   # p only\n\nfdmxcp_1_0:0:0:0:0:99\n")
    with pytest.raises(ValueError, match=r"initial\.txt:4: "):
        read_chromosome_file(bad)
    with pytest.raises(ValueError, match="cannot read"):
        read_chromosome_file(tmp_path / "missing.txt")
