// fechado dashboard: the router, loaded last. Routes live in the URL hash.
"use strict";

// ---------- router ----------
let cleanup = null;
const routes = [
  [/^#?\/?(tables)?$/, pageTables],
  [/^#\/hands(?:\?(.*))?$/, pageHands],
  [/^#\/hand\/([^/?]+)(?:\/(\d+))?$/, pageHand],
  [/^#\/players(?:\?(.*))?$/, pagePlayers],
  [/^#\/player\/(.+)$/, pagePlayer],
  [/^#\/tournaments(?:\/(.+))?$/, pageTournaments],
  [/^#\/integrity(?:\?(.*))?$/, pageIntegrity],
];

async function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  const h = location.hash || "#/tables";
  const section = (h.match(/^#\/(\w+)/) || [0, "tables"])[1];
  document.querySelectorAll("header nav a").forEach((a) => {
    const n = a.dataset.nav;
    a.classList.toggle("active", n === section || (n === "hands" && section === "hand") || (n === "players" && section === "player"));
  });
  for (const [re, fn] of routes) {
    const m = h.match(re);
    if (m) {
      try { await fn(...m.slice(1)); } catch (e) { view().innerHTML = `<p class="error-box">${esc(e.message)}</p>`; }
      return;
    }
  }
  view().innerHTML = `<p>${esc(t("web.unknown"))} <a href="#/tables">${esc(t("web.nav.tables"))}</a></p>`;
}


window.addEventListener("hashchange", route);
$("#lang").addEventListener("change", async (ev) => { await setLang(ev.target.value); route(); });
connect();
setLang(readerLang()).then(route, (e) => { view().innerHTML = `<p class="error-box">${esc(e.message)}</p>`; });
