// The mjsat game page: draws the board with the faces of faces.js and calls the server's
// JSON API for every rule. No framework, no build step. teach.js (the lessons) uses the
// globals state, selected, api, say, update and clickTile.
"use strict";

const FILLS = ["#fdf6e3", "#f6ead0", "#efdfbd", "#e7d3aa", "#dfc797", "#d6bb85", "#cdaf74"];
const SVGNS = "http://www.w3.org/2000/svg";
let state = null;
let selected = null;
let cursor = null;
let geometry = null;
let dealing = false;

// The keys, as in the terminal interface. KEYS drives both the handler and the help overlay.
const KEYS = [
  ["←↑→↓", "move the cursor over the free tiles", null],
  ["space", "select the tile under the cursor (Enter too)", null],
  ["h", "hint: a pair after which the board can still be cleared", () => hint()],
  ["u", "undo", () => undoRedo("undo")],
  ["r", "redo", () => undoRedo("redo")],
  ["R", "restart: the same deal from the start", () => restart()],
  ["s", "shuffle the tiles left into a position that can be cleared", () => shuffle()],
  ["n", "new game (a new deal)", () => newGame()],
  ["p", "pause or go on", () => togglePause()],
  ["f", "free tiles shown or not", () => toggleOption("opt-free")],
  ["m", "tiles matching the selected one shown or not", () => toggleOption("opt-match")],
  ["t", "faces or numbers", () => toggleOption("opt-numbers")],
  ["l", "load a saved game", () => $("load").click()],
  ["Ctrl+S", "save the game (a download)", null],
  ["?", "this help", () => toggleHelp()],
  ["Esc", "cancel a deal under way, drop the selection, close this help", null],
];

function $(id) { return document.getElementById(id); }

// A call of the API: the JSON answer, or {ok: false, missing: true} when this server has no such route.
async function api(path, body) {
  if (body !== undefined) actions += 1;  // a POST may change the game
  const opts = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  if (res.status === 404 || res.status === 405) return {ok: false, missing: true, reason: `${path}: not on this server`};
  try { return await res.json(); } catch (e) { return {ok: false, reason: `${path}: answer ${res.status}`}; }
}

function say(text) { $("message").textContent = text || ""; }

function el(name, attrs, parent) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function hue(group) { return `hsl(${(group * 137.508) % 360}, 65%, 30%)`; }

// ------------------------------------------------------------------ what the state says

// Each tile's face id (the server's, tiles[t][7]: "dots-3", "wind-east", "flower-2", "dots-3-2").
function faces() {
  if (!state._faces) state._faces = state.tiles.map(tile => (typeof tile[7] === "string" ? tile[7] : null));
  return state._faces;
}

function tileOf(t) { return state.tiles[t]; }

// A tile in words, by face and place, as the server says it: "3 of dots at row 2, column 5, level 1".
function place(t) {
  const [, r, c, l] = tileOf(t);
  const [r0, c0] = state.bounds;
  const lev = state.levels > 1 ? `, level ${l + 1}` : "";
  return `row ${Math.floor((r - r0) / 2) + 1}, column ${Math.floor((c - c0) / 2) + 1}${lev}`;
}
function faceName(t) { return faces()[t] ? Faces.name(faces()[t]) : `tile of group ${tileOf(t)[4]}`; }
function tileName(t) { return `${faceName(t)} at ${place(t)}`; }

function freeSet() {
  if (Array.isArray(state.free)) return new Set(state.free);
  return null;  // this server does not say which tiles are free
}

function seedOf() {
  if (state.seed !== undefined && state.seed !== null) return state.seed;
  return state.settings ? state.settings.seed : null;
}
function difficultyOf() { return state.difficulty || (state.meta && state.meta.difficulty) || (state.settings && state.settings.difficulty) || ""; }
function dealId() { return [state.game, state.layout, seedOf(), difficultyOf(), state.tiles.length].join("|"); }

// moves, hints, undos and shuffles used (the server's counts)
function counts() {
  const c = state.counts || {};
  return {moves: c.moves ?? state.status.moves_played, hints: c.hints, undos: c.undos, shuffles: c.shuffles};
}

// ------------------------------------------------------------------ the board

function option(id) { return $(id).checked; }

function draw() {
  if (window.teachDraw && window.teachDraw(state)) {  // a lesson draws its own picture (teach.js)
    if (selected !== null) mark(selected, "selected");
    return;
  }
  const [r0, c0, r1, c1] = state.bounds;
  const unit = 20, ux = unit, uy = Math.round(unit * 1.3), shift = Math.max(3, Math.floor(unit / 4));
  const levels = Math.max(state.levels, 1);
  const shisen = state.game.startsWith("shisen");
  const pad = 8 + shift * levels + (shisen ? 2 * uy : 0);  // a Shisen-Sho path may run outside the board
  const width = (c1 - c0 + 1) * ux + 2 * pad + shift, height = (r1 - r0 + 1) * uy + 2 * pad + shift;
  geometry = {r0, c0, ux, uy, shift, pad};
  const svg = el("svg", {xmlns: SVGNS, width, height, viewBox: `0 0 ${width} ${height}`, "font-family": "sans-serif"});
  el("rect", {width, height, fill: "#2f4f3f", class: "felt"}, svg);
  const numbers = option("opt-numbers");
  const face = faces();
  const tiles = state.tiles.filter(t => t[6]);
  if (!numbers) Faces.defs(svg, tiles.map(t => face[t[0]]));
  const free = option("opt-free") ? freeSet() : null;
  tiles.sort((a, b) => (a[3] - b[3]) || (a[1] - b[1]) || (b[2] - a[2]));
  const fs = Math.max(7, Math.floor(unit * 0.55));
  const w = 2 * ux - 2, h = 2 * uy - 2;
  for (const [t, r, c, l, label, group] of tiles) {
    const x = pad + (c - c0) * ux - l * shift, y = pad + (r - r0) * uy - l * shift;
    const cls = "tile" + (free ? (free.has(t) ? " free" : " blocked") : "");
    const g = el("g", {class: cls, "data-tile": t, "data-group": group, "data-face": face[t]}, svg);
    el("title", {}, g).textContent = tileName(t);
    el("rect", {x: x + shift, y: y + shift, width: w, height: h, rx: 3, fill: "#1b2b22"}, g);
    el("rect", {class: "face", x, y, width: w, height: h, rx: 3, fill: FILLS[Math.min(l, FILLS.length - 1)],
                stroke: "#5a4a2a", "stroke-width": 1}, g);
    if (numbers || !Faces.use(g, face[t], x + 1, y + 1, w - 2, h - 2)) {
      const text = el("text", {x: x + ux - 1, y: y + uy + fs / 3, "font-size": fs, "text-anchor": "middle",
                               fill: hue(group), "font-weight": "bold", class: "label"}, g);
      text.textContent = label.slice(0, 6);
    }
    el("rect", {class: "shade", x, y, width: w, height: h, rx: 3}, g);
    g.addEventListener("click", () => clickTile(t));
  }
  $("board").replaceChildren(svg);
  $("board").dataset.faces = numbers ? "0" : "1";
  if (selected !== null) mark(selected, "selected");
  if (cursor !== null) mark(cursor, "cursor");
  showMatches();
}

function mark(t, cls) {
  const g = document.querySelector(`#board .tile[data-tile="${t}"]`);
  if (g) g.classList.add(cls);
}

function clearMarks(cls) {
  document.querySelectorAll(`#board .tile.${cls}`).forEach(g => g.classList.remove(cls));
}

function showMatches() {
  clearMarks("match");
  if (selected === null || !option("opt-match") || !state) return;
  const g = tileOf(selected)[5];
  for (const tile of state.tiles) if (tile[6] && tile[5] === g && tile[0] !== selected) mark(tile[0], "match");
}

function select(t) {
  selected = t;
  clearMarks("selected");
  if (t !== null) mark(t, "selected");
  showMatches();
}

function showPath(path) {
  if (!path || !geometry) return;
  const {r0, c0, ux, uy, shift, pad} = geometry;
  const svg = document.querySelector("#board svg");
  const points = path.map(([r, c, l]) => `${pad + (c - c0) * ux - l * shift},${pad + (r - r0) * uy - l * shift}`).join(" ");
  const line = el("polyline", {class: "path", points}, svg);
  setTimeout(() => line.remove(), 900);
}

// ------------------------------------------------------------------ the clock

// Time runs while the page is visible, not paused, the board not cleared and no deal is
// being made. Kept per deal in sessionStorage, so a reload goes on with the same time.
const clock = {id: null, ms: 0, since: null, paused: false, finished: false};

function clockRunning() {
  return !clock.paused && !clock.finished && !dealing && document.visibilityState === "visible" &&
    state && !state.lesson && !state.status.won;
}

function clockNow() { return clock.ms + (clock.since === null ? 0 : performance.now() - clock.since); }

function clockTick() {
  const run = clockRunning();
  if (run && clock.since === null) clock.since = performance.now();
  if (!run && clock.since !== null) { clock.ms = clockNow(); clock.since = null; }
  $("clock").textContent = formatTime(clockNow());
  $("clock").dataset.running = run ? "1" : "0";
  $("clock").dataset.ms = String(Math.round(clockNow()));
  if (clock.id) sessionStorage.setItem("mjsat-clock", JSON.stringify({id: clock.id, ms: clockNow()}));
}

function formatTime(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// A new deal or a restart sets the clock to 0:00; the same deal (a reload) keeps it.
function clockFor(id, fresh) {
  if (clock.id === id && !fresh) return;
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem("mjsat-clock") || "null"); } catch (e) { kept = null; }
  const same = !fresh && kept && kept.id === id;
  clock.id = id;
  clock.ms = same ? kept.ms : 0;
  clock.since = null;
  clock.finished = false;
  $("endcard").hidden = true;
  clockTick();
}

function togglePause() {
  clock.paused = !clock.paused;
  $("pause").textContent = clock.paused ? "Go on" : "Pause";
  $("board").classList.toggle("paused", clock.paused);
  $("paused").hidden = !clock.paused;
  clockTick();
}

// ------------------------------------------------------------------ best times and the end card

function bestKey() { return `${state.layout}|${state.game}|${difficultyOf()}`; }

function bestTimes() {
  try { return JSON.parse(localStorage.getItem("mjsat-best-times") || "{}") || {}; } catch (e) { return {}; }
}

function finish() {
  if (clock.finished) return;
  clockTick();
  clock.finished = true;
  const ms = Math.round(clockNow());
  const key = bestKey();
  const best = bestTimes();
  const before = best[key];
  const record = before === undefined || ms < before;
  if (record) {
    best[key] = ms;
    try { localStorage.setItem("mjsat-best-times", JSON.stringify(best)); } catch (e) { /* private mode */ }
  }
  const c = counts();
  const rows = [
    ["Time", formatTime(ms)],
    ["Moves", c.moves], ["Hints", c.hints], ["Undos", c.undos], ["Shuffles", c.shuffles],
    ["Board", `${state.game} on ${state.layout}`],
    ["Difficulty", difficultyOf() || "-"], ["Seed", seedOf() ?? "-"],
    ["Best time", record ? `${formatTime(ms)} (a new best)` : formatTime(before)],
  ];
  const dl = $("end-facts");
  dl.replaceChildren();
  for (const [k, v] of rows) {
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = String(v); dd.dataset.key = k.toLowerCase().replace(" ", "-");
    dl.append(dt, dd);
  }
  $("endcard").dataset.record = record ? "1" : "0";
  $("endcard").hidden = false;
  clockTick();
}

// ------------------------------------------------------------------ status lines

function showStatus() {
  const s = state.status;
  const m = state.meta || {};
  const diff = difficultyOf();
  const share = (m.playout_share === null || m.playout_share === undefined) ? "" :
    `; random play clears it ${(100 * m.playout_share).toFixed(0)} % of the time`;
  $("info").textContent = `${state.game} on ${state.layout || "a board"}` + (diff ? `, ${diff}` : "") + share;
  const seed = seedOf();
  $("seed-shown").textContent = seed === null || seed === undefined ? "" : `seed ${seed}`;
  $("seed-shown").dataset.seed = seed ?? "";
  showDealVerdict();
  $("status").textContent = `${s.tiles_left} tiles left. ${s.message}` + (s.checking ? " (checking...)" : "");
  $("status").className = s.won ? "won" : (s.verdict === "unsolvable" ? "lost" : "");
  $("status").dataset.verdict = s.verdict;
  $("status").dataset.checking = s.checking ? "1" : "0";
  const c = counts();
  for (const k of ["moves", "hints", "undos", "shuffles"]) $(`count-${k}`).textContent = c[k] ?? "-";
  $("hints-left").textContent = s.hints_left;
  $("undo").disabled = s.undo_left === 0;
  $("redo").disabled = s.redo_left === 0;
  $("hint").disabled = s.hints_left === 0 || s.won;
  $("shuffle").disabled = s.won || s.tiles_left === 0;
}

// Whether the deal itself can be cleared, from the verdicts seen here; an "impossible" deal
// says it once it is known.
const dealVerdicts = {};
function showDealVerdict() {
  const id = dealId();
  const s = state.status, unshuffled = !(state.counts && state.counts.shuffles);
  let v = null;
  // the deal clears when a position played from it clears; it does not when the deal itself does not
  if (unshuffled && s.verdict === "solvable") v = "solvable";
  if (!v && unshuffled && s.moves_played === 0 && s.verdict === "unsolvable") v = "unsolvable";
  if (v) dealVerdicts[id] = v;
  v = dealVerdicts[id] || null;
  const box = $("deal-verdict");
  box.dataset.verdict = v || "";
  if (difficultyOf() !== "impossible") { box.textContent = ""; return; }
  box.textContent = v === "unsolvable" ? "this deal cannot be cleared (proved)" :
    v === "solvable" ? "this deal can be cleared after all" :
    state.status.verdict === "unknown" && state.status.moves_played === 0 ? "not decided within the check's time limit" :
    "can this deal be cleared? checking...";
}

function fillSelect(sel, items, value) {
  sel.replaceChildren(...items.map(v => {
    const o = document.createElement("option");
    o.value = v.value ?? v; o.textContent = v.label ?? v; return o;
  }));
  if (value !== undefined && !items.some(v => (v.value ?? v) === value)) {
    const o = document.createElement("option"); o.value = value; o.textContent = value; sel.appendChild(o);
  }
  sel.value = value;
}

function fillControls() {
  fillSelect($("layout"), layoutChoices(), state.settings.layout);
  fillSelect($("gamekind"), state.games, state.settings.game);
  $("difficulty").value = state.settings.difficulty;
  $("seed").value = seedOf() ?? "";
}

// The layouts offered: /api/layouts when the server has it, else the state's list.
let layoutList = null;
function layoutChoices() {
  if (!layoutList) return state.layouts || [];
  return layoutList;
}

async function loadLayouts() {
  const res = await api("/api/layouts");
  if (res.missing || res.ok === false) return;
  const items = Array.isArray(res) ? res : (res.layouts || []);
  const sizes = new Set((res.sizes || []).map(it => (typeof it === "string" ? it : it.name)));
  const out = [];
  for (const it of items) {
    const name = typeof it === "string" ? it : it && it.name;
    if (!name) continue;
    const bits = [it.tiles, sizes.has(name) ? "KShisen" : ""].filter(Boolean).join(", ");
    out.push({value: name, label: bits ? `${name} (${bits})` : name});
  }
  for (const name of sizes) if (!out.some(o => o.value === name)) out.push({value: name, label: `${name} (KShisen)`});
  if (!out.length) return;
  layoutList = out;
  if (state) fillSelect($("layout"), layoutList, $("layout").value || state.settings.layout);
}

// ------------------------------------------------------------------ updates from the server

function update(newState, redraw = true) {
  state = newState;
  state._faces = null;
  if (selected !== null && !(tileOf(selected) && tileOf(selected)[6])) selected = null;
  if (cursor !== null && !(tileOf(cursor) && tileOf(cursor)[6])) cursor = null;
  if (redraw) draw();
  showStatus();
  clockFor(dealId(), false);
  if (window.teachUpdate) window.teachUpdate(state);
  if (state.status.won && !state.lesson) finish();
  if (state.status.checking) waitVerdict();
}

// The verdict of the position shown, once the server's check is done. An answer that
// crosses a move made meanwhile is dropped (the move's own answer is newer).
let waiting = false;
let actions = 0;
async function waitVerdict() {
  if (waiting) return;
  waiting = true;
  let fresh = null, stale = true;
  try {
    const seen = actions;
    fresh = await api("/api/verdict");
    stale = seen !== actions;
  } finally { waiting = false; }
  if (!stale) update(fresh, false);
  else if (state.status.checking) waitVerdict();
}

async function clickTile(t) {
  if (dealing || clock.paused) return;
  cursor = t;
  clearMarks("cursor");
  if (selected === null) { clearMarks("hinted"); select(t); return; }
  if (selected === t) { select(null); return; }
  const a = selected;
  select(null);
  const res = await api("/api/pair", {a, b: t});
  if (!res.played) {
    mark(a, "refused"); mark(t, "refused");
    setTimeout(() => clearMarks("refused"), 900);
    say(`refused: ${res.reason}`);
    return;
  }
  say(`taken: ${tileName(a)} and ${tileName(t)}`);
  update(res.state);
  showPath(res.path);
}

async function undoRedo(which) {
  const res = await api(`/api/${which}`, {});
  say(res.ok ? "" : res.reason);
  select(null);
  if (res.state) update(res.state);
}

async function hint() {
  say("looking for a hint...");
  const res = await api("/api/hint", {});
  update(res.state);
  if (res.kind === "move") {
    const [a, b] = res.move;
    say(res.message);
    mark(a, "hinted"); mark(b, "hinted");
    cursor = a; clearMarks("cursor"); mark(a, "cursor");
  } else say(res.message);
}

async function shuffle() {
  if (dealing) return;
  say("shuffling: looking for a position that can be cleared...");
  const res = await api("/api/shuffle", {});
  if (res.state) { select(null); update(res.state); }
  say(res.ok === false ? `no shuffle: ${res.reason}` : (res.message || "shuffled: the tiles left can be cleared"));
}

// A deal (New game, or a seed replayed when one is given), with its progress and Cancel.
async function deal(body, words) {
  if (dealing) return;
  dealing = true;
  $("dealing").hidden = false;
  $("deal-progress").textContent = words;
  clockTick();
  const poll = setInterval(dealProgress, 300);
  let res;
  try {
    res = await api("/api/new", body);
  } finally {
    clearInterval(poll);
    dealing = false;
    $("dealing").hidden = true;
  }
  if (res.state) {
    select(null);
    cursor = null;
    $("endcard").hidden = true;
    update(res.state);
    clockFor(dealId(), true);
    fillControls();
  }
  say(res.ok ? `dealt: seed ${seedOf()}` : (res.cancelled ? "deal cancelled" : `no deal: ${res.reason}`));
  document.body.dataset.deals = String(parseInt(document.body.dataset.deals || "0", 10) + 1);
}

async function dealProgress() {
  const p = await api("/api/deal");
  if (!dealing || p.missing || p.ok === false) return;
  const bits = [];
  if (p.message) bits.push(p.message);
  else {
    if (p.candidates !== undefined) bits.push(`${p.candidates} candidate deal(s) tried`);
    if (p.seconds !== undefined) bits.push(`${Number(p.seconds).toFixed(1)} s`);
  }
  if (bits.length) $("deal-progress").textContent = "dealing: " + bits.join(", ");
}

async function cancelDeal() {
  const res = await api("/api/cancel", {});
  if (!res.ok) say(res.reason);
}

function choice() {
  return {difficulty: $("difficulty").value, layout: $("layout").value, game: $("gamekind").value};
}

function newGame() { return deal(choice(), "dealing a new board..."); }

function replaySeed() {
  const seed = parseInt($("seed").value, 10);
  if (!(seed >= 0)) { say("the seed is a whole number, 0 or more"); return; }
  return deal({...choice(), seed}, `dealing seed ${seed}...`);
}

async function restart() {
  if (dealing) return;
  const res = await api("/api/restart", {});
  if (res.state) {
    select(null); cursor = null;
    update(res.state);
    clockFor(dealId(), true);
  }
  say(res.ok === false ? res.reason : "the same deal from the start");
  document.body.dataset.deals = String(parseInt(document.body.dataset.deals || "0", 10) + 1);
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
  select(null);
  update(res.state);
  fillControls();
}

// ------------------------------------------------------------------ options, keyboard, help

const OPTIONS = {"opt-free": true, "opt-match": false, "opt-numbers": false};

// The options kept in this browser, else the defaults (numbers when the server was started with --faces numbers).
function loadOptions(settings) {
  let kept = {};
  try { kept = JSON.parse(localStorage.getItem("mjsat-options") || "{}") || {}; } catch (e) { kept = {}; }
  const defaults = {...OPTIONS, "opt-numbers": !!(settings && settings.faces === "numbers")};
  for (const [id, dflt] of Object.entries(defaults)) $(id).checked = id in kept ? !!kept[id] : dflt;
}

function optionChanged() {
  const kept = {};
  for (const id of Object.keys(OPTIONS)) kept[id] = $(id).checked;
  try { localStorage.setItem("mjsat-options", JSON.stringify(kept)); } catch (e) { /* private mode */ }
  if (state) draw();
}

function toggleOption(id) { $(id).checked = !$(id).checked; optionChanged(); }

function toggleHelp(show) {
  $("help").hidden = show === undefined ? !$("help").hidden : !show;
}

function fillHelp() {
  const dl = $("help-keys");
  for (const [k, what] of KEYS) {
    const dt = document.createElement("dt"); const kbd = document.createElement("kbd"); kbd.textContent = k; dt.append(kbd);
    const dd = document.createElement("dd"); dd.textContent = what;
    dl.append(dt, dd);
  }
}

// The cursor moves to the nearest free tile in the arrow's direction (as in the terminal).
function moveCursor(drow, dcol) {
  const free = freeSet();
  const tiles = state.tiles.filter(t => t[6] && (!free || free.has(t[0])));
  if (!tiles.length) return;
  let best = null;
  if (cursor === null || !tileOf(cursor)[6]) {
    best = tiles.reduce((a, b) => (b[1] < a[1] || (b[1] === a[1] && b[2] < a[2])) ? b : a)[0];
  } else {
    const [, r, c] = tileOf(cursor);
    let score = null;
    for (const [t, tr, tc] of tiles) {
      const dr = tr - r, dc = tc - c, along = dr * drow + dc * dcol;
      if (along <= 0) continue;
      const across = drow ? Math.abs(dc) : Math.abs(dr);
      const s = along + 2 * across;
      if (score === null || s < score || (s === score && across < best[1])) { score = s; best = [t, across]; }
    }
    best = best ? best[0] : cursor;
  }
  cursor = best;
  clearMarks("cursor");
  mark(cursor, "cursor");
  $("board").dataset.cursor = String(cursor);
}

const ARROWS = {ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0]};

document.addEventListener("keydown", (e) => {
  const tag = e.target.tagName;
  if (tag === "INPUT" && e.target.type !== "checkbox" || tag === "TEXTAREA" || tag === "SELECT") return;
  if ((e.ctrlKey || e.metaKey) && e.key === "s") { save(); e.preventDefault(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey || !state) return;
  if (e.key === "Escape") {
    if (dealing) cancelDeal();
    toggleHelp(false);
    select(null);
    return;
  }
  if (e.key === "?") { toggleHelp(); e.preventDefault(); return; }
  if (e.key in ARROWS) { moveCursor(...ARROWS[e.key]); e.preventDefault(); return; }
  if (e.key === " " || e.key === "Enter") {
    if (cursor !== null) clickTile(cursor);
    e.preventDefault();
    return;
  }
  const entry = KEYS.find(([k, , fn]) => k === e.key && fn);
  if (entry) { entry[2](); e.preventDefault(); }
});

document.addEventListener("visibilitychange", clockTick);

window.addEventListener("load", async () => {
  fillHelp();
  $("undo").addEventListener("click", () => undoRedo("undo"));
  $("redo").addEventListener("click", () => undoRedo("redo"));
  $("hint").addEventListener("click", hint);
  $("new").addEventListener("click", newGame);
  $("replay-seed").addEventListener("click", replaySeed);
  $("restart").addEventListener("click", restart);
  $("shuffle").addEventListener("click", shuffle);
  $("pause").addEventListener("click", togglePause);
  $("resume").addEventListener("click", togglePause);
  $("cancel").addEventListener("click", cancelDeal);
  $("end-new").addEventListener("click", newGame);
  $("end-replay").addEventListener("click", restart);
  $("end-close").addEventListener("click", () => { $("endcard").hidden = true; });
  $("help-open").addEventListener("click", () => toggleHelp(true));
  $("help-close").addEventListener("click", () => toggleHelp(false));
  for (const id of Object.keys(OPTIONS)) $(id).addEventListener("change", optionChanged);
  $("save").addEventListener("click", save);
  $("load").addEventListener("change", load);
  const first = await api("/api/state");
  loadOptions(first.settings);
  update(first);
  fillControls();
  setInterval(clockTick, 250);
  await loadLayouts();
  document.body.dataset.ready = "1";
});
