// fechado dashboard: the Players list and one player's page. Helpers (api, esc, cardHTML, t…)
// are in app.js, the lists' (num, pct, dateTime, sortHeader, pager, lineChart…) in charts.js;
// main.js routes.
"use strict";

// STATS are the statistics of the Players list, in its column order: the API's field, how it is
// written (pct, dec or num), and its words (web.stat.KEY.name, the column's short name, and
// web.stat.KEY.help, what it measures).
const STATS = [
  ["hands", "hands", num], ["vpip", "vpip_pct", pct], ["raise_pre", "raise_pre_pct", pct], ["aggression", "aggression", dec],
  ["open", "open_pct", pct], ["avg_drawn", "avg_drawn", dec], ["stand_pat", "stand_pat_pct", pct], ["wtsd", "wtsd_pct", pct],
  ["wsd", "wsd_pct", pct], ["net", "net", num],
];
const PLAYERS_PAGE = 50;

// statsLegend explains every statistic in the reader's language.
function statsLegend() {
  return `<details class="legend-stats" open><summary>${esc(t("web.players.stat.legend"))}</summary><dl>${STATS.map(([k]) =>
    `<div><dt>${esc(t("web.players.stat." + k + ".name"))}</dt><dd>${esc(t("web.players.stat." + k + ".help"))}</dd></div>`).join("")}</dl></details>`;
}

// The Players list's state: the sort, the filters and the page are the address's query
// (#/players?sort=net&order=desc), so a list can be shared or opened in a new tab; sessionStorage
// keeps the last one, to come back to the same list from the menu.
function playersState(qs) {
  const saved = new URLSearchParams(qs || sessionStorage.getItem("players") || "");
  return {
    player: saved.get("player") || "", table: saved.get("table") || "",
    sort: saved.get("sort") || "player", order: saved.get("order") || "asc", offset: Number(saved.get("offset") || 0),
  };
}
const playersQuery = (st) => {
  const p = new URLSearchParams();
  for (const k of ["player", "table", "sort", "order"]) if (st[k]) p.set(k, st[k]);
  if (st.offset) p.set("offset", String(st.offset));
  return p;
};

async function pagePlayers(qs) {
  const st = playersState(qs);
  const p = playersQuery(st);
  p.set("limit", String(PLAYERS_PAGE));
  const data = await api("/api/players?" + p.toString());
  sessionStorage.setItem("players", playersQuery(st).toString());
  const cur = { sort: data.sort, order: data.order };
  const head = sortHeader(t("web.list.col.player"), "player", cur, { cls: "main" }) +
    STATS.map(([k, field]) => sortHeader(t("web.players.stat." + k + ".name"), field, cur, { cls: "num", title: t("web.players.stat." + k + ".help") })).join("");
  const rows = data.players.map((pl) => `<tr class="click" data-player="${esc(pl.player)}"><td class="main">${playerLink(pl.player)}</td>
      ${STATS.map(([k, field, w]) => `<td class="num" data-label="${esc(t("web.players.stat." + k + ".name"))}">${esc(w(pl[field]))}</td>`).join("")}</tr>`).join("");
  view().innerHTML = `<h1>${esc(t("web.players.title"))}</h1>
    <form class="filters" id="pfilters">
      <label>${esc(t("web.list.filter.name"))}<input type="text" name="player" value="${esc(st.player)}" autocapitalize="off"></label>
      <label>${esc(t("web.list.filter.table"))}<input type="text" name="table" value="${esc(st.table)}" autocapitalize="off"></label>
      <button type="submit">${esc(t("web.list.filter.apply"))}</button>
    </form>
    ${pager(data.total, data.limit, data.offset, null)}
    <div class="scroll"><table class="list sticky-first" id="players"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>
    ${data.players.length ? "" : `<p class="muted">${esc(t(st.player || st.table ? "web.players.nomatch" : "web.players.none"))}</p>`}
    ${statsLegend()}`;
  const go = (qs2) => { location.hash = "#/players?" + qs2; };
  view().querySelectorAll("button.sort").forEach((b) => b.addEventListener("click", () => {
    go(playersQuery({ ...st, sort: b.dataset.sort, order: b.dataset.order, offset: 0 }).toString());
  }));
  view().querySelectorAll("nav.pager button").forEach((b) => b.addEventListener("click", () => {
    go(playersQuery({ ...st, offset: Number(b.dataset.offset) }).toString());
  }));
  $("#pfilters").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const fd = new FormData(ev.target);
    go(playersQuery({ ...st, player: fd.get("player").trim(), table: fd.get("table").trim(), offset: 0 }).toString());
  });
  $("#players").addEventListener("click", (ev) => {
    if (ev.target.closest("a")) return;
    const tr = ev.target.closest("tr[data-player]");
    if (tr) location.hash = playerHref(tr.dataset.player);
  });
}

async function pagePlayer(name) {
  name = decodeURIComponent(name);
  const d = await api(`/api/players/${encodeURIComponent(name)}/stats`);
  const s = d.stats;
  // The series is his last hands (the API bounds it): it starts where the earlier ones left him.
  let run = d.net_before || 0;
  const first = (d.hands_before || 0) + 1;
  const label = (h) => t("web.hands.title.one", { table: h.table, number: h.number });
  const net = [{ name: "", segments: [d.hands.map((h, k) => {
    run += h.net;
    return { x: first + k, y: run, hand: h.hand, kind: "", title: t("web.list.chart.net", { hand: label(h), chips: run }) };
  })] }];
  const stacks = [{ name: "", segments: chipSegments(d.hands.map((h, k) => ({ ...h, x: first + k })), label) }];
  const statRows = [["hands", num(s.hands)], ["vpip", pct(s.vpip_pct)], ["raise_pre", pct(s.raise_pre_pct)], ["aggression", dec(s.aggression)],
    ["open", t("web.player.opens", { opens: num(s.opens), chances: num(s.open_chances), pct: pct(s.open_pct) })], ["avg_drawn", dec(s.avg_drawn)],
    ["stand_pat", pct(s.stand_pat_pct)], ["wtsd", pct(s.wtsd_pct)], ["wsd", pct(s.wsd_pct)], ["net", num(s.net)]];
  view().innerHTML = `<h1>${esc(name)}</h1>
    <p><a href="#/hands?player=${encodeURIComponent(name)}">${esc(t("web.player.hands", { n: s.hands }))}</a></p>
    <div class="cols"><div>
      <div class="panel" id="pstacks"><h2>${esc(t("web.player.stacks"))}</h2>${lineChart(stacks, { xLabel: t("web.list.chart.x.played"), yLabel: t("web.list.chart.y.chips") })}</div>
      <div class="panel" id="pnet"><h2>${esc(t("web.player.net"))}</h2>${lineChart(net, { xLabel: t("web.list.chart.x.played"), yLabel: t("web.list.chart.y.net") })}</div></div>
    <div class="panel"><h2>${esc(t("web.player.stats"))}</h2><table class="list" id="pstats"><tbody>
      ${statRows.map(([k, v]) => `<tr><th scope="row"><abbr title="${esc(t("web.players.stat." + k + ".help"))}">${esc(t("web.players.stat." + k + ".name"))}</abbr></th><td class="num">${esc(v)}</td></tr>`).join("")}</tbody></table>
      ${statsLegend()}
      <h2>${esc(t("web.player.positions"))}</h2>${barChart(d.positions.map((p) => ({ label: t("web.player.position", { position: p.position }), value: p.open_pct,
        title: t("web.player.position.title", { opens: p.opens, chances: p.chances }) })))}
      <p class="muted">${esc(t("web.player.positions.help"))}</p></div></div>
    <div class="panel"><h2>${esc(t("web.player.sessions"))}</h2>${sessionsTable(d.sessions || [])}</div>
    <div class="panel"><h2>${esc(t("web.player.tournaments"))}</h2>${tournamentsTable(d.tournaments || [])}</div>`;
}

// sessionsTable lists a player's comings and goings, each as a sentence; hands he sat out one
// after another at one table are one row, with the stack he sat out with first and the number
// of hands (events-v1.md section 7).
function sessionsTable(changes) {
  if (!changes.length) return `<p class="muted">${esc(t("web.player.session.none"))}</p>`;
  const rows = [];
  for (const c of changes) {
    const prev = rows[rows.length - 1];
    if (c.kind === "away" && prev && prev.kind === "away" && prev.table === c.table) {
      prev.hands++;
      continue;
    }
    rows.push({ ...c, hands: 1 });
  }
  const what = (r) => {
    const args = { amount: num(r.amount), seat: r.seat, table: r.to_table || r.table, n: r.hands };
    if (r.to_table) return t("web.player.session.moved", args);
    return words.messages["web.player.session." + r.kind] ? t("web.player.session." + r.kind, args) : r.kind;
  };
  return `<div class="scroll"><table class="list cards-on-phone" id="sessions"><thead><tr><th>${esc(t("web.list.col.when"))}</th><th>${esc(t("web.list.col.table"))}</th>
    <th class="num">${esc(t("web.list.col.seat"))}</th><th>${esc(t("web.list.col.what"))}</th></tr></thead><tbody>
    ${rows.map((r) => `<tr data-kind="${esc(r.kind)}"><td class="main"><a href="#/hand/${esc(r.hand)}">${dateTime(r.started_at)}</a></td>
      <td data-label="${esc(t("web.list.col.table"))}">${tableLink(r.table)}</td><td class="num" data-label="${esc(t("web.list.col.seat"))}">${r.seat ? num(r.seat) : ""}</td>
      <td data-label="${esc(t("web.list.col.what"))}">${esc(what(r))}</td></tr>`).join("")}</tbody></table></div>`;
}

// tournamentsTable lists a player's tournaments with his place.
function tournamentsTable(ts) {
  if (!ts.length) return `<p class="muted">${esc(t("web.player.notournament"))}</p>`;
  return `<div class="scroll"><table class="list cards-on-phone" id="ptournaments"><thead><tr><th>${esc(t("web.list.col.tournament"))}</th><th>${esc(t("web.list.col.started"))}</th>
    <th>${esc(t("web.list.col.result"))}</th><th>${esc(t("web.list.col.outhand"))}</th></tr></thead><tbody>
    ${ts.map((x) => `<tr><td class="main"><a href="#/tournaments/${encodeURIComponent(x.tournament)}">${esc(x.tournament)}</a></td>
      <td data-label="${esc(t("web.list.col.started"))}">${dateTime(x.started_at)}</td>
      <td data-label="${esc(t("web.list.col.result"))}">${esc(x.place ? t("web.player.place", { place: x.place, entries: x.entries }) : t("web.player.stillin", { n: x.chips }))}</td>
      <td data-label="${esc(t("web.list.col.outhand"))}">${x.hand ? handLink(x.hand, t("web.list.replay")) : ""}</td></tr>`).join("")}</tbody></table></div>`;
}
