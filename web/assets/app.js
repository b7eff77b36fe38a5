// fechado dashboard: vanilla JavaScript, no dependencies. Routes live in the URL hash.
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

// ---------- the reader's language: the page's lang and the dispute report's ----------
const LANGS = ["en", "pt-BR", "tr", "es"];
function readerLang() {
  const saved = localStorage.getItem("lang");
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").toLowerCase();
  return LANGS.find((l) => nav === l.toLowerCase() || nav.startsWith(l.split("-")[0] + "-") || nav === l.split("-")[0]) || "en";
}
function setLang(l) {
  localStorage.setItem("lang", l);
  document.documentElement.lang = l;
  const sel = $("#lang");
  if (sel) sel.value = l;
  document.querySelectorAll("a.report").forEach((a) => { a.href = reportHref(a.dataset.hand); });
}
const reportHref = (hand) => `/hands/${encodeURIComponent(hand)}/report?lang=${encodeURIComponent(readerLang())}`;
document.addEventListener("DOMContentLoaded", () => {
  setLang(readerLang());
  $("#lang").addEventListener("change", (ev) => setLang(ev.target.value));
});

// ---------- live updates (SSE) ----------
const live = { tables: new Map(), recent: [], listeners: new Set(), es: null };

function connect() {
  if (live.es) return;
  const es = new EventSource("/api/events");
  live.es = es;
  es.onopen = () => { const l = $("#live"); l.textContent = "live"; l.classList.remove("off"); };
  es.onerror = () => { const l = $("#live"); l.textContent = "reconnecting"; l.classList.add("off"); };
  es.addEventListener("table", (ev) => {
    const t = JSON.parse(ev.data);
    live.tables.set(t.table, t);
    live.listeners.forEach((fn) => fn("table", t));
  });
  es.addEventListener("hand", (ev) => {
    const h = JSON.parse(ev.data);
    live.recent.unshift(h);
    live.recent = live.recent.slice(0, 30);
    live.listeners.forEach((fn) => fn("hand", h));
  });
}

function listen(fn) { live.listeners.add(fn); return () => live.listeners.delete(fn); }

// ---------- router ----------
let cleanup = null;
const routes = [
  [/^#?\/?(tables)?$/, pageTables],
  [/^#\/hands(?:\?(.*))?$/, pageHands],
  [/^#\/hand\/([^/?]+)(?:\/(\d+))?$/, pageHand],
  [/^#\/players$/, pagePlayers],
  [/^#\/player\/(.+)$/, pagePlayer],
  [/^#\/tournaments(?:\/(.+))?$/, pageTournaments],
];

async function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  const h = location.hash || "#/tables";
  const section = (h.match(/^#\/(\w+)/) || [0, "tables"])[1];
  document.querySelectorAll("header nav a").forEach((a) => {
    const n = a.dataset.nav;
    a.classList.toggle("active", n === section || (n === "hands" && section === "hand") || (n === "players" && section === "player"));
  });
  for (const [re, fn] of routes) {
    const m = h.match(re);
    if (m) {
      try { await fn(...m.slice(1)); } catch (e) { view().innerHTML = `<p class="error-box">${esc(e.message)}</p>`; }
      return;
    }
  }
  view().innerHTML = `<p>Unknown page. <a href="#/tables">Tables</a></p>`;
}

// ---------- tables ----------
function tableCard(t) {
  const seats = (t.seats || []).map((s) => {
    const cls = [s.folded ? "folded" : "", t.to_act === s.seat ? "turn" : ""].join(" ");
    const extra = [s.all_in ? "all-in" : "", s.drawn >= 0 ? `drew ${s.drawn}` : ""].filter(Boolean).join(" · ");
    return `<div class="seatrow ${cls}"><span>#${s.seat}${t.dealer === s.seat ? " D" : ""}</span>
      <span>${esc(s.player)} <span class="muted">${esc(extra)}</span></span>
      <span class="num">${s.stack}</span><span class="num">${s.in_front ? s.in_front : ""}</span>
      <span class="num">${s.cards ? s.cards + "🂠" : ""}</span></div>`;
  }).join("") + (t.away || []).map((a) => `<div class="seatrow away"><span>#${a.seat}${t.dealer === a.seat ? " D" : ""}</span>
      <span>${esc(a.player)} <span class="muted">away</span></span><span class="num">${a.stack}</span><span class="num"></span><span class="num"></span></div>`).join("");
  const stage = t.live ? `${esc(t.stage)}${t.round ? " · round " + esc(t.round) : ""}` : "no live hand";
  return `<div class="panel tbl" id="tbl-${esc(t.table)}" data-table="${esc(t.table)}">
    <h3><a href="#/hands?table=${encodeURIComponent(t.table)}">${esc(t.table)}</a> <span class="muted">${esc(t.preset)}</span></h3>
    <div class="meta">hand ${t.number || "–"} · ${stage}${t.to_act ? " · to act: seat " + t.to_act : ""}
      ${t.hand ? ` · <a href="#/hand/${esc(t.hand)}">replay</a>` : ""}</div>
    <div class="seatrow muted"><span>seat</span><span>player</span><span class="num">stack</span><span class="num">in front</span><span class="num">cards</span></div>
    ${seats}
    <div class="potline"><span class="pot">pot ${t.pot ?? 0}</span>${t.carry ? `<span>carry ${t.carry}</span>` : ""}</div>
  </div>`;
}

function recentHTML() {
  if (!live.recent.length) return `<p class="muted">Hands appear here as they end.</p>`;
  return live.recent.map(({ hand: h }) => `<div><a href="#/hand/${esc(h.hand)}">${esc(h.table)} #${h.number}</a>
    ${badge(h.audit || "ok", h.audit || "ok")}${h.codes.map((c) => `<span class="code">${esc(c)}</span>`).join(" ")}
    <span class="muted">${esc(h.winners)}</span></div>`).join("");
}

async function pageTables() {
  connect();
  const data = await api("/api/tables");
  if (!live.recent.length) {
    const ended = await api("/api/hands?limit=15");
    live.recent = ended.hands.filter((h) => h.ended).map((h) => ({ hand: h, findings: [] }));
  }
  for (const t of data.tables) if (t.live && !live.tables.has(t.table)) live.tables.set(t.table, t);
  const all = new Map(data.tables.map((t) => [t.table, t]));
  live.tables.forEach((t, id) => all.set(id, { ...all.get(id), ...t }));
  view().innerHTML = `<h1>Tables</h1><div class="cols"><div class="grid" id="tables">${[...all.values()].map(tableCard).join("") ||
    '<p class="muted">No table yet. Append events with POST /api/events or run fechado demo.</p>'}</div>
    <div class="panel"><h2>Hands ended</h2><div class="ticker" id="recent">${recentHTML()}</div></div></div>`;
  cleanup = listen((kind, x) => {
    if (kind === "table") {
      const old = document.getElementById("tbl-" + x.table);
      const tmp = document.createElement("div");
      tmp.innerHTML = tableCard({ ...(all.get(x.table) || {}), ...x });
      const card = tmp.firstElementChild;
      card.classList.add("flash");
      if (old) old.replaceWith(card); else { const g = $("#tables"); if (g) g.appendChild(card); }
    } else if (kind === "hand") {
      const r = $("#recent"); if (r) r.innerHTML = recentHTML();
    }
  });
}

// ---------- hands ----------
async function pageHands(qs) {
  const params = new URLSearchParams(qs || "");
  const data = await api("/api/hands?" + params.toString());
  const f = (k) => esc(params.get(k) || "");
  view().innerHTML = `<h1>Hands</h1>
    <form class="filters" id="filters">
      <label>table<input type="text" name="table" value="${f("table")}"></label>
      <label>player<input type="text" name="player" value="${f("player")}"></label>
      <label>preset<select name="preset">${["", "br-fechado", "br-online", "tr-kapali", "std-draw", "online-draw"].map((p) =>
        `<option ${params.get("preset") === p ? "selected" : ""} value="${p}">${p || "any"}</option>`).join("")}</select></label>
      <label>from<input type="date" name="from" value="${f("from")}"></label>
      <label>to<input type="date" name="to" value="${f("to")}"></label>
      <label><span><input type="checkbox" name="findings" value="1" ${params.get("findings") === "1" ? "checked" : ""}> with findings only</span></label>
      <button type="submit">Filter</button>
    </form>
    <table class="list" id="hands"><thead><tr><th>table</th><th>#</th><th>preset</th><th>started</th><th class="num">players</th>
      <th class="num">pot</th><th>winners</th><th>audit</th><th>findings</th></tr></thead><tbody>
    ${data.hands.map((h) => `<tr class="click" data-hand="${esc(h.hand)}"><td>${esc(h.table)}</td><td>${h.number}</td><td>${esc(h.preset)}</td>
      <td>${esc(h.started_at.replace("T", " ").slice(0, 19))}</td><td class="num">${h.players}</td><td class="num">${h.pot}</td>
      <td>${esc(h.winners)}${h.passed ? " (passed)" : ""}${h.misdeal ? " (misdeal)" : ""}</td>
      <td>${h.ended ? badge(h.audit || "ok", h.audit || "ok") : badge("", "in progress")}</td>
      <td>${h.codes.map((c) => `<span class="code">${esc(c)}</span>`).join(" ")}</td></tr>`).join("")}
    </tbody></table>${data.hands.length ? "" : '<p class="muted">No hand matches.</p>'}`;
  $("#filters").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(ev.target)) if (v) p.set(k, v);
    location.hash = "#/hands?" + p.toString();
  });
  $("#hands").addEventListener("click", (ev) => {
    const tr = ev.target.closest("tr[data-hand]");
    if (tr) location.hash = "#/hand/" + tr.dataset.hand;
  });
}

// ---------- hand replayer ----------
function describe(e) {
  const d = e.data || {};
  const parts = [`seq ${e.seq}`, e.type];
  if (d.seat) parts.push(`seat ${d.seat}`);
  if (e.type === "player.acted") parts.push(`${d.action}${d.amount ? " " + d.amount : ""} (${d.round})`);
  else if (e.type === "cards.discarded") parts.push(d.cards.length ? `discards ${d.cards.join(" ")}` : d.declared ? `discards ${d.declared}` : "stands pat");
  else if (e.type === "card.dealt" || e.type === "card.burned" || e.type === "card.exposed") parts.push(d.card ? d.card : "face down");
  else if (e.type === "hand.shown" || e.type === "openers.shown") parts.push(d.cards.join(" "));
  else if (e.type === "pot.awarded") parts.push(`wins ${d.amount} from pot ${d.pot}`);
  else if (e.type === "ante.posted" || e.type === "blind.posted" || e.type === "bet.returned") parts.push(String(d.amount));
  else if (e.type === "misdeal.declared") parts.push(d.reason);
  return parts.join(" · ");
}

function findingHTML(f) {
  const show = (v) => (typeof v === "string" ? v : JSON.stringify(v));
  return `<div class="f ${esc(f.severity)}" data-code="${esc(f.code)}"><span class="code">${esc(f.code)}</span> ${badge(f.severity)}
    ${f.seat ? `<span class="muted">seat ${f.seat}</span>` : ""} <span class="muted">at seq ${f.seq}</span>
    <div>${esc(f.message)}</div>
    ${f.expected !== undefined ? `<div><b>expected:</b> ${esc(show(f.expected))}</div>` : ""}
    ${f.actual !== undefined ? `<div><b>actual:</b> ${esc(show(f.actual))}</div>` : ""}</div>`;
}

function seatHTML(s, st) {
  const turn = st.turn === s.seat || st.drawer === s.seat;
  const cards = s.cards.map((c) => cardHTML(c, (s.seen || []).includes(c) ? "seen" : "")).join("") +
    Array.from({ length: s.hidden }, () => cardHTML(null)).join("");
  const drew = st.draws && st.draws[s.seat] !== undefined ? `drew ${st.draws[s.seat]}` : "";
  return `<div class="seat ${esc(s.status)} ${turn ? "turn" : ""}" data-seat="${s.seat}">
    <div class="who"><span>${esc(s.player)}</span><span>seat ${s.seat}</span></div>
    <div class="tags">${st.dealer === s.seat ? '<span class="dealer">dealer</span>' : ""}${st.opener === s.seat ? '<span class="opener">opener</span>' : ""}
      ${s.status !== "active" ? `<span>${esc(s.status)}</span>` : ""}${drew ? `<span>${drew}</span>` : ""}${turn ? "<span>to act</span>" : ""}</div>
    <div class="cards">${cards}</div>
    <div class="chips">stack <b>${s.stack}</b> · in front <b>${s.in_front}</b> · in pot ${s.in}${s.won ? ` · won <b>${s.won}</b>` : ""}</div>
    ${s.hand ? `<div class="muted">${esc(s.hand)}</div>` : ""}</div>`;
}

async function pageHand(id, at) {
  const data = await api(`/api/hands/${encodeURIComponent(id)}/replay`);
  const steps = data.steps;
  let i = steps.length - 1;
  if (at) { const k = steps.findIndex((s) => s.seq === Number(at)); if (k >= 0) i = k; }
  let timer = null;
  const marks = [];
  let lastRound = "";
  steps.forEach((s, k) => {
    const label = s.stage === "draw" ? "draw" : s.round && s.stage === "betting" ? s.round : s.stage === "showdown" ? "showdown" : "";
    if (label && label !== lastRound) { marks.push([k, label]); lastRound = label; }
  });
  const pct = (k) => (steps.length > 1 ? (100 * k) / (steps.length - 1) : 0);
  const first = steps[0];
  view().innerHTML = `<h1>Hand ${esc(first.table)} #${first.number} <span class="muted code">${esc(id)}</span></h1>
    <div class="muted">${esc(first.rules)} · ante ${first.stakes.ante} · bet ${first.stakes.min_bet}${first.stakes.max_bet ? "–" + first.stakes.max_bet : " no limit"}
      · ${data.ended ? "ended" : "in progress: only public information is shown"}
      · <a href="#/hands?table=${encodeURIComponent(first.table)}">table's hands</a>
      ${data.ended ? ` · <a class="report button" data-hand="${esc(id)}" href="${esc(reportHref(id))}" target="_blank" rel="noopener">Report</a>` : ""}</div>
    <div class="controls">
      <button id="first" title="jump to the start">|◀</button><button id="prev" title="step back (←)">◀</button>
      <button id="play" title="play / pause">play</button><button id="next" title="step forward (→)">▶</button>
      <button id="last" title="jump to the end">▶|</button>
      <label>speed <select id="speed"><option value="1600">0.5×</option><option value="800" selected>1×</option><option value="400">2×</option><option value="200">4×</option></select></label>
      <div class="sliderwrap"><input type="range" id="slider" min="0" max="${steps.length - 1}" value="${i}">
        <div class="marks">${marks.map(([k, l]) => `<i style="left:${pct(k)}%"></i><b style="left:${pct(k)}%">${esc(l)}</b>`).join("")}
        ${steps.map((s, k) => (s.findings.length ? `<i class="find" style="left:${pct(k)}%" title="${esc(s.findings.map((f) => f.code).join(", "))}"></i>` : "")).join("")}</div></div>
      <span id="step-seq" class="code"></span>
    </div>
    <div class="eventline" id="event"></div>
    <div class="cols"><div class="felt"><div class="seats" id="seats"></div><div class="potline" id="pots"></div></div>
      <div><div class="panel findings"><h2>At this event</h2><div id="step-findings"></div></div>
        <div class="panel findings"><h2>All findings (${data.findings.length})</h2>
        ${data.findings.map((f) => `<div><a href="#/hand/${esc(id)}/${f.seq}" data-seq="${f.seq}" class="jump code">seq ${f.seq} ${esc(f.code)}</a></div>`).join("") || '<p class="muted">The auditor found nothing.</p>'}</div></div></div>`;
  const render = () => {
    const st = steps[i];
    $("#slider").value = i;
    $("#step-seq").textContent = `step ${i + 1}/${steps.length} · seq ${st.seq}`;
    $("#event").textContent = describe(st.event);
    $("#seats").innerHTML = st.seats.map((s) => seatHTML(s, st)).join("") + (st.away || []).map((a) => `<div class="seat away" data-seat="${a.seat}">
      <div class="who"><span>${esc(a.player)}</span><span>seat ${a.seat}</span></div>
      <div class="tags">${st.dealer === a.seat ? '<span class="dealer">dealer</span>' : ""}<span>away, not dealt in</span></div>
      <div class="chips">stack <b>${a.stack}</b></div></div>`).join("");
    const pots = st.pots.map((p) => `<span>${p.index === 0 ? "main pot" : "side pot " + p.index}: <b>${p.amount}</b>${p.eligible.length ? ` <span class="muted">(seats ${p.eligible.join(", ")})</span>` : ""}</span>`).join("");
    $("#pots").innerHTML = `<span>pot <b>${st.pot}</b></span>${st.carry ? `<span>carry ${st.carry}</span>` : ""}${pots}${st.round ? `<span>round ${esc(st.round)}</span>` : ""}<span>${esc(st.stage)}</span>`;
    $("#step-findings").innerHTML = st.findings.length ? st.findings.map(findingHTML).join("") : '<p class="muted">No finding at this event.</p>';
  };
  const go = (k) => { i = Math.max(0, Math.min(steps.length - 1, k)); render(); };
  const stop = () => { if (timer) { clearInterval(timer); timer = null; $("#play").textContent = "play"; } };
  $("#first").onclick = () => { stop(); go(0); };
  $("#last").onclick = () => { stop(); go(steps.length - 1); };
  $("#prev").onclick = () => { stop(); go(i - 1); };
  $("#next").onclick = () => { stop(); go(i + 1); };
  $("#slider").oninput = (ev) => { stop(); go(Number(ev.target.value)); };
  const play = () => {
    if (timer) { stop(); return; }
    if (i >= steps.length - 1) go(0);
    $("#play").textContent = "pause";
    timer = setInterval(() => { if (i >= steps.length - 1) stop(); else go(i + 1); }, Number($("#speed").value));
  };
  $("#play").onclick = play;
  $("#speed").onchange = () => { if (timer) { stop(); play(); } };
  view().querySelectorAll("a.jump").forEach((a) => a.addEventListener("click", (ev) => {
    ev.preventDefault(); stop(); const k = steps.findIndex((s) => s.seq === Number(a.dataset.seq)); if (k >= 0) go(k);
  }));
  const onKey = (ev) => { if (ev.key === "ArrowRight") { stop(); go(i + 1); } else if (ev.key === "ArrowLeft") { stop(); go(i - 1); } };
  document.addEventListener("keydown", onKey);
  cleanup = () => { stop(); document.removeEventListener("keydown", onKey); };
  render();
}

// ---------- charts ----------
// lineChart draws series [{name, points:[[x,y]...]}] as an SVG string.
function lineChart(series, { width = 760, height = 300, xLabel = "", yLabel = "" } = {}) {
  const pts = series.flatMap((s) => s.points);
  if (!pts.length) return '<p class="muted">Nothing to chart yet.</p>';
  const pad = { l: 55, r: 15, t: 10, b: 30 };
  let [x0, x1] = [Math.min(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[0]))];
  let [y0, y1] = [Math.min(0, ...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[1]))];
  if (x0 === x1) x1 = x0 + 1;
  if (y0 === y1) y1 = y0 + 1;
  const X = (x) => pad.l + ((x - x0) / (x1 - x0)) * (width - pad.l - pad.r);
  const Y = (y) => height - pad.b - ((y - y0) / (y1 - y0)) * (height - pad.t - pad.b);
  const ticks = (a, b, n) => Array.from({ length: n + 1 }, (_, k) => a + ((b - a) * k) / n);
  const grid = ticks(y0, y1, 4).map((y) => `<line x1="${pad.l}" x2="${width - pad.r}" y1="${Y(y)}" y2="${Y(y)}" stroke="#e3e6e1"/>
    <text x="${pad.l - 6}" y="${Y(y) + 4}" text-anchor="end">${Math.round(y)}</text>`).join("");
  const xt = ticks(x0, x1, Math.min(8, x1 - x0)).map((x) => `<text x="${X(x)}" y="${height - 12}" text-anchor="middle">${Math.round(x)}</text>`).join("");
  const lines = series.map((s, k) => `<polyline fill="none" stroke="${COLORS[k % COLORS.length]}" stroke-width="2"
    points="${s.points.map((p) => X(p[0]) + "," + Y(p[1])).join(" ")}"><title>${esc(s.name)}</title></polyline>` +
    s.points.map((p) => `<circle cx="${X(p[0])}" cy="${Y(p[1])}" r="2.5" fill="${COLORS[k % COLORS.length]}"><title>${esc(s.name)}: ${p[1]}</title></circle>`).join("")).join("");
  const legend = `<div class="legend">${series.map((s, k) => `<span><i style="background:${COLORS[k % COLORS.length]}"></i>${esc(s.name)}</span>`).join("")}</div>`;
  return `<svg viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="${esc(yLabel)}">${grid}${xt}
    <line x1="${pad.l}" x2="${width - pad.r}" y1="${Y(0)}" y2="${Y(0)}" stroke="#999"/>${lines}
    <text x="${width / 2}" y="${height}" text-anchor="middle">${esc(xLabel)}</text></svg>${legend}`;
}

function barChart(bars, { width = 420, height = 200, max = 100 } = {}) {
  if (!bars.length) return '<p class="muted">No data.</p>';
  const pad = { l: 35, b: 25, t: 10 };
  const bw = (width - pad.l) / bars.length;
  return `<svg viewBox="0 0 ${width} ${height}" width="100%">${bars.map((b, k) => {
    const h = b.value == null ? 0 : ((height - pad.b - pad.t) * b.value) / max;
    return `<rect x="${pad.l + k * bw + 4}" y="${height - pad.b - h}" width="${bw - 8}" height="${h}" fill="${COLORS[0]}"><title>${esc(b.title)}</title></rect>
      <text x="${pad.l + k * bw + bw / 2}" y="${height - 8}" text-anchor="middle">${esc(b.label)}</text>
      <text x="${pad.l + k * bw + bw / 2}" y="${height - pad.b - h - 3}" text-anchor="middle">${b.value == null ? "–" : b.value + "%"}</text>`;
  }).join("")}</svg>`;
}

// ---------- players ----------
const fmt = (v, suffix = "") => (v == null ? "–" : v + suffix);

async function pagePlayers() {
  const data = await api("/api/players");
  view().innerHTML = `<h1>Players</h1><table class="list" id="players"><thead><tr><th>player</th><th class="num">hands</th>
    <th class="num">VPIP</th><th class="num">raise pre-draw</th><th class="num">aggression</th><th class="num">open</th>
    <th class="num">avg drawn</th><th class="num">stand pat</th><th class="num">WTSD</th><th class="num">W$SD</th><th class="num">net</th></tr></thead><tbody>
    ${data.players.map((p) => `<tr class="click" data-player="${esc(p.player)}"><td>${esc(p.player)}</td><td class="num">${p.hands}</td>
      <td class="num">${fmt(p.vpip_pct, "%")}</td><td class="num">${fmt(p.raise_pre_pct, "%")}</td><td class="num">${fmt(p.aggression)}</td>
      <td class="num">${fmt(p.open_pct, "%")}</td><td class="num">${fmt(p.avg_drawn)}</td><td class="num">${fmt(p.stand_pat_pct, "%")}</td>
      <td class="num">${fmt(p.wtsd_pct, "%")}</td><td class="num">${fmt(p.wsd_pct, "%")}</td><td class="num">${p.net}</td></tr>`).join("")}
    </tbody></table>${data.players.length ? "" : '<p class="muted">No finished hand yet.</p>'}`;
  $("#players").addEventListener("click", (ev) => {
    const tr = ev.target.closest("tr[data-player]");
    if (tr) location.hash = "#/player/" + encodeURIComponent(tr.dataset.player);
  });
}

async function pagePlayer(name) {
  name = decodeURIComponent(name);
  const d = await api(`/api/players/${encodeURIComponent(name)}/stats`);
  const s = d.stats;
  let run = 0;
  const points = d.hands.map((h, k) => [k + 1, (run += h.net)]);
  view().innerHTML = `<h1>${esc(name)}</h1>
    <div class="cols"><div class="panel"><h2>Net chips over his hands</h2>${lineChart([{ name, points }], { xLabel: "hands played", yLabel: "net chips" })}</div>
    <div class="panel"><h2>Statistics</h2><table class="list">
      ${[["hands", s.hands], ["VPIP", fmt(s.vpip_pct, "%")], ["raise before the draw", fmt(s.raise_pre_pct, "%")], ["aggression factor", fmt(s.aggression)],
        ["opens / chances", `${s.opens} / ${s.open_chances} (${fmt(s.open_pct, "%")})`], ["average cards drawn", fmt(s.avg_drawn)],
        ["stand pat", fmt(s.stand_pat_pct, "%")], ["went to showdown", fmt(s.wtsd_pct, "%")], ["won at showdown", fmt(s.wsd_pct, "%")], ["net", s.net]]
        .map(([k, v]) => `<tr><td>${k}</td><td class="num">${esc(v)}</td></tr>`).join("")}</table>
      <h2>Open % by position</h2>${barChart(d.positions.map((p) => ({ label: "pos " + p.position, value: p.open_pct, title: `${p.opens}/${p.chances} chances` })))}
      <p><a href="#/hands?player=${encodeURIComponent(name)}">his hands</a></p></div></div>
    <div class="panel"><h2>Sessions</h2>${sessionsTable(d.sessions || [])}</div>
    <div class="panel"><h2>Tournaments</h2>${tournamentsTable(d.tournaments || [])}</div>`;
}

// What each change of seat means, as a whole phrase for each kind (events-v1.md section 7).
const seatChangeLabel = {
  joined: "sat down with a buy-in of",
  away: "sat out with a stack of",
  rebuy: "rebought",
  left: "cashed out with",
};

// sessionsTable lists a player's comings and goings; hands he sat out one after another at one
// table are one row, with the stack he sat out with first and the number of hands.
function sessionsTable(changes) {
  if (!changes.length) return '<p class="muted">He never sat down, sat out or left a table in the recorded hands.</p>';
  const rows = [];
  for (const c of changes) {
    const prev = rows[rows.length - 1];
    if (c.kind === "away" && prev && prev.kind === "away" && prev.table === c.table) {
      prev.hands++;
      continue;
    }
    rows.push({ ...c, hands: 1 });
  }
  return `<table class="list" id="sessions"><thead><tr><th>when</th><th>table</th><th>seat</th><th>what</th><th class="num">chips</th><th class="num">hands</th></tr></thead><tbody>
    ${rows.map((r) => `<tr data-kind="${esc(r.kind)}"><td><a href="#/hand/${esc(r.hand)}">${esc(r.started_at.replace("T", " ").slice(0, 19))}</a></td>
      <td>${esc(r.table)}</td><td>${r.seat || ""}</td>
      <td>${r.to_table ? `was moved to table ${esc(r.to_table)} with` : esc(seatChangeLabel[r.kind] || r.kind)}</td>
      <td class="num">${r.amount}</td><td class="num">${r.kind === "away" ? r.hands : ""}</td></tr>`).join("")}</tbody></table>`;
}

// ---------- tournaments ----------
const handLink = (hand, text) => `<a href="#/hand/${esc(hand)}">${esc(text)}</a>`;
const when = (at) => esc(String(at || "").replace("T", " ").slice(0, 19));

// pageTournaments lists the tournaments, or shows one; below the list, any table's chip counts
// hand by hand (cash tables too).
async function pageTournaments(arg) {
  if (arg && !arg.startsWith("table/")) return pageTournament(decodeURIComponent(arg));
  const [{ tournaments }, { tables }] = await Promise.all([api("/api/tournaments"), api("/api/tables")]);
  const list = tournaments.length ? `<table class="list" id="tournaments"><thead><tr><th>tournament</th><th>started</th><th class="num">entries</th>
      <th class="num">still in</th><th class="num">hands</th><th class="num">level</th><th>state</th></tr></thead><tbody>
      ${tournaments.map((t) => `<tr><td><a href="#/tournaments/${encodeURIComponent(t.id)}">${esc(t.id)}</a></td><td>${when(t.started_at)}</td>
        <td class="num">${t.entries}</td><td class="num">${t.in_play}</td><td class="num">${t.hands}</td><td class="num">${t.level}</td>
        <td>${t.ended_at ? `It ended at ${when(t.ended_at)}.` : "It is running."}</td></tr>`).join("")}</tbody></table>`
    : '<p class="muted">No tournament hand has ended yet.</p>';
  const sel = arg ? decodeURIComponent(arg.slice("table/".length)) : tables.length ? tables[0].table : "";
  let body = '<p class="muted">No table yet.</p>';
  if (sel) {
    const d = await api(`/api/tables/${encodeURIComponent(sel)}/chips`);
    const series = d.players.map((p) => ({ name: p, points: d.points.filter((x) => x.player === p).map((x) => [x.number, x.end]) }));
    body = `<div class="panel"><h2>Chip counts at ${esc(sel)} after each hand</h2>${lineChart(series, { xLabel: "hand number", yLabel: "chips" })}</div>
      <div class="panel"><h2>Eliminations</h2>${d.eliminations.length ? `<table class="list"><tr><th>place</th><th>player</th><th>out in hand</th></tr>
        ${d.eliminations.map((e) => `<tr><td>${e.place}</td><td>${esc(e.player)}</td><td>${handLink(e.hand, "#" + e.number)}</td></tr>`).join("")}</table>` :
        '<p class="muted">Nobody is out.</p>'}</div>`;
  }
  view().innerHTML = `<h1>Tournaments</h1><div class="panel">${list}</div>
    <h2>One table</h2><p>Table: <select id="tsel">${tables.map((t) =>
    `<option ${t.table === sel ? "selected" : ""}>${esc(t.table)}</option>`).join("")}</select></p>${body}`;
  $("#tsel").onchange = (ev) => { location.hash = "#/tournaments/table/" + encodeURIComponent(ev.target.value); };
}

// pageTournament shows one tournament: standings, each table's chip counts, the levels, the
// moves, the knock-outs and the findings, every hand linked to the replayer.
async function pageTournament(id) {
  const t = await api(`/api/tournaments/${encodeURIComponent(id)}`);
  const state = t.ended_at ? `It ended at ${when(t.ended_at)}.` : `It is running: ${t.in_play} players are still in.`;
  const standings = `<table class="list" id="standings"><thead><tr><th class="num">rank</th><th>player</th><th class="num">chips</th>
      <th>table</th><th>place</th><th>out in hand</th></tr></thead><tbody>
    ${t.standings.map((s) => `<tr><td class="num">${s.rank}</td><td><a href="#/player/${encodeURIComponent(s.player)}">${esc(s.player)}</a></td>
      <td class="num">${s.chips}</td><td>${esc(s.table)}</td><td>${s.place || ""}</td><td>${s.hand ? handLink(s.hand, "replay") : ""}</td></tr>`).join("")}
    </tbody></table>`;
  const tables = t.tables.map((tb) => {
    const names = [...new Set(tb.chips.map((c) => c.player))];
    const hands = [...new Set(tb.chips.map((c) => c.hand))];
    const series = names.map((p) => ({ name: p, points: tb.chips.filter((c) => c.player === p).map((c) => [hands.indexOf(c.hand) + 1, c.end]) }));
    return `<div class="panel"><h3>Table ${esc(tb.table)}: ${tb.hands} hands, level ${tb.level}, last hand ${handLink(tb.last_hand, "replay")}</h3>
      ${lineChart(series, { xLabel: "hand at this table", yLabel: "chips" })}</div>`;
  }).join("");
  const levels = t.levels.length ? `<table class="list" id="levels"><thead><tr><th>from</th><th>table</th><th class="num">level</th>
      <th class="num">ante</th><th class="num">bet</th><th>first hand</th></tr></thead><tbody>
    ${t.levels.map((l) => `<tr><td>${when(l.started_at)}</td><td>${esc(l.table)}</td><td class="num">${l.level}</td><td class="num">${l.ante}</td>
      <td class="num">${l.min_bet}–${l.max_bet}</td><td>${handLink(l.hand, "replay")}</td></tr>`).join("")}</tbody></table>`
    : '<p class="muted">The hands give no level.</p>';
  const moves = t.moves.length ? `<table class="list" id="moves"><thead><tr><th>player</th><th>from table</th><th>to table</th>
      <th class="num">chips</th><th>first hand there</th></tr></thead><tbody>
    ${t.moves.map((m) => `<tr><td>${esc(m.player)}</td><td>${esc(m.from)}</td><td>${esc(m.to)}</td><td class="num">${m.stack}</td>
      <td>${handLink(m.hand, "replay")}</td></tr>`).join("")}</tbody></table>` : '<p class="muted">Nobody has been moved.</p>';
  const outs = t.knockouts.length ? `<table class="list" id="knockouts"><thead><tr><th class="num">place</th><th>player</th><th>table</th>
      <th>hand</th></tr></thead><tbody>
    ${t.knockouts.map((k) => `<tr><td class="num">${k.place}</td><td>${esc(k.player)}</td><td>${esc(k.table)}</td>
      <td>${handLink(k.hand, "replay")}</td></tr>`).join("")}</tbody></table>` : '<p class="muted">Nobody is out.</p>';
  const findings = t.findings.length ? `<table class="list" id="tfindings"><thead><tr><th></th><th>code</th><th>what</th><th>hand</th></tr></thead><tbody>
    ${t.findings.map((f) => `<tr><td>${badge(f.severity)}</td><td>${esc(f.code)}</td><td>${esc(f.message)}</td>
      <td><a href="#/hand/${esc(f.hand)}/${f.seq}">${esc(f.table)}</a></td></tr>`).join("")}</tbody></table>`
    : '<p class="muted">The checks across the tables found nothing.</p>';
  view().innerHTML = `<h1>Tournament ${esc(t.id)}</h1>
    <p>${t.entries} entries of ${t.stack} chips, ${t.hands} hands, up to level ${t.level}. It started at ${when(t.started_at)}. ${state}</p>
    <div class="panel"><h2>Standings</h2>${standings}</div>
    <div class="panel" id="tstep"><h2>The tournament hand by hand</h2>
      <p>Step from one hand's start or end to the next to see every table and the standings at that moment.</p>
      <p><button id="tprev">Previous</button> <button id="tnext">Next</button>
        <input type="range" id="tslider" min="0" max="0" value="0" aria-label="moment in the tournament"></p>
      <div id="tmoment"></div></div>
    <h2>Chip counts at each table</h2>${tables}
    <div class="panel"><h2>Levels</h2>${levels}</div>
    <div class="cols"><div class="panel"><h2>Moves between tables</h2>${moves}</div>
    <div class="panel"><h2>Knock-outs</h2>${outs}</div></div>
    <div class="panel"><h2>Findings across the tables</h2>${findings}</div>`;
  if (t.started_at) await stepTournament(id, t.started_at);
}

// stepTournament shows tournament id as it stood at the time at (GET /api/tournaments/{id}?at=),
// and sets the step control to move to the previous or the next hand boundary.
async function stepTournament(id, at) {
  const m = await api(`/api/tournaments/${encodeURIComponent(id)}?at=${encodeURIComponent(at)}`);
  const prev = $("#tprev"), next = $("#tnext"), slider = $("#tslider");
  if (!prev) return; // the page was left meanwhile
  prev.disabled = !m.prev_at;
  next.disabled = !m.next_at;
  prev.onclick = () => stepTournament(id, m.prev_at);
  next.onclick = () => stepTournament(id, m.next_at);
  slider.max = String(Math.max(0, m.times.length - 1));
  const here = m.times.findIndex((x) => x === m.at);
  slider.value = String(here >= 0 ? here : m.times.filter((x) => x < m.at).length);
  slider.onchange = () => stepTournament(id, m.times[Number(slider.value)]);
  const running = (tb) => tb.in_progress ? `Hand ${handLink(tb.in_progress, "in progress")} is being played.` : "No hand is being played.";
  const tables = m.tables.map((tb) => `<div class="panel"><h3>Table ${esc(tb.table)}</h3>
    <p>Level ${tb.level}. ${tb.number ? `Its last hand ended was number ${tb.number}, ${handLink(tb.hand, "replay")}.` : ""} ${running(tb)}</p>
    ${tb.players.length ? `<table class="list"><thead><tr><th class="num">seat</th><th>player</th><th class="num">chips</th></tr></thead><tbody>
      ${tb.players.map((p) => `<tr><td class="num">${p.seat}</td><td>${esc(p.player)}</td><td class="num">${p.chips}</td></tr>`).join("")}</tbody></table>`
      : '<p class="muted">Nobody sits at this table any more.</p>'}</div>`).join("");
  const standings = m.standings.length ? `<table class="list" id="tstandings"><thead><tr><th class="num">rank</th><th>player</th><th class="num">chips</th>
      <th>table</th><th>place</th></tr></thead><tbody>
    ${m.standings.map((s) => `<tr><td class="num">${s.rank}</td><td>${esc(s.player)}</td><td class="num">${s.chips}</td>
      <td>${esc(s.table)}</td><td>${s.place || ""}</td></tr>`).join("")}</tbody></table>`
    : '<p class="muted">No hand had ended by then.</p>';
  $("#tmoment").innerHTML = `<p>At ${when(m.at)}, moment ${Number(slider.value) + 1} of ${m.times.length}: level ${m.level}, ${m.in_play} players still in.</p>
    <div class="cols">${tables}</div><h3>Standings at that moment</h3>${standings}`;
}

// tournamentsTable lists a player's tournaments with his place.
function tournamentsTable(ts) {
  if (!ts.length) return '<p class="muted">He has played no tournament.</p>';
  return `<table class="list" id="ptournaments"><thead><tr><th>tournament</th><th>started</th><th>result</th><th>out in hand</th></tr></thead><tbody>
    ${ts.map((t) => `<tr><td><a href="#/tournaments/${encodeURIComponent(t.tournament)}">${esc(t.tournament)}</a></td><td>${when(t.started_at)}</td>
      <td>${t.place ? `He finished in place ${t.place} of ${t.entries}.` : `He is still in with ${t.chips} chips.`}</td>
      <td>${t.hand ? handLink(t.hand, "replay") : ""}</td></tr>`).join("")}</tbody></table>`;
}

window.addEventListener("hashchange", route);
connect();
route();
