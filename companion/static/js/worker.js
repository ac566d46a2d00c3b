// Chinchón companion: the service worker, as a page sees it.  Registers it
// (at the release the page was served with, so a new release installs a new
// worker) and asks it to keep hand entry and the offline page when its copy
// is missing or out of date (never ahead of being opened on a connection
// that saves data), and the page itself when it was opened before the worker
// ran (a first visit).  The worker keeps each page once by path, and is
// asked for one only when its copy is missing or out of date: each is
// fetched at most once per version of the table.
(function (exports) {
  "use strict";

  const PAGES = "chinchon-pages"; // the service worker's copies of pages, by path (sw.js)

  // The worker's address for this release: /sw.js?v=<release>.
  function scriptUrl(config) {
    return config.routes.serviceWorker + "?v=" + encodeURIComponent(config.version);
  }

  // A connection that asks to save data (or a 2G one) gets no page ahead of
  // being opened: the worker still keeps each page the person opens.
  function savingData(connection) {
    return !!connection && (connection.saveData === true || /2g$/.test(connection.effectiveType || ""));
  }

  // A copy in the page's language, of this release (its scripts and config:
  // the config in the copy names the release).
  function currentCopy(html, lang, release) {
    return html.indexOf('<html lang="' + lang + '"') >= 0 && html.indexOf(release) >= 0;
  }

  // Hand entry must open offline at the current version of the table, and as
  // a copy for any closer: the scoreboard links it once per closer, but it is one copy.
  function currentEntry(html, lang, release, since, fields) {
    const closerPicked = new RegExp('name="' + fields.closer + '" value="\\d+" checked');
    return since !== null && currentCopy(html, lang, release)
      && html.indexOf('name="' + fields.version + '" value="' + since + '"') >= 0
      && !closerPicked.test(html);
  }

  // The path, unless the worker's copy of it passes `current`.
  function keptCopy(path, current) {
    if (!window.caches) return Promise.resolve(path);
    return caches.open(PAGES).then(function (cache) { return cache.match(path); })
      .then(function (copy) { return copy ? copy.text() : ""; })
      .then(function (html) { return html && current(html) ? null : path; }, function () { return path; });
  }

  // The paths the worker should fetch again: the offline page in the
  // language chosen last; on a scoreboard, the hand entry it links.  Each
  // once more per release.
  function outdated(config, routes, onScoreboard) {
    const lang = document.documentElement.lang;
    const wanted = [keptCopy(config.routes.offline, function (html) { return currentCopy(html, lang, config.version); })];
    const board = onScoreboard ? document.getElementById("board") : null;
    if (board) {
      // The table's version: the scoreboard's poll asks for what is newer.
      const since = new URL(board.getAttribute("hx-get") || "", location.href).searchParams.get("since");
      const entry = new Set();
      document.querySelectorAll("a[href]:not([data-change])").forEach(function (link) {
        const path = new URL(link.href, location.href).pathname;
        if (routes.match("newHand", path)) entry.add(path);
      });
      entry.forEach(function (path) {
        wanted.push(keptCopy(path, function (html) { return currentEntry(html, lang, config.version, since, config.fields); }));
      });
    }
    return Promise.all(wanted).then(function (paths) { return paths.filter(Boolean); });
  }

  // `onScoreboard`: whether this page is a table's scoreboard.
  function start(config, routes, onScoreboard) {
    if (!("serviceWorker" in navigator) || !config.routes) return;
    if (document.body.dataset.keptAt || navigator.onLine === false) return;
    // Opened before the worker ran (a first visit): nothing kept this page on
    // its way, so the worker fetches it once.  It keeps only pages it keeps.
    const unkept = navigator.serviceWorker.controller ? [] : [location.pathname];
    navigator.serviceWorker.register(scriptUrl(config)).catch(function () { /* not fatal */ });
    navigator.serviceWorker.ready.then(function (registration) {
      // Once installed: its installation keeps the offline page itself.
      const paths = savingData(navigator.connection) ? Promise.resolve([]) : outdated(config, routes, onScoreboard);
      return paths.then(function (kept) {
        const all = Array.from(new Set(unkept.concat(kept)));
        if (all.length) registration.active.postMessage({ type: "keep", paths: all });
      });
    });
  }

  exports.PAGES = PAGES;
  exports.scriptUrl = scriptUrl;
  exports.savingData = savingData;
  exports.currentCopy = currentCopy;
  exports.currentEntry = currentEntry;
  exports.start = start;
})(typeof module === "object" && module.exports ? module.exports : ((self.Chinchon = self.Chinchon || {}).worker = {}));
