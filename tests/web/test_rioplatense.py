"""Río de la Plata Spanish wherever es_AR is shown: voseo, never Spain's
tú-forms, and none of the words only Spain uses.

The es_AR catalogue holds only what it says differently and falls back to es
(``companion.web.i18n.FallbackDomain``), so a string added to es after es_AR's
pass leaks Spain's Spanish onto Argentine pages ("guárdalo", "este móvil").
Every message as es_AR shows it, and every page rendered for an es-AR
browser, is read against the words below.  ``tests/es_ar_allow.txt`` lists
the whole texts where such a word is right (a third person, a noun).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.pofile import read_po
from flask_babel import force_locale

from companion.web.access import NONE, PERMISSIONS, SEAT
from companion.web.i18n import babel

from . import test_access
from .helpers import create_table, enter_points
from .test_groups import create_group, play_example

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "companion" / "translations" / "messages.pot"
ALLOWED = ROOT / "tests" / "es_ar_allow.txt"

links = test_access.links  # the fixture: a link of every kind

#: Spain's tú: the present tense of the verbs the catalogue uses (the voseo
#: says podés, tenés, querés, llevás…).  Not "estás", "ves" or "vas": the
#: voseo shares them; not "cortas", "ganas": also adjectives and nouns.
TU_PRESENT = (
    "puedes|tienes|quieres|debes|sabes|eres|llevas|anotas|cierras|guardas|dejas|quedas|tocas|haces|pones|"
    "juegas|eliges|vuelves|miras|pulsas|escribes|necesitas|prefieres|robas"
)
#: Spain's tú imperative, looked for where an order starts (the voseo says
#: tocá, elegí, volvé…): elsewhere the same words are third persons ("le
#: toca", "Ana vuelve a la partida").
TU_ORDERS = (
    "toca|elige|pulsa|escribe|mira|guarda|vuelve|prueba|roba|toma|cierra|anota|apunta|marca|añade|envía|"
    "recarga|espera|revisa|pon|haz|deshaz|corrige|descarta|borra|cambia|pega|empieza|decide|juega|tira|"
    "anula|intenta|desactiva|comprueba|quita|enseña|avisa|agrega|abre"
)
#: Words of Spain only (añadir: Argentina says agregar), and the vosotros
#: forms Argentina never uses.
SPAIN_ONLY = (
    r"móvil|móviles|ordenador|ordenadores|coger|coge|cogió|cogé|guay|pillar|pillada|pilladas|pillado|pillados|añad\w*|"
    "vosotros|vosotras|vuestro|vuestra|vuestros|vuestras|os|habéis|tenéis|podéis|queréis|sabéis|"
    "decidid|avisad|terminad|elegid|mirad|esperad|jugad|tocad|escribid"
)

WORD = r"(?<!\w)(?:{})(?!\w)"
CHECKS = [
    ("tú present", re.compile(WORD.format(TU_PRESENT), re.I)),
    ("tú order", re.compile(rf"(?:^|(?<=[.:;!?]\s)|(?<=[¿¡(«]))(?:{TU_ORDERS})(?!\w)", re.I)),
    # guárdalo, descártala, inténtalo (the voseo: guardalo, descartala, intentalo)
    ("tú order with a pronoun", re.compile(r"(?<!\w)\w*[áéíóú]\w*[ae](?:lo|la|los|las|le|les|me|nos)(?!\w)", re.I)),
    ("tú, ti, contigo, has", re.compile(WORD.format("tú|ti|contigo|has"), re.I)),
    ("Spain only", re.compile(WORD.format(SPAIN_ONLY), re.I)),
    ("the interjection vale", re.compile(r"(?:^|(?<=[.!?]\s)|(?<=[¡¿]))vale(?!\w)", re.I)),
]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


def allowlist() -> list[re.Pattern]:
    """Each line of tests/es_ar_allow.txt: a whole text, its placeholders
    standing for anything, then two spaces, "#" and why it is right."""
    patterns = []
    for line in ALLOWED.read_text(encoding="utf-8").splitlines():
        text = line.split("  #", 1)[0].strip()
        if text and not line.startswith("#"):
            parts = PLACEHOLDER.split(text)
            patterns.append(re.compile(".+?".join(re.escape(p) for p in parts)))
    return patterns


def spain_in(text: str, allowed: list[re.Pattern]) -> list[str]:
    """What in ``text`` is Spain's Spanish rather than the Río de la Plata's."""
    text = " ".join(text.split())
    if any(p.fullmatch(text) for p in allowed):
        return []
    return [f"{why}: {m.group(0)}" for why, check in CHECKS for m in check.finditer(text)]


def test_the_words_looked_for_are_found_and_the_voseo_is_not():
    allowed: list[re.Pattern] = []
    for spain in (
        "Sin conexión: no se envió nada. Vuelve a intentarlo cuando vuelva la conexión.",
        "Has abierto este grupo con su enlace de dueño; guárdalo para los ajustes.",
        "Te toca: toma la carta del montón.",
        "Lo que anotaste sigue abajo; si es la misma, descártala.",
        "la mano 5 queda guardada en este móvil",
        "¿Quieres borrar la mesa? Puedes deshacerlo.",
        "tú",
        "Decidid quién reparte.",
        "Vale, guardado.",
        "Añadir a este grupo",
    ):
        assert spain_in(spain, allowed), spain
    for plata in (
        "Sin conexión: no se envió nada. Volvé a intentar cuando vuelva la conexión.",
        "Abriste este grupo con el enlace de quien lo administra; guardalo para la configuración.",
        "Te toca: tomá la carta del pozo.",
        "¿Querés borrar la mesa? Podés deshacerlo.",
        "%(name)s vuelve a la partida.",
        "Le toca a Ana.",
        "vos",
        "El 7 de oros vale 7 puntos.",
        "Normalmente 100; las partidas cortas se juegan a 70 o 50.",
        "Agregar a este grupo",
    ):
        assert not spain_in(plata, allowed), plata


def catalogue_texts(app) -> dict[str, str]:
    """msgid → every text es_AR shows for it (each plural form), as a page would."""
    with TEMPLATE.open("rb") as f:
        messages = [m for m in read_po(f) if m.id]
    shown = {}
    with app.test_request_context(), force_locale("es_AR"):
        found = babel.domain_instance.get_translations()
        for m in messages:
            if m.pluralizable:
                singular, plural = m.id
                texts = [
                    found.unpgettext(m.context, singular, plural, n)
                    if m.context
                    else found.ungettext(singular, plural, n)
                    for n in (1, 2)
                ]
                shown[f"{singular}|{plural}"] = " | ".join(texts)
            else:
                shown[m.id] = found.upgettext(m.context, m.id) if m.context else found.ugettext(m.id)
    return shown


def test_no_message_in_rioplatense_spanish_uses_spains_tu_or_words(app):
    allowed = allowlist()
    found = {
        msgid: hits
        for msgid, text in catalogue_texts(app).items()
        for hits in [[h for part in text.split(" | ") for h in spain_in(part, allowed)]]
        if hits
    }
    assert not found, "give es_AR its own voseo text:\n" + "\n".join(f"{k!r}: {v}" for k, v in found.items())


def test_every_allowed_text_is_still_shown(app):
    """An allowance for a text es_AR no longer shows would let the next one slip by."""
    texts = [part for text in catalogue_texts(app).values() for part in text.split(" | ")]
    unused = [p.pattern for p in allowlist() if not any(p.fullmatch(" ".join(t.split())) for t in texts)]
    assert not unused, f"remove from {ALLOWED.name}: {unused}"


class Visible(HTMLParser):
    """The texts a page shows or reads out: text nodes, labels and titles, and
    the words offline.js shows (a JSON ``data-texts`` attribute)."""

    SHOWN = frozenset({"aria-label", "title", "placeholder", "alt", "content"})

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        for name, value in attrs:
            if not value:
                continue
            if name == "data-texts":
                self.texts += list(json.loads(value).values())
            elif name in self.SHOWN or (name == "value" and dict(attrs).get("type") in ("submit", "button")):
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(data)


def visible_texts(response) -> list[str]:
    body = response.get_data(as_text=True)
    if response.mimetype == "text/csv":
        return [cell for line in body.splitlines() for cell in line.split(",")]
    parser = Visible()
    parser.feed(body)
    return parser.texts


def pages(app, links) -> list[str]:
    """Every page a browser GETs: each route once per link that opens it, and
    the routes without a link.  Not the API's: its contract, and the option
    descriptions its reference page shows, are English."""
    urls = ["/t/NoSuchLink0000000000aa"]  # the error page
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static" or rule.endpoint.startswith("api."):
            continue
        if not rule.arguments:
            urls.append(rule.rule)
            continue
        for role in PERMISSIONS.get(rule.endpoint, {}).get("GET", ()):
            if role == NONE:
                continue
            kinds = ["digital", "devices"] if rule.endpoint.startswith("play.") and role != SEAT else [None]
            urls += [test_access.url_for_role(rule, role, links, kind) for kind in kinds]
    return sorted(set(urls))


def test_no_page_in_rioplatense_spanish_uses_spains_tu_or_words(client, app, links):
    """Each page as an es-AR browser gets it, with a finished match that paid a
    pot, a group that owes money and a tournament under way (the links fixture)."""
    group = create_group(client)
    play_example(client, group)
    won = create_table(client, ["Ana", "Ben"], stake="1")
    enter_points(client, won, 0, {0: -10, 1: 60})
    enter_points(client, won, 0, {0: -10, 1: 60})
    client.delete_cookie("lang")
    allowed = allowlist()
    found: dict[str, list[str]] = {}
    seen = 0
    for url in [*pages(app, links), f"/g/{group}", f"/g/{group}/settle", f"/t/{won}", f"/t/{won}/history"]:
        response = client.get(url, headers={"Accept-Language": "es-AR"})
        if 300 <= response.status_code < 400 or response.mimetype == "application/json":
            continue
        if response.mimetype == "text/html":
            assert '<html lang="es-AR">' in response.get_data(as_text=True), url
        seen += 1
        for text in visible_texts(response):
            for hit in spain_in(text, allowed):
                found.setdefault(f"{' '.join(text.split())!r} ({hit})", []).append(url)
    assert seen > 40
    assert not found, "\n".join(f"{text} on {len(urls)} pages, e.g. {urls[0]}" for text, urls in found.items())
