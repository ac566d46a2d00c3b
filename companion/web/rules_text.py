"""A table's rules in one readable line: the preset's name, when a player is
out, then every option set away from the preset, in the engine's order:
"Classic · out over 100 · court cards count 10 · −10 for all combined · 2 jokers"
lists the preset and target always, the rest only where it differs.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from ..models import GameTable
from ..rules import PRESETS, Rules, parse_card
from ..rules.variants import AUTO, OPTIONS
from .forms import VALUE_LABELS
from .house_rules import HOUSE_RULES, NOT_ON_FORMS, signed, value_text
from .i18n import card_name, money, preset_name, preset_title

#: Said together with another option (the target with how a player goes out,
#: the close limit with the close rule), or not a table's choice.
TOLD_ELSEWHERE = {"target", "eliminate", "close_max", *NOT_ON_FORMS}


def table_rules_line(table: GameTable) -> str:
    return rules_line(
        table.rules,
        players=len(table.players),
        style=table.suit_style,
        currency=table.group.currency if table.group else None,
    )


def rules_line(rules: Rules, *, players: int | None = None, style: str = "spanish", currency: str | None = None) -> str:
    """The preset, the target, and what differs from the preset.  ``decks``
    fixed from the number of players (as a table is made) is the preset's "auto"."""
    base, mine = PRESETS[rules.preset].to_dict(), rules.to_dict()
    same_close = mine["close_rule"] == base["close_rule"] and mine["close_max"] == base["close_max"]
    parts = [preset_title(rules.preset) if same_close else preset_name(rules.preset), target_text(rules)]
    for name in OPTIONS:
        differs = mine[name] != base[name] or (name == "close_rule" and mine["close_max"] != base["close_max"])
        if name in TOLD_ELSEWHERE or not differs:
            continue
        if name == "decks" and base[name] == AUTO and players and mine[name] == PRESETS[rules.preset].copies(players):
            continue
        parts.append(option_text(name, mine[name], rules, style=style, currency=currency))
    return " · ".join(parts)


def target_text(rules: Rules) -> str:
    if rules.eliminate == "reach":
        return _("out on reaching %(target)s", target=rules.target)
    return _("out over %(target)s", target=rules.target)


def option_text(name: str, value: Any, rules: Rules, *, style: str = "spanish", currency: str | None = None) -> str:
    """One option's value as a few words of the line (``value`` as JSON)."""
    match name, value:
        case "deck", _v:
            return str(VALUE_LABELS["deck"].get(value, value))
        case "decks", 1:
            return _("one deck")
        case "decks", 2:
            return _("two decks")
        case "decks", _v:
            return _("decks by the number of players")
        case "court_values", "ten":
            return _("court cards count 10")
        case "court_values", _v:
            return _("court cards in sequence")
        case "jokers", 0:
            return _("no jokers")
        case "jokers", n:
            return ngettext("%(num)s joker", "%(num)s jokers", n)
        case "wild_cards", []:
            return _("no wild cards")
        case "wild_cards", cards:
            names = ", ".join(card_name(parse_card(c, rules.pack), rules.deck, style) for c in cards)
            return _("wild: %(cards)s", cards=names)
        case "joker_points", n:
            return _("a joker left in hand counts %(value)s", value=signed(n))
        case "min_real_cards", n:
            return _("at least %(value)s real cards in a meld", value=n)
        case "max_wilds_per_meld", None:
            return _("any number of wild cards in a meld")
        case "max_wilds_per_meld", n:
            return _("at most %(value)s wild cards in a meld", value=n)
        case "close_rule", "one_card":
            return _("close with one loose card up to %(max)s", max=rules.close_max)
        case "close_rule", _v:
            return _("close with loose cards up to %(max)s", max=rules.close_max)
        case "first_round_close", True:
            return _("closing from the first round")
        case "first_round_close", _v:
            return _("no closing in the first round")
        case "all_combined_bonus", n:
            return _("%(value)s for all combined", value=signed(n))
        case "joker_run_bonus", None:
            return _("no bonus for a run with a joker")
        case "joker_run_bonus", scores:
            return _("%(value)s for a seven-card run with a joker", value=" / ".join(signed(s) for s in scores))
        case "chinchon", "wins_match":
            return _("a Chinchón wins the match")
        case "chinchon", "none":
            return _("a Chinchón counts as all combined")
        case "chinchon", n:
            return _("a Chinchón scores %(value)s", value=signed(n))
        case "layoffs", "all":
            return _("laying off onto every meld")
        case "layoffs", "closer_only":
            return _("laying off onto the closer's melds only")
        case "layoffs", _v:
            return _("no laying off")
        case "layoff_onto_full_close", True:
            return _("laying off onto an all-combined close")
        case "layoff_onto_full_close", _v:
            return _("no laying off onto an all-combined close")
        case "run_layoff_limit", None:
            return _("no limit on cards laid off onto a run")
        case "run_layoff_limit", "two_decks":
            return _("one card a turn onto a run with two decks")
        case "run_layoff_limit", n:
            return ngettext("at most %(num)s card a turn onto a run", "at most %(num)s cards a turn onto a run", n)
        case "reentries", None:
            return _("unlimited re-entries")
        case "reentries", 0:
            return _("no re-entry")
        case "reentries", n:
            return ngettext("%(num)s re-entry per player", "%(num)s re-entries per player", n)
        case "reentry_min_players", n:
            return _("re-entry while %(value)s are still in", value=n)
        case "stake", amount:
            return _("stake %(amount)s", amount=money(amount, currency))
        case "reshuffle", "all":
            return _("reshuffle every discard")
        case "reshuffle", _v:
            return _("reshuffle keeping the top discard")
        case "max_reshuffles", None:
            return _("unlimited reshuffles")
        case "max_reshuffles", 0:
            return _("void when the stock runs out")
        case "max_reshuffles", n:
            return ngettext("void after %(num)s reshuffle", "void after %(num)s reshuffles", n)
        case "direction", "clockwise":
            return _("clockwise")
        case "direction", _v:
            return _("counterclockwise")
    return f"{HOUSE_RULES[name].label}: {value_text(name, value)}"  # an option newer than this list
