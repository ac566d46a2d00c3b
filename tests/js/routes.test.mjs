// Route shapes read from the client config (companion/static/js/routes.js):
// the same addresses the server routes, built and recognized.
import { test } from "node:test";
import assert from "node:assert/strict";

import routesModule from "../../companion/static/js/routes.js";
import { config } from "./helpers.mjs";

const { Routes, pageConfig } = routesModule;
const routes = new Routes(config.routes);

test("addresses are built from the config's shapes", () => {
  assert.equal(routes.build("scoreboard", { token: "abc" }), "/t/abc");
  assert.equal(routes.build("newHand", { token: "abc" }), "/t/abc/hands/new");
  assert.equal(routes.build("editHand", { token: "abc", number: 3 }), "/t/abc/hands/3/edit");
  assert.equal(routes.build("offline"), "/offline");
  assert.equal(routes.build("scoreboard", { token: "a/b" }), "/t/a%2Fb");
  assert.throws(() => routes.build("scoreboard", {}), /needs token/);
  assert.throws(() => routes.build("nowhere", {}), /no route named nowhere/);
});

test("an address is recognized with its parameters, exactly", () => {
  assert.deepEqual(routes.match("scoreboard", "/t/abc"), { token: "abc" });
  assert.deepEqual(routes.match("editHand", "/t/abc/hands/12/edit"), { token: "abc", number: "12" });
  assert.equal(routes.match("scoreboard", "/t/abc/history"), null);
  assert.equal(routes.match("scoreboard", "/t/"), null);
  assert.equal(routes.match("newHand", "/t/abc/hands/new/x"), null);
  assert.deepEqual(routes.match("home", "/"), {});
  assert.equal(routes.match("home", "/offline"), null);
  // A dot is a dot.
  assert.deepEqual(routes.match("qr", "/t/abc/qr.svg"), { token: "abc" });
  assert.equal(routes.match("qr", "/t/abc/qrxsvg"), null);
});

test("a table's address recognized under it (a form's action, a page of the table)", () => {
  for (const path of ["/t/abc", "/t/abc/hands/new", "/t/abc/hands/2/edit", "/t/abc/history"]) {
    assert.deepEqual(routes.match("scoreboard", path, true), { token: "abc" }, path);
  }
  assert.equal(routes.match("scoreboard", "/tables/new", true), null);
  assert.equal(routes.match("scoreboard", "/t", true), null);
});

test("the pages the service worker keeps, and nothing else", () => {
  const kept = ["home", "scoreboard", "history", "newHand"];
  for (const path of ["/", "/t/abc", "/t/abc/history", "/t/abc/hands/new"]) assert.ok(routes.any(kept, path), path);
  for (const path of ["/offline", "/t/abc/hands/1/edit", "/t/abc/history.csv", "/t/abc/settings", "/referee/close", "/t/abc/qr.svg"]) {
    assert.ok(!routes.any(kept, path), path);
  }
});

test("what every static address starts with", () => {
  assert.equal(routes.prefix("static"), "/static/");
  assert.equal(routes.prefix("offline"), "/offline");
});

test("a page's config is read from its meta element", () => {
  const meta = { getAttribute: (name) => (name === "content" ? JSON.stringify(config) : null) };
  const doc = { querySelector: (selector) => (selector === 'meta[name="client-config"]' ? meta : null) };
  assert.deepEqual(pageConfig(doc), config);
  assert.deepEqual(pageConfig({ querySelector: () => null }), {});
});

test("the queue's header and statuses are the server's", () => {
  assert.deepEqual(config.queue, {
    header: "X-Chinchon-Queue",
    value: "1",
    statuses: { stored: "stored", stale: "stale", refused: "refused" },
  });
});
