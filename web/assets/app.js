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
}
// t returns message key in the reader's language with its placeholders filled: numbers in the
// locale's digits; a count named n picks the plural form. The result is text: escape it (esc)
// before putting it in HTML. An unknown key shows as [key], so a gap is seen.
function t(key, args = {}) {
  const m = words.messages[key];
  if (!m) return `[${key}]`;
  const s = m.one && args.n != null && words.plural.select(Number(args.n)) === "one" ? m.one : m.other;
  return s.replace(/\{([a-z_]+)\}/g, (all, k) => (k in args ? (typeof args[k] === "number" ? words.number.format(args[k]) : String(args[k])) : all));
}
async function setLang(l) {
  localStorage.setItem("lang", l);
  await loadWords(l);
  const sel = $("#lang");
  if (sel) sel.value = l;
}
const reportHref = (hand) => `/hands/${encodeURIComponent(hand)}/report?lang=${encodeURIComponent(readerLang())}`;
const handLink = (hand, text) => `<a href="#/hand/${esc(hand)}">${esc(text)}</a>`;
const when = (at) => esc(String(at || "").replace("T", " ").slice(0, 19));

// ---------- live updates (SSE) ----------
const live = { tables: new Map(), recent: [], listeners: new Set(), es: null };

function connect() {
  if (live.es) return;
  const es = new EventSource("/api/events");
  live.es = es;
  es.onopen = () => { const l = $("#live"); l.textContent = t("web.live.on"); l.classList.remove("off"); };
  es.onerror = () => { const l = $("#live"); l.textContent = t("web.live.reconnecting"); l.classList.add("off"); };
  es.addEventListener("table", (ev) => {
    const tb = JSON.parse(ev.data);
    live.tables.set(tb.table, tb);
    live.listeners.forEach((fn) => fn("table", tb));
  });
  es.addEventListener("hand", (ev) => {
    const h = JSON.parse(ev.data);
    live.recent.unshift(h);
    live.recent = live.recent.slice(0, 30);
    live.listeners.forEach((fn) => fn("hand", h));
  });
}

function listen(fn) { live.listeners.add(fn); return () => live.listeners.delete(fn); }

