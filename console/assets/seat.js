// A player's own cards on his own phone (serve --player-cards): the page a seat's link opens,
// with no login. The link's fragment (never sent to a server, nor to a page this one links to)
// holds the table, the hand, the seat and the seat's capability, which the page gives the API in
// a header. The page shows that seat's cards of the hand in progress and his draw, asks again
// every two seconds while the hand goes on, and says so when the hand is over (the link expires
// with it). Every word is a console.seat.* message, in the reader's language.
"use strict";

const $ = (sel) => document.querySelector(sel);
const link = new URLSearchParams(location.hash.slice(1));
const words = { lang: "en", langs: [], messages: {}, plural: new Intl.PluralRules("en"), number: new Intl.NumberFormat("en") };
let last = null; // the last answer, drawn again when the language changes
let timer = null;

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

// t returns the message console.<key> with its {places} filled; a count n picks the plural form.
function t(key, params) {
  const args = params || {};
  const m = words.messages["console." + key];
  if (!m) return "[" + key + "]";
  const s = (args.n != null && m[words.plural.select(Number(args.n))]) || m.other;
  return s.replace(/\{([a-z_]+)\}/g, (all, k) => (k in args ? (typeof args[k] === "number" ? words.number.format(args[k]) : String(args[k])) : all));
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

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };

// cardsRow draws cards face up, each named in words for a screen reader.
function cardsRow(id, cs) {
  return el("div", { class: "cards seat-cards", id }, cs.map((c) =>
    el("span", { class: "card" + (c.card[1] === "h" || c.card[1] === "d" ? " red" : ""), "data-card": c.card, role: "img", "aria-label": c.name, title: c.name },
      c.card[0].replace("T", "10") + SUITS[c.card[1]])));
}

function langView() {
  const sel = $("#bar-lang");
  sel.replaceChildren(...words.langs.map((x) => el("option", { value: x.code, selected: x.code === words.lang }, x.name)));
  sel.setAttribute("aria-label", t("lang"));
  sel.onchange = async () => {
    localStorage.setItem("lang", sel.value);
    await loadWords(sel.value);
    await refresh();
  };
}

// render draws the answer of the API: the seat's cards, or why there are none.
function render() {
  langView();
  $("#bar-title").textContent = t("seat.page");
  const m = $("#main");
  m.replaceChildren();
  const r = last;
  if (!r) return;
  if (r.status !== 200) {
    let why = t("seat.offline");
    if (r.status === 410) why = t("err.seat-over");
    else if (r.status === 403 || r.status === 404) why = t("err.seat-link");
    m.append(el("p", { class: r.status === 410 ? "note" : "error", id: "seat-error" }, why));
    return;
  }
  const d = r.data;
  m.append(el("h1", {}, t("seat.title", { player: d.player, seat: d.seat })),
    el("p", { class: "note" }, t("seat.hand", { table: d.table, number: d.number })));
  if (d.folded) m.append(el("p", { class: "warn", id: "seat-folded" }, t("seat.folded")));
  if (!d.dealt.length) m.append(el("p", { class: "prompt", id: "seat-none" }, t("seat.none")));
  else m.append(el("h2", {}, t("seat.dealt")), cardsRow("seat-dealt", d.dealt));
  if (d.drew) {
    m.append(el("h2", {}, d.threw ? t("seat.threw", { n: d.threw }) : t("seat.pat")));
    if (d.thrown.length) m.append(cardsRow("seat-thrown", d.thrown));
    if (d.drawn.length) m.append(el("h2", {}, t("seat.drawn")), cardsRow("seat-drawn", d.drawn));
  }
  if (d.drew && d.hand.length === 5) {
    m.append(el("h2", {}, d.hand_name ? t("seat.now.named", { hand: d.hand_name }) : t("seat.now")), cardsRow("seat-hand", d.hand));
  }
  m.append(el("p", { class: "note", id: "seat-private" }, t("seat.private")));
}

// refresh asks for the seat's cards and draws them; a hand over or a link refused stops asking.
async function refresh() {
  const q = new URLSearchParams({ t: link.get("t") || "", h: link.get("h") || "", s: link.get("s") || "" });
  let r;
  try {
    const res = await fetch("/console/api/seat?" + q, { headers: { "X-Fechado-Seat": link.get("k") || "", "Accept-Language": words.lang }, cache: "no-store" });
    r = { status: res.status, data: res.status === 200 ? await res.json() : null };
  } catch (e) {
    r = { status: 0, data: null }; // no network: said, and asked again
  }
  last = r;
  render();
  if (r.status === 410 || r.status === 403 || r.status === 404) {
    clearInterval(timer);
    timer = null;
  }
}

(async () => {
  await loadWords(localStorage.getItem("lang") || "");
  await refresh();
  timer = setInterval(refresh, 2000);
})();
