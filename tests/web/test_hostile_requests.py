"""Hostile requests to `genethello serve` (issue 30 §5): each gets a 4xx
with one line naming what was wrong, never a 500."""

from __future__ import annotations

import pytest

from ..cluster.hostile_db import new_run
from .conftest import Server
from .test_api import api


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A server on a finished small run."""
    srv = Server(new_run(tmp_path_factory.mktemp("hostile-web")))
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.parametrize(("path", "error"), [
    ("/api/runs/\u00b2", "run must be a non-negative whole number, got '²'"),
    ("/api/runs/1/games?generation=\u00b2", "generation must be a non-negative whole number, got '²'"),
    ("/api/runs/1/games/\u00b9\u00b2", "game must be a non-negative whole number, got '¹²'"),
    ("/api/runs/" + "9" * 30, "run must be a non-negative whole number, got '" + "9" * 30 + "'"),
])
def test_superscript_digits_and_huge_ids_in_a_path_are_a_400(served, path, error):
    from urllib.parse import quote

    status, answer = api(served, "GET", quote(path, safe="/?="))
    assert status == 400 and answer["error"] == error, (status, answer)


def test_a_deeply_nested_body_is_a_400(served):
    status, answer = api(served, "POST", "/api/chromosome", raw=b"[" * 8000 + b"]" * 8000)
    assert status == 400 and answer["error"] == "the request body is nested too deeply", (status, answer)


@pytest.mark.parametrize(("chromosome", "error"), [
    ("9" * 30, "no player with id " + "9" * 30 + " in /"),
    ("\u00b2", "chromosome: expected TYPE_BIRTH_GENES (e.g. 'fmc_3_1:2:3'), got 1 part(s) in '²'"),
])
def test_a_30_digit_or_superscript_chromosome_id_is_a_400(served, chromosome, error):
    status, answer = api(served, "POST", "/api/chromosome", {"chromosome": chromosome})
    assert status == 400 and error in answer["error"], (status, answer)
