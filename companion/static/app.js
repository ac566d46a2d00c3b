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
})();
