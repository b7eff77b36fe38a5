// fechado dashboard: one hand's page, the dispute desk: the table as the printed report draws it
// (the server's drawing, one per step), the event in words, the findings as sentences with their
// rules, the hand's history, its result and its deck. Helpers (api, esc, t…) are in app.js;
// main.js routes.
"use strict";

// roundOf names the part of the hand a step belongs to, for the jumps by betting round.
function roundOf(s) {
  if (s.stage === "betting") return s.round === "second" ? "second" : "first";
  if (s.stage === "draw") return "draw";
  if (s.stage === "showdown" || s.stage === "settle" || s.stage === "ended") return "showdown";
  return "deal";
}

function findingHTML(f, id) {
  return `<article class="hf ${esc(f.severity)}" data-code="${esc(f.code)}" data-seq="${f.seq}">
    <p class="hf-head"><span class="hf-sev">${esc(f.severity_text)}</span>
      <a class="hf-at" href="#/hand/${esc(id)}/${f.seq}" data-seq="${f.seq}">${esc(t("web.hand.at", { seq: f.seq }))}</a>
      <span class="hf-code">${esc(f.code)}</span></p>
    <p class="hf-sentence">${esc(f.sentence)}</p>
    ${f.who ? `<p class="hf-who">${esc(f.who)}</p>` : ""}
    ${f.remedy ? `<div class="hf-remedy"><h3>${esc(t("web.hand.remedy"))}</h3><p>${esc(f.remedy)}</p></div>` : ""}
    <p class="hf-cite">${esc(f.citation)}</p>
    ${f.rule ? `<details class="hf-rule"><summary>${esc(t("web.hand.ruletext", { title: f.rule_title }))}</summary>
      <p class="hf-rule-text">${esc(f.rule)}</p>
      ${f.original && f.original.length ? `<p class="hf-orig-head">${esc(t("web.hand.original", { source: f.source }))}</p>
      <blockquote class="hf-orig">${f.original.map((q) => `<p>“${esc(q)}”</p>`).join("")}</blockquote>` : ""}</details>` : ""}
  </article>`;
}

function deckHTML(d) {
  const cell = (c) => `<span class="${c.red ? "red" : ""}${c.bad ? " bad" : ""}">${esc(c.text)}</span>`;
  return `<div class="hd-deck"><p>${esc(d.method)}</p>
    ${d.verdict ? `<p class="${d.good ? "ok" : "bad"}">${esc(d.verdict)}</p>` : ""}
    ${d.dealt ? `<p class="${d.dealt_ok ? "ok" : "bad"}">${esc(d.dealt)}</p>` : ""}
    ${d.checked ? `<p>${esc(t("deck.taken"))}</p><div class="hd-cards">${d.taken.map(cell).join("")}</div>
      <p>${esc(t("deck.order"))}</p><div class="hd-cards">${d.order.map(cell).join("")}</div>` : ""}</div>`;
}

async function pageHand(id, at) {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  // "As it happened" (the default) shows a card only once it was seen face up; "all cards" shows
  // every card from the deal on. The reader's choice is kept.
  const asHappened = localStorage.getItem("handCards") !== "all";
  const q = `lang=${encodeURIComponent(words.lang)}&tz=${encodeURIComponent(tz)}${asHappened ? "&cards=shown" : ""}`;
  const data = await api(`/api/hands/${encodeURIComponent(id)}/replay?${q}`).catch(() =>
    api(`/api/hands/${encodeURIComponent(id)}/replay?lang=${encodeURIComponent(words.lang)}`));
  const steps = data.steps;
  const w = data.words;
  // The drawing's styles, the report's own, once for the page.
  if (!document.getElementById("tableview-css")) {
    const style = document.createElement("style");
    style.id = "tableview-css";
    style.textContent = data.table_css;
    document.head.appendChild(style);
  }
  let i = steps.length - 1;
  if (at) { const k = steps.findIndex((s) => s.seq === Number(at)); if (k >= 0) i = k; }
  let timer = null;
  let speed = Number(localStorage.getItem("handSpeed")) || 1;
  // The first step of each part of the hand, for the jumps.
  const parts = [];
  steps.forEach((s, k) => { const r = roundOf(s); if (!parts.length || parts[parts.length - 1][1] !== r) parts.push([k, r]); });
  const pct = (k) => (steps.length > 1 ? (100 * k) / (steps.length - 1) : 0);
  view().innerHTML = `<div class="hand-page">
    <div class="hand-head"><h1>${esc(w.title)}</h1>
      <p>${esc(w.intro)} · ${esc(t(data.ended ? "web.hand.ended" : "web.hand.live"))}
        · <a href="#/hands?table=${encodeURIComponent(data.table)}">${esc(t("web.hand.tablehands"))}</a>
        <span id="other-hands"></span>
        ${data.ended ? ` · <a class="report button" data-hand="${esc(id)}" href="${esc(reportHref(id))}" target="_blank" rel="noopener">${esc(t("web.hand.report"))}</a>` : ""}</p></div>
    <div class="hand-controls" role="toolbar" aria-label="${esc(t("web.hand.controls"))}">
      <button id="first" title="${esc(t("web.hand.first"))}" aria-label="${esc(t("web.hand.first"))}">|◀</button>
      <button id="prev" title="${esc(t("web.hand.prev"))}" aria-label="${esc(t("web.hand.prev"))}">◀</button>
      <button id="play" title="${esc(t("web.hand.play"))}" aria-label="${esc(t("web.hand.play"))}">►</button>
      <button id="next" title="${esc(t("web.hand.next"))}" aria-label="${esc(t("web.hand.next"))}">▶</button>
      <button id="last" title="${esc(t("web.hand.last"))}" aria-label="${esc(t("web.hand.last"))}">▶|</button>
      <span class="hand-rounds">${parts.map(([k, r]) => `<button class="jump-round" data-k="${k}" data-round="${r}">${esc(t("web.hand.round." + r))}</button>`).join("")}</span>
      <label class="hand-speed">${esc(t("web.hand.speed"))} <select id="speed">${[0.5, 1, 2].map((v) =>
        `<option value="${v}" ${v === speed ? "selected" : ""}>${esc(t("web.hand.speed.x", { x: words.number.format(v) }))}</option>`).join("")}</select></label>
      <button id="cards">${esc(t(asHappened ? "web.hand.cards.all" : "web.hand.cards.happened"))}</button>
      <span id="step-seq" class="hand-stepno"></span>
    </div>
    <div class="hand-slider"><input type="range" id="slider" min="0" max="${steps.length - 1}" value="${i}" aria-label="${esc(t("web.hand.slider"))}">
      <div class="hand-marks">${steps.map((s, k) => {
        if (!s.findings.length) return "";
        const said = s.findings.map((f) => f.sentence).join(" ");
        return `<button type="button" class="find" data-k="${k}" data-seq="${s.seq}" style="left:${pct(k)}%" title="${esc(said)}" aria-label="${esc(t("web.hand.at", { seq: s.seq }))}: ${esc(said)}"></button>`;
      }).join("")}</div></div>
    <p class="hand-line" id="event" aria-live="polite"></p>
    <div class="hand-grid">
      <div class="hand-main"><div class="hand-table" id="table"></div>
        <div id="step-findings" class="hand-here"></div>
        ${data.ended ? `<section class="hand-result" id="result"><h2>${esc(t("web.hand.result"))}</h2>${w.result.map((r) => `<p>${esc(r)}</p>`).join("")}</section>` : ""}
      </div>
      <aside class="hand-side"><section><h2>${esc(t("web.hand.history"))}</h2>
        <ol class="hand-history" id="history">${w.history.map((ln) => `<li data-seq="${ln.seq}" data-last="${ln.last}"><a href="#/hand/${esc(id)}/${ln.seq}" data-seq="${ln.seq}">${esc(ln.text)}</a></li>`).join("")}</ol></section></aside>
    </div>
    ${data.ended ? `<section class="hand-all" id="all-findings"><h2 id="all-findings-head">${esc(t("web.hand.findings", { n: data.findings.length }))}</h2>
      ${data.findings.map((f) => findingHTML(f, id)).join("")}<p class="ok" id="all-findings-none">${esc(t("report.nofindings"))}</p></section>` : ""}
    ${data.ended && w.decks.length ? `<details class="hand-deck" id="deck"><summary>${esc(t("web.hand.deck"))}</summary>${w.decks.map(deckHTML).join("")}</details>` : ""}
    ${data.ended ? "" : `<p class="muted">${esc(t("web.hand.public"))}</p>`}
    <p class="hand-keys">${esc(t("web.hand.keys"))}</p></div>`;
  const render = () => {
    const st = steps[i];
    $("#slider").value = i;
    // The address follows the event shown, so that a reload, a link or another language keeps it.
    history.replaceState(null, "", `#/hand/${encodeURIComponent(id)}/${st.seq}`);
    $("#step-seq").textContent = t("web.hand.step", { step: i + 1, total: steps.length, seq: st.seq });
    $("#event").textContent = st.line;
    $("#table").innerHTML = st.table;
    $("#step-findings").innerHTML = st.findings.map((f) => findingHTML(f, id)).join("");
    // The result is told at the hand's last step, not before; and the list of all the hand's
    // findings holds those the replay has reached (a finding of the whole hand, with no event of
    // its own, at the last step), so that stepping through the hand tells nothing ahead of it.
    const end = i === steps.length - 1;
    if ($("#result")) $("#result").hidden = !end;
    // The slider's marks of the findings, whose tooltips say them: as it happened, a mark shows
    // once the replay has reached its event; with all cards (the floor's review) every mark shows
    // from the start, for the floor to jump to it.
    view().querySelectorAll(".hand-marks .find").forEach((b) => { b.hidden = asHappened && Number(b.dataset.k) > i; });
    if ($("#all-findings")) {
      let n = 0;
      view().querySelectorAll("#all-findings article.hf").forEach((a) => {
        const seq = Number(a.dataset.seq);
        a.hidden = !(end || (seq > 0 && seq <= st.seq));
        if (!a.hidden) n++;
      });
      $("#all-findings-head").textContent = t("web.hand.findings", { n });
      $("#all-findings-none").hidden = n > 0;
      $("#all-findings-none").textContent = t(end ? "report.nofindings" : "web.hand.findings.notyet");
    }
    // The history list follows the step by scrolling itself, never the page: the controls stay
    // where the reader's finger is.
    const ol = $("#history");
    view().querySelectorAll("#history li").forEach((li) => {
      const on = st.seq >= Number(li.dataset.seq) && st.seq <= Number(li.dataset.last);
      li.classList.toggle("now", on);
      li.classList.toggle("later", Number(li.dataset.seq) > st.seq);
      if (on && (li.offsetTop < ol.scrollTop || li.offsetTop + li.offsetHeight > ol.scrollTop + ol.clientHeight)) {
        ol.scrollTop = Math.max(0, li.offsetTop - ol.clientHeight / 2);
      }
    });
    const cur = parts.filter(([k]) => k <= i).length - 1;
    view().querySelectorAll(".jump-round").forEach((b, n) => b.classList.toggle("now", n === cur));
  };
  const go = (k) => { i = Math.max(0, Math.min(steps.length - 1, k)); render(); };
  const stop = () => { if (timer) { clearInterval(timer); timer = null; $("#play").textContent = "►"; } };
  const play = () => {
    if (timer) { stop(); return; }
    if (i >= steps.length - 1) go(0);
    $("#play").textContent = "❚❚";
    timer = setInterval(() => { if (i >= steps.length - 1) stop(); else go(i + 1); }, 900 / speed);
  };
  // The part of the hand before (-1) or after (+1) the one step i is in.
  const jump = (dir) => {
    const cur = parts.filter(([k]) => k <= i).length - 1;
    if (dir < 0) go(cur > 0 && i === parts[cur][0] ? parts[cur - 1][0] : parts[Math.max(cur, 0)][0]);
    else if (cur + 1 < parts.length) go(parts[cur + 1][0]);
    else go(steps.length - 1);
  };
  // On a narrow screen a tap on the table shows it larger, to be scrolled sideways; another tap
  // fits it again.
  $("#table").onclick = () => { if (window.innerWidth < 700) $("#table").classList.toggle("zoom"); };
  $("#first").onclick = () => { stop(); go(0); };
  $("#last").onclick = () => { stop(); go(steps.length - 1); };
  $("#prev").onclick = () => { stop(); go(i - 1); };
  $("#next").onclick = () => { stop(); go(i + 1); };
  $("#play").onclick = play;
  $("#speed").onchange = (ev) => {
    speed = Number(ev.target.value) || 1;
    localStorage.setItem("handSpeed", String(speed));
    if (timer) { stop(); play(); }
  };
  $("#cards").onclick = () => { localStorage.setItem("handCards", asHappened ? "all" : "shown"); route(); };
  // The table's hands before and after this one (the list is newest first).
  api(`/api/hands?table=${encodeURIComponent(data.table)}&limit=1000`).then((list) => {
    const k = list.hands.findIndex((h) => h.hand === id);
    if (k < 0 || !$("#other-hands")) return;
    const older = list.hands[k + 1], newer = list.hands[k - 1];
    $("#other-hands").innerHTML = (older ? ` · <a id="prev-hand" href="#/hand/${esc(older.hand)}">${esc(t("web.hand.prevhand", { number: older.number }))}</a>` : "") +
      (newer ? ` · <a id="next-hand" href="#/hand/${esc(newer.hand)}">${esc(t("web.hand.nexthand", { number: newer.number }))}</a>` : "");
  }).catch(() => {});
  $("#slider").oninput = (ev) => { stop(); go(Number(ev.target.value)); };
  view().querySelectorAll(".jump-round, .hand-marks .find").forEach((b) => { b.onclick = () => { stop(); go(Number(b.dataset.k)); }; });
  $(".hand-page").addEventListener("click", (ev) => {
    const a = ev.target.closest("a[data-seq]");
    if (!a) return;
    ev.preventDefault(); stop();
    const k = steps.findIndex((s) => s.seq === Number(a.dataset.seq));
    if (k >= 0) { go(k); $("#table").scrollIntoView({ block: "nearest" }); }
  });
  const onKey = (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || (ev.target.closest && ev.target.closest("input, select, textarea"))) return;
    const keys = {
      ArrowRight: () => go(i + 1), ArrowLeft: () => go(i - 1), Home: () => go(0), End: () => go(steps.length - 1),
      PageDown: () => jump(1), PageUp: () => jump(-1),
    };
    if (ev.key === " ") { ev.preventDefault(); play(); return; }
    if (keys[ev.key]) { ev.preventDefault(); stop(); keys[ev.key](); }
  };
  document.addEventListener("keydown", onKey);
  // A hand still being played: when it ends, the page is drawn again with everything shown.
  const unlisten = data.ended ? () => {} : listen((kind, x) => { if (kind === "hand" && x.hand && x.hand.hand === id) route(); });
  cleanup = () => { stop(); unlisten(); document.removeEventListener("keydown", onKey); };
  render();
}
