// Runs: the list of runs, and one run's charts, progress and best players,
// kept up to date by server-sent events.
import { get } from "./api.js";

const $ = (sel, root = document) => root.querySelector(sel);
// 24 colours told apart by hue and lightness (a phased type has 23 genes);
// past the list, evenly spread hues, so no two lines of a chart share one.
const PALETTE = ["#c8552b", "#1f77b4", "#2ca02c", "#9467bd", "#d4a017", "#17becf", "#8c564b", "#e377c2",
  "#7f7f7f", "#bcbd22", "#0b3d91", "#ff7f0e", "#006d2c", "#a50f15", "#6a3d9a", "#00a087", "#111111",
  "#c51b7d", "#80b1d3", "#b3de69", "#fb8072", "#ffd92f", "#01665e", "#bc80bd"];
const colour = (i, n) => (n <= PALETTE.length ? PALETTE[i] : `hsl(${Math.round((360 * i) / n)}, 65%, ${i % 2 ? 35 : 50}%)`);
// Genes on a scale of their own: the phase bounds o and e (move numbers
// 1-60) would squash the 0-10 feature weights.
const PHASE_GENES = new Set(["o", "e"]);
// A second cue besides colour: the phase of a weight gene by its line.
const PHASE_DASH = { opening: undefined, midgame: [7, 3], endgame: [2, 3] };

let selected = null;
let source = null;
let charts = {};
let handlers = {};
let storedCount = null;   // stored games at the last listing
let lineageKey = null;    // what the family tree was last drawn for (generation, status, best)
let ancestors = {};       // ancestors clicked in the tree that the top table lacks: their rows, by id
let chosen = null;        // the player whose row is selected
let followLast = true;    // the generation menu follows the newest until the person picks one

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

export async function loadRuns() {
  const r = await get("/api/runs");
  const list = $("#run-list");
  list.innerHTML = "";
  if (!r.ok) { $("#runs-problem").textContent = r.error; return; }
  $("#runs-problem").textContent = r.data.problem || (r.data.runs.length ? "" : "No runs yet.");
  for (const run of r.data.runs) {
    const li = document.createElement("li");
    li.dataset.run = run.id;
    li.classList.toggle("active", run.id === selected);
    li.innerHTML = `<div class="run-name">${esc(run.name)}</div>
      <span class="badge ${esc(run.status)}">${esc(run.status)}</span>
      <span class="muted">generation ${run.generation}${run.type ? " · " + esc(run.type) : ""}</span>`;
    li.addEventListener("click", () => openRun(run.id));
    list.appendChild(li);
  }
  if (selected === null && r.data.runs.length) openRun(r.data.runs[0].id);
}

function openRun(id) {
  selected = id;
  document.querySelectorAll("#run-list li").forEach((li) => li.classList.toggle("active", Number(li.dataset.run) === id));
  if (source) source.close();
  for (const c of Object.values(charts)) c.destroy();
  charts = {};
  $("#run-detail").innerHTML = `
    <div class="run-head"><h2 id="run-name"></h2><span class="badge" id="run-status"></span>
      <span class="muted" id="run-meta"></span></div>
    <div class="progress"><div class="bar"><div id="run-bar" style="width:0"></div></div>
      <div id="run-progress" class="muted"></div></div>
    <div class="charts">
      <div class="chart"><h3 id="hall-title">Best so far: its hall rating (band: 95%)</h3><div id="chart-hall"></div></div>
      <div class="chart"><h3 id="yard-title">Yardstick score of the best per opponent (%; intervals: genethello history)</h3><div id="chart-yard"></div></div>
      <div class="chart"><h3 id="elo-title">Elo per generation (within each generation's population)</h3><div id="chart-elo"></div></div>
      <div class="chart"><h3 id="genes-title">Genes of the best so far (weights 0–10, left: opening solid, midgame dashed, endgame dotted;
        phase bounds o and e, move 1–60, right)</h3>
        <div id="chart-genes"></div></div>
    </div>
    <h3 id="top-title">Top chromosomes</h3>
    <table class="top"><thead><tr><th>#</th><th>hall</th><th>Elo</th><th>W/D/L</th><th>life</th><th>yardstick</th>
      <th>chromosome</th><th></th></tr></thead><tbody id="run-top"></tbody></table>
    <div class="lineage">
      <div class="lineage-box"><h3>Ancestry of the best so far <span class="muted" id="lineage-note"></span></h3>
        <div id="lineage-tree" class="muted">…</div></div>
      <details class="lineage-box" id="operators-box"><summary><h3>Which operators pay</h3>
        <span class="muted" id="operators-summary"></span></summary><div class="muted" id="operators-note"></div>
        <table class="top ops" id="operators"></table></details>
    </div>
    <div class="stored"><b>Stored games</b>
      <select id="stored-gen"></select><select id="stored-game"></select>
      <button id="stored-replay">Replay</button><span class="muted" id="stored-note"></span></div>`;
  storedCount = null;
  lineageKey = null;
  ancestors = {};
  chosen = null;
  followLast = true;
  $("#stored-gen").addEventListener("change", () => { followLast = false; loadStored(); });
  $("#stored-replay").addEventListener("click", () => {
    const gameId = $("#stored-game").value;
    if (gameId) handlers.replay(id, gameId);
  });
  source = new EventSource(`/api/runs/${id}/events`);
  source.onmessage = (e) => update(JSON.parse(e.data));
}

function update(s) {
  const run = s.run;
  $("#run-name").textContent = run.name;
  const badge = $("#run-status");
  badge.textContent = run.status;
  badge.className = `badge ${run.status}`;
  const pop = (run.config && run.config.population) || {};
  const games = (run.config && run.config.games) || {};
  const fitness = (run.config && run.config.fitness) || {};
  // the server's one line of the run's settings (reads.run_line), true for every family and fitness kind
  $("#run-meta").textContent = s.header ? `generation ${run.generation} · ${s.header}`
    : `generation ${run.generation} · ${pop.type || "?"}, P=${pop.size || "?"}` +
      (s.family && s.family !== "genethello" ? `, ${fitness.kind || "?"} fitness` : `, depth ${games.depth || "?"}`);
  $("#hall-title").textContent = `Best so far: its hall rating (${s.anchor}; band: 95%)`;
  const p = s.progress;
  if (p) {
    const pct = p.total ? (100 * p.done) / p.total : 0;
    $("#run-bar").style.width = `${pct.toFixed(1)}%`;
    $("#run-progress").textContent = progressLine(p, run, s.learning);
    $("#run-progress").dataset.done = p.done;
  }
  drawCharts(s);
  drawTop(s.top, s.family);
  const key = `${run.generation}/${p ? p.status : ""}/${s.top.length ? s.top[0].id : ""}`;
  if (key !== lineageKey) { lineageKey = key; loadLineage(run.id); }
  if (s.family && s.family !== "genethello") {
    if (!$(".stored .none")) {
      $(".stored").innerHTML = '<b>Stored games</b> <span class="none muted">A network run stores no game moves: ' +
        "its fitness games are kept as points, its hall and League games as results.</span>";
    }
  } else {
    fillGenerations(s.generations);
    if (s.stored_games !== storedCount) { storedCount = s.stored_games; loadStored(); }
  }
  const item = document.querySelector(`#run-list li[data-run="${run.id}"]`);
  if (item) {
    $(".badge", item).textContent = run.status;
    $(".badge", item).className = `badge ${run.status}`;
    $(".muted", item).textContent = `generation ${run.generation}${pop.type ? " · " + pop.type : ""}`;
  }
}

// The progress line: games, rate and ETA while a generation plays; a
// stopped run's generation has neither (no one plays it); a learning run
// between fitness rounds says what it learns (its learning games are not
// counted one by one, so no games/s of them is claimed).
function progressLine(p, run, learning) {
  const what = learning ? "fitness games" : "games";
  const parts = [`Generation ${p.generation}: ${p.done}/${p.total} ${what}`];
  if (p.status === "stopped") return [...parts, "stopped (genethello resume goes on)"].join(" · ");
  if (run.status !== "running") {
    // the last generation's average; not a learning run's (its fitness games alone: learning is not counted)
    const rate = learning ? "" : gamesPerSecond(p);
    return [...parts, ...(rate ? [rate] : []), p.status, `run ${run.status}`].join(" · ");
  }
  if (p.status === "playing") {
    if (p.rate != null) parts.push(`${p.rate} games/s`);
    parts.push(p.eta != null ? `ETA ${Math.round(p.eta)} s` : "ETA –");
    return parts.join(" · ");
  }
  if (learning) {
    parts.push(`${p.status}; now learning for generation ${p.generation + 1}: ${learning.slices} slices, ` +
      `one a member, of ${learning.games_per_slice} self-play games (${learning.games.toLocaleString()} learning games)`);
    return parts.join(" · ");
  }
  const rate = gamesPerSecond(p);
  if (rate) parts.push(rate);
  parts.push(p.status);
  return parts.join(" · ");
}

// The rate of the generation in play, or for a finished one its average
// over its start to finish; nothing when neither is known.
function gamesPerSecond(p) {
  if (p.rate != null) return `${p.rate} games/s`;
  if (p.started && p.finished && p.done) {
    const seconds = (Date.parse(p.finished) - Date.parse(p.started)) / 1000;
    if (seconds > 0) return `${(p.done / seconds).toFixed(1)} games/s on average`;
  }
  return "";
}

// The value a legend shows: at the hovered generation, else (no cursor)
// the series' last value, so the legend never reads "--" before a hover.
function shownIndex(values, idx) {
  if (idx != null) return values[idx] != null ? idx : null;
  for (let i = values.length - 1; i >= 0; i--) if (values[i] != null) return i;
  return null;
}
// format(value, chart, index) gives the text; the chart's data is read at
// each call, never kept from when the chart was made.
const legendValue = (format = (v) => String(v)) => (u, raw, si, idx) => {
  const at = shownIndex(u.data[si], idx);
  return at == null ? "--" : format(u.data[si][at], u, at);
};

// series: [{label, scale?, dash?, format?, band?: "low"|"high"}]; options: {axes, scales, bands}
function chart(key, el, series, data, options = {}) {
  const width = Math.max(320, el.clientWidth || 420);
  const shape = JSON.stringify(series.map((sr) => [sr.label, sr.scale]));
  if (charts[key] && charts[key].shape !== shape) { charts[key].destroy(); delete charts[key]; }
  if (!charts[key]) {
    el.textContent = "";
    const plotted = series.filter((sr) => !sr.band).length;
    let k = 0;
    charts[key] = new uPlot({
      width, height: 220,
      scales: { x: { time: false }, ...(options.scales || {}) },
      axes: [{ label: "generation", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] },
        ...(options.axes || [{}])],
      bands: options.bands || [],
      series: [{ label: "generation", value: generationValue }, ...series.map((sr) => ({
        label: sr.label, scale: sr.scale || "y", spanGaps: true,
        stroke: sr.band ? "rgba(200, 85, 43, 0.35)" : colour(k++, plotted), width: sr.band ? 1 : 2,
        dash: sr.dash, value: legendValue(sr.format), points: { show: !sr.band && data[0].length < 40 },
      }))],
    }, data, el);
    charts[key].shape = shape;
  } else {
    charts[key].setData(data);
  }
  const u = charts[key];
  if (u.cursor.idx == null) u.setLegend({ idx: null });
}

// The x legend without a cursor: the newest generation any series has a
// value for (a generation in play has none yet).
function generationValue(u, raw, si, idx) {
  if (idx != null) return String(u.data[0][idx]);
  const last = Math.max(...u.data.slice(1).map((values) => shownIndex(values, null) ?? -1));
  return last >= 0 ? String(u.data[0][last]) : "--";
}

const signed = (v) => `${v >= 0 ? "+" : ""}${Math.round(v)}`;
// A hall axis tick: its sign kept ("−1,000", "0", "+500").
const eloTick = (v) => (v == null ? "" : `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v).toLocaleString("en")}`);

function drawCharts(s) {
  const c = s.chart;
  if (!c.generation.length) return;
  const hasHall = c.hall.some((v) => v != null);
  // Elo is relative to each generation's population, so the best so far is
  // followed by its hall rating (the hall chart) where the run has a hall.
  const elo = [{ label: "generation's best" }, { label: "mean" }];
  const eloData = [c.generation, c.best_elo, c.mean_elo];
  if (!hasHall) { elo.push({ label: "best so far (its Elo now)" }); eloData.push(c.best_so_far_elo); }
  chart("elo", $("#chart-elo"), elo, eloData);
  const opponents = Object.keys(s.yardstick_opponents || {});
  // a run that measures no yardstick (or none yet) gets no empty chart
  const unmeasured = !opponents.length && !c.yardstick.some((v) => v != null);
  $("#chart-yard").closest(".chart").hidden = unmeasured;
  if (unmeasured) {
    // nothing to draw
  } else if (opponents.length) {
    chart("yard", $("#chart-yard"), opponents.map((o) => ({ label: o })),
      [c.generation, ...opponents.map((o) => s.yardstick_opponents[o])]);
  } else {
    chart("yard", $("#chart-yard"), [{ label: "yardstick %" }], [c.generation, c.yardstick]);
  }
  if (hasHall) {
    // one legend entry (the rating with its interval); the band between
    // the interval's edges, which are series 2 and 3 kept off the legend
    const interval = (v, u, at) => `${signed(v)} [95%: ${signed(u.data[2][at])}, ${signed(u.data[3][at])}]`;
    // the axis wide enough for "−1,000" (uPlot's default width cut the minus sign off)
    chart("hall", $("#chart-hall"), [{ label: "best so far", format: interval }, { label: "95% low", band: "low" },
      { label: "95% high", band: "high" }], [c.generation, c.hall, c.hall_low, c.hall_high],
    { bands: [{ series: [3, 2], fill: "rgba(200, 85, 43, 0.16)" }],
      axes: [{ size: 70, values: (u, splits) => splits.map(eloTick) }] });
  } else if (!$("#chart-hall .none")) {
    $("#chart-hall").innerHTML = '<div class="none muted">This run has no hall of fame: its best so far is ' +
      "on the Elo chart.</div>";
  }
  if (s.champion) { drawChampion(s.champion, c.generation); return; }
  const names = s.genes.names;
  if (names.length) {
    const columns = names.map((_, g) => s.genes.values.map((v) => (v ? v[g] : null)));
    const phased = names.some((n) => PHASE_GENES.has(n));
    chart("genes", $("#chart-genes"), names.map((n) => PHASE_GENES.has(n)
      ? { label: n, scale: "moves", dash: [12, 4, 2, 4] }
      : { label: n, scale: "weight", dash: PHASE_DASH[n.split(" ")[0]] }), [c.generation, ...columns], {
      scales: { weight: { range: [0, 10] }, moves: { range: [0, 60] } },
      axes: [{ scale: "weight", label: "weight" },
        ...(phased ? [{ scale: "moves", side: 1, label: "o, e (move)", grid: { show: false } }] : [])],
    });
  }
}

// What a family other than GeneThello draws of its best so far (networks:
// the weights' summary, not one line a weight), as the server describes it.
function drawChampion(ch, generations) {
  $("#genes-title").textContent = `${ch.title[0].toUpperCase()}${ch.title.slice(1)} (left: ${ch.left}` +
    `${ch.right ? `; right, dashed: ${ch.right}` : ""})`;
  $("#elo-title").textContent = "Performance rating per generation (from the members' fitness points)";
  $("#top-title").textContent = "Top networks";
  $("table.top thead th:nth-child(3)").textContent = "rating";   // a performance rating, not a round robin's Elo
  if (ch.yardstick) $("#yard-title").textContent = `${ch.yardstick} of the best so far (%; intervals: genethello history)`;
  const right = ch.series.some((sr) => sr.axis === "right");
  chart("genes", $("#chart-genes"), ch.series.map((sr) => (sr.axis === "right"
    ? { label: sr.label, scale: "right", dash: [8, 4] } : { label: sr.label, scale: "left" })),
  [generations, ...ch.series.map((sr) => sr.values)], {
    scales: { left: { auto: true }, right: { auto: true } },
    axes: [{ scale: "left", label: ch.left },
      ...(right ? [{ scale: "right", side: 1, label: ch.right, grid: { show: false } }] : [])],
  });
}

function drawTop(top, family) {
  const network = family && family !== "genethello";
  const body = $("#run-top");
  body.innerHTML = "";
  top.forEach((p, i) => {
    const tr = document.createElement("tr");
    tr.dataset.player = p.id;
    const err = p.bt_stderr != null ? ` ±${p.bt_stderr.toFixed(0)}` : "";
    const ys = p.yardstick != null ? `${Math.round(100 * p.yardstick)}%` : "–";
    const hall = p.hall_rating != null ? `${p.hall_rating >= 0 ? "+" : ""}${p.hall_rating.toFixed(0)} ±${p.hall_stderr.toFixed(0)}` : "–";
    // a network run keeps no W/D/L (its fitness games return points); a
    // CMA-ES champion (the distribution mean) played no rated games at all
    const elo = p.elo != null ? `${p.elo.toFixed(1)}${err}` : "– (mean)";
    const wdl = network || p.member === false ? "–" : `${p.wins}/${p.draws}/${p.losses}`;
    const life = p.member === false ? `${p.birth} (mean)` : `${p.birth}–${p.death != null ? p.death : ""}`;
    tr.innerHTML = `<td>${i + 1}</td><td>${hall}</td><td>${elo}</td><td>${wdl}</td>
      <td>${life}</td><td>${ys}</td>
      <td class="chrom">${esc(p.chromosome)}</td>
      <td><button data-act="copy">Copy</button> <button class="primary" data-act="play">Play</button></td>`;
    tr.querySelector('[data-act="copy"]').addEventListener("click", async (e) => {
      try { await navigator.clipboard.writeText(p.chromosome); e.target.textContent = "Copied"; }
      catch { window.getSelection().selectAllChildren(tr.querySelector(".chrom")); e.target.textContent = "Selected"; }
    });
    tr.querySelector('[data-act="play"]').addEventListener("click", () => handlers.play(p.chromosome));
    body.appendChild(tr);
  });
  // the ancestors a person opened from the tree stay, after the top players
  for (const [id, tr] of Object.entries(ancestors)) if (!body.querySelector(`tr[data-player="${id}"]`)) body.appendChild(tr);
  if (chosen != null) markChosen(chosen, false);
}

// The best so far's family tree and the operators' table, fetched when
// a generation starts or ends or the best changes (not on every event).
async function loadLineage(runId) {
  const r = await get(`/api/runs/${runId}/lineage`);
  if (runId !== selected || !$("#lineage-tree")) return;
  if (!r.ok) { $("#lineage-tree").textContent = r.error; return; }
  drawLineage(r.data);
  drawOperators(r.data.operators);
}

function nodeFigures(n) {
  const parts = [`born ${n.birth}`, n.how];
  if (n.hall_rating != null) parts.push(`hall ${n.hall_rating >= 0 ? "+" : ""}${n.hall_rating.toFixed(0)} ±${(n.hall_stderr || 0).toFixed(0)}`);
  if (n.games && n.points != null) parts.push(`round robin ${n.points}/${n.games} in generation ${n.generation}`);
  else if (n.rating != null) parts.push(`rating ${n.rating.toFixed(0)} in generation ${n.generation}`);
  return parts.join(" · ");
}

function drawLineage(data) {
  const box = $("#lineage-tree");
  if (!data.best) { box.textContent = "No player yet."; return; }
  $("#lineage-note").textContent = `(${data.depth} generations of ancestors; click one for its row; all: genethello lineage ${data.best.id})`;
  const nodes = {};
  const drawn = new Set();   // ancestors already drawn with their own ancestors: named again, not redrawn
  const item = (n) => {
    nodes[n.id] = n;
    const button = `<button class="node" data-player="${n.id}" title="${esc(n.chromosome)}">#${n.id}</button>`;
    if (drawn.has(n.id)) {
      return `<li>${button} <span class="muted">drawn above, with its ancestors</span></li>`;
    }
    if (n.parents.length || n.more) drawn.add(n.id);
    const more = n.more ? '<ul><li class="more muted">… older ancestors</li></ul>' : "";
    return `<li>${button}
      <span class="chrom">${esc(n.chromosome)}</span> <span class="muted">${esc(nodeFigures(n))}</span>
      ${n.parents.length ? `<ul>${n.parents.map(item).join("")}</ul>` : more}</li>`;
  };
  box.className = "tree";
  box.innerHTML = `<ul>${item(data.best)}</ul>`;
  box.querySelectorAll("button.node").forEach((b) => b.addEventListener("click", () => choose(nodes[b.dataset.player])));
  if (chosen != null) markChosen(chosen, false);
}

// Select a player's row in the top table; an ancestor the table lacks gets
// a row of its own (marked "anc.") after the top players.
function choose(n) {
  const body = $("#run-top");
  if (!body.querySelector(`tr[data-player="${n.id}"]`)) {
    const tr = document.createElement("tr");
    tr.dataset.player = n.id;
    tr.className = "ancestor";
    const hall = n.hall_rating != null ? `${n.hall_rating >= 0 ? "+" : ""}${n.hall_rating.toFixed(0)} ±${(n.hall_stderr || 0).toFixed(0)}` : "–";
    // its Elo and W/D/L now are not part of the tree (its first round robin is, on the tree's line)
    tr.innerHTML = `<td title="an ancestor of the best so far">anc.</td><td>${hall}</td><td>–</td><td>–</td>
      <td>${n.birth}–</td><td>–</td><td class="chrom">${esc(n.chromosome)}</td>
      <td><button class="primary" data-act="play">Play</button></td>`;
    tr.querySelector('[data-act="play"]').addEventListener("click", () => handlers.play(n.chromosome));
    ancestors[n.id] = tr;
    body.appendChild(tr);
  }
  markChosen(n.id, true);
}

function markChosen(id, scroll) {
  chosen = Number(id);
  document.querySelectorAll("#run-top tr.selected, #lineage-tree button.node.on").forEach((el) => el.classList.remove("selected", "on"));
  const tr = document.querySelector(`#run-top tr[data-player="${id}"]`);
  if (tr) { tr.classList.add("selected"); if (scroll) tr.scrollIntoView({ block: "nearest" }); }
  document.querySelectorAll(`#lineage-tree button.node[data-player="${id}"]`).forEach((b) => b.classList.add("on"));
}

function drawOperators(ops) {
  const table = $("#operators");
  const pct = Math.round(100 * ops.top_fraction);
  $("#operators-note").textContent = `Members each origin gave a generation / how many of them reached its top ${pct}% ` +
    `(the best ⌈${ops.top_fraction} P⌉ of its round robin by points); a generation in play has no top yet.`;
  const kinds = ops.kinds;
  const n = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;
  $("#operators-summary").textContent = `(${n(ops.generations.length, "generation")}, ${n(kinds.length, "origin")}; ` +
    "click to open)";
  const cell = (c) => (c ? `${c[0]} / ${c[1]}` : "–");
  const rows = ops.generations.map((g) => `<tr><td>${g.generation}</td>${kinds.map((k) => `<td>${cell(g.counts[k])}</td>`).join("")}</tr>`);
  const share = (c) => (c && c[0] ? ` (${Math.round((100 * c[1]) / c[0])}%)` : "");
  table.innerHTML = `<thead><tr><th>gen</th>${kinds.map((k) => `<th>${esc(k)}</th>`).join("")}</tr></thead>
    <tbody>${rows.join("")}</tbody>
    <tfoot><tr><th>all</th>${kinds.map((k) => `<th>${cell(ops.totals[k])}${share(ops.totals[k])}</th>`).join("")}</tr></tfoot>`;
}

function fillGenerations(gens) {
  const select = $("#stored-gen");
  const keep = select.value;
  select.innerHTML = "";
  for (const g of gens) select.appendChild(new Option(`generation ${g.generation} (${g.games})`, g.generation));
  if (gens.length) select.value = followLast || !keep ? gens[gens.length - 1].generation : keep;
}

async function loadStored() {
  const gen = $("#stored-gen").value;
  if (!gen) return;
  const r = await get(`/api/runs/${selected}/games?generation=${gen}`);
  const select = $("#stored-game");
  const keep = select.value;
  select.innerHTML = "";
  if (!r.ok) { $("#stored-note").textContent = r.error; return; }
  const kept = r.data.games.filter((g) => g.moves_kept);
  for (const g of kept) {
    select.appendChild(new Option(`#${g.pair + 1} ${g.score > 0 ? "B+" + g.score : g.score < 0 ? "W+" + -g.score : "draw"}: ${g.black} – ${g.white}`, g.id));
  }
  if (keep && [...select.options].some((o) => o.value === keep)) select.value = keep;
  $("#stored-note").textContent = r.data.games.length && !kept.length ? "this run did not keep these games' moves" : "";
}

export function initRuns(onPlay, onReplay) {
  handlers = { play: onPlay, replay: onReplay };
}
