// The page's side of the service worker and the screen lock: what they
// decide without a page (companion/static/js/worker.js, js/wakelock.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import worker from "../../companion/static/js/worker.js";
import wakelock from "../../companion/static/js/wakelock.js";
import { config } from "./helpers.mjs";

test("the worker is registered at the release the page came with", () => {
  assert.equal(worker.scriptUrl({ ...config, version: "0123456789ab" }), "/sw.js?v=0123456789ab");
});

test("a connection that saves data, or a 2G one, gets nothing ahead", () => {
  assert.equal(worker.savingData(undefined), false);
  assert.equal(worker.savingData({ saveData: false, effectiveType: "4g" }), false);
  assert.equal(worker.savingData({ saveData: true, effectiveType: "4g" }), true);
  assert.equal(worker.savingData({ saveData: false, effectiveType: "slow-2g" }), true);
  assert.equal(worker.savingData({ saveData: false, effectiveType: "2g" }), true);
});

test("a kept page is current in the page's language and of this release", () => {
  const page = '<html lang="en"><meta name="client-config" content=\'{"version": "0123456789ab"}\'>';
  assert.ok(worker.currentCopy(page, "en", "0123456789ab"));
  assert.ok(!worker.currentCopy(page, "es", "0123456789ab"));
  assert.ok(!worker.currentCopy(page, "en", "ba9876543210")); // kept by an earlier release
  assert.ok(!worker.currentCopy('<html lang="en">', "en", "0123456789ab")); // from before the config
});

test("a kept hand entry is current at the table's version, for any closer", () => {
  const release = "0123456789ab";
  const page = `<html lang="en"><meta name="client-config" content='{"version": "${release}"}'>`
    + '<input type="hidden" name="version" value="7"><input name="closer" value="1" >';
  assert.ok(worker.currentEntry(page, "en", release, "7", config.fields));
  assert.ok(!worker.currentEntry(page, "de", release, "7", config.fields)); // another language
  assert.ok(!worker.currentEntry(page, "en", "ba9876543210", "7", config.fields)); // another release
  assert.ok(!worker.currentEntry(page, "en", release, "8", config.fields)); // the table moved on
  assert.ok(!worker.currentEntry(page, "en", release, null, config.fields)); // version unknown
  const forBen = page.replace('value="1" >', 'value="1" checked>');
  assert.ok(!worker.currentEntry(forBen, "en", release, "7", config.fields)); // kept as opened for one closer
});

test("the screen stays on when asked for, or by default on hand entry; off once turned off", () => {
  assert.equal(wakelock.wanted(1, false), true);
  assert.equal(wakelock.wanted(null, true), true);
  assert.equal(wakelock.wanted(null, false), false);
  assert.equal(wakelock.wanted(0, true), false);
});
