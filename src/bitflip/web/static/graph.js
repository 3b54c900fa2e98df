// The evaluation graph: black's view in discs across the plies of the line. The scale's labels
// sit in a gutter on the right and the mistake marks in a strip below, off the plot.

const NS = "http://www.w3.org/2000/svg";
const W = 320, H = 140;
const X0 = 4, X1 = W - 54, Y0 = 5, Y1 = H - 17;

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

export function drawGraph(svg, view) {
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren();
  const plies = Math.max(view.moves.length, 1);
  // The scale follows the largest score shown: 16, 24, ... up to 64 discs.
  const largest = Math.max(0, ...view.evals.map((e) => Math.abs(e.score)));
  const LIMIT = Math.min(64, Math.max(16, Math.ceil(largest / 8) * 8));
  const mid = (Y0 + Y1) / 2;
  const x = (ply) => X0 + (ply / plies) * (X1 - X0);
  const y = (score) => mid - (Math.max(-LIMIT, Math.min(LIMIT, score)) / LIMIT) * (mid - Y0);
  svg.append(el("rect", { x: X0, y: Y0, width: X1 - X0, height: mid - Y0, class: "graph-black" }));
  svg.append(el("rect", { x: X0, y: mid, width: X1 - X0, height: Y1 - mid, class: "graph-white" }));
  svg.append(el("line", { x1: X0, y1: mid, x2: X1, y2: mid, class: "graph-zero" }));
  svg.append(el("text", { x: X1 + 4, y: Y0 + 8, class: "graph-label" }, `black +${LIMIT}`));
  svg.append(el("text", { x: X1 + 4, y: mid + 3, class: "graph-label" }, "0"));
  svg.append(el("text", { x: X1 + 4, y: Y1, class: "graph-label" }, `white +${LIMIT}`));
  svg.append(el("line", { x1: x(view.cursor), y1: Y0, x2: x(view.cursor), y2: H, class: "graph-cursor" }));
  const points = view.evals.filter((e) => e.ply <= view.moves.length);
  if (points.length) {
    const d = points.map((e, i) => `${i ? "L" : "M"}${x(e.ply).toFixed(1)},${y(e.score).toFixed(1)}`);
    svg.append(el("path", { d: d.join(" "), class: "graph-line" }));
    for (const e of points) {
      const c = el("circle", {
        cx: x(e.ply), cy: y(e.score), r: e.exact ? 3 : 2.2,
        class: "graph-point" + (e.exact ? " exact" : ""), "data-ply": e.ply,
      });
      c.append(el("title", {}, `after ${e.ply} moves: ${e.score > 0 ? "+" : ""}${e.score.toFixed(1)}${e.exact ? " (exact)" : ""}`));
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
    m.append(el("title", {}, `${a.ply + 1}. ${a.move}: ${a.mistake}, lost ${a.loss.toFixed(1)} (best ${a.best_move})`));
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
