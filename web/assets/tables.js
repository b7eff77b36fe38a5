// fechado dashboard: the Tables page, live. Helpers (api, esc, cardHTML, t…) are in app.js, the
// lists' (num, dateTime, playerLink…) in charts.js; main.js routes.
"use strict";

// stageText says where a table's hand stands, in the reader's words.
function stageText(tb) {
  if (!tb.live) return t("web.tables.nolive");
  if (tb.stage === "betting" && tb.round) return t("web.tables.stage.betting." + tb.round);
  return words.messages["web.tables.stage." + tb.stage] ? t("web.tables.stage." + tb.stage) : tb.stage;
}

// ---------- tables ----------
function tableCard(tb) {
  const seats = (tb.seats || []).map((s) => {
    const cls = [s.folded ? "folded" : "", tb.to_act === s.seat ? "turn" : ""].join(" ");
    const extra = [s.all_in ? t("status.all-in") : "", s.folded ? t("status.folded") : "", s.drawn >= 0 ? t("status.drew", { n: s.drawn }) : "",
      tb.to_act === s.seat ? t("status.toact") : ""].filter(Boolean).join(" · ");
    return `<div class="seatrow ${cls}"><span>${num(s.seat)}${tb.dealer === s.seat ? ` <b class="dbtn" title="${esc(t("dealer"))}">D</b>` : ""}</span>
      <span>${playerLink(s.player)} <span class="muted">${esc(extra)}</span></span>
      <span class="num">${num(s.stack)}</span><span class="num">${s.in_front ? num(s.in_front) : ""}</span>
      <span class="num">${s.cards ? num(s.cards) : ""}</span></div>`;
  }).join("") + (tb.away || []).map((a) => `<div class="seatrow away"><span>${num(a.seat)}${tb.dealer === a.seat ? ` <b class="dbtn" title="${esc(t("dealer"))}">D</b>` : ""}</span>
      <span>${playerLink(a.player)} <span class="muted">${esc(t("web.tables.away"))}</span></span><span class="num">${num(a.stack)}</span><span class="num"></span><span class="num"></span></div>`).join("");
  const toAct = (tb.seats || []).find((s) => s.seat === tb.to_act);
  return `<div class="panel tbl" id="tbl-${esc(tb.table)}" data-table="${esc(tb.table)}">
    <h3>${tableLink(tb.table)} ${tb.preset ? presetName(tb.preset) : ""}</h3>
    <div class="meta">${tb.number ? esc(t("web.tables.hand", { number: tb.number })) + " · " : ""}${esc(stageText(tb))}${toAct ? " · " + esc(t("web.tables.toact", { player: toAct.player })) : ""}
      ${tb.hand ? ` · ${handLink(tb.hand, t(tb.live && tb.stage !== "ended" ? "web.tables.follow" : "web.tables.replay"))}` : ""}</div>
    ${tb.hands ? `<div class="meta">${esc(t("web.tables.count", { n: tb.hands }))} · <a href="#/tournaments/table/${encodeURIComponent(tb.table)}">${esc(t("web.tables.chips"))}</a></div>` : ""}
    <div class="seatrow muted"><span>${esc(t("web.list.col.seat"))}</span><span>${esc(t("web.list.col.player"))}</span><span class="num">${esc(t("web.list.col.stack"))}</span>
      <span class="num">${esc(t("web.list.col.infront"))}</span><span class="num">${esc(t("web.list.col.cards"))}</span></div>
    ${seats}
    <div class="potline"><span class="pot">${esc(t("web.tables.pot", { amount: num(tb.pot ?? 0) }))}</span>${tb.carry ? `<span>${esc(t("web.tables.carry", { amount: num(tb.carry) }))}</span>` : ""}</div>
  </div>`;
}

function recentHTML() {
  if (!live.recent.length) return `<p class="muted">${esc(t("web.tables.recent.none"))}</p>`;
  return live.recent.map(({ hand: h }) => `<div class="recent"><a href="#/hand/${esc(h.hand)}">${esc(t("web.hands.title.one", { table: h.table, number: h.number }))}</a>
    ${badge(h.audit || "ok", t("web.hands.audit." + (h.audit || "ok")))}${h.codes.map(findingTag).join(" ")}
    <span class="muted">${playerList(h.winners)}</span></div>`).join("");
}

async function pageTables() {
  connect();
  const data = await api("/api/tables");
  if (!live.recent.length) {
    const ended = await api("/api/hands?limit=15");
    live.recent = ended.hands.filter((h) => h.ended).map((h) => ({ hand: h, findings: [] }));
  }
  for (const tb of data.tables) if (tb.live && !live.tables.has(tb.table)) live.tables.set(tb.table, tb);
  const all = new Map(data.tables.map((tb) => [tb.table, tb]));
  live.tables.forEach((tb, id) => all.set(id, { ...all.get(id), ...tb }));
  view().innerHTML = `<h1>${esc(t("web.tables.title"))}</h1><div class="cols"><div class="grid" id="tables">${[...all.values()].map(tableCard).join("") ||
    `<p class="muted">${esc(t("web.tables.none"))}</p>`}</div>
    <div class="panel"><h2>${esc(t("web.tables.recent"))}</h2><div class="ticker" id="recent">${recentHTML()}</div></div></div>`;
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
