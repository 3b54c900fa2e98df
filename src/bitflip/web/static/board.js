// The SVG board: drawn from a game view, scales with its container (viewBox only).

const NS = "http://www.w3.org/2000/svg";
export const CELL = 100;
export const MARGIN = 36;

export function squareName(sq) {
  return "abcdefgh"[sq % 8] + (Math.floor(sq / 8) + 1);
}

export function parseSquare(name) {
  return 8 * (parseInt(name.slice(1), 10) - 1) + "abcdefgh".indexOf(name[0]);
}

export function squaresOf(size) {
  const out = [];
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) out.push(8 * r + c);
  return out;
}

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

export function formatScore(score) {
  const v = Math.abs(score - Math.round(score)) < 0.05 ? Math.round(score) : score.toFixed(1);
  return (score > 0 ? "+" : "") + v;
}

/** The paint servers of the discs (a soft light from the upper left), once per SVG. */
function defs() {
  const d = el("defs");
  const grad = (id, stops) => {
    const g = el("radialGradient", { id, cx: "38%", cy: "34%", r: "68%", fx: "32%", fy: "28%" });
    for (const [offset, color] of stops) g.append(el("stop", { offset, "stop-color": color }));
    d.append(g);
  };
  grad("disc-black", [["0%", "#6b6b6b"], ["28%", "#2c2c2c"], ["70%", "#111"], ["100%", "#000"]]);
  grad("disc-white", [["0%", "#ffffff"], ["45%", "#f3f3ee"], ["85%", "#d4d4cc"], ["100%", "#b5b5ad"]]);
  const felt = el("radialGradient", { id: "felt", cx: "50%", cy: "45%", r: "75%" });
  felt.append(el("stop", { offset: "0%", "stop-color": "#2f9160" }));
  felt.append(el("stop", { offset: "100%", "stop-color": "#21744a" }));
  d.append(felt);
  return d;
}

/** Chebyshev distance between two squares: the order in which a move's discs turn. */
function distance(a, b) {
  return Math.max(Math.abs((a % 8) - (b % 8)), Math.abs(Math.floor(a / 8) - Math.floor(b / 8)));
}

export const FLIP_MS = 360;   // one disc's turn
export const STAGGER_MS = 45; // the next disc along a line starts this much later

/**
 * Draw a board into `svg`.
 * model: {size, cells, legal: [names], lastMove, showLegal, hover,
 *         hints: Map(name -> {score, exact, best}), flash: bool,
 *         rotate: bool (seen from white's side),
 *         animate: {squares: Set(names) of discs that just turned or appeared, elapsed: ms}}
 * The last move has one mark (a red dot on its disc); the discs it turned are shown by their
 * animation alone, so the board stays calm.
 */
export function drawBoard(svg, model) {
  const n = model.size;
  const side = n * CELL + 2 * MARGIN;
  const rot = !!model.rotate;
  // Row and column on screen of board row r, column c.
  const at = (r, c) => (rot ? [n - 1 - r, n - 1 - c] : [r, c]);
  const center = (sq) => {
    const [r, c] = at(Math.floor(sq / 8), sq % 8);
    return [MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2];
  };
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svg.replaceChildren(defs());
  svg.append(el("rect", { x: 0, y: 0, width: side, height: side, rx: 16, class: "frame" }));
  svg.append(el("rect", { x: MARGIN - 3, y: MARGIN - 3, width: n * CELL + 6, height: n * CELL + 6, rx: 3, class: "felt-edge" }));
  svg.append(el("rect", { x: MARGIN, y: MARGIN, width: n * CELL, height: n * CELL, class: "felt" }));
  const legal = new Set(model.legal || []);
  const anim = model.animate || null;
  const animated = anim ? anim.squares : new Set();
  const lastSq = model.lastMove ? parseSquare(model.lastMove) : null;
  const cells = squaresOf(n);
  cells.forEach((sq, i) => {
    const [r, c] = at(Math.floor(sq / 8), sq % 8);
    const name = squareName(sq);
    let cls = "cell";
    if (name === model.lastMove) cls += " last";
    // An occupied square is simply taken: only empty squares say "not legal".
    if (model.hover === name) {
      if (legal.has(name)) cls += " hover-legal";
      else if (model.cells[i] === "-") cls += " hover-illegal";
    }
    svg.append(el("rect", {
      x: MARGIN + c * CELL, y: MARGIN + r * CELL, width: CELL, height: CELL,
      class: cls, "data-sq": name,
    }));
  });
  for (let i = 0; i <= n; i++) {
    const p = MARGIN + i * CELL;
    svg.append(el("line", { x1: MARGIN, y1: p, x2: MARGIN + n * CELL, y2: p, class: "grid" }));
    svg.append(el("line", { x1: p, y1: MARGIN, x2: p, y2: MARGIN + n * CELL, class: "grid" }));
  }
  if (n === 8) {
    for (const [r, c] of [[2, 2], [2, 6], [6, 2], [6, 6]]) {
      svg.append(el("circle", { cx: MARGIN + c * CELL, cy: MARGIN + r * CELL, r: 6, class: "star" }));
    }
  }
  for (let i = 0; i < n; i++) {
    const p = MARGIN + i * CELL + CELL / 2;
    const k = rot ? n - 1 - i : i;
    svg.append(el("text", { x: p, y: MARGIN * 0.72, class: "coord" }, "abcdefgh"[k]));
    svg.append(el("text", { x: MARGIN / 2, y: p + 9, class: "coord" }, String(k + 1)));
  }
  cells.forEach((sq, i) => {
    const name = squareName(sq);
    const [cx, cy] = center(sq);
    const ch = model.cells[i];
    if (ch === "X" || ch === "O") {
      const color = ch === "X" ? "black" : "white";
      svg.append(el("circle", { cx: cx + 2.5, cy: cy + 4, r: 42, class: "disc-shadow" }));
      const disc = el("circle", { cx, cy, r: 42, class: `disc ${color}`, "data-sq": name, "data-color": ch });
      if (animated.has(name)) {
        const placed = name === model.lastMove;
        disc.classList.add(placed ? "place-anim" : `flip-to-${color}`);
        // Discs nearer the new one turn first; a redraw mid-way carries on where it was.
        const wait = placed || lastSq === null ? 0 : (distance(sq, lastSq) - 1) * STAGGER_MS;
        disc.style.animationDelay = `${wait - (anim.elapsed || 0)}ms`;
      }
      svg.append(disc);
      if (name === model.lastMove) {
        svg.append(el("circle", { cx, cy, r: 9, class: "last-move", "data-sq": name }));
      }
    } else if (legal.has(name)) {
      const hint = model.hints && model.hints.get(name);
      if (hint) {
        svg.append(el("text", {
          x: cx, y: cy + 11,
          class: "hint" + (hint.exact ? " exact" : "") + (hint.best ? " best" : ""),
          "data-sq": name,
        }, formatScore(hint.score)));
      } else if (model.showLegal) {
        svg.append(el("circle", { cx, cy, r: 8, class: "legal-dot", "data-sq": name }));
      }
      if (model.flash) {
        svg.append(el("circle", { cx, cy, r: 30, class: "flash", "data-sq": name }));
      }
    }
    if (model.hover === name) {
      svg.append(el("text", {
        x: cx + CELL / 2 - 6, y: cy + CELL / 2 - 8, class: "hover-name",
      }, name));
    }
  });
}

/** The square name under a pointer event, or null. */
export function squareAt(event) {
  const t = event.target.closest ? event.target.closest("[data-sq]") : null;
  return t ? t.getAttribute("data-sq") : null;
}
