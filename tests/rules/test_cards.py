"""SPEC §1: card notation, aliases, decks."""

import pytest

from companion.rules import FRENCH52, JOKER, SPANISH40, SPANISH48, Card, CardError, Suit, parse_card, parse_cards
from companion.rules.cards import short_label


def test_canonical_tokens_round_trip_for_every_card_of_every_deck():
    for deck in (SPANISH40, SPANISH48, FRENCH52):
        for card in deck.cards():
            assert parse_card(str(card), deck) == card
            assert deck.card_of(deck.card_id(card)) == card
    assert str(parse_card("*", SPANISH40)) == "*"


def test_suit_symbols_and_letters_case_and_spaces():
    assert parse_card(" 5♦ ", SPANISH40) == Card(5, Suit.OROS)
    assert parse_card("5O", SPANISH40) == Card(5, Suit.OROS)
    assert parse_card("12♥", SPANISH40) == Card(12, Suit.COPAS)
    assert parse_card("7♠", SPANISH40) == Card(7, Suit.ESPADAS)
    assert parse_card("1♣", SPANISH40) == Card(1, Suit.BASTOS)


def test_caballo_de_copas_is_Cc_in_spanish_decks():
    # SPEC §1: "Cc is the caballo de copas"
    assert parse_card("Cc", SPANISH40) == Card(11, Suit.COPAS)
    assert parse_card("cc", SPANISH48) == Card(11, Suit.COPAS)


def test_letters_follow_the_chosen_deck():
    assert [str(c) for c in parse_cards("A♦ S♦ C♦ R♦ J♦ B♦ Q♦ D♦ K♦", SPANISH40)] == [
        "1o",
        "10o",
        "11o",
        "12o",
        "10o",
        "10o",
        "11o",
        "11o",
        "12o",
    ]
    assert [str(c) for c in parse_cards("A♥ J♥ Q♥ K♥ B♥ D♥ R♥", FRENCH52)] == [
        "1c",
        "11c",
        "12c",
        "13c",
        "11c",
        "12c",
        "13c",
    ]


def test_cards_outside_the_deck_are_refused_with_their_position():
    with pytest.raises(CardError) as error:
        parse_cards("1o 2o 8o", SPANISH40)
    assert error.value.field == "cards[2]"
    assert (error.value.code, error.value.params) == ("card", {"token": "8o", "deck": "spanish40"})
    with pytest.raises(CardError):
        parse_card("13o", SPANISH48)
    assert parse_card("8o", SPANISH48) == Card(8, Suit.OROS)


@pytest.mark.parametrize("token", ["", "5", "5x", "xo", "14o", "0o", "99b", "5oo", "joker!", 5, None])
def test_garbage_tokens_get_a_clear_error(token):
    with pytest.raises(CardError) as error:
        parse_card(token, SPANISH40, "cards[0]")
    assert error.value.field == "cards[0]"
    assert str(error.value)


def test_cards_order_by_rank_then_suit_and_the_joker_is_truthy():
    assert sorted(parse_cards("12b 1c 1o 5e")) == parse_cards("1o 1c 5e 12b")
    assert JOKER and JOKER.is_joker and JOKER.suit is None


def test_short_labels_use_the_deck_style():
    assert short_label(Card(12, Suit.COPAS), SPANISH40) == "12♥"
    assert short_label(Card(13, Suit.COPAS), FRENCH52) == "K♥"
    assert short_label(Card(1, Suit.BASTOS), FRENCH52) == "A♣"
