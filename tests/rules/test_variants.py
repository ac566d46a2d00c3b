"""SPEC §7: presets, overrides and option validation."""

import pytest

from companion.rules import PRESETS, RulesError, get_rules, rules_from_json
from companion.rules.variants import OPTION_NAMES

SPEC_TABLE = {
    # option: (classic, fournier, sweden, italy), straight from SPEC §7
    "deck": ("spanish40", "spanish40", "spanish48", "spanish40"),
    "decks": ("auto", "auto", 1, "auto"),
    "min_players": (2, 2, 2, 2),
    "max_players": (8, 8, 6, 8),
    "court_values": ("sequence", "sequence", "ten", "sequence"),
    "jokers": (0, 0, 0, 0),
    "wild_cards": ([], [], [], []),
    "joker_points": (25, 25, 25, 25),
    "min_real_cards": (2, 2, 2, 2),
    "max_wilds_per_meld": (None, None, None, None),
    "close_rule": ("one_card", "points", "points", "points"),
    "close_max": (4, 5, 5, 5),
    "first_round_close": (False, False, True, True),
    "all_combined_bonus": (-10, -10, -10, -10),
    "joker_run_bonus": ([-50, -25], [-50, -25], None, None),
    "chinchon": ("wins_match", "wins_match", "wins_match", "none"),
    "layoffs": ("all", "all", "none", "all"),
    "layoff_onto_full_close": (False, False, False, False),
    "run_layoff_limit": (None, None, None, "two_decks"),
    "target": (100, 100, 100, 100),
    "eliminate": ("over", "over", "over", "over"),
    "reentries": (1, 1, 1, None),
    "reentry_min_players": (3, 3, 3, 2),
    "stake": (0, 0, 0, 0),
    "reshuffle": ("keep_top", "keep_top", "keep_top", "all"),
    "max_reshuffles": (None, None, None, None),
    "direction": ("counterclockwise", "counterclockwise", "counterclockwise", "clockwise"),
}


@pytest.mark.parametrize("index,preset", list(enumerate(["classic", "fournier", "sweden", "italy"])))
def test_presets_match_the_spec_table(index, preset):
    resolved = PRESETS[preset].to_dict()
    assert set(resolved) == set(SPEC_TABLE) == set(OPTION_NAMES)
    for option, values in SPEC_TABLE.items():
        assert resolved[option] == values[index], option


def test_overriding_close_rule_alone_resets_close_max():
    assert get_rules("classic", close_rule="points").close_max == 5
    assert get_rules("fournier", close_rule="one_card").close_max == 4
    assert get_rules("classic", close_rule="points", close_max=7).close_max == 7


def test_common_table_variants_from_the_spec():
    assert get_rules("classic", jokers=2).jokers == 2
    assert [str(c) for c in get_rules(wild_cards=["A♦"]).wild_cards] == ["1o"]
    assert get_rules(target=70).target == 70
    assert get_rules(deck="french52", jokers=2).pack.name == "french52"
    assert get_rules(max_wilds_per_meld=1).max_wilds_per_meld == 1
    assert get_rules(chinchon=-100).chinchon == -100
    assert rules_from_json({"preset": "italy", "stake": 0.5}).to_dict()["stake"] == 0.5
    assert rules_from_json(None) == PRESETS["classic"]


def test_two_decks_auto_by_player_count():
    rules = get_rules("classic")
    assert [rules.copies(n) for n in (2, 4, 5, 8)] == [1, 1, 2, 2]
    assert rules.copies(None) == 2  # unknown player count: allow two copies
    assert get_rules("sweden").copies(6) == 1
    assert get_rules("italy").run_limit(5) == 1 and get_rules("italy").run_limit(4) is None


@pytest.mark.parametrize(
    "options,field",
    [
        ({"preset": "argentina"}, "rules.preset"),
        ({"jokerz": 2}, "rules.jokerz"),
        ({"jokers": -1}, "rules.jokers"),
        ({"jokers": 5}, "rules.jokers"),
        ({"jokers": True}, "rules.jokers"),
        ({"jokers": "2"}, "rules.jokers"),
        ({"close_rule": "two_cards"}, "rules.close_rule"),
        ({"deck": "tarot"}, "rules.deck"),
        ({"decks": 3}, "rules.decks"),
        ({"min_real_cards": 0}, "rules.min_real_cards"),
        ({"min_real_cards": 4}, "rules.min_real_cards"),
        ({"close_max": -1}, "rules.close_max"),
        ({"target": 0}, "rules.target"),
        ({"reentries": -1}, "rules.reentries"),
        ({"reentry_min_players": 1}, "rules.reentry_min_players"),
        ({"min_players": 1}, "rules.min_players"),
        ({"min_players": 6, "max_players": 4}, "rules.min_players"),
        ({"stake": -1}, "rules.stake"),
        ({"stake": "lots"}, "rules.stake"),
        ({"stake": "NaN"}, "rules.stake"),
        ({"run_layoff_limit": 0}, "rules.run_layoff_limit"),
        ({"max_wilds_per_meld": 0}, "rules.max_wilds_per_meld"),
        ({"wild_cards": ["8o"]}, "rules.wild_cards"),
        ({"wild_cards": ["*"]}, "rules.wild_cards"),
        ({"wild_cards": "1o"}, "rules.wild_cards"),
        ({"joker_run_bonus": [1, 2, 3]}, "rules.joker_run_bonus"),
        ({"chinchon": "always"}, "rules.chinchon"),
        ({"chinchon": True}, "rules.chinchon"),
        ({"first_round_close": "yes"}, "rules.first_round_close"),
        ({"eliminate": "under"}, "rules.eliminate"),
        ({"direction": "up"}, "rules.direction"),
        ({"max_reshuffles": -1}, "rules.max_reshuffles"),
        ({"max_reshuffles": "2"}, "rules.max_reshuffles"),
        ({"max_reshuffles": 1.5}, "rules.max_reshuffles"),
    ],
)
def test_bad_options_name_their_field(options, field):
    with pytest.raises(RulesError) as error:
        rules_from_json(options)
    assert error.value.field == field
    assert str(error.value)


def test_rules_object_must_be_an_object():
    with pytest.raises(RulesError) as error:
        rules_from_json(["classic"])
    assert error.value.field == "rules"


def test_null_counts_as_absent_where_null_is_not_a_value():
    assert rules_from_json({"jokers": None}).jokers == 0
    assert rules_from_json({"reentries": None}).reentries is None  # null is a value here: unlimited
    assert rules_from_json({"preset": "italy", "max_reshuffles": None}).max_reshuffles is None
    assert rules_from_json({"max_reshuffles": 0}).max_reshuffles == 0


def test_card_values_sequence_and_ten():
    from companion.rules import parse_cards

    classic = get_rules("classic")
    assert [classic.value(c) for c in parse_cards("1o 7o 10o 11o 12o")] == [1, 7, 8, 9, 10]
    ten = get_rules("classic", court_values="ten")
    assert [ten.value(c) for c in parse_cards("10o 11o 12o")] == [10, 10, 10]
    french = get_rules(deck="french52")
    assert [french.value(c) for c in parse_cards("10o 11o 12o 13o", "french52")] == [10, 11, 12, 13]
    assert get_rules(jokers=1, joker_points=30).value(parse_cards("*")[0]) == 30
