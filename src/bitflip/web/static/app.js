// The page: one game per tab (its id in the URL's #game=...), kept in step with the server by
// long polling GET /api/games/{id}?after=version. Every action is a call to the JSON API.

import { call, clockText } from "./api.js";
import { drawBoard, squareAt, squareName, formatScore, FLIP_MS, STAGGER_MS } from "./board.js";
import { drawGraph, graphReadout, plyAt } from "./graph.js";
import { renderMoves, mainLineNode, siblingNodes } from "./moves.js";
import { setupDialogs, fillOpponents } from "./dialogs.js";

const $ = (sel) => document.querySelector(sel);

const st = {
  view: null,          // the latest GameView
  hover: null,         // square name under the pointer
  flashUntil: 0,       // legal moves flash until this time (ms)
  hints: null,         // {ply, cells, list}
  pollAbort: null,
  agents: null,        // /api/agents
  rotate: localStorage.getItem("bitflip.rotate") === "1",
  animate: null,       // {node, squares}: discs to animate on the next board drawing
  clockAt: 0,          // when the view's clock was read (ms)
};
let messageTimer = null;
// The longest a move's animation runs: the farthest disc of a line of 7 starts last.
const ANIMATION_MS = FLIP_MS + 6 * STAGGER_MS + 40;

const gamePath = (suffix = "") => `/api/games/${st.view.id}${suffix}`;

// --- messages -------------------------------------------------------------------------------

function say(text, kind = "info", ms = 4000) {
  const m = $("#message");
  m.textContent = text;
  m.className = kind;
  clearTimeout(messageTimer);
  if (ms) messageTimer = setTimeout(() => { m.textContent = ""; m.className = ""; }, ms);
}

// --- rendering ------------------------------------------------------------------------------

function hintMap() {
  const { hints, view } = st;
  if (!hints || !view || hints.ply !== view.cursor || hints.cells !== view.cells) return null;
  const map = new Map();
  hints.list.forEach((h, i) => map.set(h.move, { ...h, best: i === 0 }));
  return map;
}

function renderBoard() {
  const view = st.view;
  // A redraw while the discs turn (a hover, a poll) carries the animation on where it was.
  let anim = null;
  if (st.animate && st.animate.node === view.node) {
    const elapsed = performance.now() - st.animate.t0;
    if (elapsed < ANIMATION_MS) anim = { squares: st.animate.squares, elapsed };
  }
  if (!anim) st.animate = null;
  drawBoard($("#board"), {
    size: view.size,
    cells: view.cells,
    legal: view.legal,
    lastMove: view.last_move,
    showLegal: view.human_to_move,
    hover: st.hover,
    hints: hintMap(),
    flash: Date.now() < st.flashUntil,
    rotate: st.rotate,
    animate: anim,
  });
  const hover = st.hover;
  const legal = view.legal.includes(hover);
  const empty = hover && view.cells[cellIndex(hover, view.size)] === "-";
  const text = !hover ? "\u00a0" : legal ? `${hover}: legal` : empty ? `${hover}: not legal` : hover;
  $("#hover-name").textContent = text;
  $("#hover-name").className = hover ? (legal ? "legal" : empty ? "illegal" : "") : "";
}

function cellIndex(name, size) {
  const col = "abcdefgh".indexOf(name[0]), row = parseInt(name.slice(1), 10) - 1;
  return row * size + col;
}

function turnText(view) {
  if (view.over) return "Game over";
  const who = view.turn[0].toUpperCase() + view.turn.slice(1);
  let turn;
  if (view.human_to_move) turn = `${who} to move (you)`;
  else if (view.thinking) {
    turn = `${who} (${view.opponent}) is thinking\u2026`;
    const sr = view.search;
    if (sr) turn += ` depth ${sr.depth}${sr.exact ? " (exact)" : ""}, ${formatScore(sr.score)}, ${sr.pv.slice(0, 4).join(" ")}`;
  } else if (view.human === "none" && view.paused) turn = `${who} to move \u2014 paused`;
  else turn = `${who} to move (${view.opponent})`;
  if (view.pondering && view.human_to_move) turn += " \u2014 opponent pondering";
  return turn;
}

/**
 * The result in words, as [score, why]. A finished game counts the empty squares for the
 * winner, so the score can differ from the discs on the board: then `why` says so ("White wins
 * 64-0" "(58 discs + 6 empty squares to the winner)"). Resignations and lost flags keep the
 * server's words.
 */
function resultText(view) {
  const r = view.result;
  if (!/^(Black wins|White wins|Draw)\b/.test(r.text)) return [r.text, ""];
  const empties = view.size * view.size - view.black - view.white;
  if (!r.winner) return [`Draw ${r.black}-${r.white}`, empties ? `(${empties} empty squares shared)` : ""];
  const who = r.winner === "black" ? "Black" : "White";
  const [won, lost] = r.winner === "black" ? [r.black, r.white] : [r.white, r.black];
  const discs = r.winner === "black" ? view.black : view.white;
  const plural = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;
  const why = empties ? `(${plural(discs, "disc")} + ${plural(empties, "empty square")} to the winner)` : "";
  return [`${who} wins ${won}-${lost}`, why];
}

function render() {
  const view = st.view;
  renderBoard();
  $("#count-black b").textContent = view.black;
  $("#count-white b").textContent = view.white;
  $("#count-black").classList.toggle("to-move", view.turn === "black");
  $("#count-white").classList.toggle("to-move", view.turn === "white");
  $("#turn").textContent = turnText(view);
  $("#turn").classList.toggle("thinking", view.thinking);
  $("#opening").textContent = view.opening ? `Opening: ${view.opening.name}` : "";
  // A pass announced before the last move is stale once the game is over: the banner says it all.
  $("#notice").textContent = view.over ? "" : view.notice;
  const banner = $("#result-banner");
  banner.hidden = !view.result;
  if (view.result) {
    const [score, why] = resultText(view);
    const detail = Object.assign(document.createElement("span"), { className: "why", textContent: why });
    banner.replaceChildren(score, ...(why ? [" ", detail] : []));
  }
  $("#btn-undo").disabled = !view.can_undo;
  $("#btn-redo").disabled = !view.can_redo;
  $("#btn-hint").disabled = view.over || !!view.analysing;
  $("#btn-move-now").disabled =
    view.over || view.human === "both" || (view.human_to_move && !view.thinking);
  $("#btn-analyse").disabled = !view.moves.length || !!view.analysing;
  $("#btn-resign").disabled = view.over || view.human === "none";
  $("#side").value = view.human;
  fillOpponents($("#opponent"), st.agents, view.opponent);
  $("#watch").hidden = view.human !== "none" || view.over;
  $("#btn-pause").textContent = view.paused ? "Resume" : "Pause";
  // The pace shown is the option nearest the game's delay.
  const paces = [...$("#watch-delay").options].map((o) => Number(o.value));
  const pace = paces.reduce((a, b) => (Math.abs(b - view.delay) < Math.abs(a - view.delay) ? b : a));
  $("#watch-delay").value = String(pace);
  $("#error").hidden = !view.error;
  $("#error").textContent = view.error;
  $("#game-title").textContent = view.title ? `\u2014 ${view.title}` : "";
  $("#variation-bar").hidden = view.on_main_line;
  renderMoves($("#moves"), view);
  $("#transcript").value = view.transcript;
  drawGraph($("#graph"), view);
  $("#graph-readout").textContent = graphReadout(view);
  $("#analysis-status").textContent = view.analysing
    ? `Analysing: ${view.analysing.done} of ${view.analysing.total} moves\u2026`
    : view.analysis.length ? analysisSummary() : "";
  renderHints();
  renderClocks();
  $("#save-ggf").href = gamePath("/export?format=ggf&download=true");
  $("#save-transcript").href = gamePath("/export?format=transcript&download=true");
  document.title = `bitflip \u2014 ${view.black}:${view.white}`;
}

function renderClocks() {
  const c = st.view && st.view.clock;
  for (const color of ["black", "white"]) {
    const e = $(`#clock-${color}`);
    e.hidden = !c;
    if (!c) continue;
    let left = c[color];
    if (c.running === color) left -= (Date.now() - st.clockAt) / 1000;
    e.textContent = clockText(left);
    e.classList.toggle("running", c.running === color);
    e.classList.toggle("low", left < 10);
  }
}

function analysisSummary() {
  const n = { inaccuracy: 0, mistake: 0, blunder: 0 };
  for (const a of st.view.analysis) if (a.mistake) n[a.mistake]++;
  const opening = st.view.opening ? ` (${st.view.opening.name})` : "";
  return `Analysed ${st.view.analysis.length} moves${opening}: ${n.blunder} blunders (??), ` +
    `${n.mistake} mistakes (?), ${n.inaccuracy} inaccuracies (?!)`;
}

function renderHints() {
  const map = hintMap();
  $("#hints-box").hidden = !map;
  if (!map) return;
  const rows = st.hints.list.map((h) => {
    const tr = document.createElement("tr");
    for (const t of [h.move, formatScore(h.score), String(h.depth), h.exact ? "exact" : ""]) {
      tr.append(Object.assign(document.createElement("td"), { textContent: t }));
    }
    if (h.exact) tr.children[1].className = "exact";
    return tr;
  });
  $("#hints tbody").replaceChildren(...rows);
}

// --- game state -----------------------------------------------------------------------------

function show(newView) {
  const old = st.view;
  if (old && newView.id === old.id && newView.version < old.version) return;
  const firstOfGame = !old || old.id !== newView.id;
  if (firstOfGame) { st.hover = null; st.flashUntil = 0; say("", "info", 1); }
  // A move just made (one step along the tree): its disc and the discs it turned animate.
  if (!firstOfGame && newView.node !== old.node && newView.cursor > 0 &&
      newView.nodes[newView.cursor - 1] === old.node && newView.last_move) {
    st.animate = {
      node: newView.node, squares: new Set([newView.last_move, ...newView.flipped]), t0: performance.now(),
    };
  }
  // The square just played is no longer "under the pointer" as a candidate.
  if (!firstOfGame && st.hover && newView.cells !== old.cells) st.hover = null;
  st.view = newView;
  st.clockAt = Date.now();
  if (firstOfGame && location.hash !== `#game=${newView.id}`) history.replaceState(null, "", `#game=${newView.id}`);
  render();
  if ($("#auto-hints").checked && newView.human_to_move && !hintMap() && !newView.analysing) requestHints(true);
}

async function poll() {
  if (st.pollAbort) st.pollAbort.abort();
  const ctrl = new AbortController();
  st.pollAbort = ctrl;
  while (!ctrl.signal.aborted && st.view) {
    try {
      const v = await call("GET", `/api/games/${st.view.id}?after=${st.view.version}&wait=20`, undefined, ctrl.signal);
      if (ctrl.signal.aborted) return;
      show(v);
    } catch (e) {
      if (ctrl.signal.aborted) return;
      if (e.status === 404) {
        // Deleted (in another tab), or a bare game the server let go: start afresh.
        say("That game is gone; here is a new one.", "info");
        await newGame({});
        return;
      }
      say(`Lost contact with the server: ${e.message}`, "error", 0);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

/** Show a game the server just answered with, and follow it. */
function openView(v) {
  st.view = null;
  st.hints = null;
  show(v);
  poll();
}

async function open(id) {
  try {
    openView(await call("GET", `/api/games/${id}`));
  } catch (e) {
    say(e.message, "error");
    await newGame({});
  }
}

async function newGame(settings) {
  openView(await call("POST", "/api/games", settings));
}

async function act(promise) {
  try {
    const v = await promise;
    if (v) show(v);
    return v;
  } catch (e) {
    say(e.message, "error");
    return null;
  }
}

const jump = (body) => act(call("POST", gamePath("/jump"), body));

async function requestHints(quiet = false) {
  const view = st.view;
  if (!view || view.over) return;
  const ply = view.cursor, cells = view.cells;
  if (!quiet) say("Thinking about every move\u2026", "info", 0);
  try {
    const res = await call("POST", gamePath("/hint"), { seconds: 1.0 });
    st.hints = { ply, cells, list: res.hints };
    if (!quiet) say("");
    render();
  } catch (e) {
    say(e.message, "error");
  }
}

// --- board and keys -------------------------------------------------------------------------

async function clickSquare(name) {
  if (!st.view) return;
  try {
    show(await call("POST", gamePath("/moves"), { move: name, ply: st.view.cursor }));
  } catch (e) {
    say(e.message, "error");
    st.flashUntil = Date.now() + 1400;
    renderBoard();
    setTimeout(renderBoard, 1450);
  }
}

function onKey(e) {
  const view = st.view;
  if (!view || e.target.closest("input, textarea, select, dialog") || e.altKey || e.ctrlKey || e.metaKey) return;
  const last = view.moves.length;
  let body = null;
  if (e.key === "ArrowLeft" && view.cursor > 0) body = { ply: view.cursor - 1 };
  else if (e.key === "ArrowRight" && view.cursor < last) body = { ply: view.cursor + 1 };
  else if (e.key === "Home" && view.cursor > 0) body = { ply: 0 };
  else if (e.key === "End" && view.cursor < last) body = { ply: last };
  else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
    const nodes = siblingNodes(view);
    if (nodes.length > 1) {
      const i = nodes.indexOf(view.node);
      const step = e.key === "ArrowDown" ? 1 : nodes.length - 1;
      body = { node: nodes[(i + step) % nodes.length] };
    }
  }
  if (body) { e.preventDefault(); jump(body); }
}

function setupBoard() {
  const svg = $("#board");
  svg.addEventListener("mousemove", (e) => {
    const sq = squareAt(e);
    if (sq !== st.hover) { st.hover = sq; if (st.view) renderBoard(); }
  });
  svg.addEventListener("mouseleave", () => { st.hover = null; if (st.view) renderBoard(); });
  svg.addEventListener("click", (e) => { const sq = squareAt(e); if (sq) clickSquare(sq); });
  $("#moves").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    if (b.dataset.node !== undefined) jump({ node: Number(b.dataset.node) });
    else if (b.dataset.ply !== undefined) jump({ ply: Number(b.dataset.ply) });
  });
  $("#graph").addEventListener("click", (e) => {
    if (st.view) jump({ ply: plyAt($("#graph"), e, st.view) });
  });
  document.addEventListener("keydown", onKey);
}

function setupControls() {
  $("#btn-undo").onclick = () => act(call("POST", gamePath("/undo")));
  $("#btn-redo").onclick = () => act(call("POST", gamePath("/redo")));
  $("#btn-hint").onclick = () => requestHints(false);
  $("#btn-move-now").onclick = () => act(call("POST", gamePath("/move-now")));
  $("#btn-analyse").onclick = () => act(call("POST", gamePath("/analyse"), { seconds_per_move: 0.3 }));
  $("#btn-resign").onclick = () => act(call("POST", gamePath("/resign")));
  $("#btn-flip").onclick = () => {
    st.rotate = !st.rotate;
    localStorage.setItem("bitflip.rotate", st.rotate ? "1" : "0");
    $("#btn-flip").classList.toggle("active", st.rotate);
    if (st.view) renderBoard();
  };
  $("#btn-flip").classList.toggle("active", st.rotate);
  $("#btn-main-line").onclick = () => {
    const node = st.view && mainLineNode(st.view);
    if (node !== null) jump({ node });
  };
  $("#side").onchange = () => act(call("PATCH", gamePath(), { human: $("#side").value }));
  $("#opponent").onchange = () => act(call("PATCH", gamePath(), { opponent: $("#opponent").value }));
  $("#btn-pause").onclick = () => act(call("PATCH", gamePath(), { paused: !st.view.paused }));
  $("#watch-delay").onchange = () => act(call("PATCH", gamePath(), { delay: Number($("#watch-delay").value) }));
  $("#auto-hints").onchange = () => { if ($("#auto-hints").checked) requestHints(true); };
  setInterval(() => { if (st.view && st.view.clock && st.view.clock.running) renderClocks(); }, 250);
}

// --- start ----------------------------------------------------------------------------------

function idFromHash() {
  const m = location.hash.match(/game=([\w-]+)/);
  return m ? m[1] : null;
}

async function main() {
  setupBoard();
  setupControls();
  st.agents = await call("GET", "/api/agents");
  setupDialogs({ st, say, openView, newGame, gamePath });
  window.addEventListener("hashchange", () => {
    const id = idFromHash();
    if (id && (!st.view || st.view.id !== id)) open(id);
  });
  const id = idFromHash();
  if (id) await open(id);
  else await newGame({});
}

main().catch((e) => say(e.message, "error", 0));

// For tests and the console.
window.bitflip = { get view() { return st.view; }, squareName };
