// The offline queue (companion/static/js/queue.js): its states and every
// change between them, the numbering of hands waiting, and what each answer
// of the server does.
import { test, describe } from "node:test";
import assert from "node:assert/strict";

import queueModule from "../../companion/static/js/queue.js";
import { config } from "./helpers.mjs";

const { STATES, TRANSITIONS, Queue, QueueError, summarize } = queueModule;
const STATUSES = config.queue.statuses;

function makeQueue(entries = []) {
  let n = 0;
  return new Queue(entries, { statuses: STATUSES, newId: () => `id${++n}` });
}

// A hand saved on the hand page of table "abc" (hand 2 at version 5 unless told).
function hand(overrides = {}) {
  return {
    token: "abc",
    url: "/t/abc/hands/new",
    edit: false,
    submission: "sub-page",
    copied: false,
    version: 5,
    number: 2,
    fields: [["closer", "0"]],
    summary: { closer: "Ana", mode: "cards", players: [] },
    at: 1000,
    ...overrides,
  };
}

function stored(version, next) {
  return { status: 200, answer: { status: STATUSES.stored, version, next_number: next, last: null } };
}

const LAST = { number: 2, closer: "Ben", points: [["Ana", 5], ["Ben", -10]] };

describe("states and transitions", () => {
  test("the states are listed once: pending, refused, stale", () => {
    assert.deepEqual(Object.values(STATES).sort(), ["pending", "refused", "stale"]);
    assert.ok(Object.isFrozen(STATES) && Object.isFrozen(TRANSITIONS));
  });

  test("every transition starts from known states and leads to one", () => {
    const known = new Set([...Object.values(STATES), "new", "gone"]);
    for (const [action, { from, to }] of Object.entries(TRANSITIONS)) {
      assert.ok(from.length, action);
      for (const state of from) assert.ok(known.has(state), `${action} from ${state}`);
      assert.ok(known.has(to), `${action} to ${to}`);
    }
  });

  test("the table of transitions, state by state", () => {
    const expected = {
      keep: ["new", "pending", "refused", "stale"],
      stored: ["pending", "refused", "stale"],
      refused: ["pending"],
      stale: ["pending"],
      failed: ["pending"],
      sendMine: ["stale"],
      drop: ["pending", "refused", "stale"],
    };
    assert.deepEqual(Object.keys(TRANSITIONS).sort(), Object.keys(expected).sort());
    for (const [action, from] of Object.entries(expected)) {
      for (const state of Object.values(STATES)) {
        const q = makeQueue([{ id: "x", token: "abc", state, edit: false, number: 1 }]);
        assert.equal(q.can("x", action), from.includes(state), `${action} from ${state}`);
      }
      assert.equal(makeQueue().can("missing", action), from.includes("new"), `${action} of a hand not kept`);
    }
  });

  test("a change that is not allowed raises and leaves the queue as it was", () => {
    const q = makeQueue();
    const entry = q.keep(hand());
    const before = JSON.stringify(q.entries);
    assert.throws(() => q.sendMine(entry.id), QueueError);
    assert.throws(() => q.drop("missing"), QueueError);
    assert.equal(JSON.stringify(q.entries), before);
  });
});

describe("keeping a hand", () => {
  test("a new hand waits, pending, with the page's submission id, version and number", () => {
    const q = makeQueue();
    const entry = q.keep(hand());
    assert.deepEqual(
      { ...entry },
      {
        id: "id1",
        token: "abc",
        url: "/t/abc/hands/new",
        edit: false,
        submission: "sub-page",
        version: 5,
        number: 2,
        keptAt: 1000,
        fields: [["closer", "0"]],
        summary: { closer: "Ana", mode: "cards", players: [] },
        state: STATES.PENDING,
        reason: null,
        last: null,
        error: null,
      },
    );
    assert.deepEqual(q.entries, [entry]);
  });

  test("the next new hand goes after it, numbered on, at the same version", () => {
    const q = makeQueue();
    q.keep(hand());
    const second = q.keep(hand({ submission: "sub-2", version: 5, number: 2 }));
    assert.equal(second.number, 3);
    assert.equal(second.version, 5);
    assert.deepEqual(q.ofTable("abc").map((e) => e.id), ["id1", "id2"]);
    assert.equal(q.nextNumber("abc"), 4);
  });

  test("a copy of the page kept by the worker shows the same id each time: a new one is drawn", () => {
    assert.equal(makeQueue().keep(hand({ copied: true })).submission, "id2");
    // The same id already in the queue: the second hand gets a new one too.
    const q = makeQueue();
    assert.equal(q.keep(hand()).submission, "sub-page");
    assert.equal(q.keep(hand()).submission, "id3");
  });

  test("a correction keeps its number; a new hand after it takes the page's", () => {
    const q = makeQueue();
    const fix = q.keep(hand({ edit: true, number: 1, url: "/t/abc/hands/1/edit" }));
    assert.equal(fix.number, 1);
    assert.equal(q.nextNumber("abc"), null);
    assert.equal(q.keep(hand({ number: 3 })).number, 3);
  });

  test("kept again (changed), the same entry is pending with the new fields", () => {
    const q = makeQueue();
    const entry = q.keep(hand());
    q.answer(entry.id, { status: 200, answer: { status: STATUSES.refused, error: "Ana cannot close." } });
    assert.equal(entry.state, STATES.REFUSED);
    const again = q.keep(hand({ fields: [["closer", "3"]] }), entry.id);
    assert.equal(again, entry);
    assert.equal(q.entries.length, 1);
    assert.deepEqual(
      [again.state, again.reason, again.fields, again.number],
      [STATES.PENDING, null, [["closer", "3"]], 2],
    );
  });

  test("hands of two tables wait apart, the tables in the order they were first kept", () => {
    const q = makeQueue();
    q.keep(hand({ token: "zzz" }));
    q.keep(hand());
    q.keep(hand({ token: "zzz", submission: "other" }));
    assert.deepEqual(q.tokens(), ["zzz", "abc"]);
    assert.deepEqual(q.ofTable("zzz").map((e) => e.number), [2, 3]);
    assert.deepEqual(q.ofTable("abc").map((e) => e.number), [2]);
  });

  test("the entries survive being written as JSON and read back", () => {
    const q = makeQueue();
    q.keep(hand());
    const back = makeQueue(JSON.parse(JSON.stringify(q.entries)));
    assert.deepEqual(back.entries, q.entries);
    assert.ok(back.hasPending());
  });
});

describe("sending", () => {
  test("the next to send is the table's first, while pending and not being changed", () => {
    const q = makeQueue();
    const first = q.keep(hand());
    q.keep(hand({ submission: "b" }));
    assert.equal(q.next("abc"), first);
    assert.equal(q.next("abc", first.id), null); // being changed: nothing goes past it
    q.answer(first.id, { status: 200, answer: { status: STATUSES.refused, error: "no" } });
    assert.equal(q.next("abc"), null); // refused: the rest waits behind it
    assert.equal(q.next("nothing"), null);
  });

  test("stored: it leaves; the next goes on top of the version stored, renumbered from the server's next", () => {
    const q = makeQueue();
    const first = q.keep(hand());
    const second = q.keep(hand({ submission: "b" }));
    const fix = q.keep(hand({ submission: "c", edit: true, number: 1 }));
    assert.equal(q.answer(first.id, stored(6, 7)), true);
    assert.deepEqual(q.entries, [second, fix]);
    assert.equal(second.version, 6);
    assert.equal(second.number, 7);
    assert.equal(fix.number, 1);
    assert.equal(q.answer(second.id, stored(7, 8)), true);
    assert.equal(fix.version, 7);
    assert.equal(q.answer(fix.id, stored(8, 8)), true);
    assert.deepEqual(q.entries, []);
    assert.equal(q.hasPending(), false);
  });

  test("stored even when refused here meanwhile: the server holds it", () => {
    const q = makeQueue();
    const entry = q.keep(hand());
    entry.state = STATES.REFUSED;
    assert.equal(q.answer(entry.id, stored(6, 3)), true);
    assert.deepEqual(q.entries, []);
  });

  test("refused: it stays with the engine's reason and holds back the table", () => {
    const q = makeQueue();
    const entry = q.keep(hand());
    const outcome = { status: 200, answer: { status: STATUSES.refused, error: "Ana cannot close.", field: "closer" } };
    assert.equal(q.answer(entry.id, outcome), false);
    assert.equal(entry.state, STATES.REFUSED);
    assert.equal(entry.reason, "Ana cannot close.");
    assert.equal(q.hasPending(), false);
  });

  test("stale: it stays beside what is stored, with the server's version and next number", () => {
    const q = makeQueue();
    const entry = q.keep(hand());
    const outcome = { status: 200, answer: { status: STATUSES.stale, version: 6, next_number: 3, last: LAST } };
    assert.equal(q.answer(entry.id, outcome), false);
    assert.deepEqual(
      [entry.state, entry.last, entry.serverVersion, entry.serverNext],
      [STATES.STALE, LAST, 6, 3],
    );
  });

  test("no answer to read: it stays pending with the reason, to be tried again", () => {
    const q = makeQueue();
    const entry = q.keep(hand());
    assert.equal(q.answer(entry.id, { status: 500, answer: null }), false);
    assert.deepEqual([entry.state, entry.error], [STATES.PENDING, "HTTP 500"]);
    assert.equal(q.answer(entry.id, { status: 0, answer: null }), false);
    assert.equal(entry.error, "network");
    assert.equal(q.answer(entry.id, { status: 200, answer: { status: "something else" } }), false);
    assert.equal(entry.error, "HTTP 200");
    assert.ok(q.hasPending());
    // Kept again, the reason goes.
    q.keep(hand(), entry.id);
    assert.equal(entry.error, null);
  });

  test("an answer for a hand no longer waiting, or no longer pending, changes nothing", () => {
    const q = makeQueue();
    const entry = q.keep(hand());
    assert.equal(q.answer("gone", stored(6, 3)), false);
    entry.state = STATES.STALE;
    const refused = { status: 200, answer: { status: STATUSES.refused, error: "no" } };
    assert.equal(q.answer(entry.id, refused), false);
    assert.equal(entry.state, STATES.STALE);
    assert.equal(entry.reason, null);
  });
});

describe("dropping and sending mine", () => {
  // Hands 2 and 3 of "abc" at version 5; hand 2 met a newer version (6, next 3).
  function staleHead() {
    const q = makeQueue();
    const first = q.keep(hand());
    const second = q.keep(hand({ submission: "b" }));
    q.answer(first.id, { status: 200, answer: { status: STATUSES.stale, version: 6, next_number: 3, last: LAST } });
    return { q, first, second };
  }

  test("the stale head dropped: the next goes on top of the server's version, as its next hand", () => {
    const { q, first, second } = staleHead();
    assert.equal(q.drop(first.id), first);
    assert.deepEqual(q.entries, [second]);
    assert.deepEqual([second.version, second.number], [6, 3]);
  });

  test("mine sent as the next hand: pending at the server's version, numbered from its next", () => {
    const { q, first, second } = staleHead();
    q.sendMine(first.id);
    assert.deepEqual([first.state, first.version, first.number], [STATES.PENDING, 6, 3]);
    assert.equal(second.number, 4);
    assert.equal(q.next("abc"), first);
  });

  test("a pending head dropped: the next takes its place, version and number", () => {
    const q = makeQueue();
    const first = q.keep(hand());
    const second = q.keep(hand({ submission: "b" }));
    second.version = 99; // as if it had been renumbered after the first
    q.drop(first.id);
    assert.deepEqual([second.version, second.number], [5, 2]);
  });

  test("a hand in the middle dropped: those after it move up, versions unchanged", () => {
    const q = makeQueue();
    const first = q.keep(hand());
    const second = q.keep(hand({ submission: "b" }));
    const third = q.keep(hand({ submission: "c" }));
    q.drop(second.id);
    assert.deepEqual(q.entries.map((e) => [e.id, e.number, e.version]), [[first.id, 2, 5], [third.id, 3, 5]]);
  });

  test("a refused correction dropped: the new hands keep their numbers", () => {
    const q = makeQueue();
    const fix = q.keep(hand({ edit: true, number: 1 }));
    const next = q.keep(hand({ submission: "b", number: 4 }));
    q.answer(fix.id, { status: 200, answer: { status: STATUSES.refused, error: "no" } });
    q.drop(fix.id);
    assert.deepEqual([next.number, next.version], [4, 5]);
  });

  test("the last hand dropped leaves an empty queue", () => {
    const q = makeQueue();
    q.drop(q.keep(hand()).id);
    assert.deepEqual(q.entries, []);
    assert.equal(q.nextNumber("abc"), null);
  });
});

describe("what a queued hand shows", () => {
  const names = { 0: "Ana", 1: "Ben", 2: "Carla" };

  test("cards, player by player, checked later by the engine", () => {
    const fields = [["closer", "1"], ["h0", "1o 2o"], ["h0", "3o"], ["h1", "5c"], ["p2", "12"]];
    assert.deepEqual(summarize(fields, names, config.fields), {
      closer: "Ben",
      mode: "cards",
      players: [["Ana", "1o 2o 3o"], ["Ben", "5c"], ["Carla", "12"]],
    });
  });

  test("points only: the closer's typed, else the score picked", () => {
    const fields = [["closer", "1"], ["closer_score", "-10"], ["p0", " 5 "], ["p1", ""], ["p2", "12"]];
    assert.deepEqual(summarize(fields, names, config.fields), {
      closer: "Ben",
      mode: "points",
      players: [["Ana", "5"], ["Ben", "-10"], ["Carla", "12"]],
    });
  });

  test("nobody chosen yet: no closer", () => {
    assert.equal(summarize([], names, config.fields).closer, "");
  });
});
