// fechado dashboard: the SVG charts, and what the list pages share (numbers and dates in the
// reader's locale, links to players, tables and hands, sortable headers, the pager). Helpers
// (api, esc, cardHTML, t…) are in app.js; main.js routes.
"use strict";

// ---------- numbers, dates and names in the reader's language ----------
const numFmt = (v, digits = 0) => new Intl.NumberFormat(words.lang, { maximumFractionDigits: digits }).format(v);
// num writes a count or an amount of chips; "–" where there is none.
const num = (v) => (v == null ? "–" : numFmt(v));
// dec writes a factor or an average to two decimals at most.
const dec = (v) => (v == null ? "–" : numFmt(v, 2));
// pct writes a percentage (the API gives 0–100) the locale's way ("12,5 %", "%12,5").
const pct = (v) => (v == null ? "–" : new Intl.NumberFormat(words.lang, { style: "percent", maximumFractionDigits: 1 }).format(v / 100));

// dateTime writes an RFC 3339 time of the API as the reader's date and time, in his time zone,
// with the zone named; the machine-readable time stays in a <time> element's datetime.
function dateTime(at) {
  if (!at) return "";
  const d = new Date(at);
  if (isNaN(d)) return esc(at);
  const s = new Intl.DateTimeFormat(words.lang, {
    year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "short",
  }).format(d);
  return `<time datetime="${esc(at)}">${esc(s)}</time>`;
}

// presetName is a preset as its players name it, its code in the title.
const presetName = (code) => `<span class="preset" title="${esc(code)}">${esc(words.messages["preset." + code] ? t("preset." + code) : code)}</span>`;
const playerHref = (name) => "#/player/" + encodeURIComponent(name);
const playerLink = (name) => `<a class="player" href="${playerHref(name)}">${esc(name)}</a>`;
// tableLink opens a table's hands.
const tableLink = (table) => `<a class="table" href="#/hands?table=${encodeURIComponent(table)}">${esc(table)}</a>`;
// playerList links each name of a comma-separated list (the hands' winners).
const playerList = (names) => String(names || "").split(",").map((s) => s.trim()).filter(Boolean).map(playerLink).join(", ");

// sortHeader is a column header that sorts the list when its button is pressed (a click or the
// keyboard), with aria-sort saying the current order; cur is {sort, order}, title explains the
// column. The button carries the order it asks for in data-sort and data-order.
function sortHeader(label, key, cur, { cls = "", title = "" } = {}) {
  const on = cur.sort === key;
  const next = on ? (cur.order === "asc" ? "desc" : "asc") : key === "player" ? "asc" : "desc";
  const aria = on ? (cur.order === "asc" ? "ascending" : "descending") : "none";
  const arrow = on ? (cur.order === "asc" ? " ▲" : " ▼") : "";
  const text = title ? `<abbr title="${esc(title)}">${esc(label)}</abbr>` : esc(label);
  return `<th class="${cls}" aria-sort="${aria}" data-sort="${esc(key)}"><button type="button" class="sort" data-sort="${esc(key)}" data-order="${next}">${text}${arrow}</button></th>`;
}

// pager writes "1–50 of 230" with the previous and next pages: links when href(offset) gives
// the page's address, else buttons carrying the offset in data-offset for the page to handle.
function pager(total, limit, offset, href) {
  const from = total ? offset + 1 : 0, to = Math.min(offset + limit, total);
  const go = (rel, off, key) => href
    ? `<a class="button" rel="${rel}" href="${esc(href(off))}">${esc(t(key))}</a>`
    : `<button type="button" class="page" rel="${rel}" data-offset="${off}">${esc(t(key))}</button>`;
  const prev = offset > 0 ? go("prev", Math.max(0, offset - limit), "web.list.prev") : "";
  const next = offset + limit < total ? go("next", offset + limit, "web.list.next") : "";
  return `<nav class="pager" aria-label="${esc(t("web.list.pages"))}"><span class="total">${esc(t("web.list.showing", { from, to, total }))}</span> ${prev} ${next}</nav>`;
}

// ---------- charts ----------
// chartWidth is the width in pixels a chart gets in the page now, so that its text is drawn at
// the size it is read (a chart drawn 760 wide and shrunk to a phone's width has 5-pixel labels).
function chartWidth(max = 760) {
  const w = (view() && view().clientWidth) || max;
  return Math.max(280, Math.min(max, w - 40));
}

// chipSegments cuts one player's stacks, hand by hand (rows of {x, hand, start, end}, in order),
// into the lines the chart draws: a hand whose starting stack is not the last one's end (a
// rebuy, a return with other chips, a new table) starts a new line at that stack, so no line is
// drawn through a bust; a stack of 0 at the end of a hand is a bust.
function chipSegments(rows, label = (r) => "") {
  const segs = [];
  let cur = null, prev = null;
  for (const r of rows) {
    if (!cur || r.start !== prev.end || r.table !== prev.table) {
      cur = [];
      segs.push(cur);
      const rebuy = prev && r.table === prev.table && r.start > prev.end;
      cur.push({ x: r.x - 1, y: r.start, kind: rebuy ? "rebuy" : "", hand: r.hand,
        title: t(rebuy ? "web.list.chart.rebuy" : "web.list.chart.start", { hand: label(r), chips: r.start }) });
    }
    cur.push({ x: r.x, y: r.end, kind: r.end === 0 ? "bust" : "", hand: r.hand,
      title: (r.end === 0 ? t("web.list.chart.bust", { hand: label(r) }) : t("web.list.chart.after", { hand: label(r), chips: r.end })) });
    prev = r;
  }
  return segs;
}

// niceTicks gives about n round values (steps of 1, 2, 2.5 or 5 times a power of ten) that cover
// lo..hi; whole when whole is set.
function niceTicks(lo, hi, n, whole = false) {
  const raw = Math.max((hi - lo) / n, whole ? 1 : 1e-9);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((x) => x >= raw && (!whole || Number.isInteger(x)));
  const out = [];
  for (let v = Math.floor(lo / step) * step; v < hi + step; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out.filter((v, k, a) => k === 0 || a[k - 1] < hi);
}

// lineChart draws series [{name, segments: [[{x, y, hand, title, kind}]]}] as an SVG: each
// segment a line, each point a link to its hand (#/hand/ID), a bust a cross, a rebuy a ring.
function lineChart(series, { xLabel = "", yLabel = "", height = 280, maxWidth = 760 } = {}) {
  const pts = series.flatMap((s) => s.segments.flat());
  if (!pts.length) return `<p class="muted">${esc(t("web.list.chart.empty"))}</p>`;
  const width = chartWidth(maxWidth);
  const pad = { l: 58, r: 12, t: 12, b: 44 };
  let [x0, x1] = [Math.min(...pts.map((p) => p.x)), Math.max(...pts.map((p) => p.x))];
  let [y0, y1] = [Math.min(0, ...pts.map((p) => p.y)), Math.max(...pts.map((p) => p.y))];
  if (x0 === x1) x1 = x0 + 1;
  if (y0 === y1) y1 = y0 + 1;
  const yt = niceTicks(y0, y1, 4);
  [y0, y1] = [yt[0], yt[yt.length - 1]];
  const X = (x) => (pad.l + ((x - x0) / (x1 - x0)) * (width - pad.l - pad.r)).toFixed(1);
  const Y = (y) => (height - pad.b - ((y - y0) / (y1 - y0)) * (height - pad.t - pad.b)).toFixed(1);
  const grid = yt.map((y) => `<line x1="${pad.l}" x2="${width - pad.r}" y1="${Y(y)}" y2="${Y(y)}" stroke="#e3e6e1"/>
    <text x="${pad.l - 6}" y="${Number(Y(y)) + 4}" text-anchor="end">${esc(numFmt(y))}</text>`).join("");
  const xt = niceTicks(x0, x1, Math.max(1, Math.floor((width - pad.l) / 60)), true).filter((x) => x >= x0 && x <= x1).map((x) => `<text x="${X(x)}" y="${height - pad.b + 16}" text-anchor="middle">${esc(numFmt(x))}</text>`).join("");
  const color = (k) => COLORS[k % COLORS.length];
  const marker = (p, c) => {
    const [cx, cy] = [X(p.x), Y(p.y)];
    if (p.kind === "bust") return `<path d="M${cx - 5},${cy - 5}L${Number(cx) + 5},${Number(cy) + 5}M${cx - 5},${Number(cy) + 5}L${Number(cx) + 5},${cy - 5}" stroke="${c}" stroke-width="2.5"/>`;
    if (p.kind === "rebuy") return `<circle cx="${cx}" cy="${cy}" r="5" fill="#fff" stroke="${c}" stroke-width="2"/>`;
    return `<circle cx="${cx}" cy="${cy}" r="3.5" fill="${c}"/>`;
  };
  const lines = series.map((s, k) => s.segments.map((seg) => `<polyline class="seg" data-player="${esc(s.name)}" fill="none" stroke="${color(k)}" stroke-width="2"
      points="${seg.map((p) => X(p.x) + "," + Y(p.y)).join(" ")}"/>` +
    seg.map((p) => `<a class="pt" href="#/hand/${esc(p.hand)}" data-kind="${esc(p.kind)}"><title>${esc(s.name)}: ${esc(p.title)}</title>${marker(p, color(k))}<circle cx="${X(p.x)}" cy="${Y(p.y)}" r="9" fill="transparent"/></a>`).join("")).join("")).join("");
  const legend = series.length > 1 || series[0].name ? `<div class="legend">${series.map((s, k) => `<span><i style="background:${color(k)}"></i>${s.href ? `<a href="${esc(s.href)}">${esc(s.name)}</a>` : esc(s.name)}</span>`).join("")}</div>` : "";
  const keys = pts.some((p) => p.kind) ? `<p class="chartkeys muted">${esc(t("web.list.chart.keys"))}</p>` : "";
  return `<figure class="chart"><svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="group" aria-label="${esc(yLabel)}">${grid}${xt}
    <line x1="${pad.l}" x2="${width - pad.r}" y1="${Y(0)}" y2="${Y(0)}" stroke="#999"/>${lines}
    <text x="${(pad.l + width - pad.r) / 2}" y="${height - 6}" text-anchor="middle">${esc(xLabel)}</text>
    <text transform="translate(14 ${(height - pad.b) / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text></svg>${legend}${keys}</figure>`;
}

// barChart draws bars [{label, value (0–100 or null), title}] as an SVG of the width it is read at.
function barChart(bars, { height = 200, max = 100 } = {}) {
  if (!bars.length) return `<p class="muted">${esc(t("web.list.chart.empty"))}</p>`;
  const width = Math.min(chartWidth(420), 420);
  const pad = { l: 10, b: 26, t: 18 };
  max = Math.min(max, Math.max(10, ...bars.map((b) => b.value || 0)) * 1.1);
  const bw = (width - pad.l) / bars.length;
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${bars.map((b, k) => {
    const h = b.value == null ? 0 : ((height - pad.b - pad.t) * b.value) / max;
    return `<rect x="${pad.l + k * bw + 4}" y="${height - pad.b - h}" width="${bw - 8}" height="${h}" fill="${COLORS[0]}"><title>${esc(b.title)}</title></rect>
      <text x="${pad.l + k * bw + bw / 2}" y="${height - 8}" text-anchor="middle">${esc(b.label)}</text>
      <text x="${pad.l + k * bw + bw / 2}" y="${height - pad.b - h - 4}" text-anchor="middle">${esc(pct(b.value))}</text>`;
  }).join("")}</svg>`;
}
