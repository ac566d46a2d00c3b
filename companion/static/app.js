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
})();
