// Chinchón companion: an evening without signal.
//  - Registers the service worker and marks a page it served from the phone's
//    copy ("offline · as of 21:40"); asks it to keep hand entry and the offline
//    page when its copy is missing or out of date (never ahead of being
//    opened on a connection that saves data), and the page itself when it was
//    opened before the worker ran (a first visit).
//  - Drafts: a hand being entered survives a reload; removed once stored.
//  - The queue: a hand saved without a connection is kept on this phone
//    (localStorage: it survives closing the browser), listed on the scoreboard,
//    and sent by itself, in order, when the connection returns (the `online`
//    event, the next page load, a retry every 30 s).  Each hand keeps its
//    one-time submission id, so the server stores it once however often it is
//    sent.  A hand the engine refuses comes back with the reason; one that
//    meets a newer version of the table is shown beside what is stored.
//  - Keep the screen on (Wake Lock API), saying so when the phone refuses.
// The card grid itself is app.js's; this file talks to it only through the
// form's inputs and a `change` event on the closer.
(function () {
  "use strict";

  const QUEUE = "chinchon-queue";
  const DRAFT = "chinchon-draft:";
  const SUBMITTED = "chinchon-submitted";
  const EDITING = "chinchon-editing";
  const NOTICE = "chinchon-notice";
  const WAKE = "chinchon-wake";
  const DRAFT_DAYS = 2;
  const RETRY_MS = 30000;
  const ENTER_HAND = "a[href*='/hands/new']:not([data-change])";
  const PAGES = "chinchon-pages"; // the service worker's copies of pages, by path
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
  function read(key, fallback) {
    try {
      const raw = localStorage.getItem(key);
      return raw ? JSON.parse(raw) : fallback;
    } catch (e) {
      return fallback;
    }
  }

  function write(key, value) {
    try {
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private mode or full: the page still works, without memory */ }
  }

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

  // -- the hand form -----------------------------------------------------------
  function handForm(el) {
    const form = el && el.closest ? el.closest("form[data-draft]") : null;
    return form || document.querySelector("form[data-draft]");
  }

  // Not form.action: the Save button is named "action" and would shadow it.
  function formAction(form) {
    return new URL(form.getAttribute("action") || location.href, location.href).href;
  }

  function tokenOf(url) {
    const match = new URL(url, location.href).pathname.match(/^\/t\/([^/]+)/);
    return match ? match[1] : null;
  }

  function pathOf(url) {
    return new URL(url, location.href).pathname;
  }

  // "<table>:new|edit:<number>:<version>"
  function formNumber(form) {
    return parseInt(form.dataset.draft.split(":")[2], 10);
  }

  function fieldsOf(form) {
    const out = [];
    new FormData(form).forEach(function (value, name) {
      if (["csrf_token", "version", "submission", "action"].indexOf(name) < 0) out.push([name, String(value)]);
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
    Array.prototype.forEach.call(form.elements, function (input) {
      const name = input.name;
      if (!name || ["csrf_token", "version", "submission"].indexOf(name) >= 0 || input.type === "submit" || input.tagName === "BUTTON") return;
      const values = given[name] || [];
      if (input.type === "checkbox") {
        const k = name + "=" + input.value;
        input.checked = (left[k] || 0) > 0;
        if (input.checked) left[k] -= 1;
      } else if (input.type === "radio") input.checked = values.indexOf(input.value) >= 0;
      else if (name in given) input.value = values[0];
      else if (input.type === "hidden" && /^[hc]\d+$|^discard$/.test(name)) input.value = "";
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
    const closer = form.querySelector("input[name=closer]:checked");
    if (closer) closer.dispatchEvent(new Event("change", { bubbles: true }));
    form.dispatchEvent(new CustomEvent("chinchon:restored", { bubbles: true }));
  }

  function seatNames(form) {
    const names = {};
    form.querySelectorAll("input[name=closer]").forEach(function (input) {
      const label = input.closest("label");
      names[input.value] = label ? label.textContent.trim() : input.value;
    });
    return names;
  }

  // Each player as entered: their cards, else the points typed for them (the
  // closer's: typed, else the score picked), as the server reads the form.
  // A hand of typed points only shows its points; cards wait for the engine.
  function summaryOf(form, fields) {
    const names = seatNames(form);
    const all = function (name) {
      return fields.filter(function (p) { return p[0] === name; }).map(function (p) { return p[1].trim(); });
    };
    const closer = all("closer")[0];
    const entered = Object.keys(names).map(function (seat) {
      const cards = all("h" + seat).join(" ");
      const points = all("p" + seat)[0] || (seat === closer && all("closer_score")[0]) || "";
      return { name: names[seat], cards: cards, value: cards || points };
    });
    const byPoints = entered.every(function (p) { return !p.cards && p.value; });
    return {
      closer: names[closer] || "",
      mode: byPoints ? "points" : "cards",
      players: entered.map(function (p) { return [p.name, p.value]; }),
    };
  }

  // -- drafts --------------------------------------------------------------------
  // One draft per table and hand ("<table>:new|edit:<number>"), whatever the
  // version of the table: it lasts until the hand is saved or dropped.
  function draftKey(form) {
    return form && form.dataset.draft ? DRAFT + form.dataset.draft.split(":").slice(0, 3).join(":") : null;
  }

  function saveDraft(form) {
    const key = draftKey(form);
    if (key && !form.dataset.queued) write(key, { at: Date.now(), fields: fieldsOf(form) });
  }

  // The half-entered hand comes back however the page is reached again
  // (reload, Back, the scoreboard's closer buttons, another tab).  A closer
  // picked on the way in counts over the draft's; a reload keeps the draft's.
  function restoreDraft(form) {
    if (form.dataset.fresh !== "1") return;
    const draft = read(draftKey(form), null);
    const restored = !!(draft && draft.fields);
    if (restored) fill(form, draft.fields);
    const nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    const picked = new URL(location.href).searchParams.get("closer");
    if (picked !== null && (!restored || !nav || nav.type === "navigate")) pickCloser(form, picked);
  }

  // The closer as the server draws a page opened for them ("Who closed? Ben
  // Change", folded): the phone's copy of hand entry is one for every closer.
  function pickCloser(form, seat) {
    const radio = form.querySelector('input[name=closer][value="' + seat + '"]');
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
    write(draftKey(form), null);
  }

  // "Start over": every card and score of this hand goes; who closed stays.
  function startOver(form) {
    if (!window.confirm(t("startOver"))) return;
    Array.prototype.forEach.call(form.elements, function (input) {
      if (input.type === "checkbox") input.checked = false;
      else if (input.type === "radio" && input.name === "closer_score") input.checked = false;
      else if (input.type === "text" || input.type === "number") input.value = "";
      else if (input.type === "hidden" && /^c\d+$/.test(input.name)) input.value = "";
    });
    dropDraft(form);
    const closer = form.querySelector("input[name=closer]:checked");
    (closer || form).dispatchEvent(new Event("change", { bubbles: true }));
    dropDraft(form);
  }

  // Old drafts go: those of a form already sent, those of hands of the same
  // table before this one (saved meanwhile), and any left for days.
  function sweepDrafts(form) {
    const sent = read(SUBMITTED, null);
    const current = draftKey(form);
    if (sent && sent !== current) write(sent, null);
    write(SUBMITTED, null);
    const parts = current ? current.slice(DRAFT.length).split(":") : null;
    const stale = Date.now() - DRAFT_DAYS * 86400000;
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (!key || key.indexOf(DRAFT) !== 0 || key === current) continue;
      const draft = read(key, null);
      const other = key.slice(DRAFT.length).split(":");
      const saved = parts && parts[1] === "new" && other[0] === parts[0] && other[1] === "new" && parseInt(other[2], 10) < parseInt(parts[2], 10);
      if (!draft || !draft.at || draft.at < stale || saved || other.length > 3) write(key, null);
    }
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
  function queue() {
    return read(QUEUE, []);
  }

  // An empty queue leaves nothing behind in the phone's storage.
  function saveQueue(entries) {
    write(QUEUE, entries.length ? entries : null);
  }

  function ofTable(entries, token) {
    return entries.filter(function (e) { return e.token === token; });
  }

  // New hands are numbered after the one before them; corrections keep theirs.
  function renumber(entries, token, first) {
    let next = first;
    ofTable(entries, token).forEach(function (e) {
      if (e.edit) return;
      e.number = next;
      next += 1;
    });
  }

  function editingEntry(form) {
    const id = session(EDITING);
    const entry = id ? queue().find(function (e) { return e.id === id; }) : null;
    return entry && form && pathOf(formAction(form)) === entry.url ? entry : null;
  }

  function keep(form, submitter) {
    const entries = queue();
    const token = tokenOf(formAction(form));
    const mine = ofTable(entries, token);
    const fields = fieldsOf(form);
    const editing = editingEntry(form);
    let entry = editing || entries.find(function (e) { return e.id === form.dataset.queued; });
    if (entry) {
      entry = entries.find(function (e) { return e.id === entry.id; });
    } else {
      const kept = !!document.body.dataset.keptAt;
      const submission = form.elements.submission.value;
      const used = kept || entries.some(function (e) { return e.submission === submission; });
      const last = mine[mine.length - 1];
      entry = {
        id: newId(),
        token: token,
        url: pathOf(formAction(form)),
        edit: form.dataset.draft.split(":")[1] === "edit",
        // A copy kept by the service worker shows the same id each time it is opened.
        submission: used ? newId() : submission,
        version: last ? last.version : parseInt(form.elements.version.value, 10),
        number: last && form.dataset.draft.split(":")[1] === "new" ? last.number + 1 : formNumber(form),
        keptAt: Date.now(),
      };
      entries.push(entry);
    }
    entry.fields = fields;
    entry.summary = summaryOf(form, fields);
    entry.state = "pending";
    entry.reason = entry.last = entry.error = null;
    saveQueue(entries);
    write(draftKey(form), null);
    form.dataset.queued = entry.id;
    session(EDITING, null);
    note(submitter, navigator.onLine === false ? t("kept", { n: entry.number }) + " " + plural("queueOne", "queueOther", ofTable(entries, token).length) : "", "status");
    renumberPage(form, entry.number);
    if (navigator.onLine !== false) {
      flush().then(function () { afterSending(form, entry.id, submitter); });
    }
  }

  // Online, a changed or queued hand was sent at once: the reason right here
  // when the engine refused it, else the scoreboard (with what still waits).
  function afterSending(form, id, submitter) {
    const entry = queue().find(function (e) { return e.id === id; });
    if (entry && entry.state === "refused") note(submitter, t("refused") + " " + entry.reason, "alert");
    else location.href = "/t/" + tokenOf(formAction(form));
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
    const tokens = Array.from(new Set(queue().map(function (e) { return e.token; })));
    for (const token of tokens) {
      for (;;) {
        const head = ofTable(queue(), token)[0];
        // Not the one the person is changing right now, nor anything behind it.
        if (!head || head.state !== "pending" || head.id === session(EDITING)) break;
        const outcome = await send(head);
        const entries = queue();
        const entry = entries.find(function (e) { return e.id === head.id; });
        if (!entry) break;
        const answer = outcome.answer;
        if (answer && answer.status === "stored") {
          entries.splice(entries.indexOf(entry), 1);
          const next = ofTable(entries, token)[0];
          if (next) next.version = answer.version;
          renumber(entries, token, answer.next_number);
          sent += 1;
        } else if (answer && answer.status === "refused") {
          entry.state = "refused";
          entry.reason = answer.error;
        } else if (answer && answer.status === "stale") {
          entry.state = "stale";
          entry.last = answer.last;
          entry.serverVersion = answer.version;
          entry.serverNext = answer.next_number;
        } else {
          entry.error = outcome.status ? "HTTP " + outcome.status : "network";
        }
        saveQueue(entries);
        if (!answer || answer.status !== "stored") break;
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
    const match = html.match(/name="csrf_token" value="([^"]+)"/);
    return match ? match[1] : "";
  }

  async function send(entry, token) {
    const body = new URLSearchParams();
    entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.set("version", String(entry.version));
    body.set("submission", entry.submission);
    body.set("action", "save");
    body.set("csrf_token", token || csrfToken());
    const response = await fetch(entry.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-Chinchon-Queue": "1" },
    });
    const json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
    if (!json && response.status === 400 && !token) return send(entry, await freshToken(entry.url));
    return { status: response.status, answer: json ? await response.json() : null };
  }

  function drop(id) {
    const entries = queue();
    const entry = entries.find(function (e) { return e.id === id; });
    if (!entry) return;
    const head = ofTable(entries, entry.token)[0] === entry;
    entries.splice(entries.indexOf(entry), 1);
    const next = ofTable(entries, entry.token)[0];
    if (head && next) {
      // The next hand now goes where this one would have: on top of what the server holds.
      next.version = entry.state === "stale" ? entry.serverVersion : entry.version;
    }
    const firstNew = ofTable(entries, entry.token).find(function (e) { return !e.edit; });
    if (firstNew) {
      const from = entry.state === "stale" ? entry.serverNext : Math.min(entry.edit ? firstNew.number : entry.number, firstNew.number);
      renumber(entries, entry.token, from);
    }
    saveQueue(entries);
    render();
    flush();
  }

  function sendMine(id) {
    const entries = queue();
    const entry = entries.find(function (e) { return e.id === id; });
    if (!entry || entry.state !== "stale") return;
    entry.version = entry.serverVersion;
    entry.state = "pending";
    renumber(entries, entry.token, entry.serverNext);
    saveQueue(entries);
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
    const anchor = near || document.querySelector("form[data-draft] [name=action][value=save]");
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
    } else if (state !== "refused") {
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
    if (entry.state === "stale" && entry.last) {
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
    if (entry.state === "refused") item.appendChild(el("p", "error", t("refused") + " " + entry.reason));
    if (entry.state === "pending" && entry.error && navigator.onLine !== false) {
      item.appendChild(el("p", "hint", t("retry", { reason: entry.error })));
    }
    const actions = el("p", "pending-actions");
    if (entry.state === "stale") {
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
    const match = location.pathname.match(/^\/t\/([^/]+)$/);
    return match && document.querySelector(".scores") ? match[1] : null;
  }

  function render() {
    const token = scoreboardToken();
    if (!token) return;
    const entries = ofTable(queue(), token);
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
    const pendingNew = entries.filter(function (e) { return !e.edit; });
    if (enter && pendingNew.length) {
      enter.textContent = enter.textContent.replace(/\d+/, String(pendingNew[pendingNew.length - 1].number + 1));
    }
  }

  // The hand page served for hand 2 while hands 2 and 3 wait is really hand 4.
  function renumberPage(form, number) {
    const shown = formNumber(form);
    if (shown === number) return;
    const save = form.querySelector("[name=action][value=save]");
    [document.querySelector("h1"), save].forEach(function (node) {
      if (node) node.textContent = node.textContent.replace(String(form.dataset.shown || shown), String(number));
    });
    form.dataset.shown = number;
  }

  function prepareHandPage(form) {
    const editing = editingEntry(form);
    if (editing) {
      form.dataset.queued = editing.id;
      if (form.dataset.fresh === "1") fill(form, editing.fields);
      renumberPage(form, editing.number);
      note(null, editing.state === "refused" ? t("refused") + " " + editing.reason : t("editing"), editing.state === "refused" ? "alert" : "status");
      return;
    }
    session(EDITING, null);
    restoreDraft(form);
    const pending = ofTable(queue(), tokenOf(formAction(form))).filter(function (e) { return !e.edit; });
    if (form.dataset.draft.split(":")[1] === "new" && pending.length) {
      renumberPage(form, Math.max(formNumber(form), pending[pending.length - 1].number + 1));
    }
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

  // -- events ------------------------------------------------------------------------
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if ((form.method || "").toLowerCase() !== "post") return;
    const submitter = event.submitter;
    const isHand = form.matches("form[data-draft]");
    const saving = isHand && submitter && submitter.name === "action" && submitter.value === "save";
    const offline = navigator.onLine === false;
    if (saving && (offline || form.dataset.queued || editingEntry(form) || ofTable(queue(), tokenOf(formAction(form))).length)) {
      // Offline, or behind hands still waiting: this hand joins the queue, in order.
      event.preventDefault();
      keep(form, submitter);
    } else if (offline) {
      event.preventDefault();
      if (isHand) saveDraft(form);
      note(submitter || form.querySelector("button"), t("notSent"), "status");
    } else if (isHand) {
      saveDraft(form);
      if (saving) write(SUBMITTED, draftKey(form));
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

  // -- keep the screen on ----------------------------------------------------------------
  let lock = null;
  function wakeButtons() { return document.querySelectorAll("#wake, [data-wake]"); }
  function requestLock() {
    return navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      lock.addEventListener("release", function () { lock = null; });
    });
  }
  function wakeState(on, refused) {
    wakeButtons().forEach(function (b) {
      b.setAttribute("aria-pressed", on ? "true" : "false");
      let told = b.nextElementSibling && b.nextElementSibling.classList.contains("wake-note") ? b.nextElementSibling : null;
      if (!told) {
        told = el("span", "wake-note");
        told.setAttribute("role", "status");
        b.insertAdjacentElement("afterend", told);
      }
      told.textContent = refused ? t("wakeRefused") : "";
    });
  }
  // On by default while a hand is entered; elsewhere when asked for.  Turned
  // off once, it stays off until turned on again.
  function wakeWanted() {
    const chosen = read(WAKE, null);
    return chosen === 1 || (chosen === null && !!document.querySelector("form[data-draft]"));
  }
  function wakeOn(quiet) {
    return requestLock().then(function () {
      wakeState(true, false);
      if (!quiet) write(WAKE, 1);
    }, function () {
      wakeState(false, !quiet);
      if (!quiet) write(WAKE, null);
    });
  }
  document.addEventListener("click", function (event) {
    const b = event.target.closest ? event.target.closest("#wake, [data-wake]") : null;
    if (!b) return;
    if (b.getAttribute("aria-pressed") === "true") {
      if (lock) lock.release();
      wakeState(false, false);
      write(WAKE, 0);
    } else {
      wakeOn();
    }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && wakeWanted() && !lock && wakeButtons().length) wakeOn(true);
  });

  // -- start --------------------------------------------------------------------------
  // A connection that asks to save data (or a 2G one) gets no page ahead of
  // being opened: the worker still keeps each page the person opens.
  function savingData() {
    const connection = navigator.connection;
    return !!connection && (connection.saveData === true || /2g$/.test(connection.effectiveType || ""));
  }

  // The worker keeps each page once by path, and is asked for a page only
  // when its copy is missing or out of date: so each is fetched at most once
  // per version.  The offline page must be in the language chosen last.
  // Hand entry must open offline too, at the current version of the table:
  // the scoreboard links it once per closer, but it is one copy, fetched
  // again when it is of another version or language, or was kept as opened
  // for one closer.
  function outdated(registration) {
    const lang = '<html lang="' + document.documentElement.lang + '"';
    const wanted = [keptCopy(document.body.dataset.offline || "/offline", function (html) { return html.indexOf(lang) >= 0; })];
    const board = scoreboardToken() ? document.getElementById("board") : null;
    // The table's version: the scoreboard's poll asks for what is newer.
    const since = board ? new URL(board.getAttribute("hx-get") || "", location.href).searchParams.get("since") : null;
    const entry = new Set();
    if (board) document.querySelectorAll(ENTER_HAND).forEach(function (enter) { entry.add(pathOf(enter.href)); });
    entry.forEach(function (path) {
      wanted.push(keptCopy(path, function (html) {
        return since !== null && html.indexOf(lang) >= 0 && html.indexOf('name="version" value="' + since + '"') >= 0
          && !/name="closer" value="\d+" checked/.test(html);
      }));
    });
    return Promise.all(wanted).then(function (paths) { return { registration: registration, paths: paths.filter(Boolean) }; });
  }

  // The path, unless the worker's copy of it passes ``current``.
  function keptCopy(path, current) {
    if (!window.caches) return Promise.resolve(path);
    return caches.open(PAGES).then(function (cache) { return cache.match(path); })
      .then(function (copy) { return copy ? copy.text() : ""; })
      .then(function (html) { return html && current(html) ? null : path; }, function () { return path; });
  }

  function worker() {
    if (!("serviceWorker" in navigator) || !document.body.dataset.sw) return;
    if (document.body.dataset.keptAt || navigator.onLine === false) return;
    // Opened before the worker ran (a first visit): nothing kept this page on
    // its way, so the worker fetches it once.  It keeps only pages it keeps.
    const unkept = navigator.serviceWorker.controller ? [] : [location.pathname];
    navigator.serviceWorker.register(document.body.dataset.sw).catch(function () { /* not fatal */ });
    navigator.serviceWorker.ready.then(function (registration) {
      // Once installed: its installation keeps the offline page itself.
      return savingData() ? { registration: registration, paths: [] } : outdated(registration);
    }).then(function (kept) {
      const paths = Array.from(new Set(unkept.concat(kept.paths)));
      if (paths.length) kept.registration.active.postMessage({ type: "keep", paths: paths });
    });
  }

  function ready() {
    const data = document.getElementById("offline-banner");
    try { texts = JSON.parse((data && data.dataset.texts) || "{}"); } catch (e) { texts = {}; }
    banner();
    const form = document.querySelector("form[data-draft]");
    try { sweepDrafts(form); } catch (e) { /* storage unavailable: nothing to sweep */ }
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
    if ("wakeLock" in navigator) {
      wakeButtons().forEach(function (b) { b.hidden = false; });
      if (wakeWanted() && wakeButtons().length) wakeOn(true);
    }
    worker();
    flush().then(function (sent) { if (sent && scoreboardToken()) location.reload(); });
    setInterval(function () {
      if (document.visibilityState === "visible" && queue().some(function (e) { return e.state === "pending"; })) flush();
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
})();
