// Drafts (companion/static/js/drafts.js): one per table and hand, gone once
// the hand is saved, replaced by a later hand of the table, or two days old.
import { test, describe } from "node:test";
import assert from "node:assert/strict";

import drafts from "../../companion/static/js/drafts.js";
import { memoryStore } from "./helpers.mjs";

const DAY = 86400000;
const NOW = 100 * DAY;

describe("keys", () => {
  test("a form's data-draft is table, kind, number and version", () => {
    assert.deepEqual(drafts.parse("abc:new:3:17"), { token: "abc", kind: "new", number: 3, version: 17 });
    assert.deepEqual(drafts.parse("abc:edit:1:17").kind, "edit");
    assert.equal(drafts.parse(""), null);
  });

  test("one draft per table and hand, whatever the version", () => {
    assert.equal(drafts.keyOf("abc:new:3:17"), "chinchon-draft:abc:new:3");
    assert.equal(drafts.keyOf("abc:new:3:18"), drafts.keyOf("abc:new:3:17"));
    assert.notEqual(drafts.keyOf("abc:edit:3:17"), drafts.keyOf("abc:new:3:17"));
    assert.equal(drafts.keyOf(undefined), null);
  });
});

describe("saving and reading", () => {
  test("the fields come back until the draft is dropped", () => {
    const store = memoryStore();
    const key = drafts.keyOf("abc:new:3:17");
    drafts.save(store, key, [["closer", "1"], ["h1", "5c"]], NOW);
    assert.deepEqual(store.read(key), { at: NOW, fields: [["closer", "1"], ["h1", "5c"]] });
    assert.deepEqual(drafts.load(store, key), [["closer", "1"], ["h1", "5c"]]);
    drafts.drop(store, key);
    assert.equal(drafts.load(store, key), null);
    assert.deepEqual(store.keys(), []);
  });

  test("no form, no draft", () => {
    const store = memoryStore();
    drafts.save(store, null, [], NOW);
    assert.deepEqual(store.keys(), []);
    assert.equal(drafts.load(store, null), null);
  });
});

describe("sweeping", () => {
  const current = "chinchon-draft:abc:new:3";

  test("a form sent goes, unless it is the form shown again", () => {
    const store = memoryStore({ "chinchon-draft:abc:new:2": { at: NOW, fields: [] } });
    drafts.submitted(store, "chinchon-draft:abc:new:2");
    drafts.sweep(store, "chinchon-draft:xyz:new:1", NOW);
    assert.deepEqual(store.keys(), []);

    const again = memoryStore({ [current]: { at: NOW, fields: [] } });
    drafts.submitted(again, current);
    drafts.sweep(again, current, NOW); // refused: the same form came back
    assert.deepEqual(again.keys(), [current]);
  });

  test("earlier new hands of the same table go; other tables and corrections stay", () => {
    const store = memoryStore({
      "chinchon-draft:abc:new:1": { at: NOW, fields: [] },
      "chinchon-draft:abc:new:2": { at: NOW, fields: [] },
      "chinchon-draft:abc:new:4": { at: NOW, fields: [] },
      "chinchon-draft:abc:edit:1": { at: NOW, fields: [] },
      "chinchon-draft:xyz:new:1": { at: NOW, fields: [] },
      [current]: { at: NOW, fields: [] },
    });
    drafts.sweep(store, current, NOW);
    assert.deepEqual(store.keys().sort(), [
      "chinchon-draft:abc:edit:1",
      "chinchon-draft:abc:new:3",
      "chinchon-draft:abc:new:4",
      "chinchon-draft:xyz:new:1",
    ]);
  });

  test("after two days a draft goes; a broken one or one of an older form at once", () => {
    const store = memoryStore({
      "chinchon-draft:a:new:1": { at: NOW - 2 * DAY - 1, fields: [] },
      "chinchon-draft:b:new:1": { at: NOW - 2 * DAY + 1, fields: [] },
      "chinchon-draft:c:new:1": { fields: [] },
      "chinchon-draft:d:new:1:7": { at: NOW, fields: [] },
      "chinchon-queue": [{ id: "x" }],
      "chinchon-wake": 1,
    });
    drafts.sweep(store, null, NOW);
    assert.deepEqual(store.keys().sort(), ["chinchon-draft:b:new:1", "chinchon-queue", "chinchon-wake"]);
  });

  test("a hand the server could not save comes back with what was sent, once", () => {
    const fields = [["closer", "1"], ["p0", "10"], ["p1", "-10"]];
    const sent = { url: "/t/abc/hands/new", submission: "s1", version: 4, number: 3, edit: false, names: { 0: "Ana" } };
    const store = memoryStore({ [current]: { at: NOW, fields: fields } });
    drafts.submitted(store, current, sent);
    assert.deepEqual(drafts.unsent(store), { sent: { ...sent, key: current }, fields: fields });
    assert.equal(drafts.unsent(store), null); // read once
    assert.deepEqual(drafts.load(store, current), fields); // the draft stays until it is queued
  });

  test("nothing comes back when no hand was sent, or its draft is gone", () => {
    assert.equal(drafts.unsent(memoryStore()), null);
    const store = memoryStore();
    drafts.submitted(store, current, { url: "/t/abc/hands/new" });
    assert.equal(drafts.unsent(store), null);
  });

  test("the mark of the form sent is read once", () => {
    const store = memoryStore();
    drafts.submitted(store, current);
    drafts.sweep(store, current, NOW);
    assert.equal(store.read(drafts.SUBMITTED, null), null);
  });
});
