"""Ratings (services/ratings.py) against openskill itself, and the
invariants any rating must keep, over made-up seasons (hypothesis)."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from companion.services.ratings import Rating, Result, ranked, rate, win_chances

POOL = ["Ana", "Ben", "Carla", "Dani", "Eva", "Fede"]
START = datetime(2026, 1, 2, 21, 0)


@st.composite
def results(draw) -> list[Result]:
    """A season: each match 2–5 players of the pool, each given a place (ties allowed)."""
    season = []
    for i in range(draw(st.integers(1, 12))):
        players = draw(st.lists(st.sampled_from(POOL), min_size=2, max_size=5, unique=True))
        places = draw(st.lists(st.integers(1, len(players)), min_size=len(players), max_size=len(players)))
        season.append(Result(START + timedelta(days=7 * i), i + 1, dict(zip(players, places, strict=True))))
    return season


def by_hand(season: list[Result]) -> dict[str, tuple[float, float, int]]:
    """Sequential openskill, straight from the library: name → (μ, σ, matches)."""
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    counts: dict[str, int] = {}
    for result in season:
        names = list(result.places)
        teams = [[ratings.get(n) or model.rating()] for n in names]
        for name, (after,) in zip(names, model.rate(teams, ranks=list(result.places.values())), strict=True):
            ratings[name] = after
            counts[name] = counts.get(name, 0) + 1
    return {n.lower(): (r.mu, r.sigma, counts[n]) for n, r in ratings.items()}


@settings(max_examples=60, deadline=None)
@given(results())
def test_ratings_are_openskills_plackett_luce_played_in_order(season):
    got = rate(season)
    assert {k: (r.mu, r.sigma, r.matches) for k, r in got.items()} == by_hand(season)
    for rating in got.values():
        assert [h[0] for h in rating.history] == sorted(h[0] for h in rating.history)
        assert rating.history[-1][2] == rating.ordinal
        assert abs(sum(h[3] for h in rating.history) - rating.ordinal) < 1e-9  # the changes add up from 0
        assert 1 <= rating.level <= 10


@settings(max_examples=60, deadline=None)
@given(results(), st.randoms(use_true_random=False))
def test_the_order_players_are_listed_in_a_match_changes_nothing(season, rnd):
    shuffled = []
    for result in season:
        items = list(result.places.items())
        rnd.shuffle(items)
        shuffled.append(Result(result.played_at, result.table_id, dict(items)))
    before, after = rate(season), rate(shuffled)
    for key, rating in before.items():
        assert abs(rating.mu - after[key].mu) < 1e-9 and abs(rating.sigma - after[key].sigma) < 1e-9


@settings(max_examples=60, deadline=None)
@given(results())
def test_a_sole_winner_gains_and_a_sole_last_loses_in_every_match(season):
    seen: dict[str, Rating] = {}
    for result in season:
        was = {n: (seen[n.lower()].mu if n.lower() in seen else 25.0) for n in result.places}
        seen = rate(season[: season.index(result) + 1])
        places = list(result.places.values())
        first, last = min(places), max(places)
        for name, place in result.places.items():
            now = seen[name.lower()].mu
            if place == first and places.count(first) == 1:
                assert now > was[name]
            if place == last and places.count(last) == 1:
                assert now < was[name]  # (a shared place may go either way: it is a draw among them)


@settings(max_examples=60, deadline=None)
@given(results(), st.lists(st.sampled_from([*POOL, "Newcomer"]), min_size=2, max_size=5, unique=True))
def test_chances_sum_to_one_and_follow_the_ratings(season, players):
    ratings = rate(season)
    chances = win_chances(ratings, players)
    if not any(n.lower() in ratings for n in players):
        assert chances is None
        return
    assert chances is not None and list(chances) == players
    assert abs(sum(chances.values()) - 1) < 1e-9 and all(0 < c < 1 for c in chances.values())
    for a, b in itertools.combinations(players, 2):
        ra, rb = ratings.get(a.lower()), ratings.get(b.lower())
        if ra and rb and (ra.mu, ra.sigma) == (rb.mu, rb.sigma):
            assert abs(chances[a] - chances[b]) < 1e-9


def test_the_list_is_best_first_by_the_conservative_estimate():
    season = [Result(START, 1, {"Ana": 1, "Ben": 2, "Carla": 3}), Result(START, 2, {"Ana": 1, "Carla": 2})]
    order = ranked(rate(season))
    assert [r.ordinal for r in order] == sorted((r.ordinal for r in order), reverse=True)
    assert order[0].name == "Ana"


def test_a_newcomer_starts_at_level_5_rating_0_provisional():
    newcomer = Rating("Ana")
    assert (newcomer.level, round(newcomer.ordinal, 9), newcomer.provisional) == (5, 0, True)
