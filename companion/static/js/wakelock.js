// Chinchón companion: keep the screen on (Wake Lock API), saying so when the
// phone refuses.  On by default while a hand is entered; elsewhere when
// asked for.  Turned off once, it stays off until turned on again.
// `listen()` at load, `start()` once the page is set up (offline.js).
(function (exports) {
  "use strict";

  const KEY = "chinchon-wake"; // 1: asked for, 0: turned off, absent: the default
  const BUTTONS = "#wake, [data-wake]";

  // Whether the screen should stay on: chosen so, or by default on hand entry.
  function wanted(chosen, entering) {
    return chosen === 1 || (chosen === null && entering);
  }

  // `store`: {read, write} (offline.js); `t(key)`: the page's words.
  function listen(store, t) {
    let lock = null;

    function buttons() { return document.querySelectorAll(BUTTONS); }

    function request() {
      return navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        lock.addEventListener("release", function () { lock = null; });
      });
    }

    function show(on, refused) {
      buttons().forEach(function (b) {
        b.setAttribute("aria-pressed", on ? "true" : "false");
        let told = b.nextElementSibling && b.nextElementSibling.classList.contains("wake-note") ? b.nextElementSibling : null;
        if (!told) {
          told = document.createElement("span");
          told.className = "wake-note";
          told.setAttribute("role", "status");
          b.insertAdjacentElement("afterend", told);
        }
        told.textContent = refused ? t("wakeRefused") : "";
      });
    }

    function isWanted() {
      return wanted(store.read(KEY, null), !!document.querySelector("form[data-draft]"));
    }

    // `quiet`: by default, not asked for: neither remembered nor told when refused.
    function on(quiet) {
      return request().then(function () {
        show(true, false);
        if (!quiet) store.write(KEY, 1);
      }, function () {
        show(false, !quiet);
        if (!quiet) store.write(KEY, null);
      });
    }

    document.addEventListener("click", function (event) {
      const b = event.target.closest ? event.target.closest(BUTTONS) : null;
      if (!b) return;
      if (b.getAttribute("aria-pressed") === "true") {
        if (lock) lock.release();
        show(false, false);
        store.write(KEY, 0);
      } else {
        on();
      }
    });
    // A part of the page drawn again (the scoreboard's live redraw) brings its
    // button back hidden and off: shown as it is.
    document.addEventListener("htmx:load", function () {
      if (!("wakeLock" in navigator)) return;
      buttons().forEach(function (b) { b.hidden = false; });
      show(!!lock, false);
    });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && isWanted() && !lock && buttons().length) on(true);
    });

    return {
      start: function () {
        if (!("wakeLock" in navigator)) return;
        buttons().forEach(function (b) { b.hidden = false; });
        if (isWanted() && buttons().length) on(true);
      },
    };
  }

  exports.KEY = KEY;
  exports.wanted = wanted;
  exports.listen = listen;
})(typeof module === "object" && module.exports ? module.exports : ((self.Chinchon = self.Chinchon || {}).wakelock = {}));
