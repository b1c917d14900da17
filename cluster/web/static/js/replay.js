// Replay: step through an uploaded SGF/GGF file or a game a run kept.
import { call, get } from "./api.js";
import { BoardView, fillTranscript } from "./board.js";

const $ = (sel) => document.querySelector(sel);
const board = new BoardView($("#replay-board"), null);
let games = [];
let current = null;   // one game's view: {frames, transcript, ...}
let index = 0;
let timer = null;

function setError(message) {
  $("#replay-error").textContent = message;
  $("#replay-error").hidden = !message;
}

function show(game) {
  stop();
  current = game;
  index = 0;
  board.reset();
  $("#replay-title").textContent = [game.title, game.result ? `result ${game.result}` : ""].filter(Boolean).join(" · ");
  $("#replay-black").textContent = game.black;
  $("#replay-white").textContent = game.white;
  $("#rp-slider").max = game.frames.length - 1;
  draw();
}

function draw() {
  if (!current) return;
  const frame = current.frames[index];
  board.render(frame, {});
  $("#rp-slider").value = index;
  $("#replay-count-black").textContent = frame.discs.black;
  $("#replay-count-white").textContent = frame.discs.white;
  document.querySelectorAll("#view-replay .player-card").forEach((card, i) => {
    card.classList.toggle("to-move", !frame.over && frame.to_move === (i === 0 ? "black" : "white"));
  });
  $("#replay-board").dataset.index = index;
  const total = current.frames.length - 1;
  const what = frame.move ? `Move ${index} of ${total}: ${frame.colour} ${frame.move === "pass" ? "passes" : "plays " + frame.move}`
    : `Start position (${total} moves)`;
  $("#replay-status").textContent = frame.over ? `${what} · game over, ${frame.result}` : what;
  // transcript lines hold two moves each (Black - White)
  fillTranscript($("#replay-transcript"), current.transcript, index ? Math.floor((index - 1) / 2) : -1);
}

function go(i) {
  if (!current) return;
  index = Math.max(0, Math.min(current.frames.length - 1, i));
  draw();
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  $("#rp-play").textContent = "▶ Play";
}

function toggle() {
  if (!current) return;
  if (timer) { stop(); return; }
  if (index >= current.frames.length - 1) go(0);
  $("#rp-play").textContent = "⏸ Pause";
  timer = setInterval(() => {
    if (index >= current.frames.length - 1) { stop(); return; }
    go(index + 1);
  }, 700);
}

async function upload(file) {
  setError("");
  if (file.size > 1024 * 1024) {
    setError(`${file.name}: ${file.size} bytes; uploads are limited to 1 MiB`);
    return;
  }
  const r = await call("POST", `/api/replay?name=${encodeURIComponent(file.name)}`, file, true);
  if (!r.ok) { setError(r.error); return; }
  games = r.data.games;
  const select = $("#replay-game");
  select.innerHTML = "";
  games.forEach((g, i) => select.appendChild(new Option(`${g.title}: ${g.black} – ${g.white} ${g.result || ""}`, i)));
  select.hidden = games.length < 2;
  show(games[0]);
}

export async function replayStored(runId, gameId) {
  setError("");
  const r = await get(`/api/runs/${runId}/games/${gameId}`);
  if (!r.ok) { setError(r.error); return; }
  games = [r.data];
  $("#replay-game").hidden = true;
  show(r.data);
}

export function initReplay() {
  board.render({ cells: ".".repeat(27) + "wb" + ".".repeat(6) + "bw" + ".".repeat(27), legal: [], last: null }, {});
  $("#replay-file").addEventListener("change", (e) => {
    const file = e.target.files[0];
    if (file) upload(file);
    e.target.value = "";
  });
  $("#replay-game").addEventListener("change", (e) => show(games[Number(e.target.value)]));
  $("#rp-first").addEventListener("click", () => { stop(); go(0); });
  $("#rp-prev").addEventListener("click", () => { stop(); go(index - 1); });
  $("#rp-next").addEventListener("click", () => { stop(); go(index + 1); });
  $("#rp-last").addEventListener("click", () => { stop(); go(Infinity); });
  $("#rp-play").addEventListener("click", toggle);
  $("#rp-slider").addEventListener("input", (e) => { stop(); go(Number(e.target.value)); });
  document.addEventListener("keydown", (e) => {
    if (!$("#view-replay").classList.contains("active")) return;
    if (e.key === "ArrowRight") go(index + 1);
    if (e.key === "ArrowLeft") go(index - 1);
  });
}
