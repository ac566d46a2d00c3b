"""What a link shows of the record: the QR codes (never of a higher link),
the read-only mark near the title, the page title in every language, and the
final standings of a finished match."""

from __future__ import annotations

import io
import re

import pytest
import segno

from companion.extensions import db
from companion.models import GameTable, Group, Player

from .helpers import create_table, decide_reentry, enter_points
from .test_groups import create_group
from .test_play import new_game


def qr_of(url: str) -> str:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=5, dark="#000", light="#fff", xmldecl=False)
    return out.getvalue().decode()


@pytest.fixture
def links(client, app):
    """A physical table's three links, a seat of a digital game, a group's three links, and no link."""
    owner = create_table(client, ["Ana", "Ben", "Carla"])
    devices = new_game(client, [("Dani", "human"), ("Eva", "human")], mode="devices").headers["Location"]
    group = create_group(client)
    with app.app_context():
        table = db.session.query(GameTable).filter_by(owner_token=owner).one()
        digital = db.session.query(GameTable).filter_by(owner_token=devices.split("/")[2]).one()
        seat = db.session.query(Player).filter_by(table_id=digital.id, name="Dani").one()
        grp = db.session.query(Group).filter_by(owner_token=group).one()
        return {
            "owner": table.owner_token,
            "player": table.player_token,
            "watch": table.watch_token,
            "seat": seat.seat_token,
            "group owner": grp.owner_token,
            "group member": grp.member_token,
            "group watch": grp.watch_token,
            "none": "NoSuchLink0000000000aa",
        }


#: link → ?to= → the link the QR code holds (a kind of ``links``), or the refusal's status.
QR = {
    "owner": {"": "player", "player": "player", "watch": "watch", "owner": 404},
    "player": {"": "player", "player": "player", "watch": "watch", "owner": 404},
    "watch": {"": "watch", "watch": "watch", "player": 403, "owner": 404},
    "seat": {"": 403, "watch": 403, "player": 403},
    "group owner": {"": 404, "watch": 404, "player": 404},
    "group member": {"": 404, "watch": 404},
    "group watch": {"": 404, "watch": 404},
    "none": {"": 404, "watch": 404},
}


@pytest.mark.parametrize("kind", QR)
def test_a_qr_code_holds_the_link_at_or_below_its_own_for_every_kind_of_link(client, links, kind):
    for to, shows in QR[kind].items():
        url = f"/t/{links[kind]}/qr.svg" + (f"?to={to}" if to else "")
        assert client.post(url).status_code == 405, url
        response = client.get(url)
        if isinstance(shows, int):
            assert response.status_code == shows, url
            continue
        assert response.status_code == 200 and response.mimetype == "image/svg+xml", url
        assert response.get_data(as_text=True) == qr_of(f"http://localhost/t/{links[shows]}"), url


def test_the_read_only_link_has_its_own_qr_code_in_the_share_panel(client, links):
    html = client.get(f"/t/{links['owner']}").get_data(as_text=True)
    codes = re.findall(r'<img class="qr" loading="lazy" src="([^"]+)" alt="([^"]+)"', html)
    assert codes == [
        (f"/t/{links['owner']}/qr.svg", "QR code of the table link"),
        (f"/t/{links['owner']}/qr.svg?to=watch", "QR code of the read-only link"),
    ]
    html = client.get(f"/t/{links['watch']}").get_data(as_text=True)
    codes = re.findall(r'<img class="qr" loading="lazy" src="([^"]+)" alt="([^"]+)"', html)
    assert codes == [(f"/t/{links['watch']}/qr.svg", "QR code of the read-only link")]
    assert f"http://localhost/t/{links['watch']}" in html and links["player"] not in html


@pytest.mark.parametrize("path", ["", "/history"])
def test_a_read_only_page_says_so_next_to_its_title(client, links, path):
    title_row = r'<div class="title-row">\s*<h1>[^<]*</h1>\s*<span class="badge read-only">Read only</span>'
    assert re.search(title_row, client.get(f"/t/{links['watch']}{path}").get_data(as_text=True))
    for kind in ("owner", "player"):
        assert "Read only<" not in client.get(f"/t/{links[kind]}{path}").get_data(as_text=True)


@pytest.mark.parametrize("path", ["", "/history", "/history.csv"])
def test_a_groups_link_opens_no_table_page(client, links, path):
    for kind in ("group owner", "group member", "group watch"):
        assert client.get(f"/t/{links[kind]}{path}").status_code == 404


TITLES = {
    "es": "Mesa · Chinchón: anotador y árbitro",
    "es_AR": "Mesa · Chinchón: anotador y árbitro",
    "en": "Table · Chinchón companion",
    "de": "Tisch · Chinchón-Begleiter",
    "it": "Tavolo · Chinchón: segnapunti e arbitro",
    "sv": "Bord · Chinchón: poängräkning och domare",
}


@pytest.mark.parametrize("lang", TITLES)
def test_the_scoreboards_title_is_plain_text_in_every_language(client_without_language, lang):
    c = client_without_language
    c.set_cookie("lang", lang)
    token = create_table(c, ["Ana", "Ben"])
    enter_points(c, token, 0, {0: -10, 1: 20})
    html = c.get(f"/t/{token}").get_data(as_text=True)
    assert re.findall(r"<title>(.*?)</title>", html, re.S) == [TITLES[lang]]
    c.set_cookie("lang", "en")
    named = create_table(c, ["Ana", "Ben"], name="Peña <b>& co</b>")
    html = c.get(f"/t/{named}").get_data(as_text=True)
    assert re.findall(r"<title>(.*?)</title>", html, re.S) == ["Peña &lt;b&gt;&amp; co&lt;/b&gt; · Chinchón companion"]


# -- the finished match ---------------------------------------------------------------------------
def test_the_finished_match_ranks_players_by_when_they_went_out(client):
    token = create_table(client, ["Ana", "Ben", "Carla", "Dani"])
    enter_points(client, token, 0, {0: -10, 1: 50, 2: 40, 3: 60})
    enter_points(client, token, 0, {0: -10, 1: 30, 2: 30, 3: 44})  # Dani 104: out first
    decide_reentry(client, token, 3, buy=False)
    enter_points(client, token, 0, {0: -10, 1: 35, 2: 38})  # Ben 115 and Carla 108 out together
    html = client.get(f"/t/{token}").get_data(as_text=True)
    ranking = re.search(r'<ol class="ranking">(.*?)</ol>', html, re.S).group(1)
    lines = [re.sub(r"<[^>]+>", "", li).split() for li in re.findall(r"<li.*?</li>", ranking)]
    assert lines == [
        ["1.", "Ana", "-30"],
        ["2.", "Carla", "out", "in", "hand", "3", "108"],
        ["3.", "Ben", "out", "in", "hand", "3", "115"],
        ["4.", "Dani", "out", "in", "hand", "2", "104"],
    ]
