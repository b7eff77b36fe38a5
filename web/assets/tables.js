// fechado dashboard: the Tables page, live. Helpers (api, esc, cardHTML, t…) are in app.js; main.js routes.
"use strict";

// ---------- tables ----------
function tableCard(tb) {
  const seats = (tb.seats || []).map((s) => {
    const cls = [s.folded ? "folded" : "", tb.to_act === s.seat ? "turn" : ""].join(" ");
    const extra = [s.all_in ? "all-in" : "", s.drawn >= 0 ? `drew ${s.drawn}` : ""].filter(Boolean).join(" · ");
    return `<div class="seatrow ${cls}"><span>#${s.seat}${tb.dealer === s.seat ? " D" : ""}</span>
      <span>${esc(s.player)} <span class="muted">${esc(extra)}</span></span>
      <span class="num">${s.stack}</span><span class="num">${s.in_front ? s.in_front : ""}</span>
      <span class="num">${s.cards ? s.cards + "🂠" : ""}</span></div>`;
  }).join("") + (tb.away || []).map((a) => `<div class="seatrow away"><span>#${a.seat}${tb.dealer === a.seat ? " D" : ""}</span>
      <span>${esc(a.player)} <span class="muted">away</span></span><span class="num">${a.stack}</span><span class="num"></span><span class="num"></span></div>`).join("");
  const stage = tb.live ? `${esc(tb.stage)}${tb.round ? " · round " + esc(tb.round) : ""}` : "no live hand";
  return `<div class="panel tbl" id="tbl-${esc(tb.table)}" data-table="${esc(tb.table)}">
    <h3><a href="#/hands?table=${encodeURIComponent(tb.table)}">${esc(tb.table)}</a> <span class="muted">${esc(tb.preset)}</span></h3>
    <div class="meta">hand ${tb.number || "–"} · ${stage}${tb.to_act ? " · to act: seat " + tb.to_act : ""}
      ${tb.hand ? ` · <a href="#/hand/${esc(tb.hand)}">replay</a>` : ""}</div>
    <div class="seatrow muted"><span>seat</span><span>player</span><span class="num">stack</span><span class="num">in front</span><span class="num">cards</span></div>
    ${seats}
    <div class="potline"><span class="pot">pot ${tb.pot ?? 0}</span>${tb.carry ? `<span>carry ${tb.carry}</span>` : ""}</div>
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
