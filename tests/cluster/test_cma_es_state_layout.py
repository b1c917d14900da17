"""CMA-ES's stored state is the cmaes optimizer's private attributes
(cmaes offers no public way to save and restore one exactly;
cluster/breeding/cma_es.py says why). So the layout those attributes have
in the pinned cmaes is written down here: the next cmaes release that moves
one fails this test, before any run restores a state wrongly (at run time a
state whose attributes differ from the installed cmaes's is refused)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import numpy as np
from cmaes import CMA, SepCMA

from genethello.cluster.breeding.cma_es import VARIANTS, dump_state, load_state

REPO = Path(__file__).resolve().parents[2]

#: The attributes of cmaes 0.13.1's optimizers (``vars(optimizer)``).
LAYOUT = {
    "full": ["_B", "_C", "_D", "_ESigma", "_Emean", "_VSigma", "_Vmean", "_alpha", "_beta_Sigma", "_beta_mean",
             "_bounds", "_c1", "_c_sigma", "_cc", "_chi_n", "_cm", "_cmu", "_d_sigma", "_eta_Sigma", "_eta_mean",
             "_funhist_term", "_funhist_values", "_g", "_gamma", "_lr_adapt", "_mean", "_mu", "_mu_eff", "_n_dim",
             "_n_max_resampling", "_p_sigma", "_pc", "_popsize", "_rng", "_sigma", "_tolconditioncov", "_tolfun",
             "_tolx", "_tolxup", "_weights"],
    "separable": ["_C", "_D", "_bounds", "_c1", "_c_sigma", "_cc", "_chi_n", "_cm", "_cmu", "_d_sigma",
                  "_funhist_term", "_funhist_values", "_g", "_mean", "_mu", "_mu_eff", "_n_dim", "_n_max_resampling",
                  "_p_sigma", "_pc", "_popsize", "_rng", "_sigma", "_tolconditioncov", "_tolfun", "_tolx", "_tolxup",
                  "_weights"],
}


def test_the_installed_cmaes_is_the_pinned_one():
    dependencies = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    pin = next(d for d in dependencies if d.startswith("cmaes"))
    assert re.fullmatch(r"cmaes==([\d.]+)", pin.split()[0]), pin
    assert metadata.version("cmaes") == pin.split("==")[1] == "0.13.1"


def test_the_optimizers_have_the_layout_the_stored_state_was_written_for():
    assert VARIANTS == {"full": CMA, "separable": SepCMA}
    for variant, cls in VARIANTS.items():
        assert sorted(vars(cls(mean=np.zeros(3), sigma=1.0, population_size=5))) == LAYOUT[variant], variant


def test_a_state_restores_to_the_same_samples():
    for cls in (CMA, SepCMA):
        optimizer = cls(mean=np.zeros(4), sigma=0.5, population_size=6, seed=3)
        told = [(optimizer.ask(), float(i)) for i in range(6)]
        optimizer.tell(told)
        restored = load_state(dump_state(optimizer))
        assert np.array_equal(restored.ask(), optimizer.ask())
        assert dump_state(restored) == dump_state(optimizer)
