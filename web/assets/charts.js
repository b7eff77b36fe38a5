// fechado dashboard: the SVG line and bar charts. Helpers (api, esc, cardHTML, t…) are in app.js; main.js routes.
"use strict";

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

