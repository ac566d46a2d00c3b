"""A table itself: made, its rules and name changed mid-match, deleted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import update

from ..extensions import db
from ..models import GameTable, Player, PlayMode, TableKind, TurnClock
from ..rules import MatchError, MatchState, get_rules
from ..rules.match import verify_players
from ..rules.names import normalize_name
from ..rules.variants import AUTO
from .nextstep import verify_open
from .standing import HandMisfit, standing
from .unit import ServiceError, add_created, check_new_creation, claim, new_token, one_time


def create_table(
    *,
    name: str,
    preset: str,
    overrides: Mapping[str, object],
    players: Sequence[str],
    first_dealer: int,
    suit_style: str,
    rematch_of: GameTable | None = None,
    submission: str | None = None,
) -> GameTable:
    """A new table; ``decks: "auto"`` is fixed now from the number of players,
    since the pack on the table does not change when players go out.

    ``submission``: the creation form's one-time id, stored with the table.
    The same form sent again (Back, then Create) stores nothing: it raises
    :class:`AlreadySaved` carrying the owner link of the table it made."""
    check_new_creation(GameTable, submission)
    rules = get_rules(preset, **overrides)
    if not 0 <= first_dealer < len(players):
        raise ServiceError("first_dealer", "first_dealer")
    MatchState.start(players, rules)  # validates the player list against the rules
    options = dict(overrides)
    if rules.decks == AUTO:
        options["decks"] = rules.copies(len(players))
    table = GameTable(
        player_token=new_token(),
        owner_token=new_token(),
        watch_token=new_token(),
        name=name.strip(),
        preset=preset,
        overrides=options,
        suit_style=suit_style,
        first_dealer=first_dealer,
        rematch_of_id=rematch_of.id if rematch_of else None,
        submission=one_time(submission),
    )
    table.players = [Player(seat=i, name=normalize_name(n)) for i, n in enumerate(players)]
    add_created(table)
    return table


#: What may change mid-match without changing a hand already scored (a hand
#: keeps the points it was stored with): the match's options, replayed (a
#: change the hands played no longer fit is refused), and how the hands still
#: to come are scored and played.  Never the pack: the hands entered hold its cards.
MATCH_OPTIONS = ("target", "eliminate", "reentries", "reentry_min_players")
HAND_OPTIONS = (
    "court_values",
    "joker_points",
    "min_real_cards",
    "max_wilds_per_meld",
    "close_rule",
    "close_max",
    "first_round_close",
    "all_combined_bonus",
    "joker_run_bonus",
    "chinchon",
    "layoffs",
    "layoff_onto_full_close",
    "run_layoff_limit",
    "reshuffle",
    "max_reshuffles",
    "direction",
)


def changeable(table: GameTable) -> tuple[str, ...]:
    """The options the owner may change now: the match's; the hands' at a
    physical table (a digital hand in play keeps the rules it was dealt
    under); the stake until the first hand is in (then everybody has paid it)."""
    options = MATCH_OPTIONS if table.kind is TableKind.DIGITAL else MATCH_OPTIONS + HAND_OPTIONS
    return options if table.active_hands() else (*options, "stake")


def change_settings(
    table: GameTable,
    version: int | None,
    name: str,
    overrides: Mapping[str, object],
    clock: TurnClock | str | None = None,
    names: Sequence[str] | None = None,
) -> bool:
    """New rules mid-match (inside :func:`transaction`) for the options
    :func:`changeable` allows (the others are refused, ``rule_fixed``): refused
    when the hands already played would no longer replay under them.  A
    digital table on a phone each may change its turn ``clock``: from the
    next deal on (the hand in play keeps the clock it was dealt with).
    ``names``: the players' names by seat, a name typed wrong put right
    ("Calra" → "Carla"); every hand stays the seat's, so nothing is lost.  A
    tournament's table keeps the names the organizer seated.  Returns
    whether the rules changed (then every total was worked out again)."""
    verify_open(table, "name")
    if names is not None and [normalize_name(n) for n in names] != table.names:
        if table.round_id is not None:
            raise ServiceError("rename_tournament", "players")
        if len(names) != len(table.players):
            raise ServiceError("players_changed", "players")
        verify_players(list(names), table.rules)
        for player, typed in zip(table.players, names, strict=True):
            player.name = normalize_name(typed)
    fixed = next((k for k in overrides if k not in changeable(table)), None)
    if fixed is not None:
        raise ServiceError("rule_fixed", f"rules.{fixed}", option=fixed)
    options = {**table.overrides, **overrides}
    get_rules(table.preset, **options)
    rules_changed = options != table.overrides
    table.overrides = options
    try:
        standing(table)
    except HandMisfit as error:
        raise ServiceError("rules_history", "target", **error.params) from None
    except MatchError as error:
        raise ServiceError("rules_history", "target", reason=error) from None
    if clock is not None:
        if table.play_mode is not PlayMode.DEVICES:
            raise ServiceError("clock_one_phone", "clock")
        table.turn_clock = TurnClock(clock)
    table.name = normalize_name(name)
    claim(table, version)
    return rules_changed


def delete_table(table: GameTable) -> None:
    """The owner deletes a table and everything it holds; its rematch, if
    any, stays (it no longer names the table it came from)."""
    db.session.execute(
        update(GameTable)
        .where(GameTable.rematch_of_id == table.id)
        .values(rematch_of_id=None)
        .execution_options(synchronize_session=False)
    )
    db.session.delete(table)
