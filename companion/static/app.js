// Chinchón companion: small enhancements on server-rendered pages.
// Without this file every control still works (each tap is a form submit
// the server applies); with it, card taps toggle at once and the verdict
// refreshes in place through htmx.
(function () {
  "use strict";

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

  function tabButtons(form) {
    return Array.prototype.slice.call(form.querySelectorAll("[data-tab]"));
  }

  function cardsOf(form, tabButton) {
    var value = hidden(form, tabButton.getAttribute("data-input")).value.trim();
    return value ? value.split(/\s+/) : [];
  }

  function holders(form, token) {
    var out = [];
    tabButtons(form).forEach(function (b) {
      cardsOf(form, b).forEach(function (c) {
        if (c === token) out.push(b);
      });
    });
    return out;
  }

  function copies(form, token) {
    return token === "*" ? parseInt(form.dataset.jokers, 10) : parseInt(form.dataset.copies, 10);
  }

  function markOf(button) {
    var label = button.firstChild ? button.firstChild.textContent.trim() : "";
    return button.getAttribute("data-tab") === "d" ? "↓" : label.slice(0, 2);
  }

  function refresh(form) {
    var active = hidden(form, "active").value;
    tabButtons(form).forEach(function (b) {
      b.setAttribute("aria-pressed", b.getAttribute("data-tab") === active ? "true" : "false");
      var count = b.querySelector("[data-count]");
      if (count) count.textContent = cardsOf(form, b).length;
    });
    form.querySelectorAll("[data-card]").forEach(function (b) {
      var token = b.getAttribute("data-card");
      var held = holders(form, token);
      var mine = held.filter(function (t) { return t.getAttribute("data-tab") === active; }).length;
      b.setAttribute("aria-pressed", mine ? "true" : "false");
      b.disabled = !mine && held.length >= copies(form, token);
      var owner = b.querySelector(".owner");
      if (owner) {
        owner.textContent = held.filter(function (t) { return t.getAttribute("data-tab") !== active; })
          .map(markOf).join("") + (mine > 1 ? "×" + mine : "");
      }
    });
  }

  function changed(form) {
    refresh(form);
    if (window.htmx) window.htmx.trigger(form, "entry-change");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button") : null;
    var form = button ? gridForm(button) : null;
    if (!form || !form.contains(button)) return;
    var active = hidden(form, "active");
    if (button.name === "tab") {
      event.preventDefault();
      active.value = button.value;
      refresh(form);
    } else if (button.name === "tap") {
      event.preventDefault();
      var tab = form.querySelector('[data-tab="' + active.value + '"]');
      if (!tab) return;
      var token = button.value;
      var mine = cardsOf(form, tab);
      var free = copies(form, token) - holders(form, token).length;
      if (free > 0 && mine.length < parseInt(tab.getAttribute("data-max"), 10)) {
        mine.push(token);
      } else {
        mine = mine.filter(function (c) { return c !== token; });
      }
      hidden(form, tab.getAttribute("data-input")).value = mine.join(" ");
      changed(form);
    } else if (button.name === "alt") {
      event.preventDefault();
      hidden(form, "c" + button.getAttribute("data-alt")).value = button.getAttribute("data-next");
      changed(form);
    }
  });

  document.addEventListener("change", function (event) {
    var form = gridForm(event.target);
    if (!form || !form.contains(event.target)) return;
    if (event.target.name === "closer") {
      hidden(form, "active").value = event.target.value;
      refresh(form);
    } else if (event.target.hasAttribute("data-reload")) {
      // A choice that changes which fields the page shows: load it whole.
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    }
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
