"""Player names: what is stored and shown, and what two names are compared by."""

import pytest

from companion.rules.names import name_key, normalize_name

FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 👩‍👩‍👧‍👦
RAINBOW_FLAG = "\U0001f3f3\ufe0f\u200d\U0001f308"  # 🏳️‍🌈


@pytest.mark.parametrize("emoji", [FAMILY, RAINBOW_FLAG])
def test_an_emoji_sequence_stays_one_name_with_its_joiners(emoji):
    """Found by hand (#22): "👩‍👩‍👧‍👦" was stored as four separate people's faces."""
    assert normalize_name(emoji) == emoji
    assert normalize_name(f" {emoji}  Ana ") == f"{emoji} Ana"


@pytest.mark.parametrize("raw", ["Ana\u200d", "\u200dAna", "A\u200dna", "Ana\u200b", "\ufeffAna"])
def test_a_joiner_or_an_invisible_character_outside_an_emoji_is_dropped(raw):
    assert normalize_name(raw) == "Ana"


def test_names_compare_by_case_and_normal_form():
    assert name_key("ANA") == name_key("ana") == name_key(" Ana ")
    assert name_key("Jose\u0301") == name_key("José")
