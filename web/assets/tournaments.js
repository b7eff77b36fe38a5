// fechado dashboard: the Tournaments pages. Helpers (api, esc, cardHTML, t…) are in app.js; main.js routes.
"use strict";

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

