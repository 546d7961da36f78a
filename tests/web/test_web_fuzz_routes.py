"""Fuzzing every route of the app (hypothesis): each route is asked ``Route.examples``
requests (half as many in the suite: tests/conftest.py ``examples``) built by \
``fuzz_world.asks``: a request the route accepts, changed a little, or
one drawn field by field: wrong cards, numbers of every size and script, any text, very
long values, bytes that are not UTF-8, fields missing or sent twice, a field no form
has; sent as a form, multipart, JSON (an object, or anything else), text/plain, Latin-1
or raw bytes; through the edit link, the read-only link, a key that opens nothing, or a
game another family of pages shows; with row ids that are there, are not, or are no ids.

The answer is never a server error and never shows a Python word; a GET changes
nothing, and a POST that does not succeed (anything but a 303) changes nothing: the
whole database is compared with the dump taken before (fuzz_world.check). A test that
the app's url_map holds no route the fuzz does not know keeps a new route from going
unfuzzed.

Measured: 2,550 requests under HYPOTHESIS_PROFILE=thorough (the sum of ``Route.examples``;
the world counts every request in ``World.requests``), 1,280 in the suite; each test
asserts that its route itself answered at least a third of its requests. With
test_web_fuzz_inputs.py (about 3,800 more) the fuzz makes some 5,000 requests per run.
"""
from __future__ import annotations

import pytest
from fuzz_world import FUZZ, ROUTES, World, app_routes, ask_and_check, asks
from hypothesis import given, settings

from tests.conftest import examples


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return World(tmp_path_factory.mktemp("fuzz_routes"))


def test_every_route_of_the_app_is_fuzzed(world):
    """A route added to the app without a ``ROUTES`` entry (fuzz_world.py) fails here."""
    routes = app_routes(world.app)
    assert routes - set(ROUTES) == set(), "routes nobody fuzzes: add them to fuzz_world.ROUTES"
    assert set(ROUTES) - routes == set(), "fuzz_world.ROUTES names routes the app no longer has"


@pytest.mark.parametrize("rule", sorted(ROUTES), ids=lambda rule: f"{rule[1]} {rule[0]}")
def test_a_route_asked_anything_never_fails_and_a_refusal_changes_nothing(world, rule):
    drawn = examples(ROUTES[rule].examples)
    answered = world.hits[rule]

    @settings(FUZZ, max_examples=drawn)
    @given(ask=asks(world, rule))
    def fuzz(ask):
        ask_and_check(world, ask)

    fuzz()
    assert world.hits[rule] - answered >= drawn // 3, "the route itself was hardly reached"
