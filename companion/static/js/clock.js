// Chinchón companion: the turn clock as a phone shows it.  The server sends
// the seconds left of the turn and of the seat's reserve when it drew the
// page (services/clock.py owns the time; it plays a turn whose time ran
// out); the page counts down from there between two draws.
// `remaining()` and `mmss()` are pure; `tick()` updates every [data-clock].
(function (exports) {
  "use strict";

  const LOW = 10; // seconds: the clock turns red

  // What is left after `elapsed` seconds: the turn's own time first, then the reserve.
  function remaining(turn, reserve, elapsed) {
    const spent = Math.max(0, elapsed);
    const turnLeft = Math.max(0, turn - spent);
    const reserveLeft = Math.max(0, reserve - Math.max(0, spent - turn));
    return { turn: turnLeft, reserve: reserveLeft, low: turnLeft + reserveLeft <= LOW, out: turnLeft + reserveLeft <= 0 };
  }

  // Whole seconds as m:ss, rounded up (a clock never shows 0:00 while time is left).
  function mmss(seconds) {
    const whole = Math.max(0, Math.ceil(seconds));
    const m = Math.floor(whole / 60);
    const s = whole % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  // Every clock on the page, `now` in milliseconds (performance.now()):
  // a clock first seen now starts counting from its server figures.
  function tick(root, now) {
    root.querySelectorAll("[data-clock]").forEach(function (el) {
      if (!el.dataset.t0) el.dataset.t0 = String(now);
      const left = remaining(Number(el.dataset.turn), Number(el.dataset.reserve), (now - Number(el.dataset.t0)) / 1000);
      const turn = el.querySelector(".turn-left");
      const reserve = el.querySelector(".reserve-left");
      if (turn) turn.textContent = mmss(left.turn);
      if (reserve) reserve.textContent = mmss(left.reserve);
      el.classList.toggle("low", left.low);
    });
  }

  function start() {
    tick(document, performance.now());
    setInterval(function () { tick(document, performance.now()); }, 250);
  }

  exports.LOW = LOW;
  exports.remaining = remaining;
  exports.mmss = mmss;
  exports.tick = tick;
  exports.start = start;
})(typeof module === "object" && module.exports ? module.exports : ((self.Chinchon = self.Chinchon || {}).clock = {}));
