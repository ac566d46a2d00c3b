// Chinchón companion: an evening without signal, wired to the page.
//  - Marks a page the service worker served from the phone's copy ("offline ·
//    as of 21:40"); js/worker.js registers the worker and has it keep pages.
//  - Drafts (js/drafts.js): a hand being entered survives a reload; removed once stored.
//  - The queue (js/queue.js): a hand saved without a connection is kept on
//    this phone (localStorage: it survives closing the browser), listed on
//    the scoreboard, and sent by itself, in order, when the connection
//    returns (the `online` event, the next page load, a retry every 30 s).
//    A hand the engine refuses comes back with the reason; one that meets a
//    newer version of the table is shown beside what is stored.
//  - Keep the screen on (js/wakelock.js).
//  - A creation form sent again after Back sends the id it was sent with
//    (js/creations.js), so the server leads to what it made.
// Addresses, the hand form's field names, the queue's header and the server's
// answers come from the client config the page carries (companion/web/client.py);
// the words, in the page's language, from the banner's data-texts.
// The card grid itself is app.js's; this file talks to it only through the
// form's inputs and a `change` event on the closer.
(function (Chinchon) {
  "use strict";

  const { STATES, Queue } = Chinchon.queue;
  const drafts = Chinchon.drafts;
  const creations = Chinchon.creations;
  const config = Chinchon.routes.pageConfig(document);
  const routes = new Chinchon.routes.Routes(config.routes || {});
  const F = config.fields || {};
  const QUEUE = "chinchon-queue";
  const EDITING = "chinchon-editing";
  const NOTICE = "chinchon-notice";
  const RETRY_MS = 30000;
  const loadedAt = Date.now();
  let texts = {};
  let notice = ""; // "2 hands sent.", shown once on the scoreboard

  function t(key, values) {
    let text = texts[key] || "";
    Object.keys(values || {}).forEach(function (name) { text = text.split("{" + name + "}").join(String(values[name])); });
    return text;
  }

  function plural(one, other, n) {
    const rule = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang).select(n) : (n === 1 ? "one" : "other");
    return t(rule === "one" ? one : other, { n: n });
  }

  // -- storage ---------------------------------------------------------------
  // {read, write, keys} over a Web Storage (JSON values): localStorage for what
  // survives closing the browser, sessionStorage for this tab's memory only.
  // Private mode or a full storage: the page still works, without memory.
  function storeOver(storage) {
    return {
      read: function (key, fallback) {
        try {
          const raw = storage().getItem(key);
          return raw ? JSON.parse(raw) : fallback;
        } catch (e) {
          return fallback;
        }
      },
      write: function (key, value) {
        try {
          if (value === null) storage().removeItem(key); else storage().setItem(key, JSON.stringify(value));
        } catch (e) { /* no memory */ }
      },
      keys: function () {
        const all = [];
        for (let i = 0; i < storage().length; i++) all.push(storage().key(i));
        return all;
      },
    };
  }

  const store = storeOver(function () { return localStorage; });
  const read = store.read;
  const write = store.write;
  // This tab's memory (creations.js).
  const tabStore = storeOver(function () { return sessionStorage; });

  function session(key, value) {
    try {
      if (value === undefined) return sessionStorage.getItem(key);
      if (value === null) sessionStorage.removeItem(key); else sessionStorage.setItem(key, value);
    } catch (e) { /* ignore */ }
    return null;
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    return Date.now().toString(16) + Math.random().toString(16).slice(2);
  }

  function queue() {
    return new Queue(read(QUEUE, []), { statuses: config.queue.statuses, newId: newId });
  }

  // An empty queue leaves nothing behind in the phone's storage.
  function saveQueue(q) {
    write(QUEUE, q.entries.length ? q.entries : null);
  }

  // -- the hand form -----------------------------------------------------------
  function handForm(el) {
    const form = el && el.closest ? el.closest("form[data-draft]") : null;
    return form || document.querySelector("form[data-draft]");
  }

  // Not form.action: the Save button is named "action" and would shadow it.
  function formAction(form) {
    return new URL(form.getAttribute("action") || location.href, location.href).href;
  }

  function pathOf(url) {
    return new URL(url, location.href).pathname;
  }

  // The table of a page or form address: its scoreboard's, or one below it.
  function tokenOf(url) {
    const params = routes.match("scoreboard", pathOf(url), true);
    return params ? params.token : null;
  }

  function draftOf(form) {
    return drafts.parse(form.dataset.draft);
  }

  function draftKey(form) {
    return form && form.dataset.draft ? drafts.keyOf(form.dataset.draft) : null;
  }

  // The Save button's selector.
  function saveButton() {
    return "[name=" + F.action + "][value=" + F.save + "]";
  }

  function fieldsOf(form) {
    const sent = [F.csrf, F.version, F.submission, F.number, F.action];
    const out = [];
    new FormData(form).forEach(function (value, name) {
      if (sent.indexOf(name) < 0) out.push([name, String(value)]);
    });
    return out;
  }

  function fill(form, fields) {
    const given = {};
    fields.forEach(function (pair) { (given[pair[0]] = given[pair[0]] || []).push(pair[1]); });
    // A card held twice (two decks) is two checkboxes with one name and value:
    // tick as many of them as the draft holds.
    const left = {};
    fields.forEach(function (pair) { const k = pair[0] + "=" + pair[1]; left[k] = (left[k] || 0) + 1; });
    const cleared = new RegExp("^(" + F.cards + "|" + F.choice + ")\\d+$|^" + F.discard + "$");
    Array.prototype.forEach.call(form.elements, function (input) {
      const name = input.name;
      if (!name || [F.csrf, F.version, F.submission, F.number].indexOf(name) >= 0 || input.type === "submit" || input.tagName === "BUTTON") return;
      const values = given[name] || [];
      if (input.type === "checkbox") {
        const k = name + "=" + input.value;
        input.checked = (left[k] || 0) > 0;
        if (input.checked) left[k] -= 1;
      } else if (input.type === "radio") input.checked = values.indexOf(input.value) >= 0;
      else if (name in given) input.value = values[0];
      else if (input.type === "hidden" && cleared.test(name)) input.value = "";
    });
    Object.keys(given).forEach(function (name) {
      if (form.elements[name]) return;
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = given[name][0];
      form.appendChild(input);
    });
    // The grid (app.js) redraws on a change of the closer; the verdict follows.
    const closer = form.querySelector("input[name=" + F.closer + "]:checked");
    if (closer) closer.dispatchEvent(new Event("change", { bubbles: true }));
    form.dispatchEvent(new CustomEvent("chinchon:restored", { bubbles: true }));
  }

  function seatNames(form) {
    const names = {};
    form.querySelectorAll("input[name=" + F.closer + "]").forEach(function (input) {
      const label = input.closest("label");
      names[input.value] = label ? label.textContent.trim() : input.value;
    });
    return names;
  }

  function summaryOf(form, fields) {
    return Chinchon.queue.summarize(fields, seatNames(form), F);
  }

  // -- drafts --------------------------------------------------------------------
  // Not on a page without hand entry (the close checker's grid), nor once the hand is queued.
  function saveDraft(form) {
    if (form && form.dataset.draft && !form.dataset.queued) drafts.save(store, draftKey(form), fieldsOf(form), Date.now());
  }

  // The half-entered hand comes back however the page is reached again
  // (reload, Back, the scoreboard's closer buttons, another tab).  A closer
  // picked on the way in counts over the draft's; a reload keeps the draft's.
  function restoreDraft(form) {
    if (form.dataset.fresh !== "1") return;
    const fields = drafts.load(store, draftKey(form));
    if (fields) fill(form, fields);
    const nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    const picked = new URL(location.href).searchParams.get(F.closer);
    if (picked !== null && (!fields || !nav || nav.type === "navigate")) pickCloser(form, picked);
  }

  // The closer as the server draws a page opened for them ("Who closed? Ben
  // Change", folded): the phone's copy of hand entry is one for every closer.
  function pickCloser(form, seat) {
    const radio = form.querySelector("input[name=" + F.closer + '][value="' + seat + '"]');
    if (!radio || radio.checked) return;
    radio.checked = true;
    const summary = form.querySelector("[data-closer-pick] > summary");
    if (summary && !summary.querySelector("[data-closer-name]")) {
      const who = el("span", "", summary.textContent.trim() + " ");
      who.appendChild(el("b")).setAttribute("data-closer-name", "");
      summary.replaceChildren(who, " ", el("span", "change", t("edit")));
    }
    radio.dispatchEvent(new Event("change", { bubbles: true })); // app.js names the closer and folds the choice
  }

  function dropDraft(form) {
    drafts.drop(store, draftKey(form));
  }

  // "Start over": every card and score of this hand goes; who closed stays.
  function startOver(form) {
    if (!window.confirm(t("startOver"))) return;
    const choice = new RegExp("^" + F.choice + "\\d+$");
    Array.prototype.forEach.call(form.elements, function (input) {
      if (input.type === "checkbox") input.checked = false;
      else if (input.type === "radio" && input.name === F.closerScore) input.checked = false;
      else if (input.type === "text" || input.type === "number") input.value = "";
      else if (input.type === "hidden" && choice.test(input.name)) input.value = "";
    });
    dropDraft(form);
    const closer = form.querySelector("input[name=" + F.closer + "]:checked");
    (closer || form).dispatchEvent(new Event("change", { bubbles: true }));
    dropDraft(form);
  }

  document.addEventListener("entry-change", function (event) { saveDraft(handForm(event.target)); });
  document.addEventListener("change", function (event) {
    const form = event.target.closest ? event.target.closest("form[data-draft]") : null;
    if (form) saveDraft(form);
  });
  document.addEventListener("input", function (event) {
    const form = event.target.closest ? event.target.closest("form[data-draft]") : null;
    if (form) saveDraft(form);
  });

  // -- the queue -----------------------------------------------------------------
  function editingEntry(form, q) {
    const id = session(EDITING);
    const entry = id ? (q || queue()).find(id) : null;
    return entry && form && pathOf(formAction(form)) === entry.url ? entry : null;
  }

  function keep(form, submitter) {
    const q = queue();
    const action = formAction(form);
    const draft = draftOf(form);
    const fields = fieldsOf(form);
    const editing = editingEntry(form, q);
    const entry = q.keep({
      token: tokenOf(action),
      url: pathOf(action),
      edit: draft.kind === "edit",
      submission: form.elements[F.submission].value,
      // A copy kept by the service worker shows the same id each time it is opened.
      copied: !!document.body.dataset.keptAt,
      version: parseInt(form.elements[F.version].value, 10),
      number: draft.number,
      fields: fields,
      summary: summaryOf(form, fields),
      at: Date.now(),
    }, (editing && editing.id) || form.dataset.queued);
    saveQueue(q);
    dropDraft(form);
    form.dataset.queued = entry.id;
    session(EDITING, null);
    const waiting = q.ofTable(entry.token).length;
    note(submitter, navigator.onLine === false ? t("kept", { n: entry.number }) + " " + plural("queueOne", "queueOther", waiting) : "", "status");
    renumberPage(form, entry.number);
    if (navigator.onLine !== false) {
      flush().then(function () { afterSending(form, entry.id, submitter); });
    }
  }

  // What a hand form sends, for the queue should the server not save it.
  function sentFrom(form) {
    const draft = draftOf(form);
    return {
      url: pathOf(formAction(form)),
      submission: form.elements[F.submission].value,
      version: parseInt(form.elements[F.version].value, 10),
      number: draft.number,
      edit: draft.kind === "edit",
      names: seatNames(form),
    };
  }

  // The server could not save the hand just sent (its database was away):
  // the hand joins the queue, with the id it was sent with (stored once
  // however often it goes), and is sent by itself when the server can save.
  function keepUnsent(marker) {
    const unsent = drafts.unsent(store);
    if (!unsent) return;
    const sent = unsent.sent;
    const q = queue();
    const entry = q.keep({
      token: tokenOf(sent.url),
      url: sent.url,
      edit: !!sent.edit,
      submission: sent.submission,
      copied: false,
      version: sent.version,
      number: sent.number,
      fields: unsent.fields,
      summary: Chinchon.queue.summarize(unsent.fields, sent.names || {}, F),
      at: Date.now(),
    });
    saveQueue(q);
    drafts.drop(store, sent.key);
    marker.textContent = t("keptUnsaved", { n: entry.number });
    marker.hidden = false;
  }

  // Online, a changed or queued hand was sent at once: the reason right here
  // when the engine refused it, else the scoreboard (with what still waits).
  function afterSending(form, id, submitter) {
    const entry = queue().find(id);
    if (entry && entry.state === STATES.REFUSED) note(submitter, t("refused") + " " + entry.reason, "alert");
    else location.href = routes.build("scoreboard", { token: tokenOf(formAction(form)) });
  }

  let flushing = null;

  // Sends what waits; resolves to the number of hands stored.  A call during
  // a round of sending runs again after it (a hand kept meanwhile goes too).
  function flush() {
    if (navigator.onLine === false) return Promise.resolve(0);
    if (flushing) return flushing.then(function (sent) { return flush().then(function (more) { return sent + more; }); });
    const run = function () { return sendAll(); };
    flushing = (navigator.locks ? navigator.locks.request(QUEUE, run) : run())
      .catch(function () { return 0; /* the network dropped again: the next retry takes it */ })
      .then(function (sent) { flushing = null; render(); return sent; });
    return flushing;
  }

  async function sendAll() {
    let sent = 0;
    for (const token of queue().tokens()) {
      for (;;) {
        // Not the one the person is changing right now, nor anything behind it.
        const head = queue().next(token, session(EDITING));
        if (!head) break;
        const outcome = await send(head);
        const q = queue();
        if (!q.find(head.id)) break;
        const stored = q.answer(head.id, outcome);
        saveQueue(q);
        if (!stored) break;
        sent += 1;
      }
    }
    if (sent) {
      notice = plural("sent", "sentOther", sent);
      session(NOTICE, notice);
    }
    return sent;
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  // A page kept from a session that has since ended carries a token the
  // server no longer accepts: ask the hand page for a fresh one.
  async function freshToken(url) {
    const html = await (await fetch(url, { credentials: "same-origin" })).text();
    const match = html.match(new RegExp('name="' + F.csrf + '" value="([^"]+)"'));
    return match ? match[1] : "";
  }

  async function send(entry, token) {
    const body = new URLSearchParams();
    entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.set(F.version, String(entry.version));
    body.set(F.submission, entry.submission);
    body.set(F.action, F.save);
    body.set(F.csrf, token || csrfToken());
    const headers = {};
    headers[config.queue.header] = config.queue.value;
    const response = await fetch(entry.url, { method: "POST", body: body, credentials: "same-origin", headers: headers });
    const json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
    if (!json && response.status === 400 && !token) return send(entry, await freshToken(entry.url));
    return { status: response.status, answer: json ? await response.json() : null };
  }

  function drop(id) {
    const q = queue();
    if (!q.can(id, "drop")) return;
    q.drop(id);
    saveQueue(q);
    render();
    flush();
  }

  function sendMine(id) {
    const q = queue();
    if (!q.can(id, "sendMine")) return;
    q.sendMine(id);
    saveQueue(q);
    flush();
  }

  // -- what the person sees ----------------------------------------------------------
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function note(near, text, role) {
    const anchor = near || document.querySelector("form[data-draft] " + saveButton());
    if (!anchor) return;
    let box = document.getElementById("offline-note");
    if (!box) {
      box = el("p", "offline-note");
      box.id = "offline-note";
      // Under the button; in the hand page's action bar, under its row of buttons.
      (anchor.closest(".actions-row") || anchor).insertAdjacentElement("afterend", box);
    }
    box.setAttribute("role", role === "alert" ? "alert" : "status");
    box.className = "offline-note" + (role === "alert" ? " error" : "");
    box.hidden = !text;
    box.textContent = text;
    if (text && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
  }

  // "Hand 2 · Ben closed · Ana 5 · Ben -10 …", or, for cards, that the engine
  // has yet to check them (once it refused them, the reason says the rest).
  function describe(summary, number, state) {
    const line = el("p", "pending-line");
    line.appendChild(el("strong", "", t("hand", { n: number })));
    if (summary.closer) line.appendChild(document.createTextNode(" · " + t("closed", { name: summary.closer })));
    if (summary.mode === "points") {
      summary.players.forEach(function (p) { line.appendChild(document.createTextNode(" · " + p[0] + " " + p[1])); });
    } else if (state !== STATES.REFUSED) {
      line.appendChild(document.createTextNode(" "));
      line.appendChild(el("span", "badge unchecked", t("unchecked")));
    }
    return line;
  }

  function button(text, data, id) {
    const b = el("button", "button", text);
    b.type = "button";
    b.setAttribute(data, id);
    return b;
  }

  function pendingItem(entry) {
    const item = el("li", "pending-hand " + entry.state);
    item.dataset.entry = entry.id;
    if (entry.state === STATES.STALE && entry.last) {
      const compare = el("div", "compare");
      const server = el("div", "stored");
      server.appendChild(el("p", "", t("stale")));
      const last = entry.last;
      server.appendChild(describe({ closer: last.closer, mode: "points", players: last.points }, last.number));
      const yours = el("div", "yours");
      yours.appendChild(el("p", "", t("yours")));
      yours.appendChild(describe(entry.summary, entry.number, entry.state));
      compare.appendChild(server);
      compare.appendChild(yours);
      item.appendChild(compare);
    } else {
      item.appendChild(describe(entry.summary, entry.number, entry.state));
    }
    // What was entered, player by player: cards as tokens, or points (a hand
    // of points only has them on its line already).
    const entered = el("ul", "pending-cards");
    if (entry.summary.mode !== "points") {
      entry.summary.players.forEach(function (p) {
        if (p[1]) entered.appendChild(el("li", "", p[0] + ": " + p[1]));
      });
    }
    if (entered.children.length) item.appendChild(entered);
    if (entry.state === STATES.REFUSED) item.appendChild(el("p", "error", t("refused") + " " + entry.reason));
    if (entry.state === STATES.PENDING && entry.error && navigator.onLine !== false) {
      item.appendChild(el("p", "hint", t("retry", { reason: entry.error })));
    }
    const actions = el("p", "pending-actions");
    if (entry.state === STATES.STALE) {
      actions.appendChild(button(t("sendMine"), "data-send-mine", entry.id));
      actions.appendChild(button(t("dropMine"), "data-drop", entry.id));
    } else {
      const change = el("a", "button", t("edit"));
      change.href = entry.url;
      change.setAttribute("data-change", entry.id);
      actions.appendChild(change);
      actions.appendChild(button(t("drop"), "data-drop", entry.id));
    }
    item.appendChild(actions);
    return item;
  }

  function scoreboardToken() {
    const params = routes.match("scoreboard", location.pathname);
    return params && document.querySelector(".scores") ? params.token : null;
  }

  function render() {
    const token = scoreboardToken();
    if (!token) return;
    const q = queue();
    const entries = q.ofTable(token);
    let box = document.getElementById("pending-hands");
    if (!box) {
      box = el("section", "panel pending");
      box.id = "pending-hands";
      box.setAttribute("aria-live", "polite");
      const scores = document.querySelector("[data-pending-hands]") || document.querySelector(".scores");
      scores.insertAdjacentElement("afterend", box);
    }
    box.textContent = "";
    if (notice) box.appendChild(el("p", "ok", notice));
    box.hidden = !entries.length && !notice;
    if (entries.length) {
      box.appendChild(el("h2", "", plural("queueOne", "queueOther", entries.length)));
      const list = el("ol", "pending-list");
      entries.forEach(function (e) { list.appendChild(pendingItem(e)); });
      box.appendChild(list);
    }
    // "Enter hand N: who closed?" follows the hands still waiting.
    const enter = document.getElementById("who-closed");
    const next = q.nextNumber(token);
    if (enter && next !== null) enter.textContent = enter.textContent.replace(/\d+/, String(next));
  }

  // The hand page served for hand 2 while hands 2 and 3 wait is really hand 4.
  function renumberPage(form, number) {
    const shown = draftOf(form).number;
    if (shown === number) return;
    const save = form.querySelector(saveButton());
    [document.querySelector("h1"), save].forEach(function (node) {
      if (node) node.textContent = node.textContent.replace(String(form.dataset.shown || shown), String(number));
    });
    form.dataset.shown = number;
  }

  function prepareHandPage(form) {
    const q = queue();
    const editing = editingEntry(form, q);
    if (editing) {
      form.dataset.queued = editing.id;
      if (form.dataset.fresh === "1") fill(form, editing.fields);
      renumberPage(form, editing.number);
      const refused = editing.state === STATES.REFUSED;
      note(null, refused ? t("refused") + " " + editing.reason : t("editing"), refused ? "alert" : "status");
      return;
    }
    session(EDITING, null);
    restoreDraft(form);
    const draft = draftOf(form);
    const next = q.nextNumber(tokenOf(formAction(form)));
    if (draft.kind === "new" && next !== null) renumberPage(form, Math.max(draft.number, next));
  }

  // -- the banner --------------------------------------------------------------------
  function banner() {
    const box = document.getElementById("offline-banner");
    if (!box) return;
    const kept = Number(document.body.dataset.keptAt) || 0;
    const offline = navigator.onLine === false;
    box.hidden = !kept && !offline;
    // A kept copy's messages ("Hand 1 saved.") were said long ago.
    if (kept) document.querySelectorAll(".flashes").forEach(function (f) { f.hidden = true; });
    if (box.hidden) return;
    const time = new Intl.DateTimeFormat(clockLocale(), { hour: "2-digit", minute: "2-digit" });
    box.textContent = t("asOf", { time: time.format(new Date(kept || loadedAt)) });
  }

  // The page's language in the reader's own region, for the clock: the page says "en",
  // an en-GB phone reads 24-hour time ("08:16"), an en-US one "08:16 AM".
  function clockLocale() {
    const page = document.documentElement.lang || "en";
    const base = page.split("-")[0].toLowerCase();
    const mine = (navigator.languages || []).find(function (l) { return l.split("-")[0].toLowerCase() === base; });
    return mine || page;
  }

  // -- creation forms ------------------------------------------------------------------
  // How this page was reached: "back_forward" when by Back or Forward.
  function navigationType() {
    const entries = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation") : [];
    return entries.length ? entries[0].type : "";
  }

  // A creation form sent again after Back carries the id it was first sent with.
  function sendCreation(form) {
    const id = form.elements[F.submission];
    if (!id || !id.value) return;
    const fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== F.csrf && name !== F.submission && typeof value === "string") fields.push([name, value]);
    });
    const path = pathOf(formAction(form));
    const before = creations.idFor(tabStore, path, fields, navigationType(), Date.now());
    if (before) id.value = before;
    creations.sent(tabStore, path, fields, id.value, Date.now());
  }

  // -- events ------------------------------------------------------------------------
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if ((form.method || "").toLowerCase() !== "post") return;
    if (form.matches("form[data-creation]")) sendCreation(form);
    const submitter = event.submitter;
    const isHand = form.matches("form[data-draft]");
    const saving = isHand && submitter && submitter.name === F.action && submitter.value === F.save;
    const offline = navigator.onLine === false;
    if (saving && (offline || form.dataset.queued || editingEntry(form) || queue().ofTable(tokenOf(formAction(form))).length)) {
      // Offline, or behind hands still waiting: this hand joins the queue, in order.
      event.preventDefault();
      keep(form, submitter);
    } else if (offline) {
      event.preventDefault();
      if (isHand) saveDraft(form);
      note(submitter || form.querySelector("button"), t("notSent"), "status");
    } else if (isHand) {
      saveDraft(form);
      if (saving) drafts.submitted(store, draftKey(form), sentFrom(form));
    }
  });

  document.addEventListener("click", function (event) {
    const target = event.target.closest ? event.target.closest("[data-drop], [data-send-mine], [data-change], [data-start-over], [data-drop-draft]") : null;
    if (!target) return;
    if (target.hasAttribute("data-start-over")) startOver(handForm(target));
    else if (target.hasAttribute("data-drop-draft")) dropDraft(handForm(target));
    else if (target.hasAttribute("data-drop")) drop(target.getAttribute("data-drop"));
    else if (target.hasAttribute("data-send-mine")) sendMine(target.getAttribute("data-send-mine"));
    else session(EDITING, target.getAttribute("data-change"));
  });

  // The scoreboard redrawn by its poll: what another phone did is the news
  // now, and the notes about this phone's last write are gone with it.
  document.addEventListener("htmx:afterSwap", function (event) {
    const target = event.detail && event.detail.target;
    if (target && target.id === "board") document.querySelectorAll(".flashes .flash").forEach(function (f) { f.remove(); });
  });

  // Without the server there is no verdict: say so instead of failing.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine !== false) return;
    event.preventDefault();
    const target = event.detail && event.detail.target;
    if (target && target.id === "verdict") target.replaceChildren(el("p", "todo unchecked", t("uncheckedLong")));
  });

  // Back online: send what waits, then show the server's page again (never
  // under a hand being entered: its cards would go).
  window.addEventListener("online", function () {
    banner();
    // Taken back at once, it was no connection: a reload now would only cut
    // short the page being opened.
    if (navigator.onLine === false) return;
    flush().then(function (sent) {
      if (document.querySelector("form[data-draft]")) return;
      if (document.body.dataset.keptAt || (sent && scoreboardToken())) location.reload();
    });
  });
  window.addEventListener("offline", banner);
  window.addEventListener("pageshow", function (event) { if (event.persisted) { banner(); render(); } });

  const wakelock = Chinchon.wakelock.listen(store, t);

  // -- start --------------------------------------------------------------------------
  function ready() {
    const data = document.getElementById("offline-banner");
    try { texts = JSON.parse((data && data.dataset.texts) || "{}"); } catch (e) { texts = {}; }
    banner();
    const form = document.querySelector("form[data-draft]");
    const unsaved = document.querySelector("[data-unsaved-hand]");
    if (unsaved) keepUnsent(unsaved);
    try { drafts.sweep(store, draftKey(form), Date.now()); } catch (e) { /* storage unavailable: nothing to sweep */ }
    if (form) {
      prepareHandPage(form);
      form.querySelectorAll("[data-start-over]").forEach(function (b) { b.hidden = false; });
    }
    else session(EDITING, null);
    notice = session(NOTICE) || "";
    session(NOTICE, null);
    render();
    document.querySelectorAll("[data-reload-page]").forEach(function (a) {
      a.addEventListener("click", function (event) { event.preventDefault(); location.reload(); });
    });
    wakelock.start();
    if (Chinchon.clock) Chinchon.clock.start(); // the game's pages only
    Chinchon.worker.start(config, routes, !!scoreboardToken());
    flush().then(function (sent) { if (sent && scoreboardToken()) location.reload(); });
    setInterval(function () {
      if (document.visibilityState === "visible" && queue().hasPending()) flush();
    }, RETRY_MS);
  }

  // After htmx has set up the page (its DOMContentLoaded listener comes first):
  // a restored form's change event must reach it.
  let started = false;
  function start() {
    if (started) return;
    started = true;
    ready();
  }
  if (document.readyState === "complete") start();
  else {
    document.addEventListener("DOMContentLoaded", start);
    window.addEventListener("load", start);
  }
})(self.Chinchon);
