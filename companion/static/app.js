// Chinchón companion: small enhancements on server-rendered pages.
// Without this file every control still works (each tap is a form submit
// the server applies); with it, card taps toggle at once and the verdict
// refreshes in place through htmx.
(function () {
  "use strict";

  // The form is the grid's only state: one checkbox per card copy and tab,
  // a radio button for the active tab.  A tap checks a box natively (the
  // same with or without this file); this script only shows counters and
  // marks, moves on after a player's cards and asks for the verdict
  // (hx-trigger="entry-check") once tapping pauses or a tab is full.
  //
  // Every change fires "entry-change" at once (offline.js keeps the draft on
  // it); the verdict is asked PAUSE_MS after the last tap or keystroke, longer
  // than a tap at a person's pace (0.8 s), so entering a hand is a few
  // requests, not one a tap.  A player's last card (the tab's count reached)
  // or another arrangement asked for is judged at once.  Until the verdict
  // comes the summary says "checking…" (data-waiting, then htmx-request).
  var PAUSE_MS = 1200;
  var waits = new WeakMap();
  function gridForm(el) {
    var form = el && el.closest ? el.closest("form[data-grid]") : null;
    return form || document.querySelector("form[data-grid]");
  }

  function hidden(form, name) {
    var input = form.querySelector('input[type=hidden][name="' + name + '"]');
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    return input;
  }

  function panels(form) {
    return Array.prototype.slice.call(form.querySelectorAll(".grid[data-panel]"));
  }

  function tabOf(form, key) {
    return form.querySelector('[data-tab="' + key + '"]');
  }

  function markOf(form, key) {
    var tab = tabOf(form, key);
    return tab ? tab.getAttribute("data-mark") || "" : "";
  }

  function refresh(form) {
    var copies = parseInt(form.dataset.copies, 10) || 1;
    var jokers = parseInt(form.dataset.jokers, 10) || 0;
    var held = {};
    panels(form).forEach(function (panel) {
      var key = panel.getAttribute("data-panel");
      var boxes = panel.querySelectorAll("input.pick:checked");
      boxes.forEach(function (box) { (held[box.value] = held[box.value] || []).push(key); });
      var tab = tabOf(form, key);
      var count = tab ? tab.querySelector("[data-count]") : null;
      if (count) count.textContent = boxes.length;
    });
    panels(form).forEach(function (panel) {
      var key = panel.getAttribute("data-panel");
      panel.querySelectorAll(".cell").forEach(function (cell) {
        var token = cell.getAttribute("data-card");
        var who = held[token] || [];
        var full = who.length >= (token === "*" ? jokers : copies);
        var boxes = cell.querySelectorAll("input.pick");
        boxes.forEach(function (box) { box.disabled = !box.checked && full; });
        var marks = who.filter(function (k) { return k !== key; }).map(function (k) { return markOf(form, k); }).join("");
        var face = cell.querySelector(".pick ~ span");
        if (marks) face.setAttribute("data-owner", marks); else face.removeAttribute("data-owner");
        face.inert = Array.prototype.every.call(boxes, function (box) { return box.disabled; });
      });
    });
  }

  // Players still in, in play order starting with the closer (the panels are in seat order).
  function playOrder(form) {
    var keys = panels(form).filter(function (p) { return p.hasAttribute("data-advance"); })
      .map(function (p) { return p.getAttribute("data-panel"); });
    var closer = form.querySelector("input[name=closer]:checked");
    var i = closer ? keys.indexOf(closer.value) : -1;
    return i > 0 ? keys.slice(i).concat(keys.slice(0, i)) : keys;
  }

  function activate(form, key) {
    var radio = form.querySelector('input[name=active][value="' + key + '"]');
    if (!radio) return;
    radio.checked = true;
    var tab = radio.closest(".tab");
    if (tab && tab.scrollIntoView) tab.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  // After a player's cards (data-advance of them), show the next player's
  // grid, in play order from the closer, and stop once everybody is in.
  function advance(form, panel) {
    var limit = panel ? parseInt(panel.getAttribute("data-advance"), 10) : 0;
    if (!limit || panel.querySelectorAll("input.pick:checked").length !== limit) return;
    var order = playOrder(form);
    var key = panel.getAttribute("data-panel");
    if (form.dataset.entry === "points") {
      // The table types the others' points (its last way): the next field in
      // play order, once the verdict says the closer's cards make a legal close.
      if (key === order[0]) form.dataset.focusNext = "tapped";
      return;
    }
    var next = order[order.indexOf(key) + 1];
    if (next !== undefined) activate(form, next);
  }

  function focusNextPoints(form) {
    var order = playOrder(form);
    var field = order.slice(1).map(function (key) { return document.getElementById("p" + key); })
      .filter(function (input) { return input && input.offsetParent && !input.value; })[0];
    if (field) field.focus();
  }

  // The summary says what the form holds at once: a typed or picked score for
  // a player without cards (the server's line replaces it after each preview).
  function syncSummary(form) {
    var summary = document.getElementById("summary");
    if (!summary) return;
    var closer = form.querySelector("input[name=closer]:checked");
    var picked = form.querySelector("input[name=closer_score]:checked");
    summary.querySelectorAll(".who[data-seat]").forEach(function (who) {
      var seat = who.getAttribute("data-seat");
      var panel = form.querySelector('.grid[data-panel="' + seat + '"]');
      if (panel && panel.querySelector("input.pick:checked")) return; // judged from the cards
      var input = document.getElementById("p" + seat);
      var value = input && input.value.trim();
      if (!value && closer && closer.value === seat && picked) value = picked.value;
      var b = who.querySelector("b");
      if (b) b.textContent = value || "–";
    });
  }

  function closerChanged(form, radio) {
    activate(form, radio.value);
    var pick = form.querySelector("[data-closer-pick]");
    var name = pick ? pick.querySelector("[data-closer-name]") : null;
    var label = radio.closest("label");
    if (name && label) name.textContent = label.textContent.trim();
    if (pick && name) pick.open = false;
  }

  // A panel whose count is reached: a player's seven (data-advance) or the
  // most the tab takes (data-limit, the discard's one card).
  function full(panel) {
    var count = panel.querySelectorAll("input.pick:checked").length;
    return count === parseInt(panel.getAttribute("data-advance"), 10) || count === parseInt(panel.getAttribute("data-limit"), 10);
  }

  function changed(form, now) {
    if (!window.htmx) return;
    window.htmx.trigger(form, "entry-change");
    clearTimeout(waits.get(form));
    form.setAttribute("data-waiting", "");
    if (now) window.htmx.trigger(form, "entry-check");
    else waits.set(form, setTimeout(function () { window.htmx.trigger(form, "entry-check"); }, PAUSE_MS));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-alt]") : null;
    var form = button ? gridForm(button) : null;
    if (!form || !form.contains(button)) return;
    event.preventDefault();
    hidden(form, "c" + button.getAttribute("data-alt")).value = button.getAttribute("data-next");
    changed(form, true);
  });

  document.addEventListener("change", function (event) {
    var target = event.target;
    var form = gridForm(target);
    if (!form || !form.contains(target)) return;
    if (target.classList.contains("pick")) {
      var panel = target.closest("[data-panel]");
      refresh(form);
      if (target.checked) advance(form, panel);
      changed(form, full(panel));
    } else if (target.name === "active") {
      return; // only which grid shows: nothing new to judge
    } else if (target.hasAttribute("data-reload")) {
      // A choice that changes which fields the page shows: load it whole.
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    } else {
      if (target.name === "closer") closerChanged(form, target);
      syncSummary(form);
      changed(form);
    }
  });

  // A typed score shows in the summary as it is typed, not when the field loses focus.
  document.addEventListener("input", function (event) {
    var target = event.target;
    var form = gridForm(target);
    if (!form || !form.contains(target) || !target.classList.contains("points")) return;
    putRight(target);
    syncSummary(form);
    changed(form);
  });

  // A field put right after a refused save: its message goes, here and in the list at the top.
  function putRight(target) {
    if (!target.id || target.getAttribute("aria-invalid") !== "true") return;
    target.removeAttribute("aria-invalid");
    var said = document.getElementById("e-" + target.id);
    if (said) said.hidden = true;
    var item = document.querySelector('[data-refused] li[data-field="' + target.id + '"]');
    if (item) item.classList.add("put-right");
  }

  // A tap on a filled points field selects its value: the next digits replace it.
  // The tap's own mouseup would put a caret in place of the selection: it is
  // stopped once, right after the focus (else, racing it, "5" typed on "-5" read "5-5").
  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (!target.classList || !target.classList.contains("points") || !target.value) return;
    target.select();
    target.dataset.selected = "1";
  });
  document.addEventListener("mouseup", function (event) {
    var target = event.target;
    if (!target.dataset || target.dataset.selected !== "1") return;
    delete target.dataset.selected;
    event.preventDefault();
  });
  document.addEventListener("focusout", function (event) {
    if (event.target.dataset) delete event.target.dataset.selected;
  });

  // After each verdict: the typed scores the server has not seen yet, and the
  // next points field once the closer's cards make a legal close.
  document.addEventListener("htmx:afterSettle", function (event) {
    var form = gridForm(event.target);
    if (!form) return;
    syncSummary(form);
    if (form.dataset.focusNext === "sent") {
      delete form.dataset.focusNext;
      var summary = document.getElementById("summary");
      if (summary && summary.classList.contains("is-legal")) focusNextPoints(form);
    }
  });

  document.addEventListener("click", function (event) {
    // A score offered as a choice (the closer's legal scores) fills its field.
    var choice = event.target.closest ? event.target.closest("button[data-fill]") : null;
    if (!choice) return;
    var input = document.getElementById(choice.getAttribute("data-fill"));
    if (!input) return;
    event.preventDefault();
    input.value = choice.value;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // The verdict that waits for is the one asked after the closer's last card.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = gridForm(event.target);
    if (!form) return;
    if (event.detail.elt === form) form.removeAttribute("data-waiting"); // htmx-request says "checking…" from here
    if (form.dataset.focusNext === "tapped") form.dataset.focusNext = "sent";
  });

  // Saved or checked as a whole form: the server judges what it holds, no preview is owed.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-grid]")) return;
    clearTimeout(waits.get(form));
    form.removeAttribute("data-waiting");
  });

  // Throw or close before tapping a card: say so in the page's words, on the first card.
  document.addEventListener("invalid", function (event) {
    var input = event.target, form = input.form;
    if (input.name === "card" && form && form.dataset.pickFirst) input.setCustomValidity(form.dataset.pickFirst);
  }, true);
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (event.target.name !== "card" || !form || !form.dataset.pickFirst) return;
    form.querySelectorAll("input[name=card]").forEach(function (input) { input.setCustomValidity(""); });
  });

  // A stored moment in the phone's own time zone, as the page's language writes it.
  function localTimes() {
    if (!window.Intl) return;
    var format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: "short", timeStyle: "short" });
    document.querySelectorAll("time[data-local]").forEach(function (node) {
      var moment = new Date(node.getAttribute("datetime"));
      if (!isNaN(moment)) node.textContent = format.format(moment);
    });
  }

  window.addEventListener("pageshow", function () {
    localTimes();
    document.querySelectorAll("form[data-grid]").forEach(function (form) { refresh(form); syncSummary(form); });
  });
})();
