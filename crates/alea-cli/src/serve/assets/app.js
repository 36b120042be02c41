// alea playground: plain JavaScript, no build step. Every computation is a POST to /api/….
"use strict";

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const pct = (p) => (p === null || p === undefined) ? "" : (100 * p).toFixed(p > 0 && p < 0.001 ? 4 : 2) + "%";
const num = (x, d = 4) => (typeof x === "number") ? (Number.isInteger(x) ? String(x) : x.toFixed(d)) : (x === null || x === undefined ? "–" : String(x));

// A random id per browser tab (sessionStorage is per tab), sent as X-Alea-Client: the server's
// queue takes turns between clients, so one busy tab does not starve the others.
const CLIENT_ID = (() => {
  const fresh = () => (self.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));
  try {
    let id = sessionStorage.getItem("alea-client");
    if (!id) { id = fresh(); sessionStorage.setItem("alea-client", id); }
    return id;
  } catch (e) { return fresh(); }
})();

// One request. Never throws: a cancelled request answers {cancelled: true}, a network failure,
// a 503 (busy) or a 504 (time limit) answer {ok: false, error} like the server's own errors.
// Seeds travel as decimal strings (a 64-bit seed does not fit a JavaScript number).
async function api(path, body, signal) {
  const init = { signal, headers: { "X-Alea-Client": CLIENT_ID } };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res, data;
  try {
    res = await fetch("/api/" + path, init);
    try { data = await res.json(); } catch (e) { data = { ok: false, error: "HTTP " + res.status }; }
  } catch (e) {
    if (e && e.name === "AbortError") return { ok: false, cancelled: true, error: "cancelled" };
    return { ok: false, error: "the server did not answer (" + e + ")" };
  }
  if (!res.ok && !data.error) data.error = "HTTP " + res.status;
  if (res.status === 503) data.busy = true;
  return data;
}

// Each tab has at most one request in flight: the progress line shows its time and a Cancel
// button (aborting the fetch closes the connection, and the server stops the computation);
// starting another request in the tab cancels the previous one. An error, a busy answer or a
// cancel clears the tab's results, so nothing stale stays on screen; while a request runs the
// old results are dimmed.
const TABS = {
  dice: { results: ["dice-chart", "dice-tables", "dice-rolls"], errors: "dice-errors" },
  bj: { results: ["bj-chart", "bj-stats", "bj-deals", "bj-tables-out"], errors: "bj-errors" },
  oh: { results: ["oh-results", "oh-trace"], errors: "oh-errors" },
  ez: { results: ["ez-result", "ez-clock-out"], errors: "ez-errors" },
};
const inflight = {};
function clearResults(tab) {
  for (const id of TABS[tab].results) { $(id).innerHTML = ""; $(id).classList.remove("stale"); }
}
function failed(tab, data) {
  clearResults(tab);
  showErrors($(TABS[tab].errors), null, data);
}
async function run(tab, f) {
  if (inflight[tab]) inflight[tab].abort();
  const ctl = new AbortController();
  inflight[tab] = ctl;
  const box = $(tab + "-progress");
  const msg = box.querySelector(".msg");
  const t0 = performance.now();
  let userCancel = false;
  box.querySelector("button").onclick = () => { userCancel = true; ctl.abort(); };
  msg.textContent = "working…";
  box.hidden = false;
  for (const id of TABS[tab].results) $(id).classList.add("stale");
  const timer = setInterval(() => { msg.textContent = `working… ${((performance.now() - t0) / 1000).toFixed(1)} s`; }, 100);
  try {
    const data = await f(ctl.signal);
    if (userCancel) failed(tab, { ok: false, error: "cancelled: the computation was stopped" });
    return data;
  } finally {
    clearInterval(timer);
    if (inflight[tab] === ctl) {
      inflight[tab] = null;
      box.hidden = true;
      for (const id of TABS[tab].results) $(id).classList.remove("stale");
    }
  }
}

// ---- the editor: line numbers, error spans underlined, errors listed and clickable ----------
class Editor {
  constructor(host, rows) {
    host.className = "editor";
    host.innerHTML = '<div class="gutter"></div><div class="area"><pre class="marks"></pre><textarea spellcheck="false" autocapitalize="off" autocomplete="off"></textarea></div>';
    this.gutter = host.querySelector(".gutter");
    this.marksEl = host.querySelector(".marks");
    this.ta = host.querySelector("textarea");
    this.ta.rows = rows || 6;
    this.marks = [];
    this.ta.addEventListener("input", () => { this.marks = []; this.render(); });
    this.ta.addEventListener("scroll", () => this.sync());
    this.render();
  }
  get value() { return this.ta.value; }
  set value(v) { this.ta.value = v; this.marks = []; this.render(); }
  // errors: [{line, column, end_line, end_column, severity}] (1-based, columns in characters)
  mark(errors) { this.marks = (errors || []).filter((e) => e.line > 0); this.render(); }
  offset(line, col) {
    const lines = this.ta.value.split("\n");
    let off = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) off += [...lines[i]].length + 1;
    return off + col - 1; // in code points; fine for selection of BMP text
  }
  select(e) {
    const a = this.offset(e.line, e.column);
    let b = this.offset(e.end_line || e.line, e.end_column || e.column);
    if (b <= a) b = a + 1;
    this.ta.focus();
    this.ta.setSelectionRange(a, b);
  }
  render() {
    const text = this.ta.value;
    const n = text.split("\n").length;
    const bad = new Map(this.marks.map((m) => [m.line, m.severity === "error" ? "bad" : "warned"]));
    let g = "";
    for (let i = 1; i <= n; i++) g += (bad.has(i) ? `<span class="${bad.get(i)}">${i}</span>` : i) + "\n";
    this.gutter.innerHTML = g;
    // Underline each span in a copy of the text laid exactly under the textarea.
    const chars = [...text];
    const spans = this.marks.map((m) => {
      const a = this.offset(m.line, m.column);
      let b = this.offset(m.end_line || m.line, m.end_column || m.column);
      if (b <= a) b = a + 1;
      return [a, b, m.severity === "error" ? "" : "warning"];
    }).sort((x, y) => x[0] - y[0]);
    let html = "", at = 0;
    for (const [a, b, cls] of spans) {
      if (a < at) continue;
      html += esc(chars.slice(at, a).join(""));
      const inner = chars.slice(a, b).join("") || " ";
      html += `<mark class="${cls}">${esc(inner.replace(/\n/g, " \n"))}</mark>`;
      at = Math.max(b, a);
    }
    html += esc(chars.slice(at).join("")) + "\n";
    this.marksEl.innerHTML = html;
    this.sync();
  }
  sync() { this.gutter.scrollTop = this.ta.scrollTop; this.marksEl.scrollTop = this.ta.scrollTop; this.marksEl.scrollLeft = this.ta.scrollLeft; }
}

// Lists errors under an editor; clicking one selects its span. Returns the number shown.
function showErrors(box, editor, data) {
  box.innerHTML = "";
  if (data.error) {
    box.innerHTML = `<div class="err">${esc(data.error)}</div>`;
    return 1;
  }
  const errs = data.errors || [];
  if (editor) editor.mark(errs);
  for (const e of errs) {
    const div = document.createElement("div");
    div.className = "err" + (e.severity === "error" ? "" : " warning");
    const where = e.line ? `${e.file ? e.file + ":" : ""}${e.line}:${e.column}: ` : "";
    div.innerHTML = `<strong>${esc(where)}${esc(e.severity || "error")}</strong>: ${esc(e.message)}` + (e.rendered ? `<pre>${esc(e.rendered.split("\n").slice(1).join("\n"))}</pre>` : "");
    if (editor && e.line) div.addEventListener("click", () => editor.select(e));
    box.appendChild(div);
  }
  return errs.length;
}

function fillSelect(sel, items, label) {
  sel.innerHTML = items.map((x, i) => `<option value="${i}">${esc(label(x))}</option>`).join("");
}


// ---- dicelab -----------------------------------------------------------------------------
const dice = { pinned: [] };
function setupDice(ex) {
  dice.ed = new Editor($("dice-editor"), 5);
  fillSelect($("dice-examples"), ex.dice, (d) => d.name);
  const load = () => { dice.ed.value = ex.dice[$("dice-examples").value].program; };
  $("dice-examples").addEventListener("change", () => { load(); run("dice", diceCalc); });
  load();
  $("dice-calc").addEventListener("click", () => run("dice", diceCalc));
  $("dice-roll").addEventListener("click", () => run("dice", diceRoll));
  $("dice-pin").addEventListener("click", () => {
    const p = dice.ed.value.trim();
    if (p && !dice.pinned.includes(p) && dice.pinned.length < 7) dice.pinned.push(p);
    renderPinned(); run("dice", diceCalc);
  });
}
function renderPinned() {
  const ul = $("dice-pinned");
  ul.innerHTML = "";
  dice.pinned.forEach((p, i) => {
    const li = document.createElement("li");
    li.innerHTML = `<button title="remove">×</button><span>${esc(p)}</span>`;
    li.querySelector("button").addEventListener("click", () => { dice.pinned.splice(i, 1); renderPinned(); run("dice", diceCalc); });
    ul.appendChild(li);
  });
}
async function diceCalc(signal) {
  const current = dice.ed.value;
  const programs = [...dice.pinned.filter((p) => p !== current.trim()), current];
  const data = await api("dice/calc", { programs }, signal);
  if (data.cancelled) return data;
  if (data.error) { failed("dice", data); return data; }
  $("dice-rolls").innerHTML = "";
  const mine = data.results[data.results.length - 1];
  showErrors($("dice-errors"), dice.ed, mine);
  $("dice-chart").innerHTML = data.svg || "";
  let html = "";
  for (const r of data.results) {
    for (const s of (r.statements || [])) {
      const top = Math.max(...s.outcomes.map((o) => o.probability));
      html += `<div class="summary"><code>${esc(s.text)}</code>: mean ${num(s.mean)}, sd ${num(s.sd)}` +
        (s.truncated_mass > 0 ? `, cut by the while threshold: ${pct(s.truncated_mass)}` : "") + `</div>`;
      html += `<div class="tablewrap"><table class="dist"><thead><tr><th>value</th><th>probability</th><th>exact</th><th>at least</th><th>at most</th><th class="bar"></th></tr></thead><tbody>`;
      for (const o of s.outcomes) {
        html += `<tr><td>${o.value === null ? "()" : o.value}</td><td>${pct(o.probability)}</td><td>${esc(o.exact)}</td><td>${pct(o.at_least)}</td><td>${pct(o.at_most)}</td><td class="bar"><span style="width:${(100 * o.probability / top).toFixed(1)}%"></span></td></tr>`;
      }
      html += `</tbody></table></div>`;
      if (s.listed < s.outcome_count) html += `<p class="note">${s.listed} of ${s.outcome_count} outcomes listed.</p>`;
    }
  }
  $("dice-tables").innerHTML = html;
  return data;
}
async function diceRoll(signal) {
  const seed = $("dice-seed").value.trim();
  const data = await api("dice/roll", { program: dice.ed.value, times: 10, ...(seed ? { seed } : {}) }, signal);
  if (data.cancelled) return data;
  if (data.error) { failed("dice", data); return data; }
  if (showErrors($("dice-errors"), dice.ed, data)) { clearResults("dice"); return data; }
  // The seed is a string end to end: typed into the box it repeats these rolls exactly.
  $("dice-rolls").innerHTML = data.statements.map((s) => `<div><code>${esc(s.text)}</code> → ` +
    s.rolls.map((r) => `<span class="roll">${r.length ? r.join(" ") : "()"}</span>`).join("") + `</div>`).join("") +
    `<p class="note">seed <code id="dice-seed-used">${esc(data.seed)}</code> <button id="dice-seed-keep" title="roll with this seed again">reuse</button></p>`;
  $("dice-seed-keep").addEventListener("click", () => { $("dice-seed").value = data.seed; });
  return data;
}

// ---- Blackjack ---------------------------------------------------------------------------
const bj = {};
const pieceClass = (p) => "IOTSZJL".includes(p) && p.length === 1 ? "p-" + p : "p-other";
function setupBlackjack(ex) {
  bj.a = new Editor($("bj-editor-a"), 2);
  bj.b = new Editor($("bj-editor-b"), 2);
  for (const [k, ed, def] of [["a", bj.a, "preset 7bag"], ["b", bj.b, "preset tgm2"]]) {
    const sel = $("bj-examples-" + k);
    fillSelect(sel, ex.blackjack, (d) => d.name + (d.name.startsWith("preset") ? "" : ": " + d.spec));
    const i = Math.max(0, ex.blackjack.findIndex((d) => d.name === def));
    sel.value = i;
    ed.value = ex.blackjack[i].spec;
    sel.addEventListener("change", () => { ed.value = ex.blackjack[sel.value].spec; run("bj", bjAnalyse); });
  }
  $("bj-deal").addEventListener("click", () => run("bj", bjDeal));
  $("bj-analyse").addEventListener("click", () => run("bj", bjAnalyse));
  $("bj-piece").addEventListener("change", () => run("bj", bjAnalyse));
  $("bj-tables").addEventListener("click", () => run("bj", bjTables));
  $("bj-gap").addEventListener("click", () => run("bj", bjGap));
  $("bj-preview").addEventListener("click", () => run("bj", bjPreview));
}
// The table modes ask about randomizer A; the library computes, the page only lays out.
async function bjAsk(route, body, signal) {
  const data = await api(route, Object.assign({ spec: bj.a.value }, body), signal);
  if (data.cancelled) return data;
  if (data.error) { failed("bj", data); return data; }
  const box = $("bj-errors"); box.innerHTML = "";
  if (!data.ok) { const d = document.createElement("div"); box.appendChild(d); showErrors(d, bj.a, data); $("bj-tables-out").innerHTML = ""; }
  return data;
}
const pieceHead = (names) => names.map((n) => `<th><span class="piece ${pieceClass(n)}">${esc(n)}</span></th>`).join("");
async function bjTables(signal) {
  const data = await bjAsk("blackjack/tables", {}, signal);
  if (!data.ok) return data;
  const names = data.pieces.map((p) => p.piece);
  const orNot = (x) => (x === null || x === undefined) ? "not exact here" : num(x, 6);
  let html = `<div class="summary">Tables of A: <code>${esc(data.canonical)}</code> (exact)</div><div class="chart">${data.svg || ""}</div>`;
  html += `<p class="note">P(some piece waits ${data.game_drought} deals or more within the first ${data.game_length}) ${orNot(data.some_piece)}; bagginess (aligned windows of ${data.window} that are permutations) ${orNot(data.bagginess)}</p>`;
  html += `<div class="tablewrap"><table class="bj-drought"><thead><tr><th>k</th>${pieceHead(names)}</tr></thead><tbody>`;
  const rows = data.pieces.length ? data.pieces[0].drought.length : 0;
  for (let k = 1; k < rows; k++) html += `<tr><td>P(gap ≥ ${k})</td>${data.pieces.map((p) => `<td>${num(p.drought[k], 6)}</td>`).join("")}</tr>`;
  html += `</tbody></table></div>`;
  const set = data.set.join("/");
  html += `<div class="tablewrap"><table class="bj-runs"><thead><tr><th>l</th>${pieceHead(names)}<th>all</th>${data.set_runs ? `<th>${esc(set)}</th>` : ""}</tr></thead><tbody>`;
  data.runs.forEach((all, l) => {
    html += `<tr><td>P(run ≥ ${l + 1})</td>${data.pieces.map((p) => `<td>${num(p.runs[l], 6)}</td>`).join("")}<td>${num(all, 6)}</td>${data.set_runs ? `<td>${num(data.set_runs[l], 6)}</td>` : ""}</tr>`;
  });
  html += `<tr><td>game</td>${data.pieces.map((p) => `<td>${num(p.game, 6)}</td>`).join("")}</tr></tbody></table></div>`;
  $("bj-tables-out").innerHTML = html;
  return data;
}
async function bjGap(signal) {
  const data = await bjAsk("blackjack/gap", { k: Number($("bj-k").value.trim() || "12") }, signal);
  if (!data.ok) return data;
  let html = `<div class="summary">A: <code>${esc(data.canonical)}</code>, P(gap ≥ ${data.k}), exact</div><div class="tablewrap"><table class="bj-gap"><tbody>`;
  for (const r of data.rows) html += `<tr><td><span class="piece ${pieceClass(r.piece)}">${esc(r.piece)}</span></td><td>${num(r.probability, 6)}</td><td><code>${esc(r.exact.length > 40 ? "(" + r.exact.length + " digits)" : r.exact)}</code></td></tr>`;
  $("bj-tables-out").innerHTML = html + `</tbody></table></div>`;
  return data;
}
async function bjPreview(signal) {
  const data = await bjAsk("blackjack/preview", { shown: $("bj-shown").value, ahead: Number($("bj-ahead").value.trim() || "1"), long_run: $("bj-longrun").checked }, signal);
  if (!data.ok) return data;
  const where = data.start === "long-run" ? "far into a game, the next pieces" : "the game's first pieces";
  let html = `<div class="summary">A: <code>${esc(data.canonical)}</code>; ${where}: ${esc(data.shown.join(",") || "none")} (probability ${esc(data.probability_shown_exact)})</div>`;
  html += `<div class="tablewrap"><table class="bj-preview"><thead><tr><th>deal</th>${pieceHead(data.pieces)}</tr></thead><tbody>`;
  for (const r of data.next) html += `<tr><td>${r.deal}</td>${r.law.map((x, i) => `<td title="${esc(r.exact[i])}">${pct(x)}</td>`).join("")}</tr>`;
  $("bj-tables-out").innerHTML = html + `</tbody></table></div>`;
  return data;
}
async function bjDeal(signal) {
  const seed = $("bj-seed").value.trim() || "0";
  let html = "", errs = [];
  for (const [name, ed] of [["A", bj.a], ["B", bj.b]]) {
    const data = await api("blackjack/deal", { spec: ed.value, seed, count: 70 }, signal);
    if (data.cancelled) return false;
    if (data.error) { failed("bj", data); return false; }
    ed.mark(data.errors);
    if (!data.ok) { errs.push(data); continue; }
    html += `<div class="summary">${name}: <code>${esc(data.canonical)}</code></div><div class="pieces">` +
      data.sequence.map((p) => `<span class="piece ${pieceClass(p)}" title="${esc(p)}">${esc(p)}</span>`).join("") + `</div>`;
  }
  $("bj-errors").innerHTML = "";
  for (const e of errs) { const d = document.createElement("div"); $("bj-errors").appendChild(d); showErrors(d, null, e); }
  $("bj-deals").innerHTML = html;
  return errs.length === 0;
}
async function bjAnalyse(signal) {
  const data = await api("blackjack/analyse", { specs: [bj.a.value, bj.b.value], piece: $("bj-piece").value }, signal);
  if (data.cancelled) return data;
  if (data.error) { failed("bj", data); return data; }
  bj.a.mark(data.results[0].errors); bj.b.mark(data.results[1].errors);
  const box = $("bj-errors"); box.innerHTML = "";
  data.results.forEach((r, i) => { if (!r.ok) { const d = document.createElement("div"); box.appendChild(d); showErrors(d, i ? bj.b : bj.a, r); } });
  $("bj-chart").innerHTML = data.svg || "";
  let html = "";
  data.results.forEach((r, i) => {
    if (!r.ok) return;
    html += `<div class="summary">${"AB"[i]}: <code>${esc(r.canonical)}</code> (${r.method === "exact" ? "exact" : "simulated, " + r.deals + " deals: " + esc(r.why)})</div>`;
    html += `<p class="note">P(repeat) ${pct(r.repeat_probability)}${r.repeat_probability_exact ? " = " + esc(r.repeat_probability_exact) : ""}` +
      (r.from_history_probability !== null && r.from_history_probability !== undefined ? `, P(every roll hits the history) ${pct(r.from_history_probability)}` : "") + `</p>`;
    html += `<div class="tablewrap"><table><thead><tr><th>piece</th><th>frequency</th><th>mean gap</th><th>longest gap</th></tr></thead><tbody>`;
    for (const p of r.pieces) {
      html += `<tr><td><span class="piece ${pieceClass(p.piece)}">${esc(p.piece)}</span></td><td>${pct(p.frequency)}${p.frequency_exact ? " (" + esc(p.frequency_exact) + ")" : ""}</td><td>${num(p.gap_mean, 3)}</td><td>${p.max_gap === null ? "unbounded" : p.max_gap}</td></tr>`;
    }
    html += `</tbody></table></div>`;
  });
  $("bj-stats").innerHTML = html;
  return data;
}

// ---- OpenHoldem --------------------------------------------------------------------------
const oh = {};
function setupHoldem(ex) {
  oh.ed = new Editor($("oh-editor"), 14);
  oh.state = new Editor($("oh-state"), 6);
  fillSelect($("oh-examples"), ex.holdem, (d) => d.name);
  const load = () => { const e = ex.holdem[$("oh-examples").value]; oh.ed.value = e.formulas; oh.state.value = e.state; };
  $("oh-examples").addEventListener("change", () => { load(); run("oh", ohRun); });
  load();
  $("oh-run").addEventListener("click", () => run("oh", ohRun));
  $("oh-lint").addEventListener("click", () => run("oh", ohLint));
}
function ohErrors(data) {
  const errs = data.errors || [];
  oh.ed.mark(errs.filter((e) => e.file === "formulas"));
  oh.state.mark(errs.filter((e) => e.file === "state"));
  showErrors($("oh-errors"), null, data);
  // Clicking selects the span in the right editor.
  [...$("oh-errors").children].forEach((div, i) => {
    const e = errs[i];
    if (e && e.line) div.addEventListener("click", () => (e.file === "state" ? oh.state : oh.ed).select(e));
  });
}
function traceTree(lines) {
  // Lines come in evaluation order with a depth: nest each under the nearest shallower line.
  const root = document.createElement("div");
  const stack = [{ depth: -1, el: root }];
  lines.forEach((t, i) => {
    while (stack.length > 1 && stack[stack.length - 1].depth >= t.depth) stack.pop();
    const parent = stack[stack.length - 1].el;
    const hasKids = i + 1 < lines.length && lines[i + 1].depth > t.depth;
    const label = `${esc(t.label)} = <span class="val">${esc(t.shown)}</span>` + (t.bits ? ` (0b${esc(t.bits)})` : "") +
      ` <span class="kind">${esc(t.kind)}${t.cached ? ", cached" : ""}${t.header ? " " + esc(t.header) : ""}</span>`;
    if (hasKids) {
      const d = document.createElement("details");
      d.open = t.depth < 1;
      d.innerHTML = `<summary>${label}</summary>`;
      parent.appendChild(d);
      stack.push({ depth: t.depth, el: d });
    } else {
      const d = document.createElement("div");
      d.className = "leaf";
      d.innerHTML = label;
      parent.appendChild(d);
    }
  });
  return root;
}
async function ohRun(signal) {
  const data = await api("holdem/run", { formulas: oh.ed.value, state: oh.state.value, expr: $("oh-expr").value, trace: true }, signal);
  if (data.cancelled) return data;
  if (data.error) { failed("oh", data); return data; }
  ohErrors(data);
  let html = "";
  if (data.results && data.results.length) {
    html += `<h3>Values</h3><table class="oh-values"><thead><tr><th>function</th><th>value</th></tr></thead><tbody>` +
      data.results.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(r.shown)}</td></tr>`).join("") + `</tbody></table>`;
  }
  if (data.debug && data.debug.length) {
    html += `<h3>f$debug</h3><table><tbody>` + data.debug.map((d) => `<tr><td>${esc(d.expression)}</td><td>${esc(d.shown)}</td></tr>`).join("") + `</tbody></table>`;
  }
  const mem = Object.entries(data.memory || {});
  if (mem.length) html += `<h3>Memory</h3><p>` + mem.map(([k, v]) => `${esc(k)} = ${esc(v)}`).join(", ") + `</p>`;
  $("oh-results").innerHTML = html;
  const tr = $("oh-trace");
  tr.innerHTML = data.trace && data.trace.length ? "<h3>Trace</h3>" : "";
  if (data.trace && data.trace.length) tr.appendChild(traceTree(data.trace));
  return data;
}
async function ohLint(signal) {
  const data = await api("holdem/lint", { formulas: oh.ed.value }, signal);
  if (data.cancelled) return data;
  if (data.error) { failed("oh", data); return data; }
  ohErrors(data);
  $("oh-results").innerHTML = `<h3>Lint</h3><p>${data.error_count} errors, ${data.warning_count} warnings</p>`;
  $("oh-trace").innerHTML = "";
  return data;
}

// ---- EZScript ----------------------------------------------------------------------------
const ez = {};
function setupEz(ex) {
  ez.ed = new Editor($("ez-editor"), 7);
  ez.tour = new Editor($("ez-tournament"), 14);
  ez.tour.value = ex.tournament;
  fillSelect($("ez-examples"), ex.ezscript, (d) => d.name);
  fillSelect($("ez-locale"), ex.locales, (l) => l);
  const load = () => { const e = ex.ezscript[$("ez-examples").value]; ez.ed.value = e.source; $("ez-template").checked = e.template; };
  $("ez-examples").addEventListener("change", () => { load(); run("ez", ezRun); });
  load();
  $("ez-run").addEventListener("click", () => run("ez", ezRun));
  $("ez-clock").addEventListener("click", () => run("ez", ezClock));
}
function ezRequest() {
  return { source: ez.ed.value, template: $("ez-template").checked, tournament: ez.tour.value, locale: ex_locale() };
}
function ex_locale() { const s = $("ez-locale"); return s.options.length ? s.options[s.selectedIndex].text : "en-US"; }
async function ezRun(signal) {
  const data = await api("ezscript/run", ezRequest(), signal);
  if (data.cancelled) return data;
  if (data.error) { failed("ez", data); return data; }
  showErrors($("ez-errors"), ez.ed, data);
  $("ez-result").innerHTML = data.ok ? `<h3>Result</h3><div class="result ez-text">${esc(data.text)}</div>` +
    (typeof data.value === "object" && data.value !== null ? `<h3>Value (JSON)</h3><div class="result">${esc(JSON.stringify(data.value, null, 1))}</div>` : "") : "";
  return data;
}
// The clock preview plays the simulated run back, ten simulated seconds per 100 ms: the
// content field as the clock shows it (frames from the server) and the alerts as they fire.
let ezClockTimer = null;
async function ezClock(signal) {
  const data = await api("ezscript/clock", { ...ezRequest(), seconds: 600 }, signal);
  if (data.cancelled) return data;
  const out = $("ez-clock-out");
  if (ezClockTimer) { clearInterval(ezClockTimer); ezClockTimer = null; }
  if (data.error) { failed("ez", data); return data; }
  if (!data.ok) { out.innerHTML = `<p class="note">${esc(data.error || "the clock preview failed")}</p>`; showErrors($("ez-errors"), null, data); return data; }
  const frames = data.frames || [];
  const firings = data.firings || [];
  const row = (f) => `<div class="tick">${esc(f.time)} (+${f.tick}s)<span class="alert">${esc(f.alert)}</span> ${esc(f.tts || "")}</div>`;
  const bad = (data.alert_errors || []).map((e) => `<div class="err">${esc(e.alert)} (${esc(e.field)}, tick ${e.tick}): ${esc(e.message)}</div>`).join("");
  out.innerHTML = `<p class="note">${data.seconds} s simulated in ${esc(data.time_zone)}, ${esc(data.locale)}: ${firings.length} alerts fired</p>` +
    `<p class="note" id="ez-clock-at"></p>` + (frames.length ? `<div class="result ez-text" id="ez-clock-content"></div>` : "") +
    `<div id="ez-clock-alerts"></div>` + bad;
  let tick = 0;
  const show = () => {
    const frame = frames.filter((f) => f.tick <= tick).pop();
    if (frame) $("ez-clock-content").textContent = frame.text;
    $("ez-clock-at").textContent = `clock +${tick} s`;
    $("ez-clock-alerts").innerHTML = firings.filter((f) => f.tick <= tick).map(row).join("");
    if (tick >= data.seconds) { clearInterval(ezClockTimer); ezClockTimer = null; return; }
    tick = Math.min(data.seconds, tick + 10);
  };
  show();
  ezClockTimer = setInterval(show, 100);
  return data;
}

// ---- the tournament clock view -----------------------------------------------------------
// A full-screen clock for the loaded tournament. The page keeps the clock's elapsed seconds
// (Start and Pause stop and go on; Skip level jumps to the next level's start) and asks the
// server for the next frames: the server keeps no session, it runs the clock from the file
// state with the session code of `alea ez --simulate` and renders every field of the face at
// every tick, in the chosen locale. The display field is the editor's script or template.
const FACE = [
  ["title", "title"],
  ["level", 'if currentLevel.isBreakLevel { "Break" } else { "Level " + blindLevelNumber }'],
  ["countdown", "(secondsLeftInLevel * 1000).toCompactTimeDurationString"],
  ["blinds", 'if currentLevel.isBreakLevel { "–" } else { currentLevel.smallBlind.toString + " / " + currentLevel.bigBlind.toString }'],
  ["ante", 'if currentLevel.ante > 0 { anteText } else { "–" }'],
  ["next", 'if nextLevel.isBreakLevel { "Break" } else { nextLevel.smallBlind.toString + " / " + nextLevel.bigBlind.toString }'],
  ["players", 'currentPlayerCount.toString + " / " + totalPlayerCount.toString'],
  ["prize", "netPrize.toCurrencyString"],
];
const CHUNK = 120;
const cv = { elapsed: 0, running: false, frames: new Map(), announced: 0, fetching: null, ctl: null, gen: 0, timer: null, seen: new Set(), resumes: [] };
function cvFields() {
  const fields = FACE.map(([, source]) => ({ source, template: false }));
  if (ez.ed.value.trim()) fields.push({ source: ez.ed.value, template: $("ez-template").checked });
  return fields;
}
function cvLocale() { const s = $("cv-locale"); return s.options.length ? s.options[s.selectedIndex].text : "en-US"; }
function cvFace(texts) {
  FACE.forEach(([name], i) => { $("cv-" + name).textContent = texts ? (texts[i] || "") : ""; });
  $("cv-display").textContent = texts && texts.length > FACE.length ? texts[FACE.length] : "";
}
// Asks for CHUNK frames from tick `from`; an error clears the face and stops the clock.
function cvFetch(from) {
  if (cv.fetching) return cv.fetching;
  const gen = cv.gen;
  cv.ctl = new AbortController();
  const body = { tournament: ez.tour.value, locale: cvLocale(), elapsed: from, frames: CHUNK, since: Math.max(0, from - 1), resumes: cv.resumes, fields: cvFields() };
  cv.fetching = api("ezscript/clockview", body, cv.ctl.signal).then((data) => {
    if (gen !== cv.gen || data.cancelled) return data;
    if (!data.ok) {
      cv.running = false; cv.frames.clear();
      cvLabel();
      cvFace(null);
      $("cv-status").textContent = data.busy ? "server busy" : "error";
      showErrors($("cv-errors"), null, data);
      return data;
    }
    $("cv-errors").innerHTML = "";
    for (const f of data.frames) cv.frames.set(f.tick, f);
    for (const f of data.firings) {
      const key = f.tick + "\u0000" + f.alert;
      if (!cv.seen.has(key)) { cv.seen.add(key); (cv.pending = cv.pending || []).push(f); }
    }
    cvShow();
    return data;
  }).finally(() => { if (gen === cv.gen) cv.fetching = null; });
  return cv.fetching;
}
function cvSpeak(text) {
  if (!text || !self.speechSynthesis || !self.SpeechSynthesisUtterance) return;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = cvLocale();
  speechSynthesis.speak(u);
}
// Shows the frame of the current second and the alerts fired up to it.
function cvShow() {
  const f = cv.frames.get(cv.elapsed);
  if (!f) { $("cv-status").textContent = "…"; if (!cv.fetching) cvFetch(cv.elapsed); return; }
  cvFace(f.texts);
  cvLabel();
  $("cv-status").textContent = (!f.running ? "paused by the tournament" : cv.running ? "running" : "paused") + ` · +${cv.elapsed} s`;
  const due = (cv.pending || []).filter((x) => x.tick <= cv.elapsed);
  cv.pending = (cv.pending || []).filter((x) => x.tick > cv.elapsed);
  for (const x of due) {
    if (x.tick <= cv.announced) continue; // skipped over
    const li = document.createElement("li");
    li.textContent = `${x.time} (+${x.tick} s) ${x.alert}${x.tts ? ": " + x.tts : ""}`;
    $("cv-log").prepend(li);
    $("cv-alert").textContent = x.tts ? `${x.alert}: ${x.tts}` : x.alert;
    $("cv-alert").classList.add("on");
    clearTimeout(cv.alertTimer);
    cv.alertTimer = setTimeout(() => $("cv-alert").classList.remove("on"), 8000);
    cvSpeak(x.tts);
  }
  cv.announced = Math.max(cv.announced, cv.elapsed);
  // Fetch ahead so the next seconds are there before they are due.
  let last = cv.elapsed;
  while (cv.frames.has(last + 1)) last++;
  if (last - cv.elapsed < 20 && last + 1 <= 43200) cvFetch(last + 1);
}
function cvReset() {
  cv.gen++; if (cv.ctl) cv.ctl.abort();
  cv.fetching = null; cv.frames.clear(); cv.pending = []; cv.seen.clear();
}
async function cvOpen() {
  $("cv-locale").innerHTML = $("ez-locale").innerHTML;
  $("cv-locale").selectedIndex = $("ez-locale").selectedIndex;
  cvReset();
  cv.elapsed = 0; cv.announced = 0; cv.running = false; cv.resumes = [];
  cvLabel();
  $("cv-log").innerHTML = ""; $("cv-alert").textContent = ""; $("cv-errors").innerHTML = "";
  cvFace(null);
  $("ez-view").hidden = false;
  const el = $("ez-view");
  if (el.requestFullscreen && !document.fullscreenElement) el.requestFullscreen().catch(() => {});
  if (!cv.timer) cv.timer = setInterval(() => { if (cv.running) { cv.elapsed = Math.min(43200, cv.elapsed + 1); cvShow(); } }, 1000);
  return cvFetch(0);
}
function cvClose() {
  cv.running = false; cvReset();
  clearInterval(cv.timer); cv.timer = null;
  if (self.speechSynthesis) speechSynthesis.cancel();
  if (document.fullscreenElement && document.exitFullscreen) document.exitFullscreen().catch(() => {});
  $("ez-view").hidden = true;
}
// "Start" while the page's clock is stopped or the tournament paused its own clock.
function cvLabel() {
  const f = cv.frames.get(cv.elapsed);
  $("cv-start").textContent = cv.running && !(f && !f.running) ? "Pause" : "Start";
}
function cvStartPause() {
  const f = cv.frames.get(cv.elapsed);
  if (f && !f.running) {
    // The tournament paused its clock (a pauseAfter level): Start runs it again from this
    // second. The frames and alerts after it change, so they are asked for again.
    cv.running = true;
    if (!cv.resumes.includes(cv.elapsed) && cv.resumes.length < 256) cv.resumes.push(cv.elapsed);
    for (const t of [...cv.frames.keys()]) if (t > cv.elapsed) cv.frames.delete(t);
    cv.pending = (cv.pending || []).filter((x) => x.tick <= cv.elapsed);
    for (const k of [...cv.seen]) if (Number(k.split("\u0000")[0]) > cv.elapsed) cv.seen.delete(k);
    cv.gen++; if (cv.ctl) cv.ctl.abort(); cv.fetching = null;
    const p = cvFetch(cv.elapsed + 1);
    cvShow();
    return p;
  }
  cv.running = !cv.running;
  cvShow();
  return Promise.resolve();
}
// Skip level: the clock jumps to the next level's start (the simulated time moves with it);
// alerts of the skipped seconds are not announced, those of the new level's first second are.
async function cvSkip() {
  let f = cv.frames.get(cv.elapsed);
  if (!f) f = (await cvFetch(cv.elapsed), cv.frames.get(cv.elapsed));
  if (!f) return;
  const to = Math.min(43200, cv.elapsed + Math.max(1, Math.ceil(f.seconds_left_in_level)));
  cv.announced = to - 1;
  cv.elapsed = to;
  if (!cv.frames.has(to)) await cvFetch(to);
  cvShow();
}
function setupClockView() {
  $("ez-view-open").addEventListener("click", cvOpen);
  $("cv-close").addEventListener("click", cvClose);
  $("cv-start").addEventListener("click", cvStartPause);
  $("cv-skip").addEventListener("click", cvSkip);
  $("cv-locale").addEventListener("change", () => { cvReset(); cvFetch(cv.elapsed); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !$("ez-view").hidden) cvClose(); });
}

// ---- tabs, start-up, self-test -----------------------------------------------------------
function showTab(name) {
  for (const b of document.querySelectorAll("#tabs button")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
  for (const s of document.querySelectorAll(".tab")) s.classList.toggle("active", s.id === "tab-" + name);
  if (location.hash !== "#" + name) history.replaceState(null, "", location.pathname + location.search + "#" + name);
}

async function main() {
  for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
  const ex = await api("examples");
  setupDice(ex); setupBlackjack(ex); setupHoldem(ex); setupEz(ex); setupClockView();
  const want = location.hash.replace("#", "");
  if (["dice", "blackjack", "holdem", "ezscript"].includes(want)) showTab(want);
  const params = new URLSearchParams(location.search);
  if (params.has("selftest")) return selftest(params.get("tab"));
  run("dice", diceCalc); run("bj", async (s) => { await bjAnalyse(s); return bjDeal(s); }); run("oh", ohRun); run("ez", ezRun);
}

// ?selftest=1 runs one example per tab and writes what it saw into #selftest, for the
// headless-browser test (which reads the dumped DOM). &tab=NAME leaves that tab showing.
async function selftest(tab) {
  const out = $("selftest");
  const lines = [];
  const check = async (name, f) => {
    try { lines.push(`${name}: ${await f()}`); } catch (e) { lines.push(`${name}: FAIL ${e}`); }
  };
  await check("errors", async () => {
    dice.ed.value = "sum(2#d6"; dice.pinned = []; renderPinned();
    const d = await diceCalc();
    const marked = document.querySelectorAll("#dice-editor .marks mark").length;
    const listed = document.querySelectorAll("#dice-errors .err").length;
    dice.ed.value = "sum(2#d6)"; await diceCalc();
    return !d.ok && marked === 1 && listed >= 1 ? `ok line=${d.results[0].errors[0].line} column=${d.results[0].errors[0].column}` : `FAIL marked=${marked} listed=${listed}`;
  });
  await check("seed", async () => {
    // A 64-bit seed (above 2^53) shown and sent as a string repeats the roll exactly.
    const big = "18446744073709551557";
    dice.ed.value = "10#d1000"; $("dice-seed").value = big;
    const a = await diceRoll();
    const shown = $("dice-seed-used") ? $("dice-seed-used").textContent : "";
    const b = await diceRoll();
    $("dice-seed").value = "";
    const same = JSON.stringify(a.statements) === JSON.stringify(b.statements);
    return a.ok && shown === big && same ? `ok seed=${shown}` : `FAIL shown=${shown} same=${same}`;
  });
  await check("stale", async () => {
    // A request the server refuses (413: over the body limit) clears the previous results.
    dice.ed.value = "sum(2#d6)"; dice.pinned = []; renderPinned();
    await diceCalc();
    const before = document.querySelectorAll("#dice-tables tr").length;
    dice.ed.value = "d6 ".repeat(100000);
    const d = await run("dice", diceCalc);
    const after = document.querySelectorAll("#dice-tables tr").length + $("dice-chart").innerHTML.length;
    const shown = $("dice-errors").textContent;
    dice.ed.value = "sum(2#d6)";
    return before > 0 && after === 0 && d.error && shown.includes("413") ? `ok cleared error=${shown}` : `FAIL before=${before} after=${after} shown=${shown}`;
  });
  await check("cancel", async () => {
    // A long roll shows its progress line; Cancel aborts it, clears the results, and the
    // server stops the computation (its worker is free again: /api/health's running).
    dice.ed.value = "count >3 9999999#d6"; $("dice-seed").value = "";
    const pending = run("dice", diceRoll);
    const shown = !$("dice-progress").hidden;
    $("dice-progress").querySelector("button").click();
    const d = await pending;
    const said = $("dice-errors").textContent;
    let running = -1;
    for (let i = 0; i < 400 && running !== 0; i++) running = (await api("health")).running;
    dice.ed.value = "sum(2#d6)";
    return shown && d.cancelled && /cancelled/.test(said) && $("dice-progress").hidden && running === 0 ? `ok progress shown, cancelled, running=${running}` : `FAIL shown=${shown} said=${said} running=${running}`;
  });
  await check("dice", async () => {
    dice.ed.value = "sum(2#d6)"; dice.pinned = ["d12"]; renderPinned();
    const d = await diceCalc();
    const rows = document.querySelectorAll("#dice-tables table.dist tbody tr").length;
    const bars = document.querySelectorAll("#dice-chart svg rect").length;
    return d.ok && rows === 23 && bars > 20 ? `ok rows=${rows} mean=${d.results[1].statements[0].mean}` : `FAIL ok=${d.ok} rows=${rows} bars=${bars}`;
  });
  await check("blackjack", async () => {
    const ok = await bjDeal();
    const d = await bjAnalyse();
    const pieces = document.querySelectorAll("#bj-deals .piece").length;
    const lines_ = document.querySelectorAll("#bj-chart svg polyline, #bj-chart svg path").length;
    return ok && d.ok && pieces === 140 && lines_ >= 2 ? `ok pieces=${pieces} repeat=${d.results[1].repeat_probability_exact}` : `FAIL pieces=${pieces} lines=${lines_}`;
  });
  await check("bjtables", async () => {
    // Randomizer A is the 7-bag: its drought table ends at 1/49, its bagginess is 1, and a
    // shown I,T leaves five pieces at 1/5 each.
    const t = await bjTables();
    const rows = document.querySelectorAll("#bj-tables-out table.bj-drought tbody tr").length;
    const g = await bjGap();
    const p = await bjPreview();
    const cells = document.querySelectorAll("#bj-tables-out table.bj-preview tbody td").length;
    return t.ok && g.ok && p.ok && rows === 24 && t.bagginess === 1 && g.rows[0].exact === "1/49" && cells === 24
      ? `ok rows=${rows} bagginess=${t.bagginess} gap12=${g.rows[0].exact} preview=${p.next[0].exact[6]}`
      : `FAIL rows=${rows} cells=${cells} ${JSON.stringify(t.errors || g.errors || p.errors)}`;
  });
  await check("holdem", async () => {
    const d = await ohRun();
    const raise = (d.results || []).find((r) => r.name === "f$raise");
    const nodes = document.querySelectorAll("#oh-trace details").length;
    return d.ok && raise && nodes > 0 ? `ok f$raise=${raise.shown} trace=${nodes}` : `FAIL ok=${d.ok} nodes=${nodes}`;
  });
  await check("ezscript", async () => {
    const i = [...$("ez-examples").options].findIndex((o) => o.text.startsWith("tournament: title"));
    $("ez-examples").value = i; $("ez-examples").dispatchEvent(new Event("change"));
    const d = await ezRun();
    const c = await ezClock();
    return d.ok && c.ok ? `ok text=${d.text} alerts=${c.firings.length}` : `FAIL ${JSON.stringify(d.errors || d.error || c.error)}`;
  });
  await check("clock", async () => {
    // The clock view of the example tournament: the face at the start, Skip level, Start.
    const d = await cvOpen();
    const get = (n) => $("cv-" + n).textContent;
    const face = `level=${get("level")} countdown=${get("countdown")} blinds=${get("blinds")} ante=${get("ante")} next=${get("next")} players=${get("players")} prize=${get("prize")}`;
    const display = get("display");
    await cvSkip();
    const after = `skipped=${get("level")} ${get("countdown")} alert=${get("alert")}`;
    const logged = $("cv-log").children.length;
    cvStartPause();
    const started = $("cv-start").textContent === "Pause";
    cvStartPause();
    cvClose();
    return d.ok && display.startsWith("Summer League #7") && logged === 1 && started ? `ok ${face} ${after}` : `FAIL ${face} ${after} display=${display} logged=${logged} started=${started}`;
  });
  await check("clockerror", async () => {
    // A display field that does not compile: the error is listed and the face is cleared.
    const keep = [ez.ed.value, $("ez-template").checked];
    ez.ed.value = "1 +"; $("ez-template").checked = false;
    const d = await cvOpen();
    const face = $("cv-level").textContent + $("cv-countdown").textContent + $("cv-blinds").textContent;
    const shown = $("cv-errors").textContent;
    cvClose();
    [ez.ed.value, $("ez-template").checked] = keep;
    return !d.ok && face === "" && /error/.test(shown) ? `ok cleared field=${d.errors[0].field + 1}` : `FAIL face=${face} shown=${shown}`;
  });
  await check("resume", async () => {
    // A tournament that pauses after each level: Skip level reaches the pause; Start resumes.
    const keep = ez.tour.value;
    ez.tour.value = keep.replace('"pauseAfterLevel": false', '"pauseAfterLevel": true');
    await cvOpen();
    await cvSkip();
    const paused = `${$("cv-countdown").textContent} ${$("cv-status").textContent.split(" · ")[0]} ${$("cv-start").textContent}`;
    await cvStartPause();
    cv.elapsed += 1; cvShow();
    const resumed = `${$("cv-countdown").textContent} ${$("cv-start").textContent}`;
    cvClose();
    ez.tour.value = keep;
    return paused === "20:00 paused by the tournament Start" && resumed === "19:59 Pause" ? `ok ${paused} then ${resumed}` : `FAIL ${paused} then ${resumed}`;
  });
  if (tab === "clock") { showTab("ezscript"); await cvOpen(); await cvSkip(); } else if (tab) showTab(tab);
  out.textContent = lines.join("\n");
  out.dataset.status = lines.every((l) => / ok/.test(l)) ? "pass" : "fail";
  out.hidden = false;
}

main();
