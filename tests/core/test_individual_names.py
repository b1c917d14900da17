"""Names that are found (issue 38): a shipped network, a network file, a
chromosome and a database id resolve through one function
(``individual_names.resolve_individual``); a name none of them is gets the
closest known names, not a chromosome's format error."""

from __future__ import annotations

import pytest

from genethello.core.families.individual_names import UnknownPlayerError, closest_names, resolve_individual
from genethello.core.families.network_files import write_network_file


def test_each_kind_of_name_resolves_through_the_one_function(tmp_path):
    searcher = resolve_individual("pbt-td-searcher")
    assert str(searcher).startswith("all-4+2x2-s8_")
    assert str(resolve_individual(str(searcher))) == str(searcher)          # its text names it too
    path = tmp_path / "copy.json"
    write_network_file(searcher, path)
    assert str(resolve_individual(str(path))) == str(searcher)
    assert str(resolve_individual("p_1_10")) == "p_1_10"
    seen = []
    found = resolve_individual("17", "runs.db", lambda db, key: seen.append((db, key)) or ("p_1_10", None))
    assert str(found) == "p_1_10" and seen == [("runs.db", 17)]


@pytest.mark.parametrize("typed, said", [
    ("pbt-td-search", "unknown player 'pbt-td-search'; did you mean pbt-td-searcher?"),
    ("all-2-leage", "unknown player 'all-2-leage'; did you mean all-2-league"),
    ("nothing-like-it", "unknown player 'nothing-like-it': not a shipped network (all-2-coevolved, "),
])
def test_a_name_nothing_resolves_gets_the_closest_known_names(typed, said):
    with pytest.raises(UnknownPlayerError) as caught:
        resolve_individual(typed)
    assert str(caught.value).startswith(said), caught.value
    assert "chromosome: expected TYPE_BIRTH_GENES" not in str(caught.value)


def test_a_chromosome_with_a_wrong_gene_keeps_its_precise_error():
    with pytest.raises(ValueError, match="type oe_fmc needs 11 genes"):
        resolve_individual("oe_fmc_1_14")
    assert closest_names("patterns-v2") == ["patterns-v2-net"]
