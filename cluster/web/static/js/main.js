// The page's three views: Play, Replay, Runs.
import { initPlay, loadPlayers, playAgainst } from "./play.js";
import { initReplay, replayStored } from "./replay.js";
import { initRuns, loadRuns } from "./runs.js";

let runsTimer = null;

function showView(name) {
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.view === name));
  document.querySelectorAll(".view").forEach((v) => v.classList.toggle("active", v.id === `view-${name}`));
  clearInterval(runsTimer);
  if (name === "runs") {
    loadRuns();
    runsTimer = setInterval(loadRuns, 5000);
  }
  if (name === "play") loadPlayers();
  history.replaceState(null, "", `#${name}`);
}

document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => showView(t.dataset.view)));
initPlay();
initReplay();
initRuns(
  (chromosome) => { showView("play"); playAgainst(chromosome); },
  (runId, gameId) => { showView("replay"); replayStored(runId, gameId); },
);
const start = location.hash.slice(1);
showView(["play", "replay", "runs"].includes(start) ? start : "play");
