// The page: one game per tab (its id in the URL's #game=...), kept in step with the server by
// long polling GET /api/games/{id}?after=version. Every action is a call to the JSON API.

import { drawBoard, squareAt, squareName, squaresOf, formatScore } from "./board.js";
import { drawGraph, plyAt } from "./graph.js";

const $ = (sel) => document.querySelector(sel);

let view = null;          // the latest GameView
let hover = null;         // square name under the pointer
let flashUntil = 0;       // legal moves flash until this time (ms)
let hints = null;         // {ply, cells, list}
let pollAbort = null;
let agentsInfo = null;
let messageTimer = null;

// --- API ------------------------------------------------------------------------------------

async function call(method, path, body, signal) {
  const opts = { method, headers: {}, signal };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) {
    const err = new Error((data && data.detail) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

const gamePath = (suffix = "") => `/api/games/${view.id}${suffix}`;

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
  if (!hints || !view || hints.ply !== view.cursor || hints.cells !== view.cells) return null;
  const map = new Map();
  hints.list.forEach((h, i) => map.set(h.move, { ...h, best: i === 0 }));
  return map;
}

function renderBoard() {
  drawBoard($("#board"), {
    size: view.size,
    cells: view.cells,
    legal: view.legal,
    lastMove: view.last_move,
    flipped: view.flipped,
    showLegal: view.human_to_move,
    hover,
    hints: hintMap(),
    flash: Date.now() < flashUntil,
  });
  const legal = view.legal.includes(hover);
  $("#hover-name").textContent = hover ? `${hover}: ${legal ? "legal" : "not legal"}` : "\u00a0";
  $("#hover-name").className = hover ? (legal ? "legal" : "illegal") : "";
}

function render() {
  renderBoard();
  $("#count-black b").textContent = view.black;
  $("#count-white b").textContent = view.white;
  $("#count-black").classList.toggle("to-move", view.turn === "black");
  $("#count-white").classList.toggle("to-move", view.turn === "white");
  let turn;
  if (view.over) turn = "Game over";
  else {
    const who = view.turn[0].toUpperCase() + view.turn.slice(1);
    if (view.human_to_move) turn = `${who} to move (you)`;
    else if (view.thinking) {
      turn = `${who} (${view.opponent}) is thinking\u2026`;
      const sr = view.search;
      if (sr) turn += ` depth ${sr.depth}${sr.exact ? " (exact)" : ""}, ${formatScore(sr.score)}, ${sr.pv.slice(0, 4).join(" ")}`;
    }
    else turn = `${who} to move (${view.opponent})`;
    if (view.pondering && view.human_to_move) turn += " \u2014 opponent pondering";
  }
  $("#turn").textContent = turn;
  $("#turn").classList.toggle("thinking", view.thinking);
  $("#notice").textContent = view.notice;
  const banner = $("#result-banner");
  banner.hidden = !view.result;
  if (view.result) banner.textContent = view.result.text;
  $("#btn-undo").disabled = !view.can_undo;
  $("#btn-redo").disabled = !view.can_redo;
  $("#btn-hint").disabled = view.over || !!view.analysing;
  $("#btn-move-now").disabled =
    view.over || view.human === "both" || (view.human_to_move && !view.thinking);
  $("#btn-analyse").disabled = !view.moves.length || !!view.analysing;
  $("#error").hidden = !view.error;
  $("#error").textContent = view.error;
  $("#game-title").textContent = view.title ? `\u2014 ${view.title}` : "";
  renderMoves();
  $("#transcript").value = view.transcript;
  drawGraph($("#graph"), view);
  $("#analysis-status").textContent = view.analysing
    ? `Analysing: ${view.analysing.done} of ${view.analysing.total} moves\u2026`
    : view.analysis.length ? analysisSummary() : "";
  renderHints();
  $("#save-ggf").href = gamePath("/export?format=ggf&download=true");
  $("#save-transcript").href = gamePath("/export?format=transcript&download=true");
  document.title = `bitflip \u2014 ${view.black}:${view.white}`;
}

function analysisSummary() {
  const n = { inaccuracy: 0, mistake: 0, blunder: 0 };
  for (const a of view.analysis) if (a.mistake) n[a.mistake]++;
  return `Analysed ${view.analysis.length} moves: ${n.blunder} blunders (??), ` +
    `${n.mistake} mistakes (?), ${n.inaccuracy} inaccuracies (?!)`;
}

const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function renderMoves() {
  const list = $("#moves");
  const analysis = new Map(view.analysis.map((a) => [a.ply, a]));
  const items = [];
  const start = document.createElement("li");
  start.append(Object.assign(document.createElement("button"), { textContent: "start" }));
  start.firstChild.dataset.ply = "0";
  items.push(start);
  let color = view.start.trim().endsWith("O") ? "white" : "black";
  view.moves.forEach((m, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.dataset.ply = String(i + 1);
    b.className = color + (i + 1 === view.cursor ? " current" : "") + (i >= view.cursor ? " future" : "");
    const a = analysis.get(i);
    b.textContent = `${i + 1}. ${m}` + (a && a.mistake ? MARKS[a.mistake] : "");
    if (a) {
      b.title = `played ${formatScore(a.score)}, best ${a.best_move} ${formatScore(a.best_score)}` +
        (a.mistake ? ` \u2014 ${a.mistake}` : "");
      if (a.mistake) b.classList.add(a.mistake);
    }
    li.append(b);
    items.push(li);
    color = color === "black" ? "white" : "black";
  });
  list.replaceChildren(...items);
  if (view.cursor === 0) start.firstChild.classList.add("current");
  const cur = list.querySelector(".current");
  if (cur) {
    // Scroll the list only (scrollIntoView would scroll the whole page on narrow screens).
    const top = cur.offsetTop, bottom = top + cur.offsetHeight;
    if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, bottom - list.clientHeight);
    }
  }
}

/** A table cell holding ``text`` as text. */
function cell(text) {
  return Object.assign(document.createElement("td"), { textContent: text });
}

function renderHints() {
  const map = hintMap();
  $("#hints-box").hidden = !map;
  if (!map) return;
  const rows = hints.list.map((h) => {
    const tr = document.createElement("tr");
    tr.append(cell(h.move), cell(formatScore(h.score)), cell(String(h.depth)), cell(h.exact ? "exact" : ""));
    if (h.exact) tr.children[1].className = "exact";
    return tr;
  });
  $("#hints tbody").replaceChildren(...rows);
}

// --- game state -----------------------------------------------------------------------------

function show(newView) {
  if (view && newView.id === view.id && newView.version < view.version) return;
  const firstOfGame = !view || view.id !== newView.id;
  if (firstOfGame) { hover = null; flashUntil = 0; say("", "info", 1); }
  view = newView;
  if (firstOfGame && location.hash !== `#game=${view.id}`) history.replaceState(null, "", `#game=${view.id}`);
  render();
  if ($("#auto-hints").checked && view.human_to_move && !hintMap() && !view.analysing) requestHints(true);
}

async function poll() {
  if (pollAbort) pollAbort.abort();
  const ctrl = new AbortController();
  pollAbort = ctrl;
  while (!ctrl.signal.aborted && view) {
    try {
      const v = await call("GET", `/api/games/${view.id}?after=${view.version}&wait=20`, undefined, ctrl.signal);
      if (ctrl.signal.aborted) return;
      show(v);
    } catch (e) {
      if (ctrl.signal.aborted) return;
      say(`Lost contact with the server: ${e.message}`, "error", 0);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

async function open(id) {
  try {
    view = null;
    hints = null;
    show(await call("GET", `/api/games/${id}`));
    poll();
  } catch (e) {
    say(e.message, "error");
    await newGame({});
  }
}

async function newGame(settings) {
  hints = null;
  const v = await call("POST", "/api/games", settings);
  view = null;
  show(v);
  poll();
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

async function requestHints(quiet = false) {
  if (!view || view.over) return;
  const ply = view.cursor, cells = view.cells;
  if (!quiet) say("Thinking about every move\u2026", "info", 0);
  try {
    const res = await call("POST", gamePath("/hint"), { seconds: 1.0 });
    hints = { ply, cells, list: res.hints };
    if (!quiet) say("");
    render();
  } catch (e) {
    say(e.message, "error");
  }
}

// --- board events ---------------------------------------------------------------------------

async function clickSquare(name) {
  if (!view) return;
  try {
    show(await call("POST", gamePath("/moves"), { move: name, ply: view.cursor }));
  } catch (e) {
    say(e.message, "error");
    flashUntil = Date.now() + 1400;
    renderBoard();
    setTimeout(renderBoard, 1450);
  }
}

function setupBoard() {
  const svg = $("#board");
  svg.addEventListener("mousemove", (e) => {
    const sq = squareAt(e);
    if (sq !== hover) { hover = sq; if (view) renderBoard(); }
  });
  svg.addEventListener("mouseleave", () => { hover = null; if (view) renderBoard(); });
  svg.addEventListener("click", (e) => { const sq = squareAt(e); if (sq) clickSquare(sq); });
  $("#moves").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-ply]");
    if (b) act(call("POST", gamePath("/jump"), { ply: Number(b.dataset.ply) }));
  });
  $("#graph").addEventListener("click", (e) => {
    if (view) act(call("POST", gamePath("/jump"), { ply: plyAt($("#graph"), e, view) }));
  });
  document.addEventListener("keydown", (e) => {
    if (!view || e.target.closest("input, textarea, select, dialog")) return;
    if (e.key === "ArrowLeft" && view.cursor > 0) act(call("POST", gamePath("/jump"), { ply: view.cursor - 1 }));
    if (e.key === "ArrowRight" && view.cursor < view.moves.length) act(call("POST", gamePath("/jump"), { ply: view.cursor + 1 }));
  });
}

// --- buttons and dialogs --------------------------------------------------------------------

async function loadAgents() {
  agentsInfo = await call("GET", "/api/agents");
  const list = $("#agent-list");
  list.replaceChildren(...agentsInfo.examples.map((s) => Object.assign(document.createElement("option"), { value: s })));
}

function setupDialogs() {
  $("#btn-undo").onclick = () => act(call("POST", gamePath("/undo")));
  $("#btn-redo").onclick = () => act(call("POST", gamePath("/redo")));
  $("#btn-hint").onclick = () => requestHints(false);
  $("#btn-move-now").onclick = () => act(call("POST", gamePath("/move-now")));
  $("#btn-analyse").onclick = () => act(call("POST", gamePath("/analyse"), { seconds_per_move: 0.3 }));
  $("#auto-hints").onchange = () => { if ($("#auto-hints").checked) requestHints(true); };

  const dNew = $("#dlg-new");
  $("#btn-new").onclick = () => {
    const f = $("#form-new");
    f.opponent.value = view ? view.opponent : agentsInfo.default;
    if (view) f.size.value = String(view.size);
    if (view && ["black", "white", "both", "none"].includes(view.human)) f.human.value = view.human;
    dNew.showModal();
  };
  dNew.addEventListener("close", async () => {
    if (dNew.returnValue !== "ok") return;
    const f = $("#form-new");
    try {
      await newGame({ human: f.human.value, opponent: f.opponent.value.trim() || null, size: Number(f.size.value) });
    } catch (e) { say(e.message, "error"); }
  });

  const dLoad = $("#dlg-load");
  $("#btn-load").onclick = () => { $("#load-error").hidden = true; dLoad.showModal(); };
  $("#load-file").onchange = async (e) => {
    const file = e.target.files[0];
    if (file) $("#form-load").text.value = await file.text();
  };
  $("#load-ok").onclick = async (e) => {
    e.preventDefault();
    const f = $("#form-load");
    try {
      const v = await call("POST", "/api/games/load", {
        text: f.text.value, format: f.format.value, size: Number(f.size.value), human: "both",
        opponent: view ? view.opponent : null,
      });
      dLoad.close();
      view = null; hints = null; show(v); poll();
      say("Game loaded: you play both sides; change that with New game or the board editor.");
    } catch (err) {
      $("#load-error").hidden = false;
      $("#load-error").textContent = err.message;
    }
  };

  $("#btn-games").onclick = async () => {
    const games = await call("GET", "/api/games");
    const rows = games.map((g) => {
      const tr = document.createElement("tr");
      const when = new Date(g.updated * 1000).toLocaleString();
      // Titles and names come from game files: text only, never markup.
      const link = Object.assign(document.createElement("a"), {
        href: "#game=" + encodeURIComponent(g.id), textContent: g.title || g.id,
      });
      const first = document.createElement("td");
      first.append(link);
      tr.append(first, cell(g.opponent), cell(g.human), cell(String(g.moves)), cell(when));
      return tr;
    });
    $("#games-table tbody").replaceChildren(...rows);
    $("#dlg-games").showModal();
  };
  $("#games-table").addEventListener("click", (e) => {
    if (e.target.closest("a")) $("#dlg-games").close();
  });

  setupEditor();
}

// --- board editor ---------------------------------------------------------------------------

const editor = { size: 8, cells: [] };

function editorStart(size) {
  const h = size / 2;
  editor.size = size;
  editor.cells = squaresOf(size).map((sq) => {
    const r = Math.floor(sq / 8), c = sq % 8;
    if ((r === h - 1 && c === h - 1) || (r === h && c === h)) return "O";
    if ((r === h - 1 && c === h) || (r === h && c === h - 1)) return "X";
    return "-";
  });
}

function drawEditor() {
  drawBoard($("#editor-board"), { size: editor.size, cells: editor.cells.join(""), legal: [] });
}

function setupEditor() {
  const d = $("#dlg-editor");
  const f = $("#form-editor");
  $("#btn-editor").onclick = () => {
    if (view) {
      editor.size = view.size;
      editor.cells = view.cells.split("");
      f.size.value = String(view.size);
      f.turn.value = view.turn === "white" ? "O" : "X";
    } else editorStart(8);
    f.opponent.value = view ? view.opponent : agentsInfo.default;
    $("#editor-error").hidden = true;
    drawEditor();
    d.showModal();
  };
  $("#editor-board").addEventListener("click", (e) => {
    const name = squareAt(e);
    if (!name) return;
    const sq = 8 * (parseInt(name.slice(1), 10) - 1) + "abcdefgh".indexOf(name[0]);
    const i = squaresOf(editor.size).indexOf(sq);
    const order = e.shiftKey ? ["-", "O", "X"] : ["-", "X", "O"];
    editor.cells[i] = order[(order.indexOf(editor.cells[i]) + 1) % 3];
    drawEditor();
  });
  f.size.onchange = () => { editorStart(Number(f.size.value)); drawEditor(); };
  $("#editor-clear").onclick = () => { editor.cells = editor.cells.map(() => "-"); drawEditor(); };
  $("#editor-start").onclick = () => { editorStart(Number(f.size.value)); drawEditor(); };
  $("#editor-current").onclick = () => {
    if (!view) return;
    editor.size = view.size; editor.cells = view.cells.split(""); f.size.value = String(view.size); drawEditor();
  };
  $("#editor-play").onclick = async (e) => {
    e.preventDefault();
    try {
      const v = await call("POST", "/api/games", {
        start: `${editor.cells.join("")} ${f.turn.value}`,
        human: f.human.value,
        opponent: f.opponent.value.trim() || null,
        title: "set-up position",
      });
      d.close();
      view = null; hints = null; show(v); poll();
    } catch (err) {
      $("#editor-error").hidden = false;
      $("#editor-error").textContent = err.message;
    }
  };
}

// --- start ----------------------------------------------------------------------------------

function idFromHash() {
  const m = location.hash.match(/game=([\w-]+)/);
  return m ? m[1] : null;
}

async function main() {
  setupBoard();
  setupDialogs();
  await loadAgents();
  window.addEventListener("hashchange", () => {
    const id = idFromHash();
    if (id && (!view || view.id !== id)) open(id);
  });
  const id = idFromHash();
  if (id) await open(id);
  else await newGame({});
}

main().catch((e) => say(e.message, "error", 0));

// For tests and the console.
window.bitflip = { get view() { return view; }, squareName };
