"""Referee helpers: other legal discards, cards that would allow a close,
and lay-offs that fit a meld but a rule refuses."""

from companion.rules import get_rules, parse_cards, settle_hand
from companion.rules.close import legal_discards
from companion.rules.settle import refused_layoffs

classic = get_rules("classic")


def test_german_seed_only_the_rey_de_espadas_may_go_face_down():
    choices = legal_discards(parse_cards("11c 11e 11b 5o 6o 7o 3c 12e"), classic)
    assert [(str(c.discard), c.verdict.score) for c in choices] == [("12e", 3)]


def test_fournier_several_discards_are_legal_best_first():
    choices = legal_discards(parse_cards("2o 3o 4o 5o 6o 1c 2e 1b"), get_rules("fournier"))
    assert [(str(c.discard), c.verdict.score) for c in choices] == [
        ("2e", 2),
        ("1b", 3),
        ("1c", 3),
        ("2o", 4),
        ("6o", 4),
    ]


def settle(hands, rules):
    parsed = [parse_cards(h, rules.pack) for h in hands]
    result = settle_hand(parsed, rules)
    return result, [(r.player, str(r.card), r.owner, r.meld, r.rule) for r in refused_layoffs(parsed, rules, result)]


def test_refused_onto_a_full_close():
    _, refused = settle(["1c 2c 3c 4c 10e 11e 12e 7o", "5c 6o 6c 6e 12b 11b 3o"], classic)
    assert refused == [(1, "5c", 0, 1, "full_close")]
    _, refused = settle(
        ["1c 2c 3c 4c 10e 11e 12e 7o", "5c 6o 6c 6e 12b 11b 3o"], get_rules(layoff_onto_full_close=True)
    )
    assert refused == []


def test_refused_by_the_swedish_no_layoff_rule():
    _, refused = settle(["5o 6o 7o 12c 12e 12b 8b 4o", "8o 9o 3c 3e 3b 1e 2e"], get_rules("sweden"))
    assert refused == [(1, "8o", 0, 1, "no_layoffs")]


def test_refused_by_the_closer_only_variant():
    hands = ["1c 2c 3c 10e 11e 12e 2b 7o", "6o 6c 6e 12b 11b 5b 3o", "6b 10o 11o 1b 5e 3e 2o"]
    _, refused = settle(hands, get_rules(layoffs="closer_only"))
    assert refused == [(2, "6b", 1, 0, "closer_only")]


def test_refused_by_the_italian_one_card_per_run():
    hands = [
        "5o 6o 7o 1c 1e 1b 2c 12e",
        "4o 3o 12b 11b 10c 2e 7c",
        "2b 11c 11o 3e 6c 4b 7e",
        "1o 12o 10b 5c 7b 6b 4c",
        "3c 4e 5e 6e 1c 10o 12b",
    ]
    _, refused = settle(hands, get_rules("italy"))
    assert [x for x in refused if x[4] != "not_yet"] == [(1, "3o", 0, 0, "run_limit")]
    # The others are loose cards that fit a meld of a player who showed later.
    assert all(x[2] > x[0] for x in refused if x[4] == "not_yet")


def test_a_card_fitting_a_meld_shown_later_stays_loose_german_rules():
    """The German rulebook: after the close each player shows in turn and lays
    off onto the melds already on the table.  Dani shows before Ana: her 6e
    fits Ana's three 6s, which were not on the table yet, so it counts (16
    points, not 10); said as ``not_yet``, with Ana's meld named."""
    hands = ["1o 2o 3o 4o 10c 11c 12c 2e", "6e 2c 3c 5c 12b 11b 10b", "6o 6c 6b 1b 2b 3b 7e"]
    result, refused = settle(hands, classic)
    assert result.results is not None and result.results[1].points == 16
    assert refused == [(1, "6e", 2, 0, "not_yet")]
    # Shown the other way round (Ana first), Ana's 7e has nowhere to go and Dani's 6e is laid off.
    result, refused = settle([hands[0], hands[2], hands[1]], classic)
    assert result.results is not None and result.results[2].points == 10 and refused == []


def test_a_meld_shown_later_is_not_the_reason_where_only_the_closers_melds_take_lay_offs():
    """With lay-offs onto the closer's melds only, Dani's 6 could never go on
    Ana's 6s: the turn is not the reason, and nothing is said about it."""
    hands = ["1o 2o 3o 4o 10c 11c 12c 2e", "6e 2c 3c 5c 12b 11b 10b", "6o 6c 6b 1b 2b 3b 7e"]
    _, refused = settle(hands, get_rules(layoffs="closer_only"))
    assert [x for x in refused if x[4] == "not_yet"] == []
