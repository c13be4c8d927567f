// Lessons on the game page (mjsat.game.teach): a formula's reduction board with the
// formula, its clauses and a switch per variable; the intended play of an assignment
// move by move; free play with the assignment read off the play; every assignment; and
// the height-two theorems. Every fact shown comes from the server; this file only shows
// it. It uses app.js's globals: state, selected, api, say, update, clickTile.
"use strict";

const T = {
  id: null,        // the lesson shown (its id on the server)
  lesson: null,    // its description (GET /api/lesson)
  picture: null,   // the <svg> of the lesson's board in #board
  mode: "free",    // "guided": the stepper drives the picture; "free": the game does
  play: null,      // the play the stepper steps through
  step: 0,         // moves of it played
  loading: false,
};
const MARKS = ["gone", "next", "last", "waiting", "locked", "blocker", "cycle"];

function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else if (k.startsWith("data-")) node.setAttribute(k, v); else node[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function put(parent, ...kids) { parent.append(...kids.filter(k => k !== null && k !== undefined)); }

function lit(l) { return (l < 0 ? "¬" : "") + "V" + Math.abs(l); }

function litName(name) { return name.replace("-", "¬"); }

function setError(id, text) { $(id).textContent = text || ""; }

// ------------------------------------------------------------------ the picture

window.teachDraw = function (st) {
  if (!st.lesson) {
    if (T.id !== null) forgetLesson();
    $("board").classList.remove("lesson");
    return false;
  }
  if (T.id !== st.lesson.id) {
    if (!T.loading) loadLesson();
    return T.picture !== null;
  }
  paint();
  return true;
};

window.teachUpdate = function (st) {
  if (T.lesson && T.lesson.kind === "formula" && st.lesson) showFree(st.lesson.free);
};

async function loadLesson() {
  T.loading = true;
  try {
    const data = await api("/api/lesson");
    if (data.lesson) showLesson(data.id, data.lesson); else forgetLesson();
  } finally { T.loading = false; }
}

function forgetLesson() {
  Object.assign(T, {id: null, lesson: null, picture: null, mode: "free", play: null, step: 0});
  $("teach").dataset.lesson = "";
  $("stepper").hidden = true;
  $("formula-info").replaceChildren();
  $("clauses").replaceChildren();
  $("switches").replaceChildren();
  $("try-all-box").replaceChildren();
  $("free-text").replaceChildren();
  $("h2-info").replaceChildren();
  $("h2-cycles").replaceChildren();
}

function tileNode(t) { return T.picture && T.picture.querySelector(`.tile[data-tile="${t}"]`); }

function ensurePicture() {
  const holder = $("board");
  if (T.picture && holder.contains(T.picture)) return;
  holder.innerHTML = T.lesson.svg;
  holder.classList.add("lesson");
  T.picture = holder.querySelector("svg");
  T.picture.querySelectorAll(".tile").forEach(g => {
    const t = parseInt(g.dataset.tile, 10);
    g.addEventListener("click", () => tileClicked(t));
  });
}

function tileClicked(t) {
  if (T.mode === "guided") {
    say("guided mode: step with Next and Back; press 'Play on from here' or Free play to play yourself");
    return;
  }
  clickTile(t);
}

function center(t) {
  const face = tileNode(t).querySelector("rect.face");
  const x = parseFloat(face.getAttribute("x")), y = parseFloat(face.getAttribute("y"));
  return [x + parseFloat(face.getAttribute("width")) / 2, y + parseFloat(face.getAttribute("height")) / 2];
}

function drawCycles(cycles) {
  const svg = T.picture;
  for (const c of cycles) {
    for (const t of c.tiles) tileNode(t).classList.add("cycle");
    for (const [a, b] of c.pairs) {  // the two tiles of a group that can never meet
      const [x1, y1] = center(a), [x2, y2] = center(b);
      const bend = Math.max(20, Math.abs(x2 - x1) / 4);
      const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
      path.setAttribute("class", "cycle-link");
      path.setAttribute("d", `M ${x1} ${y1} C ${x1} ${y1 - bend}, ${x2} ${y2 - bend}, ${x2} ${y2}`);
      svg.appendChild(path);
    }
  }
}

function paint() {
  if (!T.lesson) return;
  ensurePicture();
  const svg = T.picture;
  for (const m of MARKS) svg.querySelectorAll(`.tile.${m}`).forEach(g => g.classList.remove(m));
  svg.querySelectorAll(".cycle-link").forEach(p => p.remove());
  const n = T.lesson.tiles;
  const present = new Array(n).fill(true);
  const guided = T.mode === "guided" && T.play;
  if (guided) {
    for (const [a, b] of T.play.moves.slice(0, T.step)) { present[a] = false; present[b] = false; }
  } else if (state) {
    for (const t of state.tiles) present[t[0]] = t[6];
  }
  for (let t = 0; t < n; t++) if (!present[t]) { const g = tileNode(t); if (g) g.classList.add("gone"); }
  if (guided) {
    const moves = T.play.moves;
    if (T.step > 0) for (const t of moves[T.step - 1]) tileNode(t).classList.add("last");
    if (T.step < moves.length) {
      for (const t of moves[T.step]) tileNode(t).classList.add("next");
      tileNode(moves[T.step][0]).scrollIntoView({block: "nearest", inline: "nearest"});
    }
    if (T.step === moves.length && T.play.stuck) {
      for (const c of T.play.stuck.clauses) {
        tileNode(c.x_chain_tile).classList.add("waiting");
        for (const l of c.literals) {
          if (!l.present) continue;
          tileNode(l.tile).classList.add("locked");
          for (const u of l.under) tileNode(u).classList.add("blocker");
          if (l.head_present) tileNode(l.head).classList.add("blocker");
        }
      }
    }
  }
  if (T.lesson.kind === "height2") {
    let cycles = T.lesson.cycles.slice();
    if (guided) for (const s of T.play.steps.slice(0, T.step)) cycles = cycles.concat(s.cycle);
    drawCycles(cycles.filter(c => c.tiles.every(t => present[t])));
  }
  showStep();
}

// ------------------------------------------------------------------ the panel

function openPanel(tab) {
  $("teach").hidden = false;
  for (const name of ["formula", "height2"]) {
    $(`${name}-panel`).hidden = name !== tab;
    $(`tab-${name}`).classList.toggle("active", name === tab);
  }
  $(`${tab}-panel`).querySelector(".stepper-slot").append($("stepper"));
  $("stepper").hidden = !(T.mode === "guided" && T.play && T.lesson && T.lesson.kind === tab);
}

function setMode(mode) {
  T.mode = mode;
  selected = null;
  for (const id of ["mode-guided", "mode-free", "h2-free"]) $(id).classList.remove("active");
  if (T.lesson) {
    const which = T.lesson.kind === "formula" ? (mode === "guided" ? "mode-guided" : "mode-free") : (mode === "free" ? "h2-free" : null);
    if (which) $(which).classList.add("active");
    openPanel(T.lesson.kind);
  }
  $("free-box").hidden = !(T.lesson && T.lesson.kind === "formula" && mode === "free");
  $("teach").dataset.mode = mode;
  if (mode === "free") {  // the clause marks belong to a guided play
    document.querySelectorAll("#clauses li").forEach(li => {
      li.classList.remove("satisfied", "falsified");
      li.querySelector(".status").textContent = "";
    });
  }
  paint();
  if (mode === "free" && state) showFree(state.lesson && state.lesson.free);
}

function showLesson(id, lesson) {
  Object.assign(T, {id, lesson, picture: null, play: null, step: 0});
  $("teach").dataset.lesson = String(id);
  $("teach").dataset.kind = lesson.kind;
  $("try-all-box").replaceChildren();
  if (lesson.kind === "formula") showFormula(lesson); else showHeight2(lesson);
}

// -- formula

function showFormula(L) {
  $("formula-edit").open = false;
  $("formula-text").value = L.text;
  $("formula-target").value = L.target;
  setError("formula-error", "");
  const sat = L.satisfiable ? h("span", {class: "ok"}, "satisfiable") : h("span", {class: "bad"}, "unsatisfiable");
  $("formula-info").replaceChildren(
    h("p", {}, `${L.source}: ${L.variables} variable(s), ${L.original_clauses.length} clause(s); `, sat,
      `, so its ${L.target} board of ${L.tiles} tiles ${L.satisfiable ? "can" : "cannot"} be cleared (Theorem 3).`),
    h("p", {}, "Normalised to three literals per clause: " + L.normalization +
      (L.fresh_variables ? ` (${L.fresh_variables} fresh variable(s), set by the play)` : "") + "."),
  );
  $("clauses").replaceChildren(...L.clauses.map(c => h("li", {"data-clause": c.clause},
    `${c.clause} = ${c.text}`, c.original_text !== c.text ? ` from clause ${c.original} ${c.original_text}` : "",
    h("span", {class: "tiles"}, ` x-chain tile ${c.x_chain_tile}, literal tiles ${c.literal_tiles.join(", ")}`),
    h("span", {class: "status"}))));
  const start = L.model || new Array(L.variables).fill(false);
  $("switches").replaceChildren(...start.map((v, i) => {
    const box = h("input", {type: "checkbox", checked: v, class: "switch", "data-var": String(i + 1)});
    box.addEventListener("change", () => guided());
    return h("label", {}, box, ` V${i + 1}`);
  }));
  $("model").disabled = !L.model;
  $("try-all").textContent = L.assignments && L.assignments > L.try_all_limit ?
    `Try the first ${L.try_all_limit} assignments (of ${L.assignments})` : `Try every assignment (${L.assignments})`;
  openPanel("formula");
  guided();
}

function switches() { return [...document.querySelectorAll("#switches input.switch")].map(b => b.checked); }

function setSwitches(values) {
  document.querySelectorAll("#switches input.switch").forEach((b, i) => { b.checked = values[i]; });
}

async function guided() {
  const values = switches();
  const res = await api("/api/lesson/guided", {values});
  if (!res.ok) { setError("formula-error", res.reason); return; }
  setError("formula-error", "");
  T.play = res.play;
  T.step = 0;
  setMode("guided");
}

function lemmaBox(key) {
  const l = T.lesson.lemmas[key];
  return l ? h("div", {class: "lemma", "data-lemma": key}, h("b", {}, l.title + ": "), l.text) : null;
}

function showStep() {
  const box = $("step-text"), end = $("step-end-text"), play = T.play;
  if (!(T.mode === "guided" && play)) return;
  const N = play.moves.length, k = T.step;
  $("step-count").textContent = `${k} of ${N} moves played`;
  $("step-count").dataset.step = String(k);
  $("step-count").dataset.total = String(N);
  $("step-count").dataset.play = play.assignment ? play.assignment.join(" ") : `${play.strategy} ${play.seed}`;
  $("step-back").disabled = $("step-first").disabled = k === 0;
  $("step-next").disabled = $("step-end").disabled = k === N;
  end.replaceChildren();
  box.replaceChildren();
  if (T.lesson.kind === "formula") formulaStep(box, end, play, k, N);
  else height2Step(box, end, play, k, N);
}

function formulaStep(box, end, play, k, N) {
  for (const c of play.clauses) {
    const li = document.querySelector(`#clauses li[data-clause="${c.clause}"]`);
    const done = c.satisfied_at !== null && c.satisfied_at <= k;
    const lost = k === N && play.stuck && play.stuck.falsified.includes(c.clause);
    li.classList.toggle("satisfied", done);
    li.classList.toggle("falsified", lost);
    li.querySelector(".status").textContent = done ? `: satisfied, its C tile freed by ${litName(c.satisfied_by)} (move ${c.satisfied_at})` :
      (lost ? ": falsified, its x-chain tile waits for ever" : "");
  }
  const who = `assignment ${play.assignment.map(lit).join(" ") || "(none)"}`;
  if (k < N) {
    const m = play.steps[k];
    const gadgets = [...new Set(m.gadgets)].join(" and ");
    put(box,
      h("p", {}, h("b", {}, `Move ${k + 1}: tiles ${m.tiles[0]} and ${m.tiles[1]} (${m.group})`), ` in the ${gadgets}.`),
      h("p", {}, m.why + "."),
      m.free_since[0] === null ? null : h("p", {class: "legal"}, "Legal now: " + m.legal + "."),
      lemmaBox(m.lemma),
    );
    return;
  }
  if (!play.stuck) {
    end.append(h("p", {class: "ok"}, `The board is clear: ${N} moves from the ${who}, which satisfies the formula.`));
    return;
  }
  const names = play.stuck.falsified.map(c => {
    const info = T.lesson.clauses.find(x => x.clause === c);
    return `${c} = ${info.text}`;
  });
  put(end,
    h("div", {class: "stuck"},
      h("p", {}, h("b", {class: "bad"}, `Stuck after ${N} moves with ${play.stuck.tiles_left} tiles left: `),
        `the ${who} falsifies ${names.join(", ")}.`),
      ...play.stuck.reasons.map(r => h("p", {}, r + ".")),
      h("p", {}, "On the board: the waiting x-chain tile is outlined in red, the locked literal tiles in violet, the tiles and the head that lock them in yellow."),
    ),
    lemmaBox("clauses"),
  );
}

function showFree(free) {
  const box = $("free-text");
  if (!T.lesson || T.lesson.kind !== "formula") return;
  box.dataset.assignment = "";
  if (!free) {
    box.replaceChildren(h("p", {}, "Play the board: click two free tiles of one group to pair them. " +
      "When the first SAT pair goes, the assignment your play has chosen is read off it here and checked on the formula."));
    return;
  }
  box.dataset.assignment = free.assignment.join(" ");
  const values = free.assignment.map(l => h("li", {}, `V${Math.abs(l)} = ${l > 0 ? "true" : "false"}` +
    (free.heads[`V${Math.abs(l)}`] === "true" || free.heads[`V${Math.abs(l)}`] === "false" ? "" :
      ` (${free.heads[`V${Math.abs(l)}`]} of its heads went before the pair: the play has already gone wrong)`)));
  const checks = free.clause_texts.map((c, i) => h("li", {class: free.clauses[i] ? "ok" : "bad"}, `${c}: ${free.clauses[i] ? "true" : "false"}`));
  box.replaceChildren();
  put(box,
    h("p", {}, `The first SAT pair went in move ${free.move}. Your play has chosen (true chain's head gone before it: true):`),
    h("ul", {class: "lifted"}, ...values),
    h("p", {}, "On the formula:"),
    h("ul", {}, ...checks),
    h("p", {class: free.satisfied ? "ok" : "bad"}, free.satisfied ?
      "It satisfies the formula, as Theorem 3 says every play that clears the board must." :
      "It falsifies the formula: the board can no longer be cleared from here (Theorem 3)."),
    free.lift ? h("p", {class: "ok"}, `The board is clear; lift reads ${free.lift.map(lit).join(" ")} off the whole play.`) : null,
  );
}

async function tryAll() {
  const box = $("try-all-box");
  box.replaceChildren(h("p", {}, "running the play of every assignment..."));
  const res = await api("/api/lesson/tryall", {});
  if (!res.ok) { box.replaceChildren(h("p", {class: "error"}, res.reason)); return; }
  const cleared = res.rows.filter(r => r.cleared).length;
  const head = h("p", {}, `${res.tried} of ${res.total} assignments: ${cleared} clear the board, ${res.tried - cleared} get stuck.` +
    (res.more ? ` ${res.more} more are not tried (at most ${T.lesson.try_all_limit}).` : "") + " Click a row to step through it.");
  const table = h("table", {},
    h("tr", {}, h("th", {}, "assignment"), h("th", {}, "result"), h("th", {}, "moves"), h("th", {}, "left"), h("th", {}, "where it stops")));
  for (const r of res.rows) {
    const tr = h("tr", {class: "assignment" + (r.cleared ? " cleared" : ""), "data-assignment": r.assignment.join(" ")},
      h("td", {}, r.assignment.map(lit).join(" ")),
      h("td", {}, r.cleared ? "clears" : `stuck: ${r.falsified.join(", ")} falsified`),
      h("td", {}, String(r.moves)), h("td", {}, String(r.tiles_left)), h("td", {}, r.reason));
    tr.addEventListener("click", () => { setSwitches(r.values); guided(); });
    table.append(tr);
  }
  box.replaceChildren(head, table);
}

async function buildFormula(event) {
  event.preventDefault();
  setError("formula-error", "");
  say("building the board...");
  const res = await api("/api/lesson/formula", {text: $("formula-text").value, target: $("formula-target").value});
  say("");
  if (!res.ok) { setError("formula-error", res.reason); return; }
  showLesson(res.id, res.lesson);
  update(res.state);
}

async function position(moves) {
  const res = await api("/api/lesson/position", {moves});
  if (!res.ok) { say(res.reason); return; }
  T.mode = "free";
  update(res.state);
  setMode("free");
}

// -- height two

function showHeight2(L) {
  setError("h2-error", "");
  const th = L.theorems;
  $("h2-info").replaceChildren(
    h("p", {}, `${L.source}: ${L.tiles} tiles in ${L.stacks} stacks (${L.height_two} of height two), ` +
      `${L.groups_of_two} group(s) of two and ${L.groups_of_four} of four.`),
    h("p", {class: L.solvable ? "ok" : "bad", id: "h2-verdict"}, L.verdict + "."),
    ...(L.solvable ? ["theorem7", "theorem5"] : ["definition6", "theorem7"]).map(k =>
      h("div", {class: "lemma"}, h("b", {}, th[k].title + ": "), th[k].text)),
  );
  $("h2-cycles").replaceChildren(...L.cycles.map((c, i) => h("li", {"data-cycle": String(i)},
    `Blocked cycle ${i + 1}: ${c.text}.`,
    h("span", {class: "tiles"}, " Stacks (top over bottom): " + c.stacks.map(s => `${s.top} (${s.over}) over ${s.bottom} (${s.under})`).join(", ") + "."))));
  $("h2-strategy").value = "theorem5";
  openPanel("height2");
  if (L.solvable) height2Play(); else setMode("free");
}

async function height2Play() {
  setError("h2-error", "");
  const res = await api("/api/lesson/height2/play", {strategy: $("h2-strategy").value, seed: parseInt($("h2-seed").value || "0", 10)});
  if (!res.ok) { setError("h2-error", res.reason); return; }
  T.play = res.play;
  T.step = 0;
  setMode("guided");
}

function height2Step(box, end, play, k, N) {
  if (k < N) {
    const s = play.steps[k];
    box.append(h("p", {}, h("b", {}, `Move ${k + 1}: tiles ${s.tiles[0]} and ${s.tiles[1]} (group ${s.group})`),
      s.guess ? h("span", {class: "bad"}, " (a guess)") : null), h("p", {}, s.text));
    return;
  }
  end.append(play.cleared ? h("p", {class: "ok"}, `The board is clear: ${N} moves.`) :
    h("p", {class: "bad"}, `Stuck after ${N} moves with ${play.tiles_left} tiles left: no group has a match.`));
}

async function newHeight2(which) {
  setError("h2-error", "");
  const body = {board: which, seed: parseInt($("h2-seed").value || "0", 10), tiles: parseInt($("h2-tiles").value || "16", 10)};
  const res = await api("/api/lesson/height2", body);
  if (!res.ok) { setError("h2-error", res.reason); openPanel("height2"); return; }
  showLesson(res.id, res.lesson);
  update(res.state);
}

// ------------------------------------------------------------------ controls

window.addEventListener("load", () => {
  $("formula-target").replaceChildren(...["stacks", "rows", "shisen-sho", "shisen-rows"].map(t => h("option", {value: t}, t)));
  $("teach-open").addEventListener("click", () => openPanel(T.lesson ? T.lesson.kind : "formula"));
  $("tab-formula").addEventListener("click", () => openPanel("formula"));
  $("tab-height2").addEventListener("click", () => openPanel("height2"));
  $("teach-close").addEventListener("click", async () => {
    $("teach").hidden = true;
    if (T.lesson) update((await api("/api/lesson/close", {})).state);
  });
  $("formula-form").addEventListener("submit", buildFormula);
  $("model").addEventListener("click", () => { if (T.lesson && T.lesson.model) { setSwitches(T.lesson.model); guided(); } });
  $("mode-guided").addEventListener("click", () => guided());
  $("mode-free").addEventListener("click", () => setMode("free"));
  $("h2-free").addEventListener("click", () => setMode("free"));
  $("free-restart").addEventListener("click", () => position([]));
  $("try-all").addEventListener("click", tryAll);
  $("step-first").addEventListener("click", () => { T.step = 0; paint(); });
  $("step-back").addEventListener("click", () => { T.step = Math.max(0, T.step - 1); paint(); });
  $("step-next").addEventListener("click", () => { T.step = Math.min(T.play.moves.length, T.step + 1); paint(); });
  $("step-end").addEventListener("click", () => { T.step = T.play.moves.length; paint(); });
  $("step-free").addEventListener("click", () => position(T.play.moves.slice(0, T.step)));
  $("h2-current").addEventListener("click", () => newHeight2("current"));
  $("h2-planted").addEventListener("click", () => newHeight2("planted"));
  $("h2-random").addEventListener("click", () => newHeight2("random"));
  $("h2-play").addEventListener("click", height2Play);
});
