// The turn clock (companion/static/js/clock.js): the turn's own seconds go
// first, then the seat's reserve; the figures never read 0:00 while time is left.
import { test, describe } from "node:test";
import assert from "node:assert/strict";

import clock from "../../companion/static/js/clock.js";

describe("remaining", () => {
  test("the turn's own time is spent before the reserve", () => {
    assert.deepEqual(clock.remaining(20, 60, 5), { turn: 15, reserve: 60, low: false, out: false });
    assert.deepEqual(clock.remaining(20, 60, 20), { turn: 0, reserve: 60, low: false, out: false });
    assert.deepEqual(clock.remaining(20, 60, 35), { turn: 0, reserve: 45, low: false, out: false });
  });

  test("the last ten seconds are low, and none left is out", () => {
    assert.equal(clock.remaining(20, 0, 10).low, true);
    assert.equal(clock.remaining(20, 0, 9).low, false);
    assert.equal(clock.remaining(20, 60, 79).out, false);
    assert.deepEqual(clock.remaining(20, 60, 95), { turn: 0, reserve: 0, low: true, out: true });
  });

  test("a page drawn with the reserve already running counts it down", () => {
    assert.deepEqual(clock.remaining(0, 42, 2), { turn: 0, reserve: 40, low: false, out: false });
  });

  test("a clock behind the server's never counts up", () => {
    assert.deepEqual(clock.remaining(20, 60, -3), { turn: 20, reserve: 60, low: false, out: false });
  });
});

describe("mmss", () => {
  test("minutes and two-digit seconds", () => {
    assert.equal(clock.mmss(180), "3:00");
    assert.equal(clock.mmss(65), "1:05");
    assert.equal(clock.mmss(0), "0:00");
  });

  test("rounded up: 0.2 s left still reads 0:01", () => {
    assert.equal(clock.mmss(0.2), "0:01");
    assert.equal(clock.mmss(-1), "0:00");
  });
});

describe("tick", () => {
  function fakeClock(turn, reserve) {
    const spans = { ".turn-left": { textContent: "" }, ".reserve-left": { textContent: "" } };
    const classes = new Set();
    const el = {
      dataset: { turn: String(turn), reserve: String(reserve) },
      querySelector: (sel) => spans[sel],
      classList: { toggle: (name, on) => (on ? classes.add(name) : classes.delete(name)) },
    };
    return { el, spans, classes, root: { querySelectorAll: () => [el] } };
  }

  test("counts from when the page first showed the clock", () => {
    const c = fakeClock(20, 60);
    clock.tick(c.root, 1000);
    assert.equal(c.spans[".turn-left"].textContent, "0:20");
    clock.tick(c.root, 26000);
    assert.equal(c.spans[".turn-left"].textContent, "0:00");
    assert.equal(c.spans[".reserve-left"].textContent, "0:55");
    assert.equal(c.classes.has("low"), false);
    clock.tick(c.root, 72000);
    assert.equal(c.spans[".reserve-left"].textContent, "0:09");
    assert.equal(c.classes.has("low"), true);
  });
});
