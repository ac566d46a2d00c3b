"""One rematch for physical tables, digital games and groups (#22)."""

from __future__ import annotations

from companion.extensions import db
from companion.models import GameTable

from .helpers import create_table, enter_points, field, rematch, table_of


def test_two_taps_on_rematch_make_one_table(client, app):
    """Found by hand (#22): two taps on "Rematch with the same players" made two tables.
    The second tap, with the page's now stale version, leads to the first tap's rematch."""
    token = create_table(client, ["Ana", "Ben"])
    enter_points(client, token, 1, {0: 60, 1: -10})
    enter_points(client, token, 1, {0: 60, 1: -10})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    form = {"csrf_token": field(html, "csrf_token"), "version": str(table_of(app, token).version)}
    first = client.post(f"/t/{token}/rematch", data=form)
    second = client.post(f"/t/{token}/rematch", data=form)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    with app.app_context():
        assert db.session.query(GameTable).count() == 2


def test_every_phone_on_the_finished_scoreboard_is_led_to_the_rematch(client, app):
    """Found by a tryout (#36): once one phone started the rematch, the
    others kept a "Rematch" button on the finished scoreboard.  Each now sees
    the rematch, behind a link of its own level: the player link leads to the
    rematch's player link, the read-only link to its read-only one."""
    token = create_table(client, ["Ana", "Ben"])
    enter_points(client, token, 1, {0: 60, 1: -10})
    enter_points(client, token, 1, {0: 60, 1: -10})
    old = table_of(app, token)
    before = client.get(f"/t/{old.player_token}?since={old.version}")
    assert before.status_code == 204
    made = rematch(client, token).headers["Location"].rsplit("/", 1)[1]
    new = table_of(app, made)
    assert made == new.owner_token
    assert client.get(f"/t/{old.player_token}?since={old.version}").status_code == 200  # the poll redraws
    for link, led in ((old.player_token, new.player_token), (old.watch_token, new.watch_token), (token, made)):
        html = client.get(f"/t/{link}").get_data(as_text=True)
        assert f'href="/t/{led}">The rematch has started: open it</a>' in html, link
        assert "Rematch with the same players" not in html
        others = {new.owner_token, new.player_token, new.watch_token} - {led}
        assert not any(other in html for other in others)


def test_rematch_is_refused_while_the_match_goes_on(client, app):
    token = create_table(client, ["Ana", "Ben"])
    enter_points(client, token, 1, {0: 20, 1: -10})
    html = client.get(f"/t/{token}").get_data(as_text=True)
    data = {"csrf_token": field(html, "csrf_token"), "version": str(table_of(app, token).version)}
    response = client.post(f"/t/{token}/rematch", data=data, follow_redirects=True)
    assert "The match is still going on." in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(GameTable).count() == 1


def test_a_groups_rematch_stays_in_the_group(client, app):
    """Found by hand (#22): the rematch of a group's table had no group, so
    its pot never reached the ledger; the scoreboard now names the group."""
    from .test_groups import create_group, table_in_group

    group = create_group(client)
    token = table_in_group(client, group, ["Ana", "Ben"])
    assert "Counts for the group Friday" in client.get(f"/t/{token}").get_data(as_text=True)
    enter_points(client, token, 1, {0: 60, 1: -10})
    enter_points(client, token, 1, {0: 60, 1: -10})
    new = rematch(client, token).headers["Location"].rsplit("/", 1)[1]
    old, made = table_of(app, token), table_of(app, new)
    assert made.group_id == old.group_id is not None
    assert made.overrides == old.overrides and made.rules.stake == old.rules.stake > 0
    assert made.first_dealer == (old.first_dealer + 1) % 2
    assert "Counts for the group Friday" in client.get(f"/t/{new}").get_data(as_text=True)
    html = client.get(f"/g/{group}").get_data(as_text=True)
    assert made.player_token in html or made.watch_token in html  # the group lists the rematch among its matches
