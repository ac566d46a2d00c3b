// Chinchón companion: small enhancements on server-rendered pages.
// Without this file every control still works (each tap is a form submit);
// with it, card taps toggle instantly and the verdict refreshes in place.
(function () {
  "use strict";

  function handForm() {
    return document.getElementById("hand-form");
  }

  function field(form, name) {
    return form.querySelector('input[type=hidden][name="' + name + '"]');
  }

  function cardsOf(form, tab) {
    if (tab === "d") {
      var d = field(form, "discard").value.trim();
      return d ? [d] : [];
    }
    var input = field(form, "h" + tab);
    return input && input.value.trim() ? input.value.trim().split(/\s+/) : [];
  }

  function setCards(form, tab, cards) {
    if (tab === "d") {
      field(form, "discard").value = cards.join(" ");
    } else {
      field(form, "h" + tab).value = cards.join(" ");
    }
  }

  function tabs(form) {
    return Array.prototype.map.call(form.querySelectorAll("[data-tab]"), function (b) {
      return b.getAttribute("data-tab");
    });
  }

  function holders(form, token) {
    var out = [];
    tabs(form).forEach(function (tab) {
      cardsOf(form, tab).forEach(function (c) {
        if (c === token) out.push(tab);
      });
    });
    return out;
  }

  function copies(form, token) {
    return token === "*" ? parseInt(form.dataset.jokers, 10) : parseInt(form.dataset.copies, 10);
  }

  function refresh(form) {
    var active = field(form, "active").value;
    form.querySelectorAll("[data-tab]").forEach(function (b) {
      var tab = b.getAttribute("data-tab");
      b.setAttribute("aria-pressed", tab === active ? "true" : "false");
      var count = form.querySelector('[data-count="' + tab + '"]');
      if (count) count.textContent = cardsOf(form, tab).length;
    });
    form.querySelectorAll("[data-card]").forEach(function (b) {
      var token = b.getAttribute("data-card");
      var held = holders(form, token);
      var mine = held.filter(function (t) { return t === active; }).length;
      var others = held.filter(function (t) { return t !== active; });
      b.setAttribute("aria-pressed", mine ? "true" : "false");
      b.disabled = !mine && held.length >= copies(form, token);
      var owner = b.querySelector(".owner");
      if (owner) {
        owner.textContent = others.map(function (t) {
          if (t === "d") return "↓";
          var tab = form.querySelector('[data-tab="' + t + '"]');
          return tab ? tab.firstChild.textContent.trim().slice(0, 2) : "";
        }).join("") + (mine > 1 ? "×" + mine : "");
      }
    });
  }

  function changed(form) {
    refresh(form);
    if (window.htmx) window.htmx.trigger(form, "entry-change");
  }

  document.addEventListener("click", function (event) {
    var form = handForm();
    if (!form) return;
    var button = event.target.closest("button");
    if (!button || !form.contains(button)) return;
    var active = field(form, "active");
    if (button.name === "tab") {
      event.preventDefault();
      active.value = button.value;
      refresh(form);
    } else if (button.name === "tap") {
      event.preventDefault();
      var tab = active.value;
      if (!tab) return;
      var token = button.value;
      var mine = cardsOf(form, tab);
      var free = copies(form, token) - holders(form, token).length;
      var limit = tab === "d" ? 1 : 8;
      if (free > 0 && mine.length < limit) {
        mine.push(token);
      } else {
        mine = mine.filter(function (c) { return c !== token; });
      }
      setCards(form, tab, mine);
      changed(form);
    } else if (button.name === "alt") {
      event.preventDefault();
      var seat = button.getAttribute("data-alt");
      var input = field(form, "c" + seat);
      if (!input) {
        input = document.createElement("input");
        input.type = "hidden";
        input.name = "c" + seat;
        form.appendChild(input);
      }
      input.value = button.getAttribute("data-next");
      changed(form);
    }
  });

  document.addEventListener("change", function (event) {
    var form = handForm();
    if (!form || !form.contains(event.target)) return;
    if (event.target.name === "closer") {
      field(form, "active").value = event.target.value;
      refresh(form);
    } else if (event.target.name === "mode") {
      // The grid and the points fields are different sections: reload them.
      form.requestSubmit ? form.requestSubmit() : form.submit();
    }
  });
})();
