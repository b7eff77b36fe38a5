// fechado dashboard: one hand's page: the replayer, its findings and its report. Helpers (api, esc, cardHTML, t…) are in app.js; main.js routes.
"use strict";

function describe(e) {
  const d = e.data || {};
  const parts = [`seq ${e.seq}`, e.type];
  if (d.seat) parts.push(`seat ${d.seat}`);
  if (e.type === "player.acted") parts.push(`${d.action}${d.amount ? " " + d.amount : ""} (${d.round})`);
  else if (e.type === "cards.discarded") parts.push(d.cards.length ? `discards ${d.cards.join(" ")}` : d.declared ? `discards ${d.declared}` : "stands pat");
  else if (e.type === "card.dealt" || e.type === "card.burned" || e.type === "card.exposed") parts.push(d.card ? d.card : "face down");
  else if (e.type === "hand.shown" || e.type === "openers.shown") parts.push(d.cards.join(" "));
  else if (e.type === "pot.awarded") parts.push(`wins ${d.amount} from pot ${d.pot}`);
  else if (e.type === "ante.posted" || e.type === "blind.posted" || e.type === "bet.returned") parts.push(String(d.amount));
  else if (e.type === "misdeal.declared") parts.push(d.reason);
  return parts.join(" · ");
}

function findingHTML(f) {
  const show = (v) => (typeof v === "string" ? v : JSON.stringify(v));
  return `<div class="f ${esc(f.severity)}" data-code="${esc(f.code)}"><span class="code">${esc(f.code)}</span> ${badge(f.severity)}
    ${f.seat ? `<span class="muted">seat ${f.seat}</span>` : ""} <span class="muted">at seq ${f.seq}</span>
    <div>${esc(f.message)}</div>
    ${f.expected !== undefined ? `<div><b>expected:</b> ${esc(show(f.expected))}</div>` : ""}
    ${f.actual !== undefined ? `<div><b>actual:</b> ${esc(show(f.actual))}</div>` : ""}</div>`;
}

function seatHTML(s, st) {
  const turn = st.turn === s.seat || st.drawer === s.seat;
  const cards = s.cards.map((c) => cardHTML(c, (s.seen || []).includes(c) ? "seen" : "")).join("") +
    Array.from({ length: s.hidden }, () => cardHTML(null)).join("");
  const drew = st.draws && st.draws[s.seat] !== undefined ? `drew ${st.draws[s.seat]}` : "";
  return `<div class="seat ${esc(s.status)} ${turn ? "turn" : ""}" data-seat="${s.seat}">
    <div class="who"><span>${esc(s.player)}</span><span>seat ${s.seat}</span></div>
    <div class="tags">${st.dealer === s.seat ? '<span class="dealer">dealer</span>' : ""}${st.opener === s.seat ? '<span class="opener">opener</span>' : ""}
      ${s.status !== "active" ? `<span>${esc(s.status)}</span>` : ""}${drew ? `<span>${drew}</span>` : ""}${turn ? "<span>to act</span>" : ""}</div>
    <div class="cards">${cards}</div>
    <div class="chips">stack <b>${s.stack}</b> · in front <b>${s.in_front}</b> · in pot ${s.in}${s.won ? ` · won <b>${s.won}</b>` : ""}</div>
    ${s.hand ? `<div class="muted">${esc(s.hand)}</div>` : ""}</div>`;
}

async function pageHand(id, at) {
  const data = await api(`/api/hands/${encodeURIComponent(id)}/replay`);
  const steps = data.steps;
  let i = steps.length - 1;
  if (at) { const k = steps.findIndex((s) => s.seq === Number(at)); if (k >= 0) i = k; }
  let timer = null;
  const marks = [];
  let lastRound = "";
  steps.forEach((s, k) => {
    const label = s.stage === "draw" ? "draw" : s.round && s.stage === "betting" ? s.round : s.stage === "showdown" ? "showdown" : "";
    if (label && label !== lastRound) { marks.push([k, label]); lastRound = label; }
  });
  const pct = (k) => (steps.length > 1 ? (100 * k) / (steps.length - 1) : 0);
  const first = steps[0];
  view().innerHTML = `<h1>Hand ${esc(first.table)} #${first.number} <span class="muted code">${esc(id)}</span></h1>
    <div class="muted">${esc(first.rules)} · ante ${first.stakes.ante} · bet ${first.stakes.min_bet}${first.stakes.max_bet ? "–" + first.stakes.max_bet : " no limit"}
      · ${data.ended ? "ended" : "in progress: only public information is shown"}
      · <a href="#/hands?table=${encodeURIComponent(first.table)}">table's hands</a>
      ${data.ended ? ` · <a class="report button" data-hand="${esc(id)}" href="${esc(reportHref(id))}" target="_blank" rel="noopener">Report</a>` : ""}</div>
    <div class="controls">
      <button id="first" title="jump to the start">|◀</button><button id="prev" title="step back (←)">◀</button>
      <button id="play" title="play / pause">play</button><button id="next" title="step forward (→)">▶</button>
      <button id="last" title="jump to the end">▶|</button>
      <label>speed <select id="speed"><option value="1600">0.5×</option><option value="800" selected>1×</option><option value="400">2×</option><option value="200">4×</option></select></label>
      <div class="sliderwrap"><input type="range" id="slider" min="0" max="${steps.length - 1}" value="${i}">
        <div class="marks">${marks.map(([k, l]) => `<i style="left:${pct(k)}%"></i><b style="left:${pct(k)}%">${esc(l)}</b>`).join("")}
        ${steps.map((s, k) => (s.findings.length ? `<i class="find" style="left:${pct(k)}%" title="${esc(s.findings.map((f) => f.code).join(", "))}"></i>` : "")).join("")}</div></div>
      <span id="step-seq" class="code"></span>
    </div>
    <div class="eventline" id="event"></div>
    <div class="cols"><div class="felt"><div class="seats" id="seats"></div><div class="potline" id="pots"></div></div>
      <div><div class="panel findings"><h2>At this event</h2><div id="step-findings"></div></div>
        <div class="panel findings"><h2>All findings (${data.findings.length})</h2>
        ${data.findings.map((f) => `<div><a href="#/hand/${esc(id)}/${f.seq}" data-seq="${f.seq}" class="jump code">seq ${f.seq} ${esc(f.code)}</a></div>`).join("") || '<p class="muted">The auditor found nothing.</p>'}</div></div></div>`;
  const render = () => {
    const st = steps[i];
    $("#slider").value = i;
    $("#step-seq").textContent = `step ${i + 1}/${steps.length} · seq ${st.seq}`;
    $("#event").textContent = describe(st.event);
    $("#seats").innerHTML = st.seats.map((s) => seatHTML(s, st)).join("") + (st.away || []).map((a) => `<div class="seat away" data-seat="${a.seat}">
      <div class="who"><span>${esc(a.player)}</span><span>seat ${a.seat}</span></div>
      <div class="tags">${st.dealer === a.seat ? '<span class="dealer">dealer</span>' : ""}<span>away, not dealt in</span></div>
      <div class="chips">stack <b>${a.stack}</b></div></div>`).join("");
    const pots = st.pots.map((p) => `<span>${p.index === 0 ? "main pot" : "side pot " + p.index}: <b>${p.amount}</b>${p.eligible.length ? ` <span class="muted">(seats ${p.eligible.join(", ")})</span>` : ""}</span>`).join("");
    $("#pots").innerHTML = `<span>pot <b>${st.pot}</b></span>${st.carry ? `<span>carry ${st.carry}</span>` : ""}${pots}${st.round ? `<span>round ${esc(st.round)}</span>` : ""}<span>${esc(st.stage)}</span>`;
    $("#step-findings").innerHTML = st.findings.length ? st.findings.map(findingHTML).join("") : '<p class="muted">No finding at this event.</p>';
  };
  const go = (k) => { i = Math.max(0, Math.min(steps.length - 1, k)); render(); };
  const stop = () => { if (timer) { clearInterval(timer); timer = null; $("#play").textContent = "play"; } };
  $("#first").onclick = () => { stop(); go(0); };
  $("#last").onclick = () => { stop(); go(steps.length - 1); };
  $("#prev").onclick = () => { stop(); go(i - 1); };
  $("#next").onclick = () => { stop(); go(i + 1); };
  $("#slider").oninput = (ev) => { stop(); go(Number(ev.target.value)); };
  const play = () => {
    if (timer) { stop(); return; }
    if (i >= steps.length - 1) go(0);
    $("#play").textContent = "pause";
    timer = setInterval(() => { if (i >= steps.length - 1) stop(); else go(i + 1); }, Number($("#speed").value));
  };
  $("#play").onclick = play;
  $("#speed").onchange = () => { if (timer) { stop(); play(); } };
  view().querySelectorAll("a.jump").forEach((a) => a.addEventListener("click", (ev) => {
    ev.preventDefault(); stop(); const k = steps.findIndex((s) => s.seq === Number(a.dataset.seq)); if (k >= 0) go(k);
  }));
  const onKey = (ev) => { if (ev.key === "ArrowRight") { stop(); go(i + 1); } else if (ev.key === "ArrowLeft") { stop(); go(i - 1); } };
  document.addEventListener("keydown", onKey);
  cleanup = () => { stop(); document.removeEventListener("keydown", onKey); };
  render();
}

// ---------- charts ----------
// lineChart draws series [{name, points:[[x,y]...]}] as an SVG string.
