"""``chinchon``: the referee in a terminal.

    chinchon close 11c 11e 11b 5o 6o 7o 3c 12e --preset classic
    chinchon melds 5b 5c 5e 4o 12o 2c 1c --json
    chinchon hand "11c 11e 11b 5o 6o 7o 3c 12e" "5b 5c 5e 4o 12o 2c 1c" "2e 3b 6c 7b 10e 12c 12b"
    chinchon presets
    chinchon verify hand-3-deal-4.json

Rules come from ``--preset`` plus ``--set option=value`` overrides (values are
JSON: ``--set jokers=2 --set 'wild_cards=["1o"]'``).  The JSON output is the
API's (SPEC §8).  ``verify`` checks a digital hand's record against its
shuffle key (``rules.deal_proof``; the README's "Checking a deal") and exits
1 when something does not match, 2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .rules import (
    PRESETS,
    ChinchonError,
    best_melds,
    check_close,
    parse_card,
    parse_cards,
    rules_from_json,
    settle_hand,
)
from .rules.cards import short_label
from .rules.deal_proof import Check, HandRecord, verify
from .rules.serialize import arrangement_json, hand_json, verdict_json


def _rules(args: argparse.Namespace):
    options: dict[str, object] = {"preset": args.preset}
    for item in args.set or []:
        name, sep, raw = item.partition("=")
        if not sep:
            raise ChinchonError(f"--set takes option=value, not {item!r}.", "rules")
        try:
            options[name.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            options[name.strip()] = raw
    return rules_from_json(options)


def _cards(tokens: Sequence[str], deck, field: str = "cards"):
    return parse_cards(" ".join(tokens), deck, field)


def _show(cards, deck) -> str:
    return " ".join(short_label(c, deck) for c in cards) or "—"


def cmd_melds(args: argparse.Namespace) -> dict:
    rules = _rules(args)
    result = best_melds(_cards(args.cards, rules.pack), rules)
    data = arrangement_json(result)
    if not args.json:
        deck = rules.pack
        for meld in result.melds:
            print(f"meld      {_show(meld, deck)}")
        print(f"loose     {_show(result.deadwood, deck)}")
        print(f"points    {result.points}")
    return data


def cmd_close(args: argparse.Namespace) -> dict:
    rules = _rules(args)
    cards = _cards(args.cards, rules.pack)
    discard = parse_card(args.discard, rules.pack, "discard") if args.discard else None
    verdict = check_close(cards, rules, args.first_round, discard)
    data = verdict_json(verdict)
    if not args.json:
        deck = rules.pack
        print("LEGAL close" if verdict.legal else "NOT legal: " + (verdict.reason or ""))
        if verdict.discard is not None:
            print(f"discard   {short_label(verdict.discard, deck)}")
        for meld in verdict.melds:
            print(f"meld      {_show(meld, deck)}")
        print(f"loose     {_show(verdict.deadwood, deck)}")
        if verdict.legal:
            print(f"score     {verdict.score}")
        if verdict.chinchon:
            print("CHINCHÓN" + (" — wins the match" if verdict.wins_match else ""))
    return data


def cmd_hand(args: argparse.Namespace) -> dict:
    rules = _rules(args)
    hands = [parse_cards(h, rules.pack, f"hands[{i}]") for i, h in enumerate(args.hands)]
    result = settle_hand(hands, rules, args.closer, args.first_round)
    data = hand_json(result)
    if not args.json:
        deck = rules.pack
        if not result.legal:
            print("NOT legal: " + (result.reason or ""))
            return data
        for i, r in enumerate(result.results or ()):
            who = f"player {i}" + (" (closer)" if i == args.closer else "")
            melds = "  ".join(_show(m, deck) for m in r.melds) or "no melds"
            lays = ", ".join(f"{short_label(x.card, deck)}→p{x.player}m{x.meld}" for x in r.layoffs)
            print(
                f"{who:<20} {r.points:>4}   {melds}"
                + (f"   lays off {lays}" if lays else "")
                + f"   loose {_show(r.deadwood, deck)}"
            )
    return data


def cmd_presets(args: argparse.Namespace) -> dict:
    data = {name: rules.to_dict() for name, rules in PRESETS.items()}
    if not args.json:
        for name, options in data.items():
            print(f"{name}: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()))
    return data


class Mismatched(Exception):
    """``verify`` found a record that does not match its key: exit 1."""


_CHECK_LINES = {
    Check.COMMITMENT: "the key matches the seal",
    Check.DEAL: "the hands dealt and the first card of the pile come from the key",
    Check.DRAWS: "every card drawn from the stock is the key's",
    Check.RESHUFFLES: "every reshuffle comes from the key",
    Check.MOVES: "every move follows the rules",
}


def cmd_verify(args: argparse.Namespace) -> dict:
    try:
        with open(args.file, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ChinchonError(f"Cannot read {args.file}: {error}", "file") from None
    record = HandRecord.from_json(data)
    verdict = verify(record, args.seal)
    out = {
        "ok": verdict.ok,
        "checks": {c.value: verdict.status(c) for c in Check},
        "mismatches": [{"check": m.check.value, "move": m.move, "text": m.text} for m in verdict.mismatches],
        "draws": verdict.draws,
        "reshuffles": verdict.reshuffles,
    }
    if not args.json:
        for check in Check:
            status = verdict.status(check)
            found = verdict.mismatch(check)
            mark = {"ok": "ok  ", "failed": "FAIL", "unchecked": "--  "}[status]
            text = found.text if found is not None else _CHECK_LINES[check]
            if status == "unchecked":
                text += " (not checked past the first problem)"
            print(f"{mark}  {text}")
        print(
            "VERIFIED: the deal and every draw follow from the key"
            if verdict.ok
            else "MISMATCH: this record does not follow from its key"
        )
    if not verdict.ok:
        if args.json:
            print(json.dumps(out, ensure_ascii=False))
        raise Mismatched
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chinchon", description="Chinchón referee: melds, closes and whole hands.")
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--preset", default="classic", help="classic, fournier, sweden or italy (default classic)")
        p.add_argument("--set", action="append", metavar="OPTION=VALUE", help="override a rules option (JSON value)")
        p.add_argument("--json", action="store_true", help="print the API's JSON answer")

    p = sub.add_parser("melds", help="best melds of 1-8 cards")
    p.add_argument("cards", nargs="+")
    common(p)
    p.set_defaults(func=cmd_melds)

    p = sub.add_parser("close", help="may these 8 (or 7 kept) cards close?")
    p.add_argument("cards", nargs="+")
    p.add_argument("--discard", help="the card put face down")
    p.add_argument("--first-round", action="store_true", help="nobody has had a turn yet")
    common(p)
    p.set_defaults(func=cmd_close)

    p = sub.add_parser("hand", help="settle a whole hand: one quoted hand per player, in play order")
    p.add_argument("hands", nargs="+")
    p.add_argument("--closer", type=int, default=0, help="index of the closer (default 0)")
    p.add_argument("--first-round", action="store_true")
    common(p)
    p.set_defaults(func=cmd_hand)

    p = sub.add_parser("presets", help="list the presets with every option")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_presets)

    p = sub.add_parser("verify", help="check a digital hand's record (JSON) against its shuffle key")
    p.add_argument("file", help="the record downloaded from the hand's check page")
    p.add_argument("--seal", help="the seal seen during the hand (16 hex digits or more); default: the record's")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        data = args.func(args)
    except Mismatched:
        return 1
    except ChinchonError as error:
        if getattr(args, "json", False):
            print(json.dumps({"error": error.message, "field": error.field}, ensure_ascii=False))
        else:
            print(
                f"error ({error.field}): {error.message}" if error.field else f"error: {error.message}", file=sys.stderr
            )
        return 2
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
