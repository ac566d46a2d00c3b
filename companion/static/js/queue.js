// Chinchón companion: the offline queue, hands saved without a connection.
// Each waits on the phone (offline.js keeps the list in localStorage) and is
// sent by itself, in order per table, when the connection returns.  Each
// keeps its one-time submission id, so the server stores it once however
// often it is sent.  This file holds the entries and every change of their
// state; it knows no page, no storage and no network, so `node --test`
// checks it as the pages use it.
(function (exports) {
  "use strict";

  // A queued hand's states.
  const STATES = Object.freeze({
    PENDING: "pending", // waiting to be sent (again)
    REFUSED: "refused", // the engine refused it: shown with the reason, to be changed or dropped
    STALE: "stale", // another phone saved the table first: shown beside what is stored
  });
  // Not states an entry holds: a hand not in the queue yet, and one that left it.
  const NEW = "new";
  const GONE = "gone";

  // Every change of state: the states it starts from, the state it leads to.
  const TRANSITIONS = Object.freeze({
    keep: { from: [NEW, STATES.PENDING, STATES.REFUSED, STATES.STALE], to: STATES.PENDING }, // saved (again) on the phone
    stored: { from: [STATES.PENDING, STATES.REFUSED, STATES.STALE], to: GONE }, // the server holds it, whatever happened here meanwhile
    refused: { from: [STATES.PENDING], to: STATES.REFUSED },
    stale: { from: [STATES.PENDING], to: STATES.STALE },
    failed: { from: [STATES.PENDING], to: STATES.PENDING }, // no answer to read (HTTP error, no network): tried again later
    sendMine: { from: [STATES.STALE], to: STATES.PENDING }, // as the next hand, after the one stored
    drop: { from: [STATES.PENDING, STATES.REFUSED, STATES.STALE], to: GONE },
  });

  class QueueError extends Error {}

  function stateOf(entry) {
    return entry ? entry.state : NEW;
  }

  function can(entry, action) {
    const transition = TRANSITIONS[action];
    return !!transition && transition.from.indexOf(stateOf(entry)) >= 0;
  }

  function verify(entry, action) {
    if (!TRANSITIONS[action]) throw new QueueError("no such change: " + action);
    if (!can(entry, action)) throw new QueueError("a hand " + stateOf(entry) + " cannot be " + action);
  }

  class Queue {
    // `entries`: the list as kept (plain objects, in the order kept);
    // `statuses`: the server's answers (the config's queue.statuses);
    // `newId`: a new random id (entries and submissions).
    constructor(entries, options) {
      this.entries = Array.isArray(entries) ? entries : [];
      this.statuses = options.statuses;
      this.newId = options.newId;
    }

    find(id) {
      return this.entries.find(function (e) { return e.id === id; }) || null;
    }

    ofTable(token) {
      return this.entries.filter(function (e) { return e.token === token; });
    }

    // The tables with hands waiting, in the order their first hand was kept.
    tokens() {
      return Array.from(new Set(this.entries.map(function (e) { return e.token; })));
    }

    hasPending() {
      return this.entries.some(function (e) { return e.state === STATES.PENDING; });
    }

    // The number after the last new hand waiting for this table (null: none waits).
    nextNumber(token) {
      const waiting = this.ofTable(token).filter(function (e) { return !e.edit; });
      return waiting.length ? waiting[waiting.length - 1].number + 1 : null;
    }

    // The hand to send next for this table: its first, while that one is
    // pending and not `busy` (being changed right now: nothing goes past it).
    next(token, busy) {
      const head = this.ofTable(token)[0];
      return head && head.state === STATES.PENDING && head.id !== busy ? head : null;
    }

    can(id, action) {
      return can(this.find(id), action);
    }

    // Keeps a hand saved on the phone: the entry `id` changed, or a new one.
    // `hand`: {token, url, edit, submission, copied (the page was the
    // worker's copy: its submission id was shown before), version, number,
    // fields, summary, at}.  A new hand goes after those waiting for its
    // table, numbered after the last new one; a correction keeps its number.
    keep(hand, id) {
      let entry = id ? this.find(id) : null;
      verify(entry, "keep");
      if (!entry) {
        const mine = this.ofTable(hand.token);
        const last = mine[mine.length - 1];
        const taken = hand.copied || this.entries.some(function (e) { return e.submission === hand.submission; });
        const after = this.nextNumber(hand.token);
        entry = {
          id: this.newId(),
          token: hand.token,
          url: hand.url,
          edit: !!hand.edit,
          submission: taken ? this.newId() : hand.submission,
          version: last ? last.version : hand.version,
          number: after !== null && !hand.edit ? after : hand.number,
          keptAt: hand.at,
        };
        this.entries.push(entry);
      }
      entry.fields = hand.fields;
      entry.summary = hand.summary;
      entry.state = TRANSITIONS.keep.to;
      entry.reason = entry.last = entry.error = null;
      return entry;
    }

    // What the server answered for the entry `id` sent: `outcome` is
    // {status: the HTTP status (0: none), answer: its JSON, or null}.
    // True when it was stored (the next of its table may go).
    answer(id, outcome) {
      const entry = this.find(id);
      const reply = outcome && outcome.answer;
      const status = reply ? reply.status : null;
      if (!entry) return false;
      if (status === this.statuses.stored) {
        this.stored(entry, reply);
        return true;
      }
      if (status === this.statuses.refused && can(entry, "refused")) {
        entry.state = TRANSITIONS.refused.to;
        entry.reason = reply.error;
      } else if (status === this.statuses.stale && can(entry, "stale")) {
        entry.state = TRANSITIONS.stale.to;
        entry.last = reply.last;
        entry.serverVersion = reply.version;
        entry.serverNext = reply.next_number;
      } else if (can(entry, "failed")) {
        entry.state = TRANSITIONS.failed.to;
        entry.error = outcome && outcome.status ? "HTTP " + outcome.status : "network";
      }
      return false;
    }

    // Stored: it leaves; the next of its table goes on top of the version
    // now stored, and the new hands after it are numbered from the server's next.
    stored(entry, reply) {
      verify(entry, "stored");
      this.remove(entry);
      const next = this.ofTable(entry.token)[0];
      if (next) next.version = reply.version;
      this.renumber(entry.token, reply.next_number);
    }

    // The person drops a hand: the next one goes where it would have gone.
    drop(id) {
      const entry = this.find(id);
      verify(entry, "drop");
      const head = this.ofTable(entry.token)[0] === entry;
      this.remove(entry);
      const rest = this.ofTable(entry.token);
      const stale = entry.state === STATES.STALE;
      if (head && rest.length) {
        // On top of what the server holds.
        rest[0].version = stale ? entry.serverVersion : entry.version;
      }
      const firstNew = rest.find(function (e) { return !e.edit; });
      if (firstNew) {
        const from = stale ? entry.serverNext : Math.min(entry.edit ? firstNew.number : entry.number, firstNew.number);
        this.renumber(entry.token, from);
      }
      return entry;
    }

    // A hand that met a newer version goes as the next hand after the one stored.
    sendMine(id) {
      const entry = this.find(id);
      verify(entry, "sendMine");
      entry.version = entry.serverVersion;
      entry.state = TRANSITIONS.sendMine.to;
      this.renumber(entry.token, entry.serverNext);
      return entry;
    }

    // New hands are numbered on from `first`, in order; corrections keep theirs.
    renumber(token, first) {
      let next = first;
      this.ofTable(token).forEach(function (e) {
        if (e.edit) return;
        e.number = next;
        next += 1;
      });
    }

    remove(entry) {
      this.entries.splice(this.entries.indexOf(entry), 1);
    }
  }

  // What a queued hand shows: each player as entered, their cards, else the
  // points typed for them (the closer's: typed, else the score picked), as
  // the server reads the form.  A hand of typed points only shows its
  // points; cards wait for the engine.  `fields`: [name, value] pairs;
  // `names`: {seat: player}; `f`: the config's field names.
  function summarize(fields, names, f) {
    const all = function (name) {
      return fields.filter(function (p) { return p[0] === name; }).map(function (p) { return p[1].trim(); });
    };
    const closer = all(f.closer)[0];
    const entered = Object.keys(names).map(function (seat) {
      const cards = all(f.cards + seat).join(" ");
      const points = all(f.points + seat)[0] || (seat === closer && all(f.closerScore)[0]) || "";
      return { name: names[seat], cards: cards, value: cards || points };
    });
    const byPoints = entered.every(function (p) { return !p.cards && p.value; });
    return {
      closer: names[closer] || "",
      mode: byPoints ? "points" : "cards",
      players: entered.map(function (p) { return [p.name, p.value]; }),
    };
  }

  exports.STATES = STATES;
  exports.TRANSITIONS = TRANSITIONS;
  exports.QueueError = QueueError;
  exports.Queue = Queue;
  exports.summarize = summarize;
})(typeof module === "object" && module.exports ? module.exports : ((self.Chinchon = self.Chinchon || {}).queue = {}));
