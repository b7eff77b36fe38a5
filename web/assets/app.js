// fechado dashboard: vanilla JavaScript, no dependencies. This file holds what every page uses
// (fetching, escaping, cards, the reader's language and words, the live connection); each page
// has its own file, and main.js, loaded last, routes the URL hash to them.
"use strict";

const $ = (sel, el = document) => el.querySelector(sel);
const esc = (v) => String(v ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const view = () => $("#view");
const COLORS = ["#0b6bcb", "#c62828", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f", "#6d4c41", "#ad1457", "#455a64", "#9e9d24"];

async function api(path) {
  const r = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || r.status + " " + r.statusText);
  return body;
}

function badge(status, text) {
  return `<span class="badge ${esc(status)}">${esc(text ?? status)}</span>`;
}

function cardHTML(c, cls = "") {
  if (!c) return `<span class="pc back ${cls}"></span>`;
  const red = c[1] === "h" || c[1] === "d";
  const suit = { c: "♣", d: "♦", h: "♥", s: "♠" }[c[1]] || c[1];
  return `<span class="pc ${red ? "red" : ""} ${cls}" title="${esc(c)}">${esc(c[0])}${suit}</span>`;
}

// ---------- the reader's language and words ----------
// The words come from the lang package's catalogue (GET /api/messages), the same one the report
// and the CLI speak: whole sentences with named placeholders, never fragments glued together.
const LANGS = ["en", "pt-BR", "tr", "es"];
const words = { lang: "en", messages: {}, plural: new Intl.PluralRules("en"), number: new Intl.NumberFormat("en") };
function readerLang() {
  const saved = localStorage.getItem("lang");
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").toLowerCase();
  return LANGS.find((l) => nav === l.toLowerCase() || nav.startsWith(l.split("-")[0] + "-") || nav === l.split("-")[0]) || "en";
}
// loadWords fetches the catalogue of language l and writes the page's fixed words (elements with
// data-t) in it.
async function loadWords(l) {
  const r = await api(`/api/messages?lang=${encodeURIComponent(l)}`);
  words.lang = r.lang;
  words.messages = r.messages;
  words.plural = new Intl.PluralRules(r.lang);
  words.number = new Intl.NumberFormat(r.lang);
  document.documentElement.lang = r.lang;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  document.querySelectorAll("[data-t-title]").forEach((el) => { el.title = t(el.dataset.tTitle); });
  document.querySelectorAll("[data-t-aria]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.tAria)); });
  // The language switcher names each language in its own words, as the server lists them.
  (r.langs || []).forEach((x) => { const o = $(`#lang option[value="${x.code}"]`); if (o) o.title = x.name; });
}
// t returns message key in the reader's language with its placeholders filled: numbers in the
// locale's digits; a count named n picks the plural form. The result is text: escape it (esc)
// before putting it in HTML. An unknown key shows as [key], so a gap is seen.
function t(key, args = {}) {
  const m = words.messages[key];
  if (!m) return `[${key}]`;
  const s = (args.n != null && m[words.plural.select(Number(args.n))]) || m.other; // the CLDR form the count takes (one, many…), else other
  return s.replace(/\{([a-z_]+)\}/g, (all, k) => (k in args ? (typeof args[k] === "number" ? words.number.format(args[k]) : String(args[k])) : all));
}
async function setLang(l) {
  localStorage.setItem("lang", l);
  await loadWords(l);
  const sel = $("#lang");
  if (sel) sel.value = l;
}
// findingTag names a finding code by its short title in the reader's language, the code itself in
// the tooltip (a code the catalogue does not title keeps its code).
const findingTag = (c) => `<span class="ftag" title="${esc(c)}">${esc(words.messages["ftitle." + c] ? t("ftitle." + c) : c)}</span>`;
const reportHref = (hand) => `/hands/${encodeURIComponent(hand)}/report?lang=${encodeURIComponent(readerLang())}`;
const handLink = (hand, text) => `<a href="#/hand/${esc(hand)}">${esc(text)}</a>`;
const when = (at) => esc(String(at || "").replace("T", " ").slice(0, 19));

// ---------- live updates: one connection per browser ----------
// The server pushes table changes and ended hands as Server-Sent Events (GET /api/events). An
// EventSource holds an HTTP/1.1 connection for as long as its tab is open, and a browser opens at
// most six to one server: with one per tab the seventh tab would never load. So one tab of the
// browser, the leader, holds the only EventSource and relays every event to the other tabs over a
// BroadcastChannel; a tab that opens asks the leader for the tables as they are now.
//
// The leader is chosen with a Web Lock (navigator.locks): the browser grants the lock to one tab
// and, the moment that tab closes or crashes, to the next one waiting, which opens the connection
// in its turn. Web Locks exist only in a secure context (https, or localhost); served over plain
// http on a local network, the tabs elect the leader over the channel itself: the leader beats
// every second, a tab that hears no beat for a few seconds takes over, and of two leaders the one
// with the lower number keeps the connection. A browser without BroadcastChannel opens one
// connection per tab, as before.
//
// Neither alternative does it alone: a SharedWorker would need the same fallback (Chrome on
// Android has none), and HTTP/2, which lifts the limit, is spoken by browsers only over TLS.
// No page waits on this connection: each loads its data with its own requests.
const live = { tables: new Map(), recent: [], listeners: new Set(), es: null, started: false, status: "off" };
const LIVE_CHANNEL = "fechado-live";

// receive records a live event and hands it to the page's listeners.
function receive(kind, x) {
  if (kind === "table") live.tables.set(x.table, x);
  else if (kind === "hand") { live.recent.unshift(x); live.recent = live.recent.slice(0, 30); } else return;
  live.listeners.forEach((fn) => fn(kind, x));
}

// showStatus sets the live indicator: "on", "off" or "reconnecting"; its words follow the
// language (data-t), its state is in data-state.
function showStatus(s) {
  live.status = s;
  const el = $("#live");
  if (!el) return;
  el.dataset.t = "web.live." + s;
  el.dataset.state = s;
  el.textContent = t(el.dataset.t);
  el.classList.toggle("off", s !== "on");
}

// lead opens this tab's EventSource and relays what it receives on chan (null: nobody to tell).
function lead(chan) {
  if (live.es) return;
  const say = (kind, x) => { if (chan) chan.postMessage({ kind, x }); };
  const es = new EventSource("/api/events");
  live.es = es;
  $("#live")?.setAttribute("data-role", "leader");
  es.onopen = () => { showStatus("on"); say("status", "on"); };
  es.onerror = () => {
    showStatus("reconnecting");
    say("status", "reconnecting");
    // The browser retries by itself unless the server refused the stream (a server restarting
    // answers 503): then open a new one a little later.
    if (es.readyState === EventSource.CLOSED && live.es === es) {
      live.es = null;
      setTimeout(() => lead(chan), 5000);
    }
  };
  for (const kind of ["table", "hand"]) {
    es.addEventListener(kind, (ev) => { const x = JSON.parse(ev.data); receive(kind, x); say(kind, x); });
  }
}

// resign closes this tab's connection (the heartbeat election gave it to another tab).
function resign() {
  if (!live.es) return;
  live.es.close();
  live.es = null;
  $("#live")?.setAttribute("data-role", "follower");
}

// follow handles the channel's messages: a leader answers a newcomer's hello with the tables it
// knows; a follower takes the leader's events and status.
function follow(chan) {
  chan.addEventListener("message", ({ data: m }) => {
    if (m.kind === "hello") {
      if (live.es) chan.postMessage({ kind: "state", x: { tables: [...live.tables.values()], status: live.status } });
    } else if (live.es) {
      // The leader hears from the server itself.
    } else if (m.kind === "state") {
      m.x.tables.forEach((tb) => receive("table", tb));
      showStatus(m.x.status);
    } else if (m.kind === "status") {
      showStatus(m.x);
    } else {
      receive(m.kind, m.x);
    }
  });
  chan.postMessage({ kind: "hello" });
}

// elect is the heartbeat election, for browsers without Web Locks. Of two leaders, a tab in view
// keeps the connection before a hidden one (the browser slows a hidden tab's timers, so its beats
// may come a minute apart), then the lower number.
function elect(chan) {
  const me = Math.random();
  let heard = Date.now(); // give a leader already there one period to be heard
  const beats = (m) => (m.hidden === document.hidden ? m.id < me : !m.hidden);
  chan.addEventListener("message", ({ data: m }) => {
    if (m.kind === "beat") {
      if (live.es && beats(m)) resign();
      if (!live.es) heard = Date.now();
    } else if (m.kind === "bye") {
      heard = 0;
    }
  });
  setInterval(() => {
    if (!live.es && Date.now() - heard > 2500) lead(chan);
    if (live.es) chan.postMessage({ kind: "beat", id: me, hidden: document.hidden });
  }, 1000);
  addEventListener("pagehide", () => { if (live.es) chan.postMessage({ kind: "bye" }); });
}

// connect starts the live updates of this tab, once.
function connect() {
  if (live.started) return;
  live.started = true;
  $("#live")?.setAttribute("data-role", "follower");
  if (typeof BroadcastChannel !== "function") { lead(null); return; }
  const chan = new BroadcastChannel(LIVE_CHANNEL);
  follow(chan);
  if (navigator.locks) {
    // Held until the tab closes: the callback's promise never settles.
    navigator.locks.request(LIVE_CHANNEL, () => { lead(chan); return new Promise(() => {}); });
  } else {
    elect(chan);
  }
}

function listen(fn) { live.listeners.add(fn); return () => live.listeners.delete(fn); }
