// The move list: the line shown, with the tree's other moves as branches where they leave it.

import { formatScore } from "./board.js";
import { scoresByPly } from "./graph.js";

const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function button(className, data) {
  const b = document.createElement("button");
  b.type = "button";
  if (className) b.className = className;
  for (const [k, v] of Object.entries(data)) b.dataset[k] = String(v);
  return b;
}

function span(text, className) {
  const s = document.createElement("span");
  s.textContent = text;
  if (className) s.className = className;
  return s;
}

/**
 * The line as a table of turns, black's move and white's side by side as NBoard and Egaroucid
 * show it. Moves are numbered 1, 2, 3 ... as discs are played; a pass keeps its cell (it is a
 * position one can jump to) but takes no number. Each cell shows the score after the move when
 * one is known (discs, black's view), and the tree's other moves at a ply follow the row that
 * holds it.
 */
export function renderMoves(list, view) {
  const analysis = new Map(view.analysis.map((a) => [a.ply, a]));
  const evals = scoresByPly(view);
  // A book move's position carries the book's score: the move played from it is the book's.
  const book = new Set(view.evals.filter((e) => e.source === "book").map((e) => e.ply));
  const branches = new Map();
  for (const b of view.branches) {
    if (!branches.has(b.ply)) branches.set(b.ply, []);
    branches.get(b.ply).push(b);
  }
  const items = [];
  const head = document.createElement("div");
  head.className = "moves-head";
  const start = button("start" + (view.cursor === 0 ? " current" : ""), { ply: 0 });
  start.textContent = "start";
  start.title = "the starting position";
  head.append(start, span("Black", "col"), span("White", "col"));
  items.push(head);

  let color = view.start.trim().endsWith("O") ? "white" : "black";
  let number = 0;
  let row = null;
  let rowBranches = [];
  const endRow = () => {
    if (!row) return;
    items.push(row);
    for (const alts of rowBranches) items.push(branchRow(alts));
    row = null;
    rowBranches = [];
  };
  view.moves.forEach((m, i) => {
    const ply = i + 1;
    if (color === "black" || !row) {
      endRow();
      row = document.createElement("div");
      row.className = "move-row";
      if (color === "white") row.append(span("", "move-cell empty")); // white moves first here
    }
    const pass = m === "pa";
    const cls = "move-cell " + color + (pass ? " pass" : "") +
      (ply === view.cursor ? " current" : "") + (ply > view.cursor ? " future" : "");
    const b = button(cls, { ply });
    const a = analysis.get(i);
    if (pass) {
      b.append(span("", "num"), span("pass", "sq"));
      b.title = `${color} passes`;
    } else {
      number += 1;
      b.append(span(String(number), "num"), span(m + (a && a.mistake ? MARKS[a.mistake] : ""), "sq"));
    }
    const e = evals.get(ply);
    const score = span(e ? formatScore(Math.round(e.score)) : "", "score" + (e && e.exact ? " exact" : ""));
    if (e) score.title = `after this move: ${formatScore(e.score)} for black${e.exact ? " (exact)" : ""}`;
    b.append(score);
    if (a) {
      b.title = `played ${formatScore(a.score)}, best ${a.best_move} ${formatScore(a.best_score)}` +
        (a.mistake ? ` \u2014 ${a.mistake}` : "") + (a.comparable ? "" : " (scores of different kinds: not marked)");
      if (a.mistake) b.classList.add(a.mistake);
    }
    if (book.has(i)) {
      b.classList.add("book");
      b.title = b.title ? `${b.title} (book move)` : "from the opening book";
    }
    row.append(b);
    const alts = branches.get(ply);
    if (alts) rowBranches.push({ ply, number: pass ? null : number, alts });
    color = color === "black" ? "white" : "black";
  });
  endRow();
  list.replaceChildren(...items);
  const cur = list.querySelector(".current");
  if (cur) {
    // Scroll the list only (scrollIntoView would scroll the whole page on narrow screens).
    const top = cur.offsetTop, bottom = top + cur.offsetHeight;
    if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, bottom - list.clientHeight);
    }
  }
}

/** The other moves of the tree at one ply, under the row of the move they replace. */
function branchRow({ ply, number, alts }) {
  const div = document.createElement("div");
  div.className = "branches";
  div.append(span(number === null ? "instead of the pass:" : `instead of ${number}:`, "subtle"));
  for (const alt of alts) {
    const ab = button("branch" + (alt.main ? " main" : ""), { node: alt.node });
    ab.textContent = alt.move;
    ab.title = alt.main ? `main line: ${alt.move} at ply ${ply}` : `variation: ${alt.move} at ply ${ply}`;
    div.append(" ", ab);
  }
  return div;
}

/** The node of the main line where the line shown leaves it, or null on the main line. */
export function mainLineNode(view) {
  const mains = view.branches.filter((b) => b.main);
  return mains.length ? mains[0].node : null;
}

/** The nodes at the cursor's ply: the line's own and its branches, in tree order-ish. */
export function siblingNodes(view) {
  if (view.cursor === 0) return [];
  const here = view.nodes[view.cursor];
  const alts = view.branches.filter((b) => b.ply === view.cursor).map((b) => b.node);
  return [here, ...alts].sort((a, b) => a - b);
}
