// fechado dashboard: the Hands page, the list of hands with its filters, a page at a time.
// Helpers (api, esc, cardHTML, t…) are in app.js, the lists' (num, dateTime, pager…) in
// charts.js; main.js routes.
"use strict";

// presets are the presets the catalogue names (preset.CODE), in their names' order.
const presets = () => Object.keys(words.messages).filter((k) => k.startsWith("preset.")).map((k) => k.slice("preset.".length)).filter((c) => /^[a-z-]+$/.test(c))
  .sort((a, b) => t("preset." + a).localeCompare(t("preset." + b), words.lang));
const HANDS_PAGE = 50;

// handResult says how a hand ended, as a whole sentence with its winners linked.
function handResult(h) {
  if (!h.ended) return esc(t("web.hands.running"));
  if (h.misdeal) return esc(t("web.hands.misdeal"));
  if (h.passed) return esc(t("web.hands.passed"));
  const names = String(h.winners || "").split(",").map((s) => s.trim()).filter(Boolean);
  if (!names.length) return "";
  // The sentence is translated with a marker for the names, which are then linked one by one.
  const mark = "\u0000";
  return esc(t(names.length > 1 ? "web.hands.split" : "web.hands.won", { players: mark })).replace(mark, names.map(playerLink).join(", "));
}

// localDay is the start of day d (YYYY-MM-DD), plus days, in the reader's time zone, as the
// RFC 3339 time the API takes: "from the 3rd until the 5th" means his days, not UTC's.
function localDay(d, plus = 0) {
  const [y, m, day] = d.split("-").map(Number);
  const at = new Date(y, m - 1, day + plus);
  return isNaN(at) ? d : at.toISOString();
}

async function pageHands(qs) {
  const params = new URLSearchParams(qs || "");
  if (!params.get("limit")) params.set("limit", String(HANDS_PAGE));
  const q = new URLSearchParams(params);
  // The "until" day is included: the hands started before the next day begins.
  if (/^\d{4}-\d{2}-\d{2}$/.test(q.get("from") || "")) q.set("from", localDay(q.get("from")));
  if (/^\d{4}-\d{2}-\d{2}$/.test(q.get("to") || "")) q.set("to", localDay(q.get("to"), 1));
  const data = await api("/api/hands?" + q.toString());
  const f = (k) => esc(params.get(k) || "");
  const href = (offset) => { const p = new URLSearchParams(params); p.set("offset", String(offset)); return "#/hands?" + p.toString(); };
  const rows = data.hands.map((h) => `<tr class="click" data-hand="${esc(h.hand)}">
      <td class="main"><a class="rowlink" href="#/hand/${esc(h.hand)}">${esc(t("web.hands.number", { number: h.number }))}</a></td>
      <td data-label="${esc(t("web.list.col.table"))}">${tableLink(h.table)}</td>
      <td data-label="${esc(t("web.list.col.preset"))}">${presetName(h.preset)}</td>
      <td data-label="${esc(t("web.list.col.started"))}">${dateTime(h.started_at)}</td>
      <td class="num" data-label="${esc(t("web.list.col.players"))}">${num(h.players)}</td>
      <td class="num" data-label="${esc(t("web.list.col.pot"))}">${num(h.pot)}</td>
      <td data-label="${esc(t("web.list.col.result"))}">${handResult(h)}</td>
      <td data-label="${esc(t("web.list.col.audit"))}">${h.ended ? badge(h.audit || "ok", t("web.hands.audit." + (h.audit || "ok"))) : badge("", t("web.hands.inprogress"))}</td>
      <td data-label="${esc(t("web.list.col.findings"))}">${h.codes.map(findingTag).join(" ")}</td></tr>`).join("");
  view().innerHTML = `<h1>${esc(t("web.hands.title"))}</h1>
    <form class="filters" id="filters">
      <label>${esc(t("web.list.filter.table"))}<input type="text" name="table" value="${f("table")}" autocapitalize="off"></label>
      <label>${esc(t("web.list.filter.player"))}<input type="text" name="player" value="${f("player")}" autocapitalize="off"></label>
      <label>${esc(t("web.list.filter.preset"))}<select name="preset"><option value="">${esc(t("web.list.filter.any"))}</option>${presets().map((p) =>
        `<option ${params.get("preset") === p ? "selected" : ""} value="${p}">${esc(t("preset." + p))}</option>`).join("")}</select></label>
      <label>${esc(t("web.list.filter.from"))}<input type="date" name="from" value="${f("from")}"></label>
      <label>${esc(t("web.list.filter.to"))}<input type="date" name="to" value="${f("to")}"></label>
      <label><span><input type="checkbox" name="findings" value="1" ${params.get("findings") === "1" ? "checked" : ""}> ${esc(t("web.list.filter.findings"))}</span></label>
      <button type="submit">${esc(t("web.list.filter.apply"))}</button>
    </form>
    ${pager(data.total, data.limit, data.offset, href)}
    <div class="scroll"><table class="list cards-on-phone" id="hands"><thead><tr><th scope="col">${esc(t("web.list.col.hand"))}</th><th scope="col">${esc(t("web.list.col.table"))}</th>
      <th scope="col">${esc(t("web.list.col.preset"))}</th><th scope="col">${esc(t("web.list.col.started"))}</th><th scope="col" class="num">${esc(t("web.list.col.players"))}</th>
      <th scope="col" class="num">${esc(t("web.list.col.pot"))}</th><th scope="col">${esc(t("web.list.col.result"))}</th><th scope="col">${esc(t("web.list.col.audit"))}</th>
      <th scope="col">${esc(t("web.list.col.findings"))}</th></tr></thead><tbody>${rows}</tbody></table></div>
    ${data.hands.length ? "" : `<p class="muted">${esc(t("web.hands.none"))}</p>`}
    ${data.total > data.limit ? pager(data.total, data.limit, data.offset, href) : ""}`;
  $("#filters").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(ev.target)) if (v) p.set(k, v);
    location.hash = "#/hands?" + p.toString();
  });
  // A click anywhere on a row opens its hand, as the row's link does; links in the row keep
  // their own target.
  $("#hands").addEventListener("click", (ev) => {
    if (ev.target.closest("a")) return;
    const tr = ev.target.closest("tr[data-hand]");
    if (tr) location.hash = "#/hand/" + tr.dataset.hand;
  });
}
