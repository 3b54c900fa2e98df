// The evaluation graph: black's view in discs across the plies of the line, a point for every
// position with a score. The scale's labels sit in a gutter on the right, the move numbers and
// the mistake marks in strips below, off the plot.

import { formatScore } from "./board.js";

const NS = "http://www.w3.org/2000/svg";
export const W = 360, H = 196;
const X0 = 6, X1 = W - 40, Y0 = 8, Y1 = H - 30;

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The move number of each ply as the move list shows it (passes take none: null). */
function moveNumbers(view) {
  let n = 0;
  return view.moves.map((m) => (m === "pa" ? null : ++n));
}

/** What the position at ply `ply` is, in words: "start", "12. c4", "white's pass". */
function plyName(view, ply) {
  if (ply === 0) return "the start";
  const m = view.moves[ply - 1];
  if (m === "pa") return "the pass";
  return `${moveNumbers(view)[ply - 1]}. ${m}`;
}

/**
 * The score of every position of the line that has one, by ply (discs, black's view): the
 * server's evaluations, and where a position has none, the analysis's score of the move that
 * led to it (from the mover's view), so an analysed game has a score after every move.
 */
export function scoresByPly(view) {
  const out = new Map();
  const whiteFirst = view.start.trim().endsWith("O");
  for (const a of view.analysis) {
    const moverIsBlack = (a.ply % 2 === 0) !== whiteFirst; // passes are plies: colours alternate
    out.set(a.ply + 1, { ply: a.ply + 1, score: moverIsBlack ? a.score : -a.score, exact: a.exact, source: "analysis" });
  }
  for (const e of view.evals) out.set(e.ply, e);
  return new Map([...out.entries()].filter(([ply]) => ply <= view.moves.length).sort((a, b) => a[0] - b[0]));
}

/** One line over the graph: the score of the position shown. */
export function graphReadout(view) {
  const e = scoresByPly(view).get(view.cursor);
  const where = view.cursor === 0 ? "At the start" : `After ${plyName(view, view.cursor)}`;
  if (!e) return `${where}: no score yet`;
  const who = e.score > 0 ? "black ahead" : e.score < 0 ? "white ahead" : "even";
  return `${where}: ${formatScore(e.score)} (${who}${e.exact ? ", exact" : ""})`;
}

export function drawGraph(svg, view) {
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren();
  const plies = Math.max(view.moves.length, 1);
  // The scale follows the largest score shown: 16, 24, ... up to 64 discs.
  const points = [...scoresByPly(view).values()];
  const largest = Math.max(0, ...points.map((e) => Math.abs(e.score)));
  const LIMIT = Math.min(64, Math.max(16, Math.ceil(largest / 8) * 8));
  const mid = (Y0 + Y1) / 2;
  const x = (ply) => X0 + (ply / plies) * (X1 - X0);
  const y = (score) => mid - (Math.max(-LIMIT, Math.min(LIMIT, score)) / LIMIT) * (mid - Y0);
  svg.append(el("rect", { x: X0, y: Y0, width: X1 - X0, height: mid - Y0, class: "graph-black" }));
  svg.append(el("rect", { x: X0, y: mid, width: X1 - X0, height: Y1 - mid, class: "graph-white" }));
  for (const s of [LIMIT / 2, -LIMIT / 2]) {
    svg.append(el("line", { x1: X0, y1: y(s), x2: X1, y2: y(s), class: "graph-grid" }));
    svg.append(el("text", { x: X1 + 4, y: y(s) + 3, class: "graph-label" }, formatScore(s)));
  }
  svg.append(el("line", { x1: X0, y1: mid, x2: X1, y2: mid, class: "graph-zero" }));
  svg.append(el("text", { x: X1 + 4, y: Y0 + 7, class: "graph-label" }, `+${LIMIT}`));
  svg.append(el("text", { x: X1 + 4, y: mid + 3, class: "graph-label" }, "0"));
  svg.append(el("text", { x: X1 + 4, y: Y1, class: "graph-label" }, `-${LIMIT}`));
  svg.append(el("text", { x: X0 + 3, y: Y0 + 10, class: "graph-side" }, "black"));
  svg.append(el("text", { x: X0 + 3, y: Y1 - 4, class: "graph-side" }, "white"));
  // Move numbers every ten moves, under the ply where that move is played.
  const numbers = moveNumbers(view);
  numbers.forEach((n, i) => {
    if (n === null || n % 10) return;
    svg.append(el("line", { x1: x(i + 1), y1: Y1, x2: x(i + 1), y2: Y1 + 3, class: "graph-tick" }));
    svg.append(el("text", { x: x(i + 1), y: Y1 + 12, class: "graph-label graph-move" }, String(n)));
  });
  svg.append(el("line", { x1: x(view.cursor), y1: Y0, x2: x(view.cursor), y2: H, class: "graph-cursor" }));
  if (points.length) {
    const d = points.map((e, i) => `${i ? "L" : "M"}${x(e.ply).toFixed(1)},${y(e.score).toFixed(1)}`);
    const first = points[0], last = points[points.length - 1];
    const area = `${d.join(" ")} L${x(last.ply).toFixed(1)},${mid} L${x(first.ply).toFixed(1)},${mid} Z`;
    svg.append(el("path", { d: area, class: "graph-area" }));
    svg.append(el("path", { d: d.join(" "), class: "graph-line" }));
    for (const e of points) {
      const c = el("circle", {
        cx: x(e.ply), cy: y(e.score), r: e.ply === view.cursor ? 4.5 : e.exact ? 2.8 : 2.2,
        class: "graph-point" + (e.exact ? " exact" : "") + (e.ply === view.cursor ? " current" : ""),
        "data-ply": e.ply,
      });
      c.append(el("title", {}, `after ${plyName(view, e.ply)}: ${formatScore(e.score)}${e.exact ? " (exact)" : ""}`));
      svg.append(c);
    }
  }
  for (const a of view.analysis) {
    if (!a.mistake) continue;
    const cx = x(a.ply + 1);
    const m = el("path", {
      d: `M${cx - 4},${H - 2} L${cx + 4},${H - 2} L${cx},${H - 10} Z`,
      class: "graph-mistake " + a.mistake, "data-ply": a.ply + 1,
    });
    m.append(el("title", {}, `${plyName(view, a.ply + 1)}: ${a.mistake}, lost ${a.loss.toFixed(1)} (best ${a.best_move})`));
    svg.append(m);
  }
}

/** The ply nearest to a click on the graph. */
export function plyAt(svg, event, view) {
  const box = svg.getBoundingClientRect();
  const frac = (event.clientX - box.left) / box.width;
  const plies = Math.max(view.moves.length, 1);
  const ply = Math.round(((frac * W - X0) / (X1 - X0)) * plies);
  return Math.max(0, Math.min(view.moves.length, ply));
}
