// fechado dashboard: the Tournaments pages, and any table's chip counts hand by hand. Helpers
// (api, esc, cardHTML, t…) are in app.js, the lists' (num, dateTime, playerLink, lineChart,
// chipSegments…) in charts.js; main.js routes.
"use strict";

// chipSeries turns chip points ({hand, number, player, start, end}) of one table into a series a
// player, cut where a rebuy or a bust breaks his stack (chipSegments); x is the hand's place in
// hands, label names the hand in a point's title.
function chipSeries(points, hands, label) {
  const names = [...new Set(points.map((c) => c.player))];
  return names.map((p) => ({
    name: p, href: playerHref(p),
    segments: chipSegments(points.filter((c) => c.player === p).map((c) => ({ ...c, x: hands.indexOf(c.hand) + 1 })), label),
  }));
}

// pageTournaments lists the tournaments, or shows one; below the list, any table's chip counts
// hand by hand (cash tables too).
async function pageTournaments(arg) {
  if (arg && !arg.startsWith("table/")) return pageTournament(decodeURIComponent(arg));
  const [{ tournaments }, { tables }] = await Promise.all([api("/api/tournaments"), api("/api/tables")]);
  const list = tournaments.length ? `<div class="scroll"><table class="list" id="tournaments"><thead><tr><th>${esc(t("web.list.col.tournament"))}</th>
      <th>${esc(t("web.list.col.started"))}</th><th class="num">${esc(t("web.list.col.entries"))}</th><th class="num">${esc(t("web.list.col.stillin"))}</th>
      <th class="num">${esc(t("web.list.col.hands"))}</th><th class="num">${esc(t("web.list.col.level"))}</th><th>${esc(t("web.list.col.state"))}</th></tr></thead><tbody>
      ${tournaments.map((x) => `<tr><td class="main"><a href="#/tournaments/${encodeURIComponent(x.id)}">${esc(x.id)}</a></td>
        <td data-label="${esc(t("web.list.col.started"))}">${dateTime(x.started_at)}</td><td class="num" data-label="${esc(t("web.list.col.entries"))}">${num(x.entries)}</td>
        <td class="num" data-label="${esc(t("web.list.col.stillin"))}">${num(x.in_play)}</td><td class="num" data-label="${esc(t("web.list.col.hands"))}">${num(x.hands)}</td>
        <td class="num" data-label="${esc(t("web.list.col.level"))}">${num(x.level)}</td>
        <td data-label="${esc(t("web.list.col.state"))}">${x.ended_at ? tEnded(x.ended_at) : esc(t("web.tournament.running"))}</td></tr>`).join("")}</tbody></table></div>`
    : `<p class="muted">${esc(t("web.tournament.none"))}</p>`;
  const sel = arg ? decodeURIComponent(arg.slice("table/".length)) : tables.length ? tables[0].table : "";
  let body = `<p class="muted">${esc(t("web.tables.none"))}</p>`;
  if (sel) {
    const d = await api(`/api/tables/${encodeURIComponent(sel)}/chips`);
    const hands = [...new Set(d.points.map((c) => c.hand))];
    const label = (c) => t("web.hands.title.one", { table: sel, number: c.number });
    body = `<div class="panel" id="tablechips"><h2>${esc(t("web.tournament.tablechips.title", { table: sel }))}</h2>
      ${lineChart(chipSeries(d.points, hands, label), { xLabel: t("web.list.chart.x.table"), yLabel: t("web.list.chart.y.chips") })}</div>
      <div class="panel"><h2>${esc(t("web.tournament.tablechips.outs"))}</h2>${d.eliminations.length ? `<div class="scroll"><table class="list" id="eliminations"><thead><tr>
        <th class="num">${esc(t("web.list.col.place"))}</th><th>${esc(t("web.list.col.player"))}</th><th>${esc(t("web.list.col.outhand"))}</th></tr></thead><tbody>
        ${d.eliminations.map((e) => `<tr><td class="num">${num(e.place)}</td><td class="main">${playerLink(e.player)}</td>
          <td>${handLink(e.hand, t("web.hands.number", { number: e.number }))}</td></tr>`).join("")}</tbody></table></div>` :
        `<p class="muted">${esc(t("web.tournament.noouts"))}</p>`}</div>`;
  }
  view().innerHTML = `<h1>${esc(t("web.tournaments.title"))}</h1><div class="panel">${list}</div>
    <h2>${esc(t("web.tournament.tablechips.one"))}</h2><p><label>${esc(t("web.list.col.table"))} <select id="tsel">${tables.map((x) =>
    `<option ${x.table === sel ? "selected" : ""} value="${esc(x.table)}">${esc(x.table)}</option>`).join("")}</select></label>
    ${sel ? tableLink(sel) : ""}</p>${body}`;
  $("#tsel").onchange = (ev) => { location.hash = "#/tournaments/table/" + encodeURIComponent(ev.target.value); };
}

// tEnded says when a tournament ended, the date in the reader's locale and zone.
const tEnded = (at) => esc(t("web.tournament.ended", { at: "\u0000" })).replace("\u0000", dateTime(at));

// pageTournament shows one tournament: standings, each table's chip counts, the levels, the
// moves, the knock-outs and the findings, every hand linked to the replayer.
async function pageTournament(id) {
  const x = await api(`/api/tournaments/${encodeURIComponent(id)}`);
  const state = x.ended_at ? tEnded(x.ended_at) : esc(t("web.tournament.stillin", { n: x.in_play }));
  const replay = (hand) => handLink(hand, t("web.list.replay"));
  const th = (key, cls = "") => `<th class="${cls}">${esc(t(key))}</th>`;
  const td = (key, html, cls = "") => `<td class="${cls}" data-label="${esc(t(key))}">${html}</td>`;
  const standings = `<div class="scroll"><table class="list" id="standings"><thead><tr>${th("web.list.col.rank", "num")}${th("web.list.col.player")}
      ${th("web.list.col.chips", "num")}${th("web.list.col.table")}${th("web.list.col.place")}${th("web.list.col.outhand")}</tr></thead><tbody>
    ${x.standings.map((s) => `<tr><td class="num">${num(s.rank)}</td><td class="main">${playerLink(s.player)}</td>
      ${td("web.list.col.chips", num(s.chips), "num")}${td("web.list.col.table", tableLink(s.table))}${td("web.list.col.place", s.place ? num(s.place) : "")}
      ${td("web.list.col.outhand", s.hand ? replay(s.hand) : "")}</tr>`).join("")}
    </tbody></table></div>`;
  const tables = x.tables.map((tb) => {
    const hands = [...new Set(tb.chips.map((c) => c.hand))];
    const label = (c) => t("web.hands.title.one", { table: tb.table, number: c.number });
    return `<div class="panel tchips" data-table="${esc(tb.table)}"><h3>${esc(t("web.tournament.table", { table: tb.table, n: tb.hands, level: tb.level }))}
      · ${handLink(tb.last_hand, t("web.tournament.lasthand"))}</h3>
      ${lineChart(chipSeries(tb.chips, hands, label), { xLabel: t("web.list.chart.x.table"), yLabel: t("web.list.chart.y.chips"), maxWidth: 580 })}</div>`;
  }).join("");
  const levels = x.levels.length ? `<div class="scroll"><table class="list" id="levels"><thead><tr>${th("web.list.col.from")}${th("web.list.col.table")}
      ${th("web.list.col.level", "num")}${th("web.list.col.ante", "num")}${th("web.list.col.bet", "num")}${th("web.list.col.firsthand")}</tr></thead><tbody>
    ${x.levels.map((l) => `<tr><td class="main">${dateTime(l.started_at)}</td>${td("web.list.col.table", tableLink(l.table))}${td("web.list.col.level", num(l.level), "num")}
      ${td("web.list.col.ante", num(l.ante), "num")}${td("web.list.col.bet", esc(l.max_bet ? t("web.tournament.bet.range", { min: num(l.min_bet), max: num(l.max_bet) }) : t("web.tournament.bet.nolimit", { min: num(l.min_bet) })), "num")}
      ${td("web.list.col.firsthand", replay(l.hand))}</tr>`).join("")}</tbody></table></div>`
    : `<p class="muted">${esc(t("web.tournament.nolevels"))}</p>`;
  const moves = x.moves.length ? `<div class="scroll"><table class="list" id="moves"><thead><tr>${th("web.list.col.player")}${th("web.list.col.fromtable")}
      ${th("web.list.col.totable")}${th("web.list.col.chips", "num")}${th("web.list.col.firsthere")}</tr></thead><tbody>
    ${x.moves.map((m) => `<tr><td class="main">${playerLink(m.player)}</td>${td("web.list.col.fromtable", tableLink(m.from))}${td("web.list.col.totable", tableLink(m.to))}
      ${td("web.list.col.chips", num(m.stack), "num")}${td("web.list.col.firsthere", replay(m.hand))}</tr>`).join("")}</tbody></table></div>`
    : `<p class="muted">${esc(t("web.tournament.nomoves"))}</p>`;
  const outs = x.knockouts.length ? `<div class="scroll"><table class="list" id="knockouts"><thead><tr>${th("web.list.col.place", "num")}${th("web.list.col.player")}
      ${th("web.list.col.table")}${th("web.list.col.hand")}</tr></thead><tbody>
    ${x.knockouts.map((k) => `<tr><td class="num">${num(k.place)}</td><td class="main">${playerLink(k.player)}</td>${td("web.list.col.table", tableLink(k.table))}
      ${td("web.list.col.hand", replay(k.hand))}</tr>`).join("")}</tbody></table></div>` : `<p class="muted">${esc(t("web.tournament.noouts"))}</p>`;
  const findings = x.findings.length ? `<div class="scroll"><table class="list cards-on-phone" id="tfindings"><thead><tr><th></th>${th("web.list.col.code")}
      ${th("web.list.col.what")}${th("web.list.col.hand")}</tr></thead><tbody>
    ${x.findings.map((f) => `<tr><td>${badge(f.severity, t("sev." + f.severity))}</td>${td("web.list.col.code", findingTag(f.code))}
      ${td("web.list.col.what", esc(f.message))}<td class="main"><a href="#/hand/${esc(f.hand)}/${f.seq}">${esc(t("web.tournament.finding.at", { table: f.table, seq: f.seq }))}</a></td></tr>`).join("")}</tbody></table></div>`
    : `<p class="muted">${esc(t("web.tournament.nofindings"))}</p>`;
  view().innerHTML = `<h1>${esc(t("web.tournament.title", { id: x.id }))}</h1>
    <p>${esc(t("web.tournament.summary", { entries: x.entries, stack: x.stack, n: x.hands, level: x.level }))}
      ${esc(t("web.tournament.started", { at: "\u0000" })).replace("\u0000", dateTime(x.started_at))} ${state}</p>
    <div class="panel"><h2>${esc(t("web.tournament.standings"))}</h2>${standings}</div>
    <div class="panel" id="tstep"><h2>${esc(t("web.tournament.step"))}</h2>
      <p>${esc(t("web.tournament.step.help"))}</p>
      <p><button id="tprev">${esc(t("web.list.prev"))}</button> <button id="tnext">${esc(t("web.list.next"))}</button>
        <input type="range" id="tslider" min="0" max="0" value="0" aria-label="${esc(t("web.tournament.moment.label"))}"></p>
      <div id="tmoment"></div></div>
    <h2>${esc(t("web.tournament.chips"))}</h2><div class="chipgrid">${tables}</div>
    <div class="panel"><h2>${esc(t("web.tournament.levels"))}</h2>${levels}</div>
    <div class="cols"><div class="panel"><h2>${esc(t("web.tournament.moves"))}</h2>${moves}</div>
    <div class="panel"><h2>${esc(t("web.tournament.knockouts"))}</h2>${outs}</div></div>
    <div class="panel"><h2>${esc(t("web.tournament.findings"))}</h2>${findings}</div>`;
  if (x.started_at) await stepTournament(id, x.started_at);
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
  const running = (tb) => tb.in_progress ? esc(t("web.tournament.playing", { hand: "\u0000" })).replace("\u0000", handLink(tb.in_progress, t("web.tournament.inprogress")))
    : esc(t("web.tournament.notplaying"));
  const tables = m.tables.map((tb) => `<div class="panel"><h3>${esc(t("web.tournament.table.short", { table: tb.table }))}</h3>
    <p>${esc(t("web.tournament.level", { level: tb.level }))} ${tb.number ? esc(t("web.tournament.lastended", { number: tb.number, hand: "\u0000" })).replace("\u0000", handLink(tb.hand, t("web.list.replay"))) : ""} ${running(tb)}</p>
    ${tb.players.length ? `<div class="scroll"><table class="list"><thead><tr><th class="num">${esc(t("web.list.col.seat"))}</th><th>${esc(t("web.list.col.player"))}</th><th class="num">${esc(t("web.list.col.chips"))}</th></tr></thead><tbody>
      ${tb.players.map((p) => `<tr><td class="num">${num(p.seat)}</td><td class="main">${playerLink(p.player)}</td><td class="num">${num(p.chips)}</td></tr>`).join("")}</tbody></table></div>`
      : `<p class="muted">${esc(t("web.tournament.empty"))}</p>`}</div>`).join("");
  const standings = m.standings.length ? `<div class="scroll"><table class="list" id="tstandings"><thead><tr><th class="num">${esc(t("web.list.col.rank"))}</th><th>${esc(t("web.list.col.player"))}</th>
      <th class="num">${esc(t("web.list.col.chips"))}</th><th>${esc(t("web.list.col.table"))}</th><th>${esc(t("web.list.col.place"))}</th></tr></thead><tbody>
    ${m.standings.map((s) => `<tr><td class="num">${num(s.rank)}</td><td class="main">${playerLink(s.player)}</td><td class="num">${num(s.chips)}</td>
      <td>${tableLink(s.table)}</td><td>${s.place ? num(s.place) : ""}</td></tr>`).join("")}</tbody></table></div>`
    : `<p class="muted">${esc(t("web.tournament.nothingyet"))}</p>`;
  $("#tmoment").innerHTML = `<p>${esc(t("web.tournament.moment", { at: "\u0000", k: Number(slider.value) + 1, n: m.times.length, level: m.level, players: m.in_play })).replace("\u0000", dateTime(m.at))}</p>
    <div class="cols">${tables}</div><h3>${esc(t("web.tournament.standings.then"))}</h3>${standings}`;
}
