// fechado dashboard: the Hands page, the list of hands with its filters. Helpers (api, esc, cardHTML, t…) are in app.js; main.js routes.
"use strict";

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
