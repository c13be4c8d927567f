// The mjsat game page: draws the board as mjsat.render.svg_board does and calls the
// server's JSON API for every rule. No framework, no build step.
"use strict";

const FILLS = ["#fdf6e3", "#f3e2b3", "#e6c98a", "#d4ad63", "#c08f45", "#a87432", "#8c5c25"];
const SVGNS = "http://www.w3.org/2000/svg";
let state = null;
let selected = null;
let geometry = null;

function $(id) { return document.getElementById(id); }

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  const data = await res.json();
  return data;
}

function say(text) { $("message").textContent = text || ""; }

function el(name, attrs, parent) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function hue(group) { return `hsl(${(group * 137.508) % 360}, 65%, 30%)`; }

function draw() {
  if (window.teachDraw && window.teachDraw(state)) {  // a lesson draws its own picture (teach.js)
    if (selected !== null) mark(selected, "selected");
    return;
  }
  const [r0, c0, r1, c1] = state.bounds;
  const unit = 18, ux = unit, uy = Math.floor(unit * 1.3), shift = Math.max(3, Math.floor(unit / 4));
  const levels = Math.max(state.levels, 1);
  const pad = 10 + shift * levels + 2 * uy;
  const width = (c1 - c0 + 1) * ux + 2 * pad, height = (r1 - r0 + 1) * uy + 2 * pad;
  geometry = {r0, c0, ux, uy, shift, pad};
  const svg = el("svg", {xmlns: SVGNS, width, height, viewBox: `0 0 ${width} ${height}`, "font-family": "sans-serif"});
  el("rect", {width, height, fill: "#2f4f3f"}, svg);
  const tiles = state.tiles.filter(t => t[6]);
  tiles.sort((a, b) => (a[3] - b[3]) || (a[1] - b[1]) || (b[2] - a[2]));
  const fs = Math.max(7, Math.floor(unit * 0.55));
  for (const [t, r, c, l, label, group] of tiles) {
    const x = pad + (c - c0) * ux - l * shift, y = pad + (r - r0) * uy - l * shift;
    const g = el("g", {class: "tile", "data-tile": t}, svg);
    el("title", {}, g).textContent = `tile ${t} group ${label} at (${r}, ${c}, ${l})`;
    el("rect", {x: x + shift, y: y + shift, width: 2 * ux - 2, height: 2 * uy - 2, rx: 3, fill: "#1b2b22"}, g);
    el("rect", {class: "face", x, y, width: 2 * ux - 2, height: 2 * uy - 2, rx: 3,
                fill: FILLS[Math.min(l, FILLS.length - 1)], stroke: "#5a4a2a", "stroke-width": 1}, g);
    const text = el("text", {x: x + ux - 1, y: y + uy + fs / 3, "font-size": fs, "text-anchor": "middle",
                             fill: hue(group), "font-weight": "bold"}, g);
    text.textContent = label.slice(0, 6);
    g.addEventListener("click", () => clickTile(t));
  }
  const holder = $("board");
  holder.replaceChildren(svg);
  if (selected !== null) mark(selected, "selected");
}

function mark(t, cls) {
  const g = document.querySelector(`.tile[data-tile="${t}"]`);
  if (g) g.classList.add(cls);
}

function clearMarks(cls) {
  document.querySelectorAll(`.tile.${cls}`).forEach(g => g.classList.remove(cls));
}

function showPath(path) {
  if (!path || !geometry) return;
  const {r0, c0, ux, uy, shift, pad} = geometry;
  const svg = document.querySelector("#board svg");
  const points = path.map(([r, c, l]) => `${pad + (c - c0) * ux - l * shift},${pad + (r - r0) * uy - l * shift}`).join(" ");
  const line = el("polyline", {class: "path", points}, svg);
  setTimeout(() => line.remove(), 900);
}

function showStatus() {
  const s = state.status;
  const m = state.meta || {};
  const share = (m.playout_share === null || m.playout_share === undefined) ? "" :
    `, random playouts clear it ${(100 * m.playout_share).toFixed(0)} % of the time`;
  $("info").textContent = `${state.game} on ${state.layout || "a board"}` +
    (m.difficulty ? `, ${m.difficulty}` : "") + (m.seed !== undefined ? ` (deal seed ${m.seed})` : "") + share;
  $("status").textContent = `${s.tiles_left} tiles left, ${s.moves_played} moves. ${s.message}` +
    (s.checking ? " (checking...)" : "") +
    ` | undo ${s.undo_left}, redo ${s.redo_left}, hints ${s.hints_left}`;
  $("status").className = s.won ? "won" : (s.verdict === "unsolvable" ? "lost" : "");
  $("status").dataset.verdict = s.verdict;
  $("status").dataset.checking = s.checking ? "1" : "0";
  $("undo").disabled = s.undo_left === 0;
  $("redo").disabled = s.redo_left === 0;
  $("hint").disabled = s.hints_left === 0 || s.won;
}

function fillControls() {
  const fill = (sel, items, value) => {
    sel.replaceChildren(...items.map(v => { const o = document.createElement("option"); o.value = v; o.textContent = v; return o; }));
    sel.value = value;
  };
  fill($("layout"), state.layouts, state.settings.layout);
  fill($("gamekind"), state.games, state.settings.game);
  $("difficulty").value = state.settings.difficulty;
  $("seed").value = state.settings.seed;
}

function update(newState, redraw = true) {
  state = newState;
  if (redraw) draw();
  showStatus();
  if (window.teachUpdate) window.teachUpdate(state);
  if (state.status.checking) waitVerdict();
}

let waiting = false;
async function waitVerdict() {
  if (waiting) return;
  waiting = true;
  try {
    const fresh = await api("/api/verdict");
    update(fresh, false);
  } finally { waiting = false; }
}

async function clickTile(t) {
  if (selected === null) { selected = t; clearMarks("hinted"); mark(t, "selected"); return; }
  if (selected === t) { selected = null; clearMarks("selected"); return; }
  const a = selected;
  selected = null;
  const res = await api("/api/pair", {a, b: t});
  if (!res.played) {
    clearMarks("selected");
    mark(a, "refused"); mark(t, "refused");
    setTimeout(() => clearMarks("refused"), 900);
    say(`refused: ${res.reason}`);
    return;
  }
  say("");
  update(res.state);
  showPath(res.path);
}

async function undoRedo(which) {
  const res = await api(`/api/${which}`, {});
  say(res.ok ? "" : res.reason);
  selected = null;
  update(res.state);
}

async function hint() {
  say("looking for a hint...");
  const res = await api("/api/hint", {});
  update(res.state);
  say(res.message);
  if (res.kind === "move") { mark(res.move[0], "hinted"); mark(res.move[1], "hinted"); }
}

async function newGame() {
  say("dealing...");
  const res = await api("/api/new", {
    difficulty: $("difficulty").value, seed: parseInt($("seed").value || "0", 10),
    layout: $("layout").value, game: $("gamekind").value,
  });
  say(res.ok ? "" : res.reason);
  selected = null;
  update(res.state);
  fillControls();
}

async function save() {
  const res = await fetch("/api/save");
  const blob = new Blob([await res.text()], {type: "application/json"});
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = $("savename").value || "mjsat-game.json";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  say(`saved as ${a.download}`);
}

async function load(event) {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  event.target.value = "";
  const res = await api("/api/load", {text, name: file.name});
  if (!res.ok) { say(`not loaded: ${res.reason}`); return; }
  say(`loaded ${file.name}`);
  selected = null;
  update(res.state);
  fillControls();
}

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
  if (e.key === "u") undoRedo("undo");
  else if (e.key === "r") undoRedo("redo");
  else if (e.key === "h") hint();
  else if (e.key === "s") save();
});

window.addEventListener("load", async () => {
  $("undo").addEventListener("click", () => undoRedo("undo"));
  $("redo").addEventListener("click", () => undoRedo("redo"));
  $("hint").addEventListener("click", hint);
  $("new").addEventListener("click", newGame);
  $("save").addEventListener("click", save);
  $("load").addEventListener("change", load);
  update(await api("/api/state"));
  fillControls();
  document.body.dataset.ready = "1";
});
