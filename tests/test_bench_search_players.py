"""benchmarks/experiment_search_players.py: every arm of the breeding
experiment (docs/networks.md) is a config the run accepts, its overrides
in force. The configs moved a method's keys into ``[breeding.pbt-td]``
after the first experiment; an arm that wrote them flat beside the
section would be refused as a key set twice."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from genethello.cluster.run.run_check import load_config

ROOT = Path(__file__).resolve().parents[1]


def _experiment():
    spec = importlib.util.spec_from_file_location("experiment_search_players",
                                                  ROOT / "benchmarks" / "experiment_search_players.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXPERIMENT = _experiment()


@pytest.mark.parametrize("label", list(EXPERIMENT.ARMS))
def test_every_arm_is_a_config_the_run_accepts_with_its_overrides(label, tmp_path):
    base, overrides = EXPERIMENT.ARMS[label]
    path = tmp_path / "arm.toml"
    EXPERIMENT.write_config(base, overrides, 7, path)
    config = load_config(path)
    assert config.seed == 7 and config.stop.max_generations == 100_000
    for section, values in overrides.items():
        for key, value in values.items():
            assert getattr(getattr(config, section), key) == value, (section, key)


def test_the_parts_arms_differ_from_todays_config_by_their_part_alone(tmp_path):
    configs = {}
    for label in ("pbt-td from zero (all-4+2x2-s8)", "part 4: exact targets", "part 5: ready, floors, gate"):
        path = tmp_path / f"{EXPERIMENT.slug(label, 1)}.toml"
        EXPERIMENT.write_config(*EXPERIMENT.ARMS[label], 1, path)
        configs[label] = load_config(path)
    today = configs["pbt-td from zero (all-4+2x2-s8)"]
    assert today.breeding.learning_exact_targets == 0 and today.hall.gate_pairs == 0
    assert configs["part 4: exact targets"].breeding.learning_exact_targets == 12
    assert configs["part 4: exact targets"].fitness == today.fitness
    part5 = configs["part 5: ready, floors, gate"]
    assert (part5.breeding.ready_slices, part5.hall.gate_pairs) == (3, 50)
    assert part5.fitness == today.fitness and part5.breeding.learning_exact_targets == 0
