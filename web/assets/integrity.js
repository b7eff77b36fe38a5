// fechado dashboard: the Integrity page, the pairs of players the last integrity analysis scored
// (docs/integrity.md). The server gives the pairs with their words in the reader's language and
// draws the graph of who plays with whom (SVG, no script); the page lays them out and links each
// pair's evidence hands into the replayer. Helpers (api, esc, t, handLink…) are in app.js, the
// lists' (pager, playerLink…) in charts.js; main.js routes.
"use strict";

const INTEGRITY_PAGE = 50;

// pageIntegrity shows a page of the pairs (#/integrity?offset=N), strongest evidence first.
async function pageIntegrity(qs) {
  const offset = Number(new URLSearchParams(qs || "").get("offset") || 0);
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const p = new URLSearchParams({ lang: readerLang(), tz, limit: String(INTEGRITY_PAGE), offset: String(offset) });
  const data = await api("/api/integrity?" + p.toString());
  const head = `<h1>${esc(t("web.integrity.title"))}</h1><p class="muted" id="integrity-summary">${esc(data.summary)}</p>`;
  if (!data.computed) {
    view().innerHTML = head;
    return;
  }
  const pairs = data.pairs.map((x) => `<details class="panel ipair${x.flagged ? " flagged" : ""}" id="pair-${x.rank}" data-a="${esc(x.a)}" data-b="${esc(x.b)}"${x.flagged ? " open" : ""}>
      <summary>${x.flagged ? badge("error", t("web.integrity.flagged")) : ""}<span class="ititle">${esc(x.title)}</span></summary>
      <p>${playerLink(x.a)} · ${playerLink(x.b)}</p>
      <p class="verdict">${esc(x.words.verdict)}</p>
      <ul class="reasons"><li>${esc(x.words.overlap)}</li>${x.words.reasons.map((r) => `<li data-signal="${esc(r.signal)}">${esc(r.text)}${r.hands.length
        ? `<br><span class="muted">${esc(t("web.integrity.evidence"))}</span> ${r.hands.map((h) => handLink(h, data.hand_titles[h] || h)).join(" · ")}` : ""}</li>`).join("")}</ul>
    </details>`).join("");
  view().innerHTML = `${head}
    <figure class="panel igraph-box"><figcaption>${esc(t("web.integrity.graph.caption"))}</figcaption>${data.graph}</figure>
    <h2>${esc(t("web.integrity.pairs"))}</h2>
    ${pager(data.total, data.limit, data.offset, (off) => "#/integrity?offset=" + off)}
    <div id="pairs">${pairs}</div>
    ${data.pairs.length ? "" : `<p class="muted">${esc(t("web.integrity.nopairs"))}</p>`}`;
}
