"""Every sentence the web shows for a refusal, in the page's language.

The engine and the services refuse with a code (``error.code``), a key
(``error.params["key"]``) and numbers; this module alone words them.  Views
never re-check a rule to find out what to say.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from flask_babel import gettext as _
from flask_babel import ngettext

from ..rules import ChinchonError
from ..rules.close import Reason
from .i18n import money, number


@dataclass(frozen=True, slots=True)
class FormError:
    """A refusal shown on a form: the field it is about and the sentence."""

    field: str
    message: str

    @classmethod
    def of(cls, error: ChinchonError) -> FormError:
        return cls(error.field, error_text(error))


class Stale(StrEnum):
    """What a write that lost the race against another phone was about."""

    TABLE = "table"  # a table's score: a hand, a correction, an undo, a buy-back, its settings
    GAME = "game"  # a move in a digital game
    VOID = "void"  # voiding the hand in play
    TOURNAMENT = "tournament"  # the organizer's dashboard
    GROUP = "group"


def stale_text(what: Stale = Stale.TABLE) -> str:
    """A write that lost the race against another phone: nothing was changed."""
    match what:
        case Stale.GAME:
            return _("That move came too late: the game had moved on. Here is where it stands.")
        case Stale.VOID:
            return _("The hand had moved on, so nothing was voided. Look again, and void it if the table still agrees.")
        case Stale.TOURNAMENT:
            return _("Somebody just changed this tournament; here is how it stands now. Nothing was changed.")
    return _("Someone else changed this table a moment ago; here is the current score. Nothing was changed.")


class Replayed(StrEnum):
    """What a form sent again (a retry, a double tap) had already stored."""

    HAND = "hand"
    REENTRY = "reentry"
    PAYMENT = "payment"
    #: A creation form sent again (Back, then Create): its sender is led to what it made.
    TABLE = "table"
    TOURNAMENT = "tournament"
    GROUP = "group"
    OTHER = "other"


def replayed_text(what: Replayed) -> str:
    match what:
        case Replayed.TABLE:
            return _("This table was already created: here it is.")
        case Replayed.TOURNAMENT:
            return _("This tournament was already created: here it is.")
        case Replayed.GROUP:
            return _("This group was already created: here it is.")
        case Replayed.HAND:
            return _("This hand was already saved.")
        case Replayed.REENTRY:
            return _("That re-entry was already recorded.")
        case Replayed.PAYMENT:
            return _("That payment was already recorded.")
    return _("That was already done; nothing was changed.")


class Unconfirmed(StrEnum):
    """A form that changes much at once, sent without ticking its confirmation."""

    DELETE_TABLE = "delete_table"
    NEW_SEASON = "new_season"
    CLOSE_TABLE = "close_table"
    DELETE_TOURNAMENT = "delete_tournament"


def unconfirmed_text(what: Unconfirmed) -> str:
    match what:
        case Unconfirmed.DELETE_TABLE:
            return _("Tick the box to confirm deleting the table.")
        case Unconfirmed.NEW_SEASON:
            return _("Tick the box to confirm the new season.")
        case Unconfirmed.CLOSE_TABLE:
            return _("Tick the box to confirm: the table ends with its standing now.")
    return _("Tick the box to confirm: the tournament and all its tables are deleted.")


def outage_text(*, hand: bool) -> str:
    """The database out of reach (a restart): nothing was changed."""
    if hand:
        return _("The hand could not be saved: the server cannot reach its records right now. Nothing was stored.")
    return _("The server cannot reach its records right now. Nothing was changed; try again in a moment.")


def review_waits_text() -> str:
    """A read-only link asking for a hand's review before the match is over."""
    return _("A read-only link shows the review of each hand once the match is over.")


def reentry_refused_text(reason: str) -> str:
    return _("Re-entry refused: %(reason)s", reason=reason)


def incomplete_text() -> str:
    """A form that lacks what the app's own pages always send."""
    return _("That request was incomplete; nothing was changed.")


def expired_text() -> str:
    """A form whose hidden fields (its version, its CSRF token) did not come back."""
    return _("This form has expired. Please send it again.")


def reason_text(reason: Reason | None) -> str:
    """Why a close is not legal."""
    if reason is None:
        return ""
    p = reason.params
    match reason.code:
        case "first_round":
            return _("Nobody may close before every player has had a turn (first round).")
        case "one_card_many":
            return _(
                "%(count)s loose cards worth %(points)s; these rules allow at most one loose card worth %(max)s or less.",
                **p,
            )
        case "one_card_high":
            return _("The loose card is worth %(points)s; these rules allow one loose card worth %(max)s or less.", **p)
        case "points_high":
            return _("The loose cards are worth %(points)s; these rules allow at most %(max)s points.", **p)
    return reason.text


def over_limit_text(reason: Reason | None) -> str:
    """How far a refused close is from closing: the engine's reason carries it
    (``too_many`` loose cards, or ``over`` points above the limit)."""
    if reason is None:
        return ""
    p = reason.params
    if reason.code == "one_card_many":
        return ngettext("%(num)s loose card too many.", "%(num)s loose cards too many.", p["too_many"])
    if reason.code in ("one_card_high", "points_high"):
        return ngettext("%(num)s point over the limit.", "%(num)s points over the limit.", p["over"])
    return ""


def error_text(error: ChinchonError) -> str:
    """An engine or service refusal in the page's language (the English text as a fallback)."""
    p = error.params
    key = p.get("key")
    match error.code, key, p:
        case "card", _k, {"token": token, "deck": deck} if "copies" not in p:
            return _("%(card)s is not in the %(deck)s deck.", card=token, deck=deck)
        case "card", _k, {"token": "*", "copies": copies}:
            return _("Only %(count)s jokers in the pack; this is one too many.", count=copies)
        case "card", _k, {"token": token, "copies": 1}:
            return _("%(card)s appears twice, but the pack has only one.", card=token)
        case "card", _k, {"token": token, "copies": copies}:
            return _("%(card)s appears more often than the pack has (%(count)s).", card=token, count=copies)
        case "card", _k, {"token": "*"}:
            return _("These rules play without jokers.")
        case "card", _k, {"token": token}:
            return _("'%(card)s' is not a card.", card=token)
        case "count", "players_count", {"count": count, "low": low, "high": high}:
            if count < low:
                return ngettext("Add at least %(num)s player.", "Add at least %(num)s players.", low)
            return _("These rules are for %(low)s to %(high)s players.", low=low, high=high)
        case "count", _k, {"count": count}:
            return _("Wrong number of cards: %(count)s.", count=count)
        case _c, "name_missing", _p:
            return _("Each player needs a name.")
        case _c, "name_long", {"high": high}:
            return _("A player's name has at most %(count)s characters.", count=high)
        case _c, "name_twice", {"name": name} if error.field == "members":
            return _("Two members are called %(name)s; give each a different name.", name=name)
        case _c, "name_twice", {"name": name}:
            return _("Two players are called %(name)s; give each a different name.", name=name)
        case "match", _k, _p:
            return _match_text(key, p) or error.message
        case "score", _k, _p:
            return _score_text(key, p) or error.message
        case "play", _k, _p:
            return _play_text(error)
        case "proof", _k, _p:
            return _proof_text(error)
    return error.message


def _proof_text(error: ChinchonError) -> str:
    """A hand's record brought to the check page that cannot be read (``rules.deal_proof.ProofError``)."""
    match error.field.split("[")[0].split(".")[0]:
        case "seed":
            return _("The shuffle key is 64 hex digits (0-9, a-f).")
        case "commitment":
            return _("The seal is 16 to 64 hex digits (0-9, a-f).")
        case "rules":
            return _("The record's rules cannot be read.")
        case "players" | "table_players" | "dealer":
            return _("The record's players cannot be read.")
        case "dealt":
            return _("The record's dealt cards cannot be read.")
        case "moves":
            return _("The record's moves cannot be read.")
        case "stock_left":
            return _("The record's stock cannot be read.")
    return _("This is not the record of a hand.")


def _play_text(error: ChinchonError) -> str:
    """A move the hand's state or the rules do not allow (``companion.rules.game.PlayError``)."""
    why = error.params.get("why")
    if why is not None:
        return _("You cannot close: %(reason)s", reason=reason_text(why))
    match error.params.get("key"):
        case "source":
            return _("Draw from the stock or from the discard pile.")
        case "empty_pile":
            return _("The discard pile is empty; draw from the stock.")
        case "not_held":
            return _("That card is not in your hand.")
        case "over":
            return _("This hand is over.")
        case "seat":
            return _("That seat is not yours to play.")
        case "turn":
            return _("It is not your turn.")
        case "drawn":
            return _("You have drawn already: discard or close.")
        case "draw_first":
            return _("Draw first.")
        case "not_closed":
            return _("Nobody has closed yet.")
        case "pick":
            return _("There is no such arrangement.")
        case "no_card":
            return _("Choose a card from your hand.")
        case "action":
            return _("Unknown action.")
        case "hints_off":
            return _("Hints are turned off at this table.")
    return error.message


def _match_text(key: str | None, p: dict) -> str | None:
    """A match event refused (today the web words re-entries only)."""
    match key:
        case "finished":
            return _("the match is over.")
        case "still_in":
            return _("%(name)s is still in the game.", name=p["player"])
        case "too_late":
            return _("a player can only buy back in right after the hand in which they went out.")
        case "no_reentry" | "reentries_used":
            count = p.get("count", 0)
            return _("%(name)s has used the re-entries these rules allow (%(count)s).", name=p["player"], count=count)
        case "min_players":
            return _(
                "re-entry needs at least %(count)s players still in; only %(left)s are.",
                count=p["count"],
                left=p["left"],
            )
        case "not_player":
            return _("Unknown player.")
    return None


def _next_step_text(key: str | None, p: dict) -> str | None:
    """What may happen next at a table, refused or done already (``services/nextstep.py``)."""
    match key:
        case "match_over" if p.get("rematch"):
            return _("The match is over; start a rematch to play on.")
        case "match_over":
            return _("The match is over.")
        case "playing":
            return _("This hand is still being played.")
        case "reentry_pending":
            names = p["names"]
            return ngettext(
                "First decide whether %(names)s buys back in.",
                "First decide whether %(names)s buy back in.",
                len(names),
                names=", ".join(names),
            )
        case "reentry_decided" if p.get("by") and p.get("by") == p.get("name") and p.get("back_in"):
            return _("%(name)s already decided to buy back in.", name=p["name"])
        case "reentry_decided" if p.get("by") and p.get("by") == p.get("name"):
            return _("%(name)s already decided to stay out.", name=p["name"])
        case "reentry_decided" if p.get("by") and p.get("back_in"):
            return _("%(by)s already decided: %(name)s is back in.", by=p["by"], name=p["name"])
        case "reentry_decided" if p.get("by"):
            return _("%(by)s already decided: %(name)s stays out.", by=p["by"], name=p["name"])
        case "reentry_decided" if p.get("back_in"):
            return _("Already decided: %(name)s is back in.", name=p["name"])
        case "reentry_decided":
            return _("Already decided: %(name)s stays out.", name=p["name"])
        case "reentry_not_asked":
            return _("There is no buy-back question for %(name)s now.", name=p.get("name", ""))
        case "reentry_not_yours":
            return _("%(name)s answers that on their own phone, or the table's phone does.", name=p.get("name", ""))
        case "already_dealt" if p.get("by"):
            return _("%(name)s already dealt hand %(number)s.", name=p["by"], number=p["number"])
        case "already_dealt":
            return _("Hand %(number)s is already dealt.", number=p["number"])
        case "seat_handed_over":
            return _("The computer already plays for %(name)s.", name=p.get("name", ""))
        case "seat_not_handed_over":
            return _("%(name)s already plays their own seat.", name=p.get("name", ""))
        case "seat_own":
            return _("Your seat is yours to play: only the table's owner gives it to the computer.")
        case "seat_not_overdue":
            return ngettext(
                "%(name)s is here, or the game is not waiting for them: the computer takes a seat "
                "once its phone has been away for %(num)s second while the game waits for it.",
                "%(name)s is here, or the game is not waiting for them: the computer takes a seat "
                "once its phone has been away for %(num)s seconds while the game waits for it.",
                p.get("seconds", 60),
                name=p.get("name", ""),
            )
        case "seat_not_yours":
            return _(
                "Only %(name)s, on their own phone, or the table's owner gives the seat back.", name=p.get("name", "")
            )
        case "seat_no_phones":
            return _("Only a game played on a phone each gives seats to the computer.")
        case "seat_computer":
            return _("%(name)s is a computer player already.", name=p.get("name", ""))
        case "table_closed":
            return _("The organizer has closed this table: its result stands as it was.")
        case "result_final":
            return _("This table's result is final already.")
        case "hand_limit":
            return ngettext(
                "This round is %(num)s hand: it is over at this table.",
                "This round is %(num)s hands: they are all in at this table.",
                p["count"],
            )
        case "match_on":
            return _("The match is still going on.")
        case "rematch_tournament":
            return _("A tournament table plays its round only: the organizer seats the next one.")
    return None


def _entry_text(key: str | None, p: dict) -> str | None:
    """A hand's form that cannot be judged yet (``services/hands.py``)."""
    match key:
        case "closer_missing":
            return _("Choose who closed.")
        case "not_a_card":
            return _("'%(card)s' is not a card of this deck.", card=p["card"])
        case "points_missing_for":
            return _("Enter %(name)s's points.", name=p["name"])
        case "not_a_number":
            return _("%(value)s is not a whole number.", value=p["value"])
        case "closer_count":
            return _(
                "%(name)s closed: tap the 8 cards held (or the 7 shown and the discard); %(count)s so far.",
                name=p["name"],
                count=p["count"],
            )
        case "player_count":
            return _(
                "%(name)s holds 7 cards (6 or 8 after a mis-draw); %(count)s tapped.", name=p["name"], count=p["count"]
            )
        case "misdraw":
            return _(
                "%(name)s has %(count)s cards, not 7: is that right? If so, tick the box that says so.",
                name=p["name"],
                count=p["count"],
            )
        case "closer_cards_first":
            return _("Tap %(name)s's cards too: the others lay off onto the closer's melds.", name=p["name"])
    return None


def _score_text(key: str | None, p: dict) -> str | None:
    """A scoreboard write refused (``services/hands.py``, ``undo.py``, ``tables.py``)."""
    if (text := _next_step_text(key, p) or _entry_text(key, p)) is not None:
        return text
    match key:
        case "closer_out":
            return _("The closer must be a player still in.")
        case "cannot_close":
            return _("%(name)s cannot close.", name=p["name"]) + " " + reason_text(p["why"])
        case "points_missing":
            return _("Every player still in needs points.")
        case "closer_points":
            return _(
                "A closer cannot score %(value)s under these rules; possible: %(shown)s.",
                value=p["value"],
                shown=", ".join(str(v) for v in p["possible"]),
            )
        case "points_impossible":
            return _("%(value)s points is not possible for a player who did not close.", value=p["value"])
        case "chinchon_points":
            return _("A Chinchón is an all-combined close; its score does not match.")
        case "later_hand":
            undo = ngettext(
                "Undo hand %(number)s (the last one) first, then save the correction.",
                "Undo the last %(num)s hands (from hand %(number)s on) first, then save the correction.",
                p["count"],
                number=p["number"],
            )
            return _later_hand_text(p) + " " + undo
        case "rules_history" if "problem" in p:
            return _later_hand_text(p)
        case "rules_history":
            reason = error_text(p["reason"]).rstrip(".")
            return _("With these rules the hands already played no longer fit (%(reason)s).", reason=reason)
        case "not_restorable" if "why" in p:
            return _restore_text(p)
        case "not_restorable":
            return _("That hand can no longer be restored.")
        case "nothing_to_undo":
            return _("There is nothing to undo yet.")
        case "unknown_player":
            return _("Unknown player.")
        case "first_dealer":
            return _("The first dealer must be one of the players.")
        case "no_person":
            return _("At least one player must be a person.")
        case "rule_fixed" if p.get("option") == "stake":
            return _("The stake stays as it is once a hand is in: everybody has paid it.")
        case "rule_fixed":
            return _("This rule cannot change in the middle of a match.")
        case "rename_tournament":
            return _("A tournament table keeps the names the organizer seated.")
        case "players_changed":
            return _("The players changed meanwhile; look again.")
        case "clock_one_phone":
            return _("The turn clock is for a game where each person plays on their own phone.")
        case "proof_in_play":
            return _("The shuffle key is shown when the hand ends.")
        case "proof_held":
            return _("The shuffle key is shown once every table of the round has played this hand.")
        case "proof_none":
            return _("This hand was dealt before deals could be checked.")
        case "proof_too_long":
            return _("This record has more moves than a hand can have.")
    return _group_text(key, p)


def _group_text(key: str | None, p: dict) -> str | None:
    """A group write refused (see companion/services/groups.py)."""
    match key:
        case "members_few":
            return _("Add at least two members.")
        case "members_many":
            return _("A group has at most %(count)s members.", count=p["count"])
        case "unknown_member":
            return _("Unknown player.")
        case "name_alias":
            return _(
                "%(name)s is an earlier name of %(member)s, whose matches count under it; choose another name.",
                name=p["name"],
                member=p["member"],
            )
        case "currency":
            return _("Choose one of the currencies offered.")
        case "season_started":
            return _("Season %(number)s has already started.", number=p["number"])
        case "season_empty":
            return _(
                "Season %(number)s has no matches yet; a new season can start once this one has one.",
                number=p["number"],
            )
        case "not_owner_link":
            return _("That is not a table's owner link: only the table's owner can add it to a group.")
        case "other_group":
            return _("That table already counts for another group; a match belongs to one group only.")
        case "no_match":
            return _("No match yet to play again.")
        case "incomplete":
            return incomplete_text()
        case "payer_unknown":
            return _("Choose who paid.")
        case "payee_unknown" | "same_person":
            return _("Choose who was paid: somebody other than the payer.")
        case "amount_low" | "amount_cents":
            return _("Type an amount above zero, with at most two decimals.")
        case "amount_high":
            return _("A payment is at most %(amount)s.", amount=money(p["high"], p["currency"]))
        case "no_payment":
            return _("That payment is not in this group's history.")
    return _tournament_text(key, p)


def _tournament_text(key: str | None, p: dict) -> str | None:
    """A tournament write refused (see companion/services/tournaments.py)."""
    match key:
        case "players_few":
            return ngettext("Add at least %(num)s player.", "Add at least %(num)s players.", p["count"])
        case "players_many":
            return _("A tournament has at most %(count)s players.", count=p["count"])
        case "format" | "advance" | "reseat" | "play":
            return _("Choose one of the options offered.")
        case "rounds" | "round_hands" | "round_minutes":
            return _("Type a whole number from %(low)s to %(high)s.", low=p["low"], high=p["high"])
        case "scale":
            return _(
                "Type 1 to 5 points from 0 to 100, best place first, never rising, the first above 0 (e.g. 4-2-1-0)."
            )
        case "entry":
            return _("Type an entry fee from 0 up to %(high)s, with at most two decimals.", high=number(p["high"]))
        case "prizes":
            return _("Type the pot's split in percent, first place first, adding up to 100 (e.g. 60-30-10).")
        case "round_in_play":
            return _("Round %(number)s is still being played.", number=p["round"])
        case "tournament_over":
            return _("The tournament is over.")
        case "signup_closed":
            return _("A knockout takes new players only before the first round.")
        case "no_round":
            return _("No round has started yet.")
        case "round_played":
            return _("Round %(number)s has hands or results already; it can no longer be undone.", number=p["round"])
        case "result_disputed":
            return _(
                "%(name)s disputes this result: the organizer decides, or the table corrects the hand.", name=p["name"]
            )
        case "confirm_by_winner":
            return _("%(name)s won this table: another player confirms the result.", name=p["name"])
        case "tournament_name":
            return _("Give the tournament a name.")
        case "table_playing":
            return _("The table is still playing: its result can be confirmed after the last hand.")
        case "not_in_tournament":
            return _("This table is not part of a tournament.")
        case "bots_cards":
            return _("Computer players can only fill tables played in the app.")
        case "duplicate_cards":
            return _("Duplicate deals are for tables played in the app.")
        case "result_digital":
            return _("The app dealt and judged every hand at this table: its result goes to the tournament by itself.")
        case "reason_missing":
            return _("Say why: the reason is kept with the result.")
        case "reason_long":
            return _("At most %(count)s characters.", count=p["high"])
        case "unknown_table":
            return _("That table is not in the round being played.")
        case "order":
            return _("Give every player of the table a different place, 1 for the best: a correction has no ties.")
    return None


def _later_hand_text(p: dict) -> str:
    """Which later hand a correction no longer fits, and why (``HandMisfit``)."""
    match p["problem"]:
        case "out_scores":
            return _("With this change %(name)s is out before hand %(number)s, yet has points in it.", **p)
        case "reentry_lost":
            reason = error_text(p["reason"]).rstrip(".")
            return _(
                "With this change %(name)s can no longer buy back in (%(reason)s), yet has points in hand %(number)s.",
                name=p["name"],
                reason=reason,
                number=p["number"],
            )
        case "missing":
            return _("With this change %(name)s is still in at hand %(number)s, yet has no points in it.", **p)
        case "after_end":
            return _("With this change the match ends in hand %(end)s, before hand %(number)s.", **p)
    return _("With this change hand %(number)s no longer fits the rules.", number=p["number"])


def _restore_text(p: dict) -> str:
    """Why the hand undone last cannot come back (see ``restorable_hand``)."""
    match p["why"], p.get("problem"):
        case "reentry_pending", _problem:
            return ngettext(
                "To restore hand %(number)s, first decide whether %(names)s buys back in.",
                "To restore hand %(number)s, first decide whether %(names)s buy back in.",
                len(p["names"]),
                number=p["number"],
                names=", ".join(p["names"]),
            )
        case "corrected", _problem:
            return _(
                "Hand %(number)s can no longer be restored: hand %(corrected)s was corrected since.",
                number=p["number"],
                corrected=p["corrected"],
            )
        case _why, "out_scores":
            return _("Hand %(number)s can no longer be restored: %(name)s is out now, yet has points in it.", **p)
        case _why, "missing":
            return _("Hand %(number)s can no longer be restored: %(name)s is in now, yet has no points in it.", **p)
        case _why, "after_end":
            return _("Hand %(number)s can no longer be restored: the match is over.", number=p["number"])
    return _("Hand %(number)s can no longer be restored.", number=p["number"])


def refusal_text(refused, names=None) -> str:
    """Why a lay-off that fits is refused (a RefusedLayoff), translated;
    ``names`` by the lay-off's player numbers, for a meld shown later."""
    match refused.rule:
        case "not_yet" if names is not None:
            return _(
                "%(owner)s showed after %(name)s: that meld was not on the table yet.",
                owner=names[refused.owner],
                name=names[refused.player],
            )
        case "not_yet":
            return _("that meld was not on the table yet: its player shows later.")
        case "no_layoffs":
            return _("these rules allow no laying off.")
        case "full_close":
            return _("nobody lays off onto the melds of a closer who had all seven combined.")
        case "closer_only":
            return _("these rules allow laying off only onto the closer's melds.")
        case "run_limit":
            return ngettext(
                "with two decks at most %(num)s card may be added to one run in a turn.",
                "with two decks at most %(num)s cards may be added to one run in a turn.",
                refused.limit,
            )
    return refused.text
