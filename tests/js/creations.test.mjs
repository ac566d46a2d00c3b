// Creation forms sent again after Back (companion/static/js/creations.js): the
// same fields from a page shown by Back or Forward carry the id sent before.
import { test, describe } from "node:test";
import assert from "node:assert/strict";

import creations from "../../companion/static/js/creations.js";
import { memoryStore } from "./helpers.mjs";

const NOW = 1_000_000_000;
const PATH = "/tournaments/new";
const FIELDS = [["name", "Copa del Bar"], ["players", "Ana\nBen\nCarla\nDani"], ["preset", "classic"]];
const ID = "0123456789abcdef0123456789abcdef";

function sentOnce() {
  const store = memoryStore();
  creations.sent(store, PATH, FIELDS, ID, NOW);
  return store;
}

describe("a creation sent again", () => {
  test("Back, then Create with the same fields: the id sent before", () => {
    assert.equal(creations.idFor(sentOnce(), PATH, FIELDS, "back_forward", NOW + 60000), ID);
  });

  test("the fields in another order are the same sending", () => {
    const shuffled = [FIELDS[2], FIELDS[0], FIELDS[1]];
    assert.equal(creations.idFor(sentOnce(), PATH, shuffled, "back_forward", NOW + 1), ID);
  });

  test("a field changed after Back is a new creation", () => {
    const other = [["name", "Copa del Bar 2"], FIELDS[1], FIELDS[2]];
    assert.equal(creations.idFor(sentOnce(), PATH, other, "back_forward", NOW + 1), null);
    const more = [...FIELDS, ["jokers", "2"]];
    assert.equal(creations.idFor(sentOnce(), PATH, more, "back_forward", NOW + 1), null);
  });

  test("a form reached by a link or typed address, or reloaded, is a new creation", () => {
    for (const navigation of ["navigate", "reload", "prerender", "", undefined]) {
      assert.equal(creations.idFor(sentOnce(), PATH, FIELDS, navigation, NOW + 1), null, String(navigation));
    }
  });

  test("another creation form's address remembers its own", () => {
    assert.equal(creations.idFor(sentOnce(), "/groups/new", FIELDS, "back_forward", NOW + 1), null);
  });

  test("after half an hour (or with the clock put back) the form is a new one", () => {
    const store = sentOnce();
    assert.equal(creations.idFor(store, PATH, FIELDS, "back_forward", NOW + creations.KEEP_MS), ID);
    assert.equal(creations.idFor(store, PATH, FIELDS, "back_forward", NOW + creations.KEEP_MS + 1), null);
    assert.equal(creations.idFor(store, PATH, FIELDS, "back_forward", NOW - 1), null);
  });

  test("nothing sent, or a garbled memory: no id", () => {
    assert.equal(creations.idFor(memoryStore(), PATH, FIELDS, "back_forward", NOW), null);
    const garbled = memoryStore({ [creations.PREFIX + PATH]: { id: 7, at: "x" } });
    assert.equal(creations.idFor(garbled, PATH, FIELDS, "back_forward", NOW), null);
  });

  test("the last sending is the one remembered; no id, nothing remembered", () => {
    const store = sentOnce();
    const other = [["name", "Copa B"]];
    creations.sent(store, PATH, other, "f".repeat(32), NOW + 5);
    assert.equal(creations.idFor(store, PATH, FIELDS, "back_forward", NOW + 6), null);
    assert.equal(creations.idFor(store, PATH, other, "back_forward", NOW + 6), "f".repeat(32));
    const empty = memoryStore();
    creations.sent(empty, PATH, FIELDS, "", NOW);
    assert.deepEqual(empty.keys(), []);
  });
});
