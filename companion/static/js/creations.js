// Chinchón companion: a creation form sent again after Back makes nothing new.
// Each creation form (a table, a game, a tournament, a group: `data-creation`)
// carries a one-time id; the server stores it with what the form made, and
// the same id sent again leads there ("already created: here it is").  But
// Back to a page the server will not let the browser keep (no-store) asks
// for the form again: it comes with a new id, and the browser puts back what
// was typed.  So this tab remembers, per address, the id and the fields of
// the last creation it sent; a form shown by Back or Forward that sends the
// very same fields sends that id again.  A form reached any other way, or
// changed in any field, is a new creation.
// No DOM: `store` is {read(key, fallback), write(key, value or null)}
// (offline.js wraps sessionStorage), so `node --test` checks this file.
(function (exports) {
  "use strict";

  const PREFIX = "chinchon-created:";
  const KEEP_MS = 30 * 60000; // an evening's Back, not yesterday's form

  // The fields as sent ([[name, value], …], the one-time id and the CSRF
  // token left out by the caller), in one order: what makes two sendings alike.
  function print(fields) {
    return JSON.stringify(fields.map(function (pair) { return [String(pair[0]), String(pair[1])]; }).sort(function (a, b) {
      return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
    }));
  }

  // The id this sending should carry: the last one sent from this address,
  // when the page was shown by Back or Forward and nothing was changed; else null (keep the page's).
  function idFor(store, path, fields, navigation, now) {
    if (navigation !== "back_forward") return null;
    const last = store.read(PREFIX + path, null);
    if (!last || typeof last.id !== "string" || typeof last.at !== "number") return null;
    if (now - last.at > KEEP_MS || now < last.at || last.print !== print(fields)) return null;
    return last.id;
  }

  // Remember what was sent.
  function sent(store, path, fields, id, now) {
    if (id) store.write(PREFIX + path, { id: id, print: print(fields), at: now });
  }

  exports.PREFIX = PREFIX;
  exports.KEEP_MS = KEEP_MS;
  exports.print = print;
  exports.idFor = idFor;
  exports.sent = sent;
})(typeof module === "object" && module.exports ? module.exports : ((self.Chinchon = self.Chinchon || {}).creations = {}));
