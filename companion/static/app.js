// Chinchón companion: small enhancements on server-rendered pages.
// Without this file every control still works (each tap is a form submit
// the server applies); with it, card taps toggle at once and the verdict
// refreshes in place through htmx.
(function () {
  "use strict";

  // The form is the grid's only state: one checkbox per card copy and tab,
  // a radio button for the active tab.  A tap checks a box natively (the
  // same with or without this file); this script only shows counters and
  // marks, moves on after a player's cards and asks for the verdict once
  // tapping pauses (hx-trigger="entry-change delay:…").
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
        var token = cell.getAttribute("data-token");
        var who = held[token] || [];
        var full = who.length >= (token === "*" ? jokers : copies);
        cell.querySelectorAll("input.pick").forEach(function (box) { box.disabled = !box.checked && full; });
        var marks = who.filter(function (k) { return k !== key; }).map(function (k) { return markOf(form, k); }).join("");
        cell.querySelectorAll(".owner").forEach(function (owner) { owner.textContent = marks; });
      });
    });
  }

  // After a player's cards (data-advance of them), show the next player's
  // grid, in play order from the closer, and stop once everybody is in.
  function advance(form, panel) {
    var limit = panel ? parseInt(panel.getAttribute("data-advance"), 10) : 0;
    if (!limit || panel.querySelectorAll("input.pick:checked").length !== limit) return;
    if (form.dataset.entry === "points") {
      // The table types the others' points (its last way): go to the first empty field.
      var field = Array.prototype.slice.call(form.querySelectorAll(".points-row input"))
        .filter(function (input) { return input.offsetParent && !input.value; })[0];
      if (field) field.focus();
      return;
    }
    var keys = panels(form).filter(function (p) { return p.hasAttribute("data-advance"); })
      .map(function (p) { return p.getAttribute("data-panel"); });
    var closer = form.querySelector("input[name=closer]:checked");
    var first = closer && keys.indexOf(closer.value) >= 0 ? closer.value : keys[0];
    var next = keys[(keys.indexOf(panel.getAttribute("data-panel")) + 1) % keys.length];
    if (next === undefined || next === first) return;
    var radio = form.querySelector('input[name=active][value="' + next + '"]');
    if (radio) radio.checked = true;
  }

  function changed(form) {
    if (window.htmx) window.htmx.trigger(form, "entry-change");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-alt]") : null;
    var form = button ? gridForm(button) : null;
    if (!form || !form.contains(button)) return;
    event.preventDefault();
    hidden(form, "c" + button.getAttribute("data-alt")).value = button.getAttribute("data-next");
    changed(form);
  });

  document.addEventListener("change", function (event) {
    var target = event.target;
    var form = gridForm(target);
    if (!form || !form.contains(target)) return;
    if (target.classList.contains("pick")) {
      refresh(form);
      if (target.checked) advance(form, target.closest("[data-panel]"));
      changed(form);
    } else if (target.name === "active") {
      return; // only which grid shows: nothing new to judge
    } else if (target.hasAttribute("data-reload")) {
      // A choice that changes which fields the page shows: load it whole.
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    } else {
      if (target.name === "closer") {
        var radio = form.querySelector('input[name=active][value="' + target.value + '"]');
        if (radio) radio.checked = true;
      }
      changed(form);
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

  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-grid]").forEach(refresh);
  });

  // -- Drafts: a hand being entered survives a reload or a lost connection. --
  function draftKey(form) {
    return form.dataset.draft ? "chinchon-draft:" + form.dataset.draft : null;
  }

  function saveDraft(form) {
    var key = draftKey(form);
    if (!key) return;
    var data = {};
    form.querySelectorAll("input[type=hidden], input[type=number], input[type=radio]:checked, input[type=checkbox]").forEach(function (input) {
      if (input.name === "csrf_token") return;
      if (input.type === "checkbox") data[input.name] = input.checked;
      else data[input.name] = input.value;
    });
    try { localStorage.setItem(key, JSON.stringify(data)); } catch (e) { /* private mode: nothing to keep */ }
  }

  function restoreDraft(form) {
    var key = draftKey(form);
    if (!key || form.dataset.fresh !== "1") return;
    var raw = null;
    try { raw = localStorage.getItem(key); } catch (e) { return; }
    if (!raw) return;
    var data = JSON.parse(raw);
    Object.keys(data).forEach(function (name) {
      var value = data[name];
      form.querySelectorAll('[name="' + name + '"]').forEach(function (input) {
        if (input.type === "radio") input.checked = input.value === value;
        else if (input.type === "checkbox") input.checked = !!value;
        else input.value = value;
      });
    });
    refresh(form);
    if (window.htmx) window.htmx.trigger(form, "entry-change");
  }

  document.addEventListener("entry-change", function (event) { saveDraft(event.target); });
  document.addEventListener("input", function (event) {
    var form = gridForm(event.target);
    if (form) saveDraft(form);
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (navigator.onLine === false && form.method.toLowerCase() === "post") {
      event.preventDefault();
      saveDraft(form);
      var note = document.getElementById("offline-note");
      if (!note) {
        note = document.createElement("p");
        note.id = "offline-note";
        note.className = "error";
        note.setAttribute("role", "alert");
        form.parentNode.insertBefore(note, form);
      }
      note.textContent = document.body.dataset.offlineText;
    } else {
      saveDraft(form);
    }
  });

  // -- Keep the screen on during a match (Wake Lock API, where it exists). --
  var lock = null;
  function wakeButton() { return document.getElementById("wake"); }
  function requestLock() {
    return navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      lock.addEventListener("release", function () { lock = null; });
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("#wake") : null;
    if (!button) return;
    var on = button.getAttribute("aria-pressed") === "true";
    if (on) {
      button.setAttribute("aria-pressed", "false");
      if (lock) lock.release();
      try { localStorage.removeItem("chinchon-wake"); } catch (e) { /* ignore */ }
    } else {
      requestLock().then(function () {
        button.setAttribute("aria-pressed", "true");
        try { localStorage.setItem("chinchon-wake", "1"); } catch (e) { /* ignore */ }
      }).catch(function () { /* refused: leave it off */ });
    }
  });
  document.addEventListener("visibilitychange", function () {
    var button = wakeButton();
    if (button && button.getAttribute("aria-pressed") === "true" && !lock && document.visibilityState === "visible") {
      requestLock().catch(function () { /* ignore */ });
    }
  });

  function ready() {
    var button = wakeButton();
    if (button && "wakeLock" in navigator) {
      button.hidden = false;
      var wanted = false;
      try { wanted = localStorage.getItem("chinchon-wake") === "1"; } catch (e) { /* ignore */ }
      if (wanted) requestLock().then(function () { button.setAttribute("aria-pressed", "true"); }).catch(function () {});
    }
    var form = document.querySelector("form[data-grid]");
    if (form) restoreDraft(form);
    if ("serviceWorker" in navigator && document.body.dataset.sw) {
      navigator.serviceWorker.register(document.body.dataset.sw).catch(function () { /* not fatal */ });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready); else ready();
})();
