// Play: a person or a machine for each colour; the server keeps the game.
import { get, post } from "./api.js";
import { BoardView, fillTranscript, formatClock, formatScore } from "./board.js";

const $ = (sel, root = document) => root.querySelector(sel);
const EXAMPLE = "oe_fmc_1_14:49:3:2:2:3:3:9:1:10:3";
const PASTE = "__paste__";
const START = ".".repeat(27) + "wb" + ".".repeat(6) + "bw" + ".".repeat(27);

let game = null;          // the server's view of the current game
let pending = null;       // what we wait for: "move", "think", "hint" or null
let epoch = 0;            // bumps on new game and undo: late answers are dropped
let hints = null;
let clockAt = performance.now();
let lastError = "";
let clickedAt = null;     // performance.now() of the person's last click, for the reply time
const pinned = {};        // colour -> the player a runs page's "Play" chose (kept when the menu reloads)

const board = new BoardView($("#play-board"), clickSquare);

function sideBox(colour) { return $(`.side-setup[data-colour="${colour}"]`); }
function isMachine(colour) { return game && game.players[colour].kind === "machine"; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ setup
export async function loadPlayers() {
  const r = await get("/api/players");
  const menu = r.ok ? r.data.runs : [];
  const shipped = r.ok && r.data.shipped ? r.data.shipped : [];
  for (const colour of ["black", "white"]) {
    const select = $(".chrom-select", sideBox(colour));
    const keep = pinned[colour] || select.value;
    select.innerHTML = "";
    if (!menu.length) {   // no run database: the README's example chromosome first, then the shipped networks
      select.appendChild(new Option(`${EXAMPLE} (the README's example)`, EXAMPLE));
    }
    for (const run of menu) {
      const group = document.createElement("optgroup");
      group.label = `run ${run.run}`;
      run.players.forEach((p, i) => {
        // labelled by what ranks them: the hall rating when the run has a hall, else Elo
        const rank = p.hall_rating != null ? `hall ${signed(p.hall_rating)}` : `Elo ${p.elo != null ? p.elo.toFixed(0) : "–"}`;
        const option = new Option(`#${i + 1}  ${rank}  ${p.chromosome}`, p.chromosome);
        option.dataset.info = describe(p);
        group.appendChild(option);
      });
      select.appendChild(group);
    }
    if (shipped.length) {
      const group = document.createElement("optgroup");
      group.label = "shipped networks";
      for (const n of shipped) {
        const option = new Option(n.name, n.name);
        option.dataset.info = "an n-tuple network shipped with genethello";
        group.appendChild(option);
      }
      select.appendChild(group);
    }
    select.appendChild(new Option("Paste a chromosome or network name…", PASTE));
    choose(colour, keep);
    showInfo(colour);
  }
}

// Select ``value`` in a colour's menu, or paste it when the menu lacks it
// (a player of an older run, an ancestor); nothing for no value.
function choose(colour, value) {
  const box = sideBox(colour);
  const select = $(".chrom-select", box);
  if (!value) return;
  if ([...select.options].some((o) => o.value === value)) {
    select.value = value;
  } else if (pinned[colour] === value) {
    select.value = PASTE;
    $(".chrom-text", box).value = value;
  }
}

function signed(x) { return `${x >= 0 ? "+" : ""}${x.toFixed(0)}`; }

function describe(p) {
  const err = p.bt_stderr != null ? ` ± ${p.bt_stderr.toFixed(0)}` : "";
  const life = `${p.birth}–${p.death != null ? p.death : "now"}`;
  const hall = p.hall_rating != null ? `hall rating ${signed(p.hall_rating)} ± ${p.hall_stderr.toFixed(0)} · ` : "";
  // a champion that never sat in a population (CMA-ES's distribution mean) played no rated games
  if (p.member === false) return `${hall}generation ${p.birth}'s distribution mean: no Elo or W/D/L of its own`;
  // a network run keeps no W/D/L (its fitness games return points), as `genethello best` shows it: –
  const wdl = p.wdl_kept === false ? "–" : `${p.wins}/${p.draws}/${p.losses}`;
  const elo = p.wdl_kept === false ? "rating" : "Elo";
  return `${hall}${elo} ${p.elo.toFixed(1)}${err} · W/D/L ${wdl} · life ${life}`;
}

function showInfo(colour) {
  const box = sideBox(colour);
  const select = $(".chrom-select", box);
  const text = $(".chrom-text", box);
  const option = select.selectedOptions[0];
  text.hidden = select.value !== PASTE;
  $(".chrom-info", box).textContent = option && option.dataset.info ? option.dataset.info : "";
  setFieldError(colour, "");
}

function setFieldError(colour, message) {
  const el = $(".field-error", sideBox(colour));
  el.textContent = message;
  el.hidden = !message;
  $(".chrom-text", sideBox(colour)).classList.toggle("bad", !!message);
}

function setKind(colour, kind) {
  const box = sideBox(colour);
  box.querySelectorAll(".seg button").forEach((b) => b.classList.toggle("on", b.dataset.kind === kind));
  $(".machine-fields", box).hidden = kind !== "machine";
}

function kindOf(colour) { return $(".seg button.on", sideBox(colour)).dataset.kind; }

function chromosomeOf(colour) {
  const box = sideBox(colour);
  const select = $(".chrom-select", box);
  return select.value === PASTE ? $(".chrom-text", box).value.trim() : select.value;
}

function settings() {
  const timed = $('input[name="limit"]:checked').value === "time";
  const out = { seconds: timed ? Number($("#seconds").value) : null };
  for (const colour of ["black", "white"]) {
    const box = sideBox(colour);
    out[colour] = kindOf(colour) === "human" ? { kind: "human" }
      : { kind: "machine", chromosome: chromosomeOf(colour), depth: Number($(".depth", box).value) };
  }
  return out;
}

let checkTimer = null;
function checkPasted(colour) {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(async () => {
    const text = $(".chrom-text", sideBox(colour)).value.trim();
    if (!text) { setFieldError(colour, ""); return; }
    const r = await post("/api/chromosome", { chromosome: text });
    setFieldError(colour, r.ok ? "" : r.error);
    if (r.ok) {
      $(".chrom-info", sideBox(colour)).textContent = `valid ${r.data.type} ${r.data.family || "chromosome"}`;
    }
  }, 250);
}

// ------------------------------------------------------------------ game
export async function newGame() {
  epoch += 1;
  clickedAt = null;
  const mine = epoch;
  hints = null;
  setError("");
  $("#settings-error").hidden = true;
  const wanted = settings();          // read now: a menu reloading meanwhile must not change the game
  if (game) {
    const old = game.id;
    game = null;
    render();                         // the old game and its cards go at once
    await post(`/api/games/${old}/close`);
  }
  const r = await post("/api/games", wanted);
  if (mine !== epoch) return;
  if (!r.ok) {
    const colour = (r.field || "").split(".")[0];
    if (r.field && r.field.endsWith("chromosome") && (colour === "black" || colour === "white")) {
      setFieldError(colour, r.error);
    }
    // said where it is seen: under the board, and in the setup panel, opened
    $("#setup").open = true;
    $("#settings-error").textContent = r.error;
    $("#settings-error").hidden = false;
    render();
    setError(colour === "black" || colour === "white" ? `${colour}: ${r.error}` : r.error);
    return;
  }
  game = r.data;
  board.reset();
  clockAt = performance.now();
  if (game.players.black.kind === "machine" && game.players.white.kind === "machine") {
    $("#setup").open = false;
  }
  render();
  drive();
}

// The machines move while it is their turn (at the chosen pace when both are machines).
async function drive() {
  const mine = epoch;
  while (game && mine === epoch && !game.board.over && isMachine(game.board.to_move)) {
    const both = isMachine("black") && isMachine("white");
    if (both) await sleep(Number($("#pace").value));
    if (!game || mine !== epoch) return;
    pending = "think";
    render();
    const r = await post(`/api/games/${game.id}/think`);
    if (mine !== epoch) return;
    pending = null;
    if (!r.ok) {
      if (r.status === 429) {          // every core busy: wait and ask again
        setError(r.error);
        render();
        await sleep(1500);
        continue;
      }
      setError(r.error);
      render();
      return;
    }
    setError("");
    game = r.data;
    clockAt = performance.now();
    render();
    if (clickedAt !== null) {
      // click to reply drawn, in ms: what a person waits (benchmarks/bench_web.py reads it)
      $("#play-board").dataset.replyMs = (performance.now() - clickedAt).toFixed(1);
      clickedAt = null;
    }
  }
}

async function clickSquare(square) {
  if (!game || pending || game.board.over || isMachine(game.board.to_move)) return;
  if (!game.board.legal.includes(square)) return;
  const mine = epoch;
  clickedAt = performance.now();
  pending = "move";
  hints = null;
  render();
  const r = await post(`/api/games/${game.id}/move`, { move: square, ply: game.board.plies });
  if (mine !== epoch) return;
  pending = null;
  if (!r.ok) { setError(r.error); render(); return; }
  setError("");
  game = r.data;
  clockAt = performance.now();
  render();
  drive();
}

async function undo() {
  if (!game || !game.can_undo) return;
  epoch += 1;
  const mine = epoch;
  hints = null;
  const r = await post(`/api/games/${game.id}/undo`);
  if (mine !== epoch) return;
  pending = null;
  if (!r.ok) { setError(r.error); render(); return; }
  setError("");
  game = r.data;
  clockAt = performance.now();
  render();
}

async function hint() {
  if (!game || pending || game.board.over || isMachine(game.board.to_move)) return;
  const mine = epoch;
  pending = "hint";
  render();
  const r = await post(`/api/games/${game.id}/hint`);
  if (mine !== epoch) return;
  pending = null;
  if (!r.ok) { setError(r.error); render(); return; }
  hints = r.data.moves;
  const list = $("#hint-list");
  list.innerHTML = `<b>Hint</b> <span class="muted">(depth ${r.data.depth}; evaluation, or the final disc margin when exact)</span>: ` +
    hints.map((h) => `${h.move} <span class="muted">${formatScore(h.score)}${h.exact ? " exact" : ""}</span>`).join(" · ");
  list.hidden = false;
  render();
}

function setError(message) {
  lastError = message;
  const el = $("#play-error");
  el.textContent = message;
  el.hidden = !message;
}

// ---------------------------------------------------------------- drawing
function roleText(colour) {
  const p = game.players[colour];
  if (p.kind === "human") return isMachine(colour === "black" ? "white" : "black") ? "You" : "Human";
  return p.depth ? `Machine · depth ${p.depth}` : "Machine · clock";
}

function render() {
  const bd = $("#play-board");
  const humanTurn = game && !game.board.over && !isMachine(game.board.to_move);
  bd.dataset.plies = game ? game.board.plies : 0;
  bd.dataset.thinking = pending === "think" ? "1" : "0";
  bd.dataset.state = !game ? "none" : game.board.over ? "over" : pending ? "busy" : humanTurn ? "human" : "machine";
  if (!game) {
    board.render({ cells: START, legal: [], last: null, to_move: null });
    for (const colour of ["black", "white"]) {     // no game: no player on the cards
      $(`#name-${colour}`).textContent = "";
      $(`#name-${colour}`).title = "";
      $(`#count-${colour}`).textContent = "2";
      $(`#card-${colour}`).classList.remove("to-move", "thinking");
    }
    $("#play-banner").hidden = true;
    fillTranscript($("#transcript"), [], -1);
    $("#play-banner").hidden = true;
    $("#play-status").textContent = "Set up the players and start a new game.";
    $("#btn-undo").disabled = true;
    $("#btn-hint").disabled = true;
    $("#btn-sgf").setAttribute("aria-disabled", "true");
    return;
  }
  const view = game.board;
  board.render(view, { showLegal: humanTurn, locked: !!pending, hints });
  for (const colour of ["black", "white"]) {
    $(`#count-${colour}`).textContent = view.discs[colour];
    $(`#role-${colour}`).textContent = roleText(colour);
    const p = game.players[colour];
    $(`#name-${colour}`).textContent = p.kind === "machine" ? p.name : "";
    // the card: the name the person chose; its title: the player's own text (and patterns)
    const text = p.text || p.name;
    $(`#name-${colour}`).title = p.kind === "machine" ? (p.patterns ? `${text} · ${p.patterns}` : text) : "";
    $(`#card-${colour}`).classList.toggle("to-move", view.to_move === colour);
    $(`#card-${colour}`).classList.toggle("thinking", pending === "think" && view.to_move === colour);
    $(`#clock-${colour}`).hidden = !game.clocks;
  }
  tickClocks();
  const status = $("#play-status");
  const events = game.events.join(" ");
  status.classList.toggle("thinking", pending === "think");
  if (view.over) {
    status.textContent = `${events} Game over.`;
  } else if (pending === "think") {
    status.textContent = `${cap(view.to_move)} is thinking…`;
  } else if (pending === "hint") {
    status.textContent = "Looking for a hint…";
    status.classList.add("thinking");
  } else if (humanTurn) {
    const you = roleText(view.to_move) === "You" ? "Your move" : `${cap(view.to_move)} to move`;
    status.textContent = `${events} ${you} (${view.to_move}).`;
  } else {
    status.textContent = `${events}`;
  }
  const banner = $("#play-banner");
  banner.hidden = !view.over;
  if (view.over) {
    const { black, white } = view.discs;
    const who = view.result === "Draw" ? "A draw" : view.result.startsWith("B") ? "Black wins" : "White wins";
    banner.innerHTML = `${who}<small>${black} – ${white} · ${view.result}</small>`;
  }
  $("#btn-undo").disabled = !game.can_undo;
  $("#btn-hint").disabled = !humanTurn || !!pending;
  const sgf = $("#btn-sgf");
  sgf.href = `/api/games/${game.id}/sgf`;
  sgf.setAttribute("aria-disabled", "false");
  if (!hints) $("#hint-list").hidden = true;
  fillTranscript($("#transcript"), game.transcript, game.transcript.length - 1);
  const last = game.last_search;
  if (last && !pending && !view.over && humanTurn) {
    status.title = `${last.colour} searched depth ${last.depth}${last.exact ? " (exact)" : ""}, ` +
      `${last.nodes} nodes in ${last.seconds} s${last.pondered ? ", pondered" : ""}`;
  }
}

function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

function tickClocks() {
  if (!game || !game.clocks) return;
  const c = game.clocks;
  const elapsed = (performance.now() - clockAt) / 1000;
  for (const colour of ["black", "white"]) {
    const running = c.running === colour && !game.board.over;
    const left = c[colour] - (running ? elapsed : 0);
    const el = $(`#clock-${colour}`);
    el.textContent = formatClock(left);
    el.classList.toggle("running", running);
    el.classList.toggle("out", left <= 0);
  }
}

// The runs page's "Play" button: a person against this chromosome.
export function playAgainst(chromosome) {
  setKind("black", "human");
  setKind("white", "machine");
  pinned.white = chromosome;
  choose("white", chromosome);
  showInfo("white");
  return newGame();
}

export function initPlay() {
  for (const colour of ["black", "white"]) {
    const box = sideBox(colour);
    box.querySelectorAll(".seg button").forEach((b) => b.addEventListener("click", () => setKind(colour, b.dataset.kind)));
    $(".chrom-select", box).addEventListener("change", () => { delete pinned[colour]; showInfo(colour); });
    $(".chrom-text", box).addEventListener("input", () => checkPasted(colour));
    const depth = $(".depth", box);
    depth.addEventListener("input", () => { $("output", box).textContent = depth.value; });
  }
  $("#btn-new").addEventListener("click", newGame);
  $("#btn-undo").addEventListener("click", undo);
  $("#btn-hint").addEventListener("click", hint);
  setInterval(tickClocks, 100);
  window.addEventListener("pagehide", () => {
    if (game) navigator.sendBeacon(`/api/games/${game.id}/close`);
  });
  loadPlayers();
  render();
}
