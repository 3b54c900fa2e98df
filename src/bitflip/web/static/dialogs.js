// The dialogs: new game, load, board editor and the game library. Game-derived text (titles,
// names, transcripts) is only ever set as text, never as markup.

import { call, textEl } from "./api.js";
import { drawBoard, squareAt, squaresOf } from "./board.js";

const $ = (sel) => document.querySelector(sel);

/** Fill an opponent <select>: engine levels with their move times, then the other agents. */
export function fillOpponents(select, agents, current) {
  if (!agents) return;
  if (!select.dataset.filled) {
    const levels = document.createElement("optgroup");
    levels.label = "bitflip engine";
    for (const l of agents.level_times) {
      const spec = `engine:level=${l.level}`;
      if (!agents.examples.includes(spec) && spec !== agents.default) continue;
      const o = textEl("option", l.label + (l.level === agents.default_level ? " (default)" : ""));
      o.value = spec;
      levels.append(o);
    }
    const others = document.createElement("optgroup");
    others.label = "other players";
    for (const spec of agents.examples) {
      if (spec.startsWith("engine:level=")) continue;
      const o = textEl("option", spec);
      o.value = spec;
      others.append(o);
    }
    select.replaceChildren(levels, others);
    select.dataset.filled = "1";
  }
  if (current && ![...select.options].some((o) => o.value === current)) {
    const o = textEl("option", current);
    o.value = current;
    select.append(o);
  }
  if (current && select.value !== current) select.value = current;
}

export function setupDialogs(ctx) {
  const { st } = ctx;
  const agents = st.agents;
  const current = () => (st.view ? st.view.opponent : agents.default);

  // --- new game ---
  const dNew = $("#dlg-new");
  $("#btn-new").onclick = () => {
    const f = $("#form-new");
    fillOpponents(f.opponent, agents, current());
    if (st.view) f.size.value = String(st.view.size);
    if (st.view) f.human.value = st.view.human;
    dNew.showModal();
  };
  dNew.addEventListener("close", async () => {
    if (dNew.returnValue !== "ok") return;
    const f = $("#form-new");
    const settings = { human: f.human.value, opponent: f.opponent.value, size: Number(f.size.value) };
    if (f.minutes.value) {
      settings.minutes = Number(f.minutes.value);
      settings.increment = Number(f.increment.value);
    }
    try { await ctx.newGame(settings); } catch (e) { ctx.say(e.message, "error"); }
  });

  // --- load ---
  const dLoad = $("#dlg-load");
  $("#btn-load").onclick = () => {
    $("#load-error").hidden = true;
    fillOpponents($("#form-load").opponent, agents, current());
    dLoad.showModal();
  };
  $("#load-file").onchange = async (e) => {
    const file = e.target.files[0];
    if (file) $("#form-load").text.value = await file.text();
  };
  $("#load-ok").onclick = async (e) => {
    e.preventDefault();
    const f = $("#form-load");
    try {
      const v = await call("POST", "/api/games/load", {
        text: f.text.value, format: f.format.value, size: Number(f.size.value),
        human: f.human.value, opponent: f.opponent.value,
      });
      dLoad.close();
      ctx.openView(v);
      const who = { both: "both sides", black: "black", white: "white", none: "neither side (watch)" }[v.human];
      ctx.say(`Game loaded: you play ${who}. Change it under "You play".`);
    } catch (err) {
      $("#load-error").hidden = false;
      $("#load-error").textContent = err.message;
    }
  };

  // The x in each dialog's title bar: the same as Cancel (or Esc).
  for (const b of document.querySelectorAll("dialog .dialog-head .close")) {
    b.onclick = () => b.closest("dialog").close("cancel");
  }

  setupLibrary(ctx);
  setupEditor(ctx);
}

// --- game library ---------------------------------------------------------------------------

function setupLibrary(ctx) {
  const dlg = $("#dlg-games");
  // Requests overlap (typing in the filter while a rename saves); only the newest one's answer
  // is shown, so a slow stale answer never overwrites a fresher list.
  let asked = 0;
  const list = async () => {
    const mine = ++asked;
    const q = new URLSearchParams({ player: $("#games-player").value, result: $("#games-result").value });
    const games = await call("GET", `/api/games?${q}`);
    if (mine !== asked) return;
    const rows = games.map((g) => libraryRow(ctx, g, list));
    $("#games-table tbody").replaceChildren(...rows);
    $("#games-empty").hidden = rows.length > 0;
  };
  $("#btn-games").onclick = async () => {
    try { await list(); } catch (e) { ctx.say(e.message, "error"); return; }
    dlg.showModal();
  };
  $("#games-player").oninput = () => list().catch((e) => ctx.say(e.message, "error"));
  $("#games-result").onchange = () => list().catch((e) => ctx.say(e.message, "error"));
  $("#games-table").addEventListener("click", (e) => {
    if (e.target.closest("a")) dlg.close();
  });
}

function libraryRow(ctx, g, refresh) {
  const tr = document.createElement("tr");
  tr.dataset.id = g.id;
  const when = new Date(g.updated * 1000).toLocaleString();
  // Titles and names come from game files: text only, never markup.
  const link = Object.assign(document.createElement("a"), {
    href: "#game=" + encodeURIComponent(g.id), textContent: g.title || g.id,
  });
  const first = document.createElement("td");
  first.append(link);
  // The score as the winner's count first ("white won 64-0"), as the result banner says it.
  let score = g.score;
  const m = /^(\d+)-(\d+)$/.exec(score);
  if (m && g.result === "white") score = `${m[2]}-${m[1]}`;
  const result = g.result ? (g.result === "draw" ? "draw" : `${g.result} won`) + (score ? ` ${score}` : "") : "";
  const actions = document.createElement("td");
  actions.className = "actions";
  const rename = textEl("button", "Rename", "rename");
  rename.type = "button";
  rename.onclick = () => {
    const input = Object.assign(document.createElement("input"), { value: g.title, maxLength: 200, className: "rename-input" });
    const save = textEl("button", "Save", "rename-save");
    save.type = "button";
    save.onclick = async () => {
      try {
        await call("PATCH", `/api/games/${g.id}`, { title: input.value });
        if (ctx.st.view && ctx.st.view.id === g.id) ctx.st.view = { ...ctx.st.view, title: input.value };
        await refresh();
      } catch (e) { ctx.say(e.message, "error"); }
    };
    input.onkeydown = (e) => { if (e.key === "Enter") { e.preventDefault(); save.click(); } };
    first.replaceChildren(input, save);
    input.focus();
  };
  const del = textEl("button", "Delete", "delete");
  del.type = "button";
  del.onclick = async () => {
    if (!del.classList.contains("sure")) {
      del.classList.add("sure");
      del.textContent = "Delete: sure?";
      return;
    }
    try {
      await call("DELETE", `/api/games/${g.id}`);
      if (ctx.st.view && ctx.st.view.id === g.id) await ctx.newGame({});
      await refresh();
    } catch (e) { ctx.say(e.message, "error"); }
  };
  actions.append(rename, " ", del);
  tr.append(first, textEl("td", g.opponent), textEl("td", g.human), textEl("td", String(g.moves)),
    textEl("td", result), textEl("td", when), actions);
  return tr;
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

function setupEditor(ctx) {
  const { st } = ctx;
  const d = $("#dlg-editor");
  const f = $("#form-editor");
  // The game's own position, unchanged: playing from it keeps the game's moves.
  const unchanged = () => st.view && editor.size === st.view.size &&
    editor.cells.join("") === st.view.cells && f.turn.value === (st.view.turn === "white" ? "O" : "X");
  const draw = () => {
    drawBoard($("#editor-board"), { size: editor.size, cells: editor.cells.join(""), legal: [], rotate: st.rotate });
    $("#editor-keeps").hidden = !unchanged();
  };
  $("#btn-editor").onclick = () => {
    if (st.view) {
      editor.size = st.view.size;
      editor.cells = st.view.cells.split("");
      f.size.value = String(st.view.size);
      f.turn.value = st.view.turn === "white" ? "O" : "X";
      f.human.value = st.view.human;
    } else editorStart(8);
    fillOpponents(f.opponent, st.agents, st.view ? st.view.opponent : st.agents.default);
    $("#editor-error").hidden = true;
    draw();
    d.showModal();
  };
  $("#editor-board").addEventListener("click", (e) => {
    const name = squareAt(e);
    if (!name) return;
    const sq = 8 * (parseInt(name.slice(1), 10) - 1) + "abcdefgh".indexOf(name[0]);
    const i = squaresOf(editor.size).indexOf(sq);
    const order = e.shiftKey ? ["-", "O", "X"] : ["-", "X", "O"];
    editor.cells[i] = order[(order.indexOf(editor.cells[i]) + 1) % 3];
    draw();
  });
  f.turn.onchange = draw;
  f.size.onchange = () => { editorStart(Number(f.size.value)); draw(); };
  $("#editor-clear").onclick = () => { editor.cells = editor.cells.map(() => "-"); draw(); };
  $("#editor-start").onclick = () => { editorStart(Number(f.size.value)); draw(); };
  $("#editor-current").onclick = () => {
    if (!st.view) return;
    editor.size = st.view.size; editor.cells = st.view.cells.split(""); f.size.value = String(st.view.size); draw();
  };
  $("#editor-play").onclick = async (e) => {
    e.preventDefault();
    try {
      let v;
      if (unchanged()) {
        // Play on in this game from its position: who plays what changes, nothing is lost.
        v = await call("PATCH", ctx.gamePath(), { human: f.human.value, opponent: f.opponent.value });
        d.close();
        ctx.openView(v);
        return;
      }
      v = await call("POST", "/api/games", {
        start: `${editor.cells.join("")} ${f.turn.value}`,
        human: f.human.value,
        opponent: f.opponent.value,
        title: "set-up position",
      });
      d.close();
      ctx.openView(v);
    } catch (err) {
      $("#editor-error").hidden = false;
      $("#editor-error").textContent = err.message;
    }
  };
}
