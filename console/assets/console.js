// The table console: records a live hand one event at a time. What it offers at each step is the
// server's advice (rules.Advise); events wait in a queue kept in the browser's storage until the
// server has stored them, and are sent again, with the same ids, after a lost connection.
"use strict";

const S = {
  device: null, table: null, presets: [],
  hand: null,      // {id, events: [], advice, warnings}
  queue: JSON.parse(localStorage.getItem("console.queue") || "[]"),
  offline: false, error: "", sending: false, machine: true,
  amount: null, chosen: [],
  // auto is the phase ("deal" or "draw") the dealer asked to deal in one tap: each answer of the
  // server deals the next card until the round is dealt. hidden keeps card faces off the screen
  // (a machine shuffle's cards in large type near the dealer): counts and positions instead.
  auto: null, hidden: localStorage.getItem("console.hidden") === "1",
};

const $ = (sel) => document.querySelector(sel);

// ---- the reader's language ------------------------------------------------------------------
// The words are the console.* messages of the lang catalogue (the dashboard's, GET
// /console/api/messages answers as /api/messages does), in the language the reader chose on
// either page ("lang" in the browser's storage), else the browser's.

const words = { lang: "en", langs: [], messages: {}, plural: new Intl.PluralRules("en"), number: new Intl.NumberFormat("en") };

async function loadWords(l) {
  const q = l ? "?lang=" + encodeURIComponent(l) : "";
  const r = await (await fetch("/console/api/messages" + q)).json();
  words.lang = r.lang;
  words.langs = r.langs || [];
  words.messages = r.messages || {};
  words.plural = new Intl.PluralRules(r.lang);
  words.number = new Intl.NumberFormat(r.lang);
  document.documentElement.lang = r.lang;
}

// setLang switches the console's language and keeps the choice for both pages.
async function setLang(l) {
  localStorage.setItem("lang", l);
  await loadWords(l);
  // The server's own words (warnings, what opens the pot) follow the reader's language too.
  if (S.hand && S.hand.id && !S.queue.length) await loadHand(S.hand.id).catch(() => {});
  render();
}

// num writes a number in the reader's locale.
function num(v) { return words.number.format(v); }

// t returns the console's message key with its {places} filled: numbers in the locale's digits; a
// count named n picks the plural form. An unknown key shows as [key], so a gap is seen.
function t(key, params) {
  const args = params || {};
  const m = words.messages["console." + key];
  if (!m) return "[" + key + "]";
  const s = (args.n != null && m[words.plural.select(Number(args.n))]) || m.other; // the CLDR form the count takes (one, many…), else other
  return s.replace(/\{([a-z_]+)\}/g, (all, k) => (k in args ? (typeof args[k] === "number" ? num(args[k]) : String(args[k])) : all));
}

// langView is the language switcher of the bar.
function langView() {
  const sel = $("#bar-lang");
  sel.replaceChildren(...words.langs.map((x) => el("option", { value: x.code, selected: x.code === words.lang }, x.name)));
  sel.setAttribute("aria-label", t("lang"));
  sel.onchange = () => setLang(sel.value);
}

function uuid() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k);
  return e;
}

function btn(label, act, onclick, cls) {
  return el("button", { type: "button", "data-act": act, class: cls || null, onclick }, label);
}

// confirmBtn is the button of a step that cannot be undone once sent (a misdeal, a fold): the
// first tap arms it and asks for a second, which does it; left alone it disarms after five
// seconds, so a stray tap never voids a hand.
function confirmBtn(label, act, onclick, cls) {
  let timer = null;
  const b = btn(label, act, () => {
    if (b.dataset.armed === "1") {
      clearTimeout(timer);
      delete b.dataset.armed;
      onclick();
      return;
    }
    b.dataset.armed = "1";
    b.textContent = t("hand.confirm", { action: label });
    timer = setTimeout(() => { delete b.dataset.armed; b.textContent = label; }, 5000);
  }, cls);
  return b;
}

// api calls the console's API as the device: the session cookie of the login goes with it (the
// browser sends it, the page cannot read it); a network failure throws.
async function api(method, path, body) {
  // The reader's language, for the words the server says (warnings, what opens the pot).
  const headers = { "Accept-Language": words.lang || "en" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch("/console/api/" + path, { method, headers, body, credentials: "same-origin" });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  return { status: res.status, data };
}

function saveQueue() { localStorage.setItem("console.queue", JSON.stringify(S.queue)); }

// queued says how many events wait to be sent, in a whole sentence for one or for several.
function queued(count) { return t("hand.queue", { n: count }); }

// ---- the hand as the log holds it -----------------------------------------------------------

function started() { return S.hand && S.hand.events.length ? S.hand.events[0].data : null; }

function playerName(seat) {
  const hs = started();
  const s = hs && hs.seats.find((x) => x.seat === seat);
  return s ? s.player : "";
}

function nextSeq() {
  return (S.hand.stored || S.hand.events).length + S.queue.filter((q) => q.hand === S.hand.id).length + 1;
}

// emit queues the next event of the hand and sends the queue. Once the offline mode is loaded,
// each event is chained: its prev is the SHA-256 of the line before it, the last stored line
// (the server's head) or the event queued before it, so that a hand recorded offline is appended
// as one chain when the server is back, or refused whole if another device wrote to it meanwhile
// (its first event's prev is then not the stored head any more).
function emit(type, data) {
  const ev = { id: uuid(), table: S.table, hand: S.hand.id, seq: nextSeq(), at: new Date().toISOString(), type, data };
  if (S.wasm) {
    const mine = S.queue.filter((q) => q.hand === S.hand.id);
    const prev = mine.length ? fechadoHash(mine[mine.length - 1].body) : S.hand.head;
    if (prev) ev.prev = prev;
  }
  S.queue.push({ hand: S.hand.id, seq: ev.seq, body: JSON.stringify(ev) });
  saveQueue();
  S.error = "";
  if (S.offline) localState();
  render();
  send();
  if (S.local) setTimeout(autoDeal, 0);
}

// localState follows the hand offline: the stored events and those queued, given to the rules
// engine compiled to WebAssembly (the server's own, internal/advise), which says the next step
// as the server would. False when the offline mode is not loaded or the events cannot be followed.
function localState() {
  if (!S.wasm || !S.hand) return false;
  const stored = S.hand.stored || S.hand.events;
  const all = stored.concat(S.queue.filter((q) => q.hand === S.hand.id).map((q) => JSON.parse(q.body)));
  const r = JSON.parse(fechadoAdvise(all.map((e) => JSON.stringify(e)).join("\n")));
  if (r.error || !r.advice) return false;
  S.hand.events = all;
  S.hand.advice = Object.assign({ StubLen: r.stub_len }, r.advice);
  S.local = true;
  S.amount = null;
  S.chosen = [];
  S.declared = null;
  return true;
}

// loadOffline loads the offline mode, when the server has it: Go's loader, then the rules engine
// compiled to WebAssembly, whose functions fechadoAdvise and fechadoHash the page then calls.
async function loadOffline() {
  if (S.wasm || typeof WebAssembly !== "object") return;
  try {
    const res = await fetch("/console/offline/advise.wasm", { credentials: "same-origin" });
    if (!res.ok) return;
    const bytes = await res.arrayBuffer();
    await new Promise((ok, fail) => {
      const sc = document.createElement("script");
      sc.src = "/console/offline/wasm_exec.js";
      sc.onload = ok;
      sc.onerror = fail;
      document.head.append(sc);
    });
    const go = new Go();
    const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
    go.run(instance);
    S.wasm = typeof fechadoAdvise === "function" && typeof fechadoHash === "function";
    document.documentElement.dataset.offline = S.wasm ? "ready" : "";
  } catch (e) {
    S.wasm = false;
  }
}

// send posts the queued events in order; a refused event is dropped with its reason shown, a lost
// connection leaves the queue as it is and tries again.
async function send() {
  if (S.sending) return;
  S.sending = true;
  try {
    while (S.queue.length) {
      const q = S.queue[0];
      let r;
      try {
        r = await api("POST", "hands/" + q.hand + "/events", q.body);
      } catch (e) {
        S.offline = true;
        localState();
        render();
        setTimeout(send, 2000);
        return;
      }
      S.offline = false;
      if (r.status === 200) {
        S.queue.shift();
        saveQueue();
        if (S.hand && S.hand.id === q.hand) { applyState(r.data); autoDeal(); }
      } else if (r.status === 401) {
        // The session ended (its time ran out, or the server restarted): log in again; the queue
        // waits and goes after the login.
        S.device = null;
        S.error = t("err.login");
        render();
        return;
      } else if (r.status >= 500) {
        S.error = t((r.data && r.data.error) || "err.store", { detail: (r.data && r.data.detail) || r.status });
        render();
        setTimeout(send, 3000);
        return;
      } else {
        // Refused: nothing of it was written. The events queued after it cannot follow it.
        S.queue = S.queue.filter((x) => x.hand !== q.hand);
        saveQueue();
        S.error = t((r.data && r.data.error) || "err.invalid", { detail: (r.data && r.data.detail) || r.status });
        await loadHand(q.hand);
      }
      render();
    }
  } finally {
    S.sending = false;
  }
}

// autoDeal deals the next card of the round the dealer asked for in one tap, once the server has
// answered the previous one: the machine's top card, or a face-down card nobody records.
function autoDeal() {
  const a = S.hand && S.hand.advice;
  if (!S.auto || !a || a.Step !== S.auto) { S.auto = null; return; }
  if (S.queue.length && !S.local) return;
  emit("card.dealt", a.Top ? { seat: a.Seat, card: a.Top, phase: S.auto } : { seat: a.Seat, phase: S.auto });
}

// unrecorded reports whether the hand's deal gave cards nobody recorded (dealt face down).
function unrecorded() {
  return S.hand.events.some((e) => e.type === "card.dealt" && !e.data.card);
}

function applyState(st) {
  S.hand.events = (st.events || []);
  S.hand.stored = S.hand.events;
  S.hand.head = st.head || "";
  S.hand.receipt = st.receipt || "";
  S.local = false;
  S.hand.advice = st.advice || null;
  S.hand.warnings = st.warnings || [];
  S.amount = null;
  S.chosen = [];
  S.declared = null;
  localStorage.setItem("console.hand", S.hand.id);
}

async function loadHand(id) {
  const r = await api("GET", "hands/" + id);
  if (r.status === 200) {
    S.hand = { id, events: [], advice: null, warnings: [] };
    applyState(r.data);
  }
}

function undo() {
  const mine = S.queue.filter((q) => q.hand === S.hand.id);
  if (!mine.length) return;
  S.queue.splice(S.queue.lastIndexOf(mine[mine.length - 1]), 1);
  saveQueue();
  if (S.local) localState(); // offline: the step before the undone event again
  render();
}

// ---- the card picker ------------------------------------------------------------------------

const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
const SUITS = [["s", "♠"], ["h", "♥"], ["d", "♦"], ["c", "♣"]];

function cardLabel(c) {
  const s = SUITS.find((x) => x[0] === c[1]);
  return c[0].replace("T", "10") + (s ? s[1] : c[1]);
}

function cardButton(c, act, onclick, selected, position) {
  if (position) { // cards hidden: the card's place in the player's hand, not its face
    return el("button", { type: "button", class: "card back" + (selected ? " sel" : ""), "data-act": act, "data-card": c, "aria-label": t("card.position", { k: position }), onclick }, "🂠 " + position);
  }
  const red = c[1] === "h" || c[1] === "d";
  return el("button", { type: "button", class: "card" + (red ? " red" : "") + (selected ? " sel" : ""), "data-act": act, "data-card": c, onclick }, cardLabel(c));
}

// pick asks for one card: its rank, then its suit.
function pick(title, done) {
  const p = $("#picker");
  let rank = null;
  const draw = () => {
    p.replaceChildren(el("div", { class: "box" },
      el("p", { class: "prompt" }, title),
      el("div", { class: "ranks" }, RANKS.map((r) => el("button", { type: "button", "data-rank": r, class: r === rank ? "sel" : null, onclick: () => { rank = r; draw(); } }, r.replace("T", "10")))),
      el("div", { class: "suits" }, SUITS.map(([s, sym]) => el("button", { type: "button", "data-suit": s, disabled: !rank, class: (s === "h" || s === "d") ? "red" : null,
        onclick: () => { p.hidden = true; done(rank + s); } }, sym))),
      el("div", { class: "row" }, btn(t("picker.cancel"), "pick-cancel", () => { p.hidden = true; }, "danger"))));
  };
  draw();
  p.hidden = false;
}

// ---- views ------------------------------------------------------------------------------------

function render() {
  const m = $("#main");
  m.replaceChildren();
  langView();
  $("#bar-net").hidden = !S.offline && !S.queue.length;
  $("#bar-net").textContent = S.offline ? t("hand.offline") + " " + queued(S.queue.length) : queued(S.queue.length);
  if (!S.device) return loginView(m);
  $("#bar-title").textContent = t("title") + " · " + S.table;
  if (!S.hand || !S.hand.events.length && !S.queue.some((q) => S.hand && q.hand === S.hand.id)) return setupView(m);
  handView(m);
}

function loginView(m) {
  $("#bar-title").textContent = t("title");
  const f = el("form", { id: "login" },
    el("h1", {}, t("login.title")),
    el("label", {}, t("login.device"), el("input", { name: "user", autocomplete: "username", required: true })),
    el("label", {}, t("login.password"), el("input", { name: "pass", type: "password", autocomplete: "current-password", required: true })),
    S.error ? el("p", { class: "error" }, S.error) : null,
    el("div", { class: "row" }, el("button", { type: "submit", class: "main", "data-act": "login" }, t("login.submit"))));
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    // The password goes to the server once; the server keeps the session, the page keeps nothing.
    const res = await fetch("/console/login", { method: "POST", headers: { "Content-Type": "application/json" },
      credentials: "same-origin", body: JSON.stringify({ user: f.user.value, password: f.pass.value }) });
    if (res.status !== 200) {
      S.error = t("err.login");
      return render();
    }
    await login();
  });
  m.append(f);
}

// login starts the console for the device of the session, if there is one; quiet says not to
// show an error when there is none (the page just opened).
async function login(quiet) {
  const r = await api("GET", "device");
  if (r.status !== 200) {
    S.error = quiet ? "" : t("err.login");
    S.device = null;
    return render();
  }
  S.device = r.data.device;
  S.table = r.data.table;
  S.playerCards = !!r.data.player_cards;
  S.error = "";
  S.presets = (await api("GET", "presets")).data || [];
  loadOffline();
  const last = localStorage.getItem("console.hand");
  if (last) await loadHand(last);
  send();
  render();
}

// setupView opens the table or the next hand: the preset, the stakes and the players, filled
// from the previous hand when there is one.
async function setupView(m) {
  let d = S.next;
  if (!d) {
    d = { rules: { name: "br-fechado" }, number: 1, dealer: 1, carry: 0, passed_out: 0,
      stakes: { ante: 1, min_bet: 2, max_bet: 10 },
      seats: [1, 2, 3].map((i) => ({ seat: i, player: "", stack: 100 })) };
    S.next = d;
  }
  const rows = el("tbody", {});
  const addRow = (s) => rows.append(el("tr", {},
    el("td", {}, el("input", { name: "seat", type: "number", min: 1, max: 10, value: s.seat, inputmode: "numeric", "aria-label": t("setup.seat") })),
    el("td", {}, el("input", { name: "player", value: s.player, placeholder: t("setup.player"), "aria-label": t("setup.player") })),
    el("td", {}, el("input", { name: "stack", type: "number", min: 0, value: s.stack, inputmode: "numeric", "aria-label": t("setup.stack") })),
    el("td", {}, el("button", { type: "button", class: "danger", "data-act": "remove-seat", "aria-label": t("setup.remove"), onclick: (e) => e.target.closest("tr").remove() }, "×"))));
  d.seats.forEach(addRow);
  const num = (name, v) => el("input", { name, type: "number", min: 0, value: v, inputmode: "numeric" });
  const f = el("form", { id: "setup" },
    el("h1", {}, t("setup.title", { table: S.table })),
    el("label", {}, t("setup.preset"), el("select", { name: "preset" }, S.presets.map((p) => el("option", { value: p.name, selected: p.name === d.rules.name }, presetName(p.name))))),
    el("div", { class: "grid2" },
      el("label", {}, t("setup.ante"), num("ante", d.stakes.ante)),
      el("label", {}, t("setup.min_bet"), num("min_bet", d.stakes.min_bet)),
      el("label", {}, t("setup.max_bet"), num("max_bet", d.stakes.max_bet)),
      el("label", {}, t("setup.dealer"), num("dealer", d.dealer)),
      el("label", {}, t("setup.carry"), num("carry", d.carry)),
      el("label", {}, t("setup.passed_out"), num("passed_out", d.passed_out))),
    el("table", { class: "seats" }, el("thead", {}, el("tr", {}, el("th", {}, t("setup.seat")), el("th", {}, t("setup.player")), el("th", {}, t("setup.stack")), el("th", {}))), rows),
    tournamentSection(d),
    el("div", { class: "row" },
      btn(t("setup.add"), "add-seat", () => addRow({ seat: rows.children.length + 1, player: "", stack: 100 })),
      el("button", { type: "submit", class: "main", "data-act": "start" }, t("setup.start"))));
  f.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const seats = [...rows.children].map((tr) => ({
      seat: +tr.querySelector("[name=seat]").value, player: tr.querySelector("[name=player]").value.trim(),
      stack: +tr.querySelector("[name=stack]").value })).filter((s) => s.player).sort((a, b) => a.seat - b.seat);
    // The table's button rule (rules.button "moving") goes on with the preset it was declared for.
    const rules = { name: f.preset.value };
    if (d.rules.button && d.rules.name === f.preset.value) rules.button = d.rules.button;
    const data = { rules, number: d.number, dealer: +f.dealer.value, seats,
      stakes: { ante: +f.ante.value, min_bet: +f.min_bet.value, max_bet: +f.max_bet.value },
      carry: +f.carry.value, passed_out: +f.passed_out.value };
    if (d.previous) data.previous = d.previous;
    tournamentData(data, d);
    startHand(f, data, d);
  });
  m.append(f);
  blindSetup(f, d);
}

// blindSetup names the stakes after the preset's forced bets: a blind game's big blind is the
// smallest bet (min_bet), its small blind is asked for here (the stakes do not hold it), and
// br-online, with a blind betting round instead, has no ante.
function blindSetup(f, d) {
  const small = el("label", { id: "small-blind" }, t("setup.small_blind"),
    el("input", { name: "small_blind", type: "number", min: 1, inputmode: "numeric",
      value: d.small_blind || localStorage.getItem("console.smallBlind") || Math.max(1, Math.floor(d.stakes.min_bet / 2)) }));
  const minBet = f.min_bet.closest("label"), ante = f.ante.closest("label");
  minBet.after(small);
  const relabel = () => {
    const p = S.presets.find((x) => x.name === f.preset.value) || {};
    small.hidden = !p.blinds;
    minBet.firstChild.textContent = p.blinds ? t("setup.big_blind") : t("setup.min_bet");
    ante.firstChild.textContent = p.blinds ? t("setup.ante.blinds") : t("setup.ante");
    ante.hidden = !p.ante;
    if (!p.ante) f.ante.value = 0;
  };
  f.preset.addEventListener("change", relabel);
  relabel();
}

// startHand records hand.started. After a hand of this table the server says, for the players
// the form lists, who is dealt in, who waits for the big blind, who sat down or left, and where
// the dealer goes: in a blind game always (the dead-button rule), else unless the dealer was
// changed in the form (d is what the form was filled with).
async function startHand(f, data, d) {
  const p = S.presets.find((x) => x.name === data.rules.name) || {};
  if (p.blinds) localStorage.setItem("console.smallBlind", String(+f.small_blind.value || 1));
  if (data.previous && !data.tournament) { // a tournament's moves and knock-outs are tournamentData's
    const r = await api("POST", "hands/" + data.previous + "/next", JSON.stringify({ seats: data.seats }));
    if (r.status !== 200) { S.error = t(r.data.error, { detail: r.data.detail }); return render(); }
    data.seats = r.data.seats;
    if (r.data.away) data.away = r.data.away;
    if (r.data.left) data.left = r.data.left;
    if (p.blinds || data.dealer === d.dealer) data.dealer = r.data.dealer;
  }
  S.hand = { id: uuid(), events: [], advice: null, warnings: [] };
  S.next = null;
  emit("hand.started", data);
}

// ---- tournaments (events-v1.md §9) -----------------------------------------------------------
// The setup form's tournament section: the tournament and its level, the stakes of each level
// from the tournament's schedule (kept in the browser with the tournament), the players the last
// hand knocked out, and the moves the floor decides: players leaving for another table with their
// chips, players arriving from one.

function tournamentSaved() { return JSON.parse(localStorage.getItem("console.tournament") || "null"); }

// schedule reads the schedule's lines: "ante, smallest bet, largest bet" a level.
function schedule(text) {
  return text.split("\n").map((l) => l.split(/[\s,;]+/).filter(Boolean).map(Number)).filter((x) => x.length >= 2 && x.every((n) => n >= 0));
}

function tournamentSection(d) {
  const saved = tournamentSaved() || {};
  const tn = d.tournament || (saved.id ? { id: saved.id, level: saved.level } : null);
  const box = el("details", { id: "tournament", open: !!tn });
  const field = (name, v) => el("input", { name, type: "number", min: 1, value: v, inputmode: "numeric" });
  const level = field("t_level", (tn && tn.level) || 1);
  const sched = el("textarea", { name: "t_schedule", rows: 4 }, saved.schedule || "");
  // fill puts the level's stakes of the schedule in the form.
  const fill = () => {
    const s = schedule(sched.value)[+level.value - 1];
    const f = box.closest("form");
    if (!s || !f) return;
    f.ante.value = s[0];
    f.min_bet.value = s[1];
    f.max_bet.value = s.length > 2 ? s[2] : 0;
  };
  level.addEventListener("change", fill);
  const moves = el("tbody", { id: "t-moves" });
  const arrivals = el("tbody", { id: "t-arrivals" });
  box.append(el("summary", {}, t("tour.title")),
    el("label", {}, t("tour.id"), el("input", { name: "t_id", value: (tn && tn.id) || "" })),
    el("div", { class: "grid2" },
      el("label", {}, t("tour.level"), level),
      el("div", { class: "row" }, btn(t("tour.next_level"), "next-level", () => { level.value = +level.value + 1; fill(); }))),
    d.previous ? null : el("div", { class: "grid2" },
      el("label", {}, t("tour.entries"), field("t_entries", saved.entries || "")),
      el("label", {}, t("tour.stack"), field("t_stack", saved.stack || ""))),
    el("label", {}, t("tour.schedule"), sched),
    ((tn && tn.knocked_out) || []).map((p) => el("p", { class: "note knocked-out" }, t("tour.out", { player: p }))),
    el("table", { class: "seats" }, el("thead", {}, el("tr", {}, el("th", {}, t("setup.player")), el("th", {}, t("tour.move.to")))), moves),
    el("div", { class: "row" }, btn(t("tour.move"), "add-move", () => moves.append(el("tr", {},
      el("td", {}, el("input", { name: "m_player", placeholder: t("setup.player") })),
      el("td", {}, el("input", { name: "m_to", placeholder: t("tour.move.to") })))))),
    el("table", { class: "seats" }, el("thead", {}, el("tr", {}, el("th", {}, t("setup.seat")), el("th", {}, t("setup.player")), el("th", {}, t("setup.stack")), el("th", {}, t("tour.arrive.from")))), arrivals),
    el("div", { class: "row" }, btn(t("tour.arrive"), "add-arrival", () => arrivals.append(el("tr", {},
      el("td", {}, el("input", { name: "a_seat", type: "number", min: 1, max: 10, inputmode: "numeric" })),
      el("td", {}, el("input", { name: "a_player", placeholder: t("setup.player") })),
      el("td", {}, el("input", { name: "a_stack", type: "number", min: 0, inputmode: "numeric" })),
      el("td", {}, el("input", { name: "a_from", placeholder: t("tour.arrive.from") })))))));
  return box;
}

// tournamentData adds the tournament section to the hand.started data of the form: the
// tournament and its level (entries and starting stack at a table's first hand, every player then
// joining), the knocked-out players and those moved away in left, the arrivals with from.
function tournamentData(data, d) {
  const box = $("#tournament");
  const v = (name) => { const x = box.querySelector(`[name=${name}]`); return x ? x.value.trim() : ""; };
  const id = v("t_id");
  if (!id) return;
  const tn = { id, level: +v("t_level") || 1 };
  const saved = { id, level: tn.level, schedule: v("t_schedule") };
  if (!d.previous) {
    if (v("t_entries")) tn.entries = saved.entries = +v("t_entries");
    if (v("t_stack")) tn.stack = saved.stack = +v("t_stack");
    for (const s of data.seats) s.joined = true;
  }
  localStorage.setItem("console.tournament", JSON.stringify(saved));
  data.tournament = tn;
  const left = ((d.tournament && d.tournament.knocked_out) || []).map((player) => ({ player, stack: 0 }));
  for (const tr of box.querySelectorAll("#t-moves tr")) {
    const player = tr.querySelector("[name=m_player]").value.trim(), to = tr.querySelector("[name=m_to]").value.trim();
    const i = data.seats.findIndex((s) => s.player === player);
    if (i < 0 || !to) continue;
    left.push({ player, stack: data.seats[i].stack, to });
    data.seats.splice(i, 1);
  }
  if (left.length) data.left = left;
  for (const tr of box.querySelectorAll("#t-arrivals tr")) {
    const player = tr.querySelector("[name=a_player]").value.trim(), from = tr.querySelector("[name=a_from]").value.trim();
    if (!player || !from) continue;
    data.seats.push({ seat: +tr.querySelector("[name=a_seat]").value, player, stack: +tr.querySelector("[name=a_stack]").value, from });
  }
  data.seats.sort((a, b) => a.seat - b.seat);
}

function stateOfPlayers() {
  // Chips and folds as the stored events leave them, for the players' tiles.
  const hs = started();
  const p = {};
  for (const s of hs.seats) p[s.seat] = { seat: s.seat, player: s.player, stack: s.stack, folded: false };
  for (const e of S.hand.events) {
    const d = e.data;
    if (e.type === "ante.posted" || e.type === "blind.posted") p[d.seat].stack -= d.amount;
    if (e.type === "player.acted") { p[d.seat].stack -= d.amount || 0; if (d.action === "fold") p[d.seat].folded = true; }
    if (e.type === "bet.returned" || e.type === "pot.awarded") p[d.seat].stack += d.amount;
  }
  return Object.values(p);
}

function handView(m) {
  const hs = started();
  const a = S.hand.advice;
  const pending = S.queue.filter((q) => q.hand === S.hand.id).length;
  $("#bar-title").textContent = hs ? t("hand.title", { number: hs.number, table: S.table }) : t("title");
  $("#bar-pot").textContent = a ? t("hand.pot", { amount: a.PotTotal }) : "";
  if (S.error) m.append(el("p", { class: "error", id: "error" }, S.error));
  if (!hs || !a || (pending && !S.local)) {
    // Waiting for the server: nothing new may be recorded before the advice comes back.
    m.append(el("p", { class: "note" }, queued(pending)));
    if (pending) m.append(el("div", { class: "row" }, btn(t("hand.undo"), "undo", undo, "danger")));
    return;
  }
  // Offline: the hand goes on, its events kept in order on this device until the server is back.
  if (S.local) {
    m.append(el("p", { class: "note", id: "offline-note" }, queued(pending)));
    if (pending) m.append(el("div", { class: "row" }, btn(t("hand.undo"), "undo", undo, "danger")));
  }
  m.append(el("div", { class: "players" }, stateOfPlayers().map((p) =>
    el("div", { class: "player" + (p.seat === a.Seat ? " turn" : "") + (p.folded ? " out" : "") },
      el("b", {}, p.seat + " · " + p.player), el("br"), num(p.stack)))));
  const box = el("section", { id: "step", "data-step": a.Step, "data-seq": S.hand.events.length });
  m.append(box);
  stepView(box, a);
  for (const w of S.hand.warnings) m.append(el("p", { class: "warn" }, t("hand.warnings", { text: w })));
  m.append(el("div", { class: "row" }, btn(S.hidden ? t("hand.cards.show") : t("hand.cards.hide"), "hidden", () => {
    S.hidden = !S.hidden;
    localStorage.setItem("console.hidden", S.hidden ? "1" : "0");
    render();
  })));
  seatLinksView(m, a);
  if (a.Commitments && a.Commitments.length) m.append(el("p", { class: "note mono", id: "commitment" }, t("hand.commitment", { commitment: a.Commitments[a.Commitments.length - 1] })));
  // Exposed cards and misdeals belong to the cut, the deal, the first round and the draw.
  if (a.Step !== "misdeal" && (["setup", "deal", "draw"].includes(a.Stage) || (a.Stage === "betting" && a.Round === "first"))) toolsView(m, a);
}

// seatLinksView offers each player his own cards on his own phone, when the room gives them
// (serve --player-cards): the link and QR code of one seat at a time, shown on a tap and hidden
// again by the next, so that nobody near the tablet scans another player's code.
function seatLinksView(m, a) {
  const hs = started();
  if (!S.playerCards || !hs || a.Step === "done" || S.local) return;
  const box = el("section", { id: "seat-links", class: "seat-links" }, el("h2", {}, t("seat.links")));
  const links = S.seatLinks && S.seatLinks.hand === S.hand.id ? S.seatLinks.seats : [];
  const shown = links.find((x) => x.seat === S.seatShown);
  if (shown) {
    const who = { player: shown.player, seat: shown.seat };
    box.append(el("p", { class: "prompt" }, t("seat.scan", who)),
      el("img", { class: "qr", id: "seat-qr", src: shown.qr, alt: t("seat.qr", who), width: 264, height: 264 }),
      el("p", { class: "mono" }, el("a", { id: "seat-link", "data-seat": shown.seat, href: shown.link, target: "_blank", rel: "noopener noreferrer" }, shown.link)),
      el("div", { class: "row" }, btn(t("seat.hide"), "seat-hide", () => { S.seatShown = 0; render(); }, "main")));
  } else {
    box.append(el("div", { class: "row" }, hs.seats.map((x) =>
      btn(t("seat.show", { player: x.player, seat: x.seat }), "seat-" + x.seat, () => showSeat(x.seat)))));
  }
  m.append(box);
}

// showSeat shows the link of seat, asking the server for the hand's links the first time: they
// are made from this page's own address, the one the players' phones reach the server at.
async function showSeat(seat) {
  if (!S.seatLinks || S.seatLinks.hand !== S.hand.id) {
    const r = await api("GET", "hands/" + encodeURIComponent(S.hand.id) + "/seats?base=" + encodeURIComponent(location.origin)).catch(() => null);
    if (!r || r.status !== 200) {
      S.error = t((r && r.data && r.data.error) || "err.store", { detail: "" });
      return render();
    }
    S.seatLinks = { hand: S.hand.id, seats: r.data.seats || [] };
  }
  S.error = "";
  S.seatShown = seat;
  render();
}

// holderOf returns the seat the stored events last dealt card c to (0 when none).
function holderOf(c) {
  let seat = 0;
  for (const e of S.hand.events) if (e.type === "card.dealt" && e.data.card === c) seat = e.data.seat;
  return seat;
}

function who(a) { return { player: playerName(a.Seat), seat: a.Seat }; }

function prompt(box, text) { box.append(el("p", { class: "prompt" }, text)); }

function dealButtons(box, a, phase) {
  const row = el("div", { class: "row" });
  // The whole round in one tap: from the machine's shuffle, or face down where nobody records
  // the cards (the deal itself, or a draw after a face-down deal).
  if (a.Top || phase === "deal" || unrecorded()) {
    row.append(btn(a.Top ? t("step.deal.round") : t("step.deal.round.down"), "deal-round", () => { S.auto = phase; autoDeal(); }, "main"));
  }
  if (a.Top) row.append(btn(S.hidden ? t("step.deal.hidden", who(a)) : t("step.deal.machine", { card: cardLabel(a.Top) }), "deal",
    () => emit("card.dealt", { seat: a.Seat, card: a.Top, phase })));
  else {
    row.append(btn("🂠 …", "pick", () => pick(t(phase === "deal" ? "step.deal" : "step.draw", who(a)), (c) => emit("card.dealt", { seat: a.Seat, card: c, phase }))));
    row.append(btn(t("step.unknown"), "unknown", () => emit("card.dealt", { seat: a.Seat, phase })));
  }
  box.append(row);
}

function stepView(box, a) {
  switch (a.Step) {
    case "shuffle":
    case "reshuffle": {
      if (a.Remedy) remedyNote(box, a);
      prompt(box, a.Step === "shuffle" ? t("step.shuffle") : t("step.reshuffle", { n: (a.Cards || []).length }));
      const row = el("div", { class: "row" });
      row.append(btn(t("step.shuffle.machine"), "machine-shuffle", async () => {
        const seq = nextSeq();
        const r = await api("POST", "hands/" + S.hand.id + "/shuffle", JSON.stringify({ seq }));
        if (r.status !== 200) { S.error = t(r.data.error, { detail: r.data.detail }); return render(); }
        const d = { method: r.data.method, commitment: r.data.commitment };
        if (a.Step === "reshuffle") d.cards = a.Cards;
        emit("deck.shuffled", d);
      }, "main"));
      if (a.Step === "shuffle") row.append(btn(t("step.shuffle.physical"), "physical-shuffle", () => emit("deck.shuffled", { method: "physical", count: 3 })));
      else row.append(btn(t("step.shuffle.physical"), "physical-shuffle", () => emit("deck.shuffled", { method: "physical", cards: a.Cards })));
      box.append(row);
      break;
    }
    case "cut": {
      prompt(box, t("step.cut"));
      const n = a.StubLen || 0;
      if (S.amount === null) S.amount = Math.floor(n / 2);
      box.append(amountInput(1, Math.max(1, n - 1), 1));
      box.append(el("div", { class: "row" },
        btn(t("step.cut.record"), "cut", () => emit("deck.cut", { at: S.amount }), "main"),
        btn(t("step.cut.none"), "no-cut", () => emit("deck.cut", { at: 0 }))));
      break;
    }
    case "blind":
      blindView(box, a);
      break;
    case "ante":
      prompt(box, t("step.ante", { ...who(a), amount: a.Amount }));
      box.append(el("div", { class: "row" }, btn(t("step.ante.record"), "ante", () => emit("ante.posted", { seat: a.Seat, amount: a.Amount }), "main")));
      break;
    case "deal":
      prompt(box, t("step.deal", who(a)));
      dealButtons(box, a, "deal");
      break;
    case "draw":
      prompt(box, t("step.draw", who(a)));
      dealButtons(box, a, "draw");
      break;
    case "burn": {
      prompt(box, t("step.burn"));
      const row = el("div", { class: "row" });
      if (a.Top) row.append(btn(S.hidden ? t("step.burn.hidden") : t("step.burn.machine", { card: cardLabel(a.Top) }), "burn", () => emit("card.burned", { card: a.Top }), "main"));
      else row.append(btn("🂠 …", "pick", () => pick(t("step.burn"), (c) => emit("card.burned", { card: c }))));
      box.append(row);
      break;
    }
    case "action":
      actionView(box, a);
      break;
    case "misdeal":
      prompt(box, t("remedy.misdeal"));
      box.append(el("div", { class: "row" }, confirmBtn(t("hand.misdeal"), "misdeal-now", () => emit("misdeal.declared", { reason: t("hand.misdeal.reason") }), "danger")));
      break;
    case "pass":
      prompt(box, t("step.pass"));
      box.append(el("div", { class: "row" }, btn(t("step.pass.record"), "pass", () => emit("hand.passed", {}), "main")));
      break;
    case "discard":
      discardView(box, a);
      break;
    case "show": {
      prompt(box, t("step.show", who(a)));
      const cs = a.Cards || [];
      box.append(el("div", { class: "cards" }, cs.map((c) => cardButton(c, "shown", null))));
      const row = el("div", { class: "row" });
      if (cs.length === 5) row.append(btn(t("step.show.record"), "show", () => emit("hand.shown", { seat: a.Seat, cards: cs }), "main"));
      row.append(btn(t("step.muck"), "muck", () => emit("hand.mucked", { seat: a.Seat })));
      box.append(row);
      break;
    }
    case "openers":
      prompt(box, t("step.openers", who(a)));
      box.append(el("div", { class: "cards" }, (a.Cards || []).map((c) => cardButton(c, "opener", null))));
      box.append(el("div", { class: "row" }, btn(t("step.openers.record"), "openers", () => emit("openers.shown", { seat: a.Seat, cards: a.Cards }), "main")));
      break;
    case "return":
      prompt(box, t("step.return", { ...who(a), amount: a.Amount }));
      box.append(el("div", { class: "row" }, btn(t("step.return.record"), "return", () => emit("bet.returned", { seat: a.Seat, amount: a.Amount }), "main")));
      break;
    case "award":
      prompt(box, t("step.award", { ...who(a), amount: a.Amount, pot: potName(a.Pot) }));
      potsView(box, a);
      box.append(el("div", { class: "row" }, btn(t("step.award.record"), "award", () => emit("pot.awarded", { seat: a.Seat, amount: a.Amount, pot: a.Pot }), "main")));
      break;
    case "reveal":
      prompt(box, t("step.reveal"));
      if (a.Seed) {
        box.append(el("p", { class: "note mono" }, t("hand.seed", { seed: a.Seed })));
        box.append(el("div", { class: "row" }, btn(t("step.reveal.record"), "reveal", () => emit("deck.revealed", { shuffle: a.Shuffle, seed: a.Seed }), "main")));
      }
      break;
    case "end":
      prompt(box, t("step.end"));
      box.append(el("div", { class: "players" }, a.Stacks.map((s) => el("div", { class: "player" }, el("b", {}, s.Seat + " · " + playerName(s.Seat)), el("br"), num(s.Stack)))));
      box.append(el("div", { class: "row" }, btn(t("step.end.record"), "end", () => emit("hand.ended", { stacks: a.Stacks.map((s) => ({ seat: s.Seat, stack: s.Stack })), carry: a.Carry }), "main")));
      break;
    case "done":
      prompt(box, t("step.done"));
      if (S.hand.receipt) {
        // The players' receipt of the hand (serve --sign-key): a link they keep and check later.
        box.append(el("p", { class: "note" }, el("a", { href: S.hand.receipt, "data-key": "hand.receipt", target: "_blank", rel: "noopener" }, t("hand.receipt"))));
      }
      box.append(el("div", { class: "row" }, btn(t("hand.next"), "next-hand", async () => {
        const r = await api("GET", "hands/" + S.hand.id + "/next");
        if (r.status === 200) S.next = r.data;
        S.hand = null;
        localStorage.removeItem("console.hand");
        render();
      }, "main")));
      break;
  }
}

// potName names pot k in words: the main pot, side pot 1, 2…
function potName(k) { return k ? t("pot.side", { k }) : t("pot.main"); }

// presetName names a preset in the reader's language (the catalogue's preset.NAME), its code
// only where the catalogue has none.
function presetName(name) { const m = words.messages["preset." + name]; return m ? m.other : name; }

// potsView lists the pots the engine computed: each one's chips, who may win it and the shares.
function potsView(box, a) {
  const list = el("ul", { id: "pots", class: "note" });
  for (const p of a.Pots || []) {
    const shares = Object.entries(p.Shares || {}).map(([seat, amount]) => t("pot.share", { player: playerName(+seat), seat, amount }));
    list.append(el("li", {}, t("pot.line", { pot: potName(p.Index), amount: p.Amount, seats: (p.Eligible || []).join(", ") }), shares.length ? " " + shares.join(" ") : ""));
  }
  box.append(list);
}

// amountInput is a number between lo and hi with big minus and plus buttons; S.amount holds it.
function amountInput(lo, hi, step) {
  const input = el("input", { id: "amount", type: "number", min: lo, max: hi, value: S.amount, inputmode: "numeric", "aria-label": t("amount"),
    oninput: (e) => { S.amount = Math.min(hi, Math.max(lo, +e.target.value || lo)); relabel(); } });
  const set = (v) => { S.amount = Math.min(hi, Math.max(lo, v)); input.value = S.amount; relabel(); };
  return el("div", { class: "amount" },
    btn("−", "minus", () => set(S.amount - step)), input, btn("+", "plus", () => set(S.amount + step)));
}

function relabel() {
  for (const b of document.querySelectorAll("[data-label]")) b.textContent = t(b.getAttribute("data-label"), { amount: S.amount });
}

function actionView(box, a) {
  const o = a.Options;
  prompt(box, t("step.action", who(a)));
  if (a.MinOpen) box.append(el("p", { class: "note" }, t("step.action.minopen", { text: a.MinOpen })));
  const act = (action, amount) => emit("player.acted", { seat: o.Seat, round: o.Round, action, amount });
  const lo = o.Bet ? o.MinBet : o.MinRaise, hi = o.Bet ? o.MaxBet : o.MaxRaise;
  if ((o.Bet || o.Raise) && S.amount === null) S.amount = lo;
  if ((o.Bet || o.Raise) && hi > lo) box.append(amountInput(lo, hi, 1));
  const grid = el("div", { class: "acts" });
  grid.append(confirmBtn(t("act.fold"), "fold", () => act("fold", 0), "danger"));
  if (o.Check) grid.append(btn(t("act.check"), "check", () => act("check", 0)));
  if (o.Call > 0) grid.append(btn(t("act.call", { amount: o.Call }), "call", () => act("call", o.Call)));
  if (o.Bet) {
    const b = btn(t("act.bet", { amount: S.amount }), "bet", () => act("bet", S.amount), "main");
    b.setAttribute("data-label", "act.bet");
    grid.append(b);
  }
  if (o.Raise) {
    const b = btn(t("act.raise", { amount: S.amount }), "raise", () => act("raise", S.amount), "main");
    b.setAttribute("data-label", "act.raise");
    grid.append(b);
  }
  box.append(grid);
}

function discardView(box, a) {
  prompt(box, t("step.discard", { ...who(a), max: a.MaxDraw }));
  const cs = a.Cards || [];
  if (cs.length) {
    box.append(el("div", { class: "cards" }, cs.map((c, k) => cardButton(c, "discard-card", () => {
      const i = S.chosen.indexOf(c);
      if (i >= 0) S.chosen.splice(i, 1);
      else if (S.chosen.length < a.MaxDraw) S.chosen.push(c);
      render();
    }, S.chosen.includes(c), S.hidden ? k + 1 : 0))));
    box.append(el("div", { class: "row" },
      btn(t("step.discard.pat"), "pat", () => emit("cards.discarded", withDeclared({ seat: a.Seat, cards: [] }))),
      btn(t("step.discard.record", { n: S.chosen.length }), "discard", () => emit("cards.discarded", withDeclared({ seat: a.Seat, cards: S.chosen.slice() })), "main")));
    declaredRow(box, a);
    return;
  }
  // The player's cards are not recorded: the number he throws.
  const row = el("div", { class: "row" });
  for (let n = 0; n <= a.MaxDraw; n++) row.append(btn(String(n), "discard-" + n, () => emit("cards.discarded", n ? { seat: a.Seat, cards: [], declared: n } : { seat: a.Seat, cards: [] })));
  box.append(row);
}

// toolsView offers what can happen at any time: a card exposed (with the preset's remedy), a
// misdeal, and undo of the last unsent event.
function toolsView(m, a) {
  const hs = started();
  const preset = S.presets.find((p) => p.name === hs.rules.name) || {};
  const phase = ["shuffle", "cut", "ante", "blind"].includes(a.Step) ? "cut" : (a.Stage === "draw" || ["reshuffle", "discard", "burn", "draw"].includes(a.Step)) ? "draw" : "deal";
  const remedy = phase === "cut" ? preset.exposed_cut : phase === "deal" ? preset.exposed_deal : preset.exposed_draw;
  const tools = el("div", { class: "tools" });
  if (a.MisdealDue) tools.append(el("p", { class: "warn" }, t("remedy.misdeal")));
  else if (remedy) tools.append(el("p", { class: "note" }, t("remedy." + remedy)));
  tools.append(el("div", { class: "row" },
    btn(t("hand.exposed"), "exposed", () => pick(t("hand.exposed.pick"), (c) => {
      // The seat is the player the card was dealt to, or in the draw the one it was meant for.
      const d = { card: c, phase, cause: "dealer" };
      const holder = phase === "draw" ? a.Seat : holderOf(c);
      if (holder) d.seat = holder;
      if (phase === "draw" && (remedy === "burn-next" || remedy === "replace-last")) emit("card.burned", { card: c });
      emit("card.exposed", d);
    })),
    confirmBtn(t("hand.misdeal"), "misdeal", () => emit("misdeal.declared", { reason: t("hand.misdeal.reason") }), "danger")));
  m.append(tools);
}

// blindView posts a blind: the small blind the table set up (at most the player's chips), the big
// blind, or a newcomer's big blind to come in.
function blindView(box, a) {
  let amount = a.Amount;
  if (a.Blind === "small") {
    const set = +localStorage.getItem("console.smallBlind");
    const me = stateOfPlayers().find((p) => p.seat === a.Seat);
    if (set > 0 && me) amount = Math.min(set, me.stack);
  }
  prompt(box, t("step.blind." + a.Blind, { ...who(a), amount }));
  box.append(el("div", { class: "row" }, btn(t("step.blind.record"), "blind", () => emit("blind.posted", { seat: a.Seat, amount, blind: a.Blind }), "main")));
}

// remedyNote says which remedy of the preset the step carries out (a card shown in the cut).
function remedyNote(box, a) {
  box.append(el("p", { class: "warn", id: "remedy" }, t("remedy." + a.Remedy)));
}

// declaredRow records how many cards the player announced, where the preset has a rule on it
// (presets.md "drawing": tr-kapali lets him raise the number, never lower it; std-draw lets him
// change it until a card is dealt). Under tr-kapali a discard below the number is not offered.
function declaredRow(box, a) {
  if (!a.Declared) return;
  const row = el("div", { class: "row", id: "declared" }, el("span", { class: "note" }, t("step.discard.declared", who(a))));
  for (let n = 0; n <= a.MaxDraw; n++) {
    row.append(btn(String(n), "declare-" + n, () => { S.declared = S.declared === n ? null : n; render(); }, S.declared === n ? "sel" : null));
  }
  box.append(row);
  if (S.declared !== null && a.Declared === "raise" && S.chosen.length < S.declared) {
    box.append(el("p", { class: "warn", id: "declared-lower" }, t("step.discard.declared.lower", { ...who(a), n: S.declared })));
    for (const b of box.querySelectorAll('[data-act="discard"], [data-act="pat"]')) b.disabled = true;
  }
}

function withDeclared(d) {
  if (S.declared !== null && S.declared !== undefined) d.declared = S.declared;
  return d;
}

async function init() {
  try { await loadWords(localStorage.getItem("lang")); } catch (e) { words.messages = {}; }
  // A session cookie from an earlier login (a reload of the page) logs the device in again.
  try { await login(true); return; } catch (e) { S.offline = true; }
  render();
}

window.addEventListener("online", send);
init();
