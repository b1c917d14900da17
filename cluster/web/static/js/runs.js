// Runs: the list of runs, and one run's charts, progress and best players,
// kept up to date by server-sent events.
import { get } from "./api.js";

const $ = (sel, root = document) => root.querySelector(sel);
const PALETTE = ["#c8552b", "#2f8f4e", "#3b6ea5", "#8e44ad", "#d4a017", "#16a085", "#7f8c8d",
  "#e67e22", "#2c3e50", "#c0392b", "#27ae60", "#9b59b6", "#f39c12", "#1abc9c", "#34495e"];

let selected = null;
let source = null;
let charts = {};
let handlers = {};
let storedCount = null;   // stored games at the last listing
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
      <div class="chart"><h3>Hall rating of the best so far (Elo vs generation 1's champion, 95%)</h3><div id="chart-hall"></div></div>
      <div class="chart"><h3>Yardstick score of the best per opponent (%; intervals: genethello history)</h3><div id="chart-yard"></div></div>
      <div class="chart"><h3>Elo per generation</h3><div id="chart-elo"></div></div>
      <div class="chart"><h3>Genes of the best player</h3><div id="chart-genes"></div></div>
    </div>
    <h3>Top chromosomes</h3>
    <table class="top"><thead><tr><th>#</th><th>hall</th><th>Elo</th><th>W/D/L</th><th>life</th><th>yardstick</th>
      <th>chromosome</th><th></th></tr></thead><tbody id="run-top"></tbody></table>
    <div class="stored"><b>Stored games</b>
      <select id="stored-gen"></select><select id="stored-game"></select>
      <button id="stored-replay">Replay</button><span class="muted" id="stored-note"></span></div>`;
  storedCount = null;
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
  $("#run-meta").textContent = `generation ${run.generation} · ${pop.type || "?"}, P=${pop.size || "?"}, depth ${games.depth || "?"}`;
  const p = s.progress;
  if (p) {
    const pct = p.total ? (100 * p.done) / p.total : 0;
    $("#run-bar").style.width = `${pct.toFixed(1)}%`;
    const rate = p.rate != null ? `${p.rate} games/s` : "– games/s";
    const eta = p.eta != null ? `ETA ${Math.round(p.eta)} s` : (p.status === "playing" ? "ETA –" : p.status);
    $("#run-progress").textContent = `Generation ${p.generation}: ${p.done}/${p.total} games · ${rate} · ${eta}`;
    $("#run-progress").dataset.done = p.done;
  }
  drawCharts(s);
  drawTop(s.top);
  fillGenerations(s.generations);
  if (s.stored_games !== storedCount) { storedCount = s.stored_games; loadStored(); }
  const item = document.querySelector(`#run-list li[data-run="${run.id}"]`);
  if (item) {
    $(".badge", item).textContent = run.status;
    $(".badge", item).className = `badge ${run.status}`;
    $(".muted", item).textContent = `generation ${run.generation}${pop.type ? " · " + pop.type : ""}`;
  }
}

function chart(key, el, series, data) {
  const width = Math.max(320, el.clientWidth || 420);
  if (charts[key] && charts[key].series.length !== series.length + 1) { charts[key].destroy(); delete charts[key]; }
  if (!charts[key]) {
    charts[key] = new uPlot({
      width, height: 220,
      scales: { x: { time: false } },
      axes: [{ label: "generation", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] }, {}],
      series: [{ label: "generation" }, ...series.map((name, i) => ({
        label: name, stroke: PALETTE[i % PALETTE.length], width: 2, spanGaps: true,
        points: { show: data[0].length < 40 },
      }))],
    }, data, el);
  } else {
    charts[key].setData(data);
  }
}

function drawCharts(s) {
  const c = s.chart;
  if (!c.generation.length) return;
  chart("elo", $("#chart-elo"), ["generation's best", "mean", "best so far"],
    [c.generation, c.best_elo, c.mean_elo, c.best_so_far_elo]);
  const opponents = Object.keys(s.yardstick_opponents || {});
  if (opponents.length) {
    chart("yard", $("#chart-yard"), opponents, [c.generation, ...opponents.map((o) => s.yardstick_opponents[o])]);
  } else {
    chart("yard", $("#chart-yard"), ["yardstick %"], [c.generation, c.yardstick]);
  }
  if (c.hall.some((v) => v != null)) {
    chart("hall", $("#chart-hall"), ["best so far", "low", "high"], [c.generation, c.hall, c.hall_low, c.hall_high]);
  }
  const names = s.genes.names;
  if (names.length) {
    const columns = names.map((_, g) => s.genes.values.map((v) => (v ? v[g] : null)));
    chart("genes", $("#chart-genes"), names, [c.generation, ...columns]);
  }
}

function drawTop(top) {
  const body = $("#run-top");
  body.innerHTML = "";
  top.forEach((p, i) => {
    const tr = document.createElement("tr");
    const err = p.bt_stderr != null ? ` ±${p.bt_stderr.toFixed(0)}` : "";
    const ys = p.yardstick != null ? `${Math.round(100 * p.yardstick)}%` : "–";
    const hall = p.hall_rating != null ? `${p.hall_rating >= 0 ? "+" : ""}${p.hall_rating.toFixed(0)} ±${p.hall_stderr.toFixed(0)}` : "–";
    tr.innerHTML = `<td>${i + 1}</td><td>${hall}</td><td>${p.elo.toFixed(1)}${err}</td><td>${p.wins}/${p.draws}/${p.losses}</td>
      <td>${p.birth}–${p.death != null ? p.death : ""}</td><td>${ys}</td>
      <td class="chrom">${esc(p.chromosome)}</td>
      <td><button data-act="copy">Copy</button> <button class="primary" data-act="play">Play</button></td>`;
    tr.querySelector('[data-act="copy"]').addEventListener("click", async (e) => {
      try { await navigator.clipboard.writeText(p.chromosome); e.target.textContent = "Copied"; }
      catch { window.getSelection().selectAllChildren(tr.querySelector(".chrom")); e.target.textContent = "Selected"; }
    });
    tr.querySelector('[data-act="play"]').addEventListener("click", () => handlers.play(p.chromosome));
    body.appendChild(tr);
  });
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
    select.appendChild(new Option(`#${g.pair} ${g.score > 0 ? "B+" + g.score : g.score < 0 ? "W+" + -g.score : "draw"}: ${g.black} – ${g.white}`, g.id));
  }
  if (keep && [...select.options].some((o) => o.value === keep)) select.value = keep;
  $("#stored-note").textContent = r.data.games.length && !kept.length ? "this run did not keep these games' moves" : "";
}

export function initRuns(onPlay, onReplay) {
  handlers = { play: onPlay, replay: onReplay };
}
