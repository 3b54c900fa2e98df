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

/**
 * Draw a board into `svg`.
 * model: {size, cells, legal: [names], lastMove, flipped: [names], prevMove, prevFlipped,
 *         showLegal, hover, hints: Map(name -> {score, exact, best}), flash: bool,
 *         rotate: bool (seen from white's side), animate: Set(names) of discs that just turned}
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
  svg.replaceChildren();
  svg.append(el("rect", { x: 0, y: 0, width: side, height: side, rx: 14, class: "frame" }));
  svg.append(el("rect", { x: MARGIN, y: MARGIN, width: n * CELL, height: n * CELL, class: "felt" }));
  const legal = new Set(model.legal || []);
  const flipped = new Set(model.flipped || []);
  const prevFlipped = new Set(model.prevFlipped || []);
  const animate = model.animate || new Set();
  const cells = squaresOf(n);
  cells.forEach((sq, i) => {
    const [r, c] = at(Math.floor(sq / 8), sq % 8);
    const name = squareName(sq);
    let cls = "cell";
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
      let cls = "disc " + (ch === "X" ? "black" : "white");
      if (animate.has(name)) cls += name === model.lastMove ? " place-anim" : " flip-anim";
      svg.append(el("circle", { cx, cy, r: 42, class: cls, "data-sq": name, "data-color": ch }));
      if (name === model.lastMove) {
        svg.append(el("circle", { cx, cy, r: 11, class: "last-move", "data-sq": name }));
      } else if (flipped.has(name)) {
        svg.append(el("circle", { cx, cy, r: 7, class: "flipped", "data-sq": name }));
      } else if (name === model.prevMove) {
        svg.append(el("circle", { cx, cy, r: 10, class: "prev-move", "data-sq": name }));
      } else if (prevFlipped.has(name)) {
        svg.append(el("circle", { cx, cy, r: 5, class: "prev-flipped", "data-sq": name }));
      }
    } else if (legal.has(name)) {
      const hint = model.hints && model.hints.get(name);
      if (hint) {
        svg.append(el("text", {
          x: cx, y: cy + 13,
          class: "hint" + (hint.exact ? " exact" : "") + (hint.best ? " best" : ""),
          "data-sq": name,
        }, formatScore(hint.score)));
      } else if (model.showLegal) {
        svg.append(el("circle", { cx, cy, r: 9, class: "legal-dot", "data-sq": name }));
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
