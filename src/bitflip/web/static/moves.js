// The move list: the line shown, with the tree's other moves as branches where they leave it.

import { formatScore } from "./board.js";

const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function button(text, className, data) {
  const b = document.createElement("button");
  b.textContent = text;
  if (className) b.className = className;
  for (const [k, v] of Object.entries(data)) b.dataset[k] = String(v);
  return b;
}

export function renderMoves(list, view) {
  const analysis = new Map(view.analysis.map((a) => [a.ply, a]));
  // A book move's position carries the book's score: the move played from it is the book's.
  const book = new Set(view.evals.filter((e) => e.source === "book").map((e) => e.ply));
  const branches = new Map();
  for (const b of view.branches) {
    if (!branches.has(b.ply)) branches.set(b.ply, []);
    branches.get(b.ply).push(b);
  }
  const items = [];
  const start = document.createElement("li");
  start.append(button("start", view.cursor === 0 ? "current" : "", { ply: 0 }));
  items.push(start);
  let color = view.start.trim().endsWith("O") ? "white" : "black";
  view.moves.forEach((m, i) => {
    const ply = i + 1;
    const li = document.createElement("li");
    const a = analysis.get(i);
    const cls = color + (ply === view.cursor ? " current" : "") + (ply > view.cursor ? " future" : "");
    const b = button(`${ply}. ${m}` + (a && a.mistake ? MARKS[a.mistake] : ""), cls, { ply });
    if (a) {
      b.title = `played ${formatScore(a.score)}, best ${a.best_move} ${formatScore(a.best_score)}` +
        (a.mistake ? ` \u2014 ${a.mistake}` : "") + (a.comparable ? "" : " (scores of different kinds: not marked)");
      if (a.mistake) b.classList.add(a.mistake);
    }
    if (book.has(i)) {
      b.classList.add("book");
      b.title = b.title ? `${b.title} (book move)` : "from the opening book";
    }
    li.append(b);
    const alts = branches.get(ply);
    if (alts) {
      const span = document.createElement("span");
      span.className = "branches";
      span.append("(");
      alts.forEach((alt, k) => {
        if (k) span.append(" ");
        const ab = button(alt.move, "branch" + (alt.main ? " main" : ""), { node: alt.node });
        ab.title = alt.main ? `main line: ${ply}. ${alt.move}` : `variation: ${ply}. ${alt.move}`;
        span.append(ab);
      });
      span.append(")");
      li.append(span);
    }
    items.push(li);
    color = color === "black" ? "white" : "black";
  });
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
