// fechado dashboard: the Players list and one player's page. Helpers (api, esc, cardHTML, t…) are in app.js; main.js routes.
"use strict";

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

// pageTournaments lists the tournaments, or shows one; below the list, any table's chip counts
// hand by hand (cash tables too).
