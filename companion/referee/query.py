"""Rules and cards in a URL, so every verdict has a permalink.

``?preset=italy&jokers=2&wild_cards=1o`` is the preset plus overrides, each
option by its SPEC name with a plain-text value; ``table=TOKEN`` takes the
rules of an existing table instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import or_, select

from ..extensions import db
from ..models import GameTable
from ..rules import OPTION_NAMES, PRESETS, ChinchonError, Rules, get_rules
from ..rules.variants import AUTO

_NULLS = {"null", "none", "no limit", "unlimited"}


def _typed(name: str, raw: str) -> Any:
    text = raw.strip()
    if name == "wild_cards":
        return [t for t in text.replace(",", " ").split() if t]
    if name == "joker_run_bonus":
        if text.lower() in _NULLS:
            return None
        try:
            return [int(t) for t in text.replace(",", " ").split()]
        except ValueError:
            return text
    if text.lower() in _NULLS:
        return None
    if text.lower() in ("true", "yes", "on"):
        return True
    if text.lower() in ("false", "no", "off"):
        return False
    if name == "stake":
        return text
    try:
        return int(text)
    except ValueError:
        return text


@dataclass
class RulesChoice:
    rules: Rules
    preset: str
    overrides: dict[str, Any] = field(default_factory=dict)
    error: ChinchonError | None = None
    table: GameTable | None = None
    style: str = "spanish"

    @property
    def variants(self) -> list[str]:
        """The options that really differ from the preset.  A table stores
        ``decks: "auto"`` as the number it meant for its players; that is the
        preset's own choice, not a variant."""
        base = PRESETS[self.preset] if self.preset in PRESETS else PRESETS["classic"]
        table = self.table
        out = []
        for name, value in self.overrides.items():
            if value == getattr(base, name, object()):
                continue
            auto = name == "decks" and base.decks == AUTO
            if auto and table is not None and value == base.copies(len(table.players)):
                continue
            out.append(name)
        return out

    def query(self) -> dict[str, str]:
        """The URL parameters that give these rules back."""
        out = {"preset": self.preset}
        for name, value in self.overrides.items():
            if isinstance(value, list):
                out[name] = " ".join(str(v) for v in value)
            elif value is None:
                out[name] = "null"
            elif isinstance(value, bool):
                out[name] = "true" if value else "false"
            else:
                out[name] = str(value)
        return out


def rules_from_args(args: Mapping[str, str]) -> RulesChoice:
    token = args.get("table")
    if token:
        table = db.session.scalar(
            select(GameTable).where(
                or_(GameTable.watch_token == token, GameTable.player_token == token, GameTable.owner_token == token)
            )
        )
        if table is not None:
            return RulesChoice(table.rules, table.preset, dict(table.overrides), table=table, style=table.suit_style)
    preset = args.get("preset") or "classic"
    overrides = {name: _typed(name, args[name]) for name in OPTION_NAMES if args.get(name, "").strip()}
    style = "french" if args.get("suits") == "french" or overrides.get("deck") == "french52" else "spanish"
    try:
        return RulesChoice(get_rules(preset, **overrides), preset, overrides, style=style)
    except ChinchonError as error:
        return RulesChoice(PRESETS["classic"], "classic", {}, error=error, style=style)
