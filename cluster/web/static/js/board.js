// The board: an 8x8 grid of cells, a1 top-left; discs are shaded circles.
const COLS = "abcdefgh";
export const squareName = (i) => COLS[i % 8] + (Math.floor(i / 8) + 1);

export class BoardView {
  constructor(el, onClick) {
    this.el = el;
    this.onClick = onClick;
    this.cells = [];
    this.previous = null;
    for (let i = 0; i < 64; i++) {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.square = squareName(i);
      cell.addEventListener("click", () => this.onClick && this.onClick(cell.dataset.square));
      el.appendChild(cell);
      this.cells.push(cell);
    }
    for (let c = 0; c < 8; c++) {
      const label = document.createElement("div");
      label.className = "coord col";
      label.style.left = `calc(${c} * var(--cell))`;
      label.textContent = COLS[c];
      el.appendChild(label);
      const row = document.createElement("div");
      row.className = "coord row";
      row.style.top = `calc(${c} * var(--cell))`;
      row.textContent = c + 1;
      el.appendChild(row);
    }
    for (const [x, y] of [[2, 2], [6, 2], [2, 6], [6, 6]]) {
      const dot = document.createElement("div");
      dot.className = "dot";
      dot.style.left = `calc(${x} * var(--cell))`;
      dot.style.top = `calc(${y} * var(--cell))`;
      el.appendChild(dot);
    }
    // The side to move, on the frame around the board (.board-wrap).
    this.frame = el.parentElement;
    this.flag = document.createElement("div");
    this.flag.className = "turn-flag";
    this.flag.hidden = true;
    this.frame.appendChild(this.flag);
  }

  // Mark the frame with the side to move (null: nobody, the game is over or not started).
  showTurn(colour) {
    this.frame.classList.toggle("turn-black", colour === "black");
    this.frame.classList.toggle("turn-white", colour === "white");
    this.flag.hidden = !colour;
    if (!colour) return;
    this.flag.className = `turn-flag ${colour}`;
    this.flag.dataset.colour = colour;
    this.flag.innerHTML = `<span class="disc-icon ${colour}"></span>${colour === "black" ? "Black" : "White"} to move`;
  }

  // view: {cells, legal, last, to_move}; opts: {showLegal, locked, hints: [{move, score}]}
  render(view, opts = {}) {
    const legal = new Set(opts.showLegal ? view.legal : []);
    const hints = new Map((opts.hints || []).map((h, i) => [h.move, { ...h, best: i === 0 }]));
    this.el.classList.toggle("locked", !!opts.locked);
    this.el.classList.toggle("black-to-move", view.to_move === "black");
    this.el.classList.toggle("white-to-move", view.to_move === "white");
    this.showTurn(view.over ? null : view.to_move || null);
    for (let i = 0; i < 64; i++) {
      const cell = this.cells[i];
      const now = view.cells[i];
      const before = this.previous ? this.previous[i] : now;
      let disc = cell.querySelector(".disc");
      if (now === ".") {
        if (disc) disc.remove();
      } else {
        if (!disc) {
          disc = document.createElement("div");
          disc.className = "disc";
          cell.prepend(disc);
          if (this.previous) disc.classList.add("fresh");
        } else if (before !== now && before !== ".") {
          disc.classList.remove("flipped");
          void disc.offsetWidth;
          disc.classList.add("flipped");
        }
        disc.classList.toggle("black", now === "b");
        disc.classList.toggle("white", now === "w");
      }
      cell.classList.toggle("legal", legal.has(cell.dataset.square));
      cell.classList.toggle("last", view.last === cell.dataset.square);
      const old = cell.querySelector(".hint-score");
      if (old) old.remove();
      const hint = hints.get(cell.dataset.square);
      if (hint) {
        const badge = document.createElement("div");
        badge.className = "hint-score" + (hint.best ? " best" : "");
        badge.textContent = formatScore(hint.score);
        cell.appendChild(badge);
      }
    }
    this.previous = view.cells;
  }

  reset() { this.previous = null; }
}

export function formatScore(score) {
  const text = Number.isInteger(score) ? String(score) : score.toFixed(1);
  return score > 0 ? "+" + text : text;
}

export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = s - 60 * m;
  return s < 10 ? `${m}:${rest.toFixed(1).padStart(4, "0")}` : `${m}:${String(Math.floor(rest)).padStart(2, "0")}`;
}

// The transcript, line `current` highlighted and scrolled into the middle of
// the box (the box alone scrolls, never the page).
export function fillTranscript(ol, lines, current = -1) {
  ol.innerHTML = "";
  lines.forEach((line, i) => {
    const li = document.createElement("li");
    li.textContent = line;
    if (i === current) li.classList.add("current");
    ol.appendChild(li);
  });
  const cur = ol.querySelector(".current") || ol.lastElementChild;
  if (!cur) return;
  const top = cur.getBoundingClientRect().top - ol.getBoundingClientRect().top + ol.scrollTop;
  ol.scrollTop = Math.max(0, top - (ol.clientHeight - cur.offsetHeight) / 2);
}
