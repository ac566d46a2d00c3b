// Chinchón companion: drafts, a hand half entered that survives a reload.
// One draft per table and hand, whatever the version of the table: it lasts
// until the hand is saved or dropped, or for two days.  A hand form says
// which hand it is in `data-draft="<table>:new|edit:<number>:<version>"`.
// No DOM: `store` is {read(key, fallback), write(key, value or null), keys()}
// (offline.js wraps localStorage), so `node --test` checks this file.
(function (exports) {
  "use strict";

  const PREFIX = "chinchon-draft:";
  const SUBMITTED = "chinchon-submitted"; // the draft of the form just sent
  const KEEP_DAYS = 2;
  const DAY_MS = 86400000;

  // "<table>:new|edit:<number>:<version>" → {token, kind, number, version}.
  function parse(attribute) {
    if (!attribute) return null;
    const parts = attribute.split(":");
    return { token: parts[0], kind: parts[1], number: parseInt(parts[2], 10), version: parseInt(parts[3], 10) };
  }

  // The draft's key: the table, the kind and the number (not the version).
  function keyOf(attribute) {
    return attribute ? PREFIX + attribute.split(":").slice(0, 3).join(":") : null;
  }

  function save(store, key, fields, now) {
    if (key) store.write(key, { at: now, fields: fields });
  }

  // The fields of the draft, or null.
  function load(store, key) {
    const draft = key ? store.read(key, null) : null;
    return draft && draft.fields ? draft.fields : null;
  }

  function drop(store, key) {
    if (key) store.write(key, null);
  }

  // The form is being sent: its draft goes once the next page shows it
  // arrived.  `sent` says what was sent ({url, submission, version, number,
  // edit, names}): a page that says the server could not save the hand
  // (unsent) turns the draft into a queued hand from it.
  function submitted(store, key, sent) {
    store.write(SUBMITTED, Object.assign({}, sent || {}, { key: key }));
  }

  function sentKey(mark) {
    return typeof mark === "string" ? mark : mark && mark.key;
  }

  // The hand just sent, which the server could not save: what was sent and
  // the draft's fields (null: none); the mark is read once, the draft stays
  // for the caller to queue, then drop.
  function unsent(store) {
    const mark = store.read(SUBMITTED, null);
    store.write(SUBMITTED, null);
    const key = sentKey(mark);
    const fields = load(store, key);
    return key && fields && typeof mark === "object" ? { sent: mark, fields: fields } : null;
  }

  // Old drafts go: that of a form already sent (unless it is `current`, the
  // form shown again), those of new hands of the same table before this one
  // (saved meanwhile), those older than two days, and any of an older form.
  function sweep(store, current, now) {
    const sent = sentKey(store.read(SUBMITTED, null));
    if (sent && sent !== current) store.write(sent, null);
    store.write(SUBMITTED, null);
    const parts = current ? current.slice(PREFIX.length).split(":") : null;
    const stale = now - KEEP_DAYS * DAY_MS;
    store.keys().forEach(function (key) {
      if (!key || key.indexOf(PREFIX) !== 0 || key === current) return;
      const draft = store.read(key, null);
      const other = key.slice(PREFIX.length).split(":");
      const saved = !!parts && parts[1] === "new" && other[0] === parts[0] && other[1] === "new"
        && parseInt(other[2], 10) < parseInt(parts[2], 10);
      if (!draft || !draft.at || draft.at < stale || saved || other.length > 3) store.write(key, null);
    });
  }

  exports.PREFIX = PREFIX;
  exports.SUBMITTED = SUBMITTED;
  exports.KEEP_DAYS = KEEP_DAYS;
  exports.parse = parse;
  exports.keyOf = keyOf;
  exports.save = save;
  exports.load = load;
  exports.drop = drop;
  exports.submitted = submitted;
  exports.unsent = unsent;
  exports.sweep = sweep;
})(typeof module === "object" && module.exports ? module.exports : ((self.Chinchon = self.Chinchon || {}).drafts = {}));
