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
  zoom: null,      // pixels per unit of the picture (null: fit, as T.fit says)
  fit: "width",    // "width": the picture's width fills the pane; "whole": all of it in view
  geo: null,       // per tile its face [x, y, w, h] in the picture's units (the overview)
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

function chainOf(literal) {  // "¬V2" -> "V2's false chain"
  return literal.startsWith("¬") ? `${literal.slice(1)}'s false chain` : `${literal}'s true chain`;
}

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
  if (T.lesson) lessonBar();
};

async function loadLesson() {
  T.loading = true;
  try {
    const data = await api("/api/lesson");
    if (data.lesson) showLesson(data.id, data.lesson); else forgetLesson();
  } finally { T.loading = false; }
}

function forgetLesson() {
  const shown = T.id !== null;
  Object.assign(T, {id: null, lesson: null, picture: null, mode: "free", play: null, step: 0, zoom: null, geo: null});
  document.body.classList.remove("in-lesson");
  if (shown) $("teach").hidden = true;  // leaving the lesson gives the page back to the game
  $("legend").replaceChildren();
  lessonBar();
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
  T.geo = [];
  T.picture.querySelectorAll(".tile").forEach(g => {
    const t = parseInt(g.dataset.tile, 10);
    g.addEventListener("click", () => tileClicked(t));
    const f = g.querySelector("rect.face");
    T.geo[t] = ["x", "y", "width", "height"].map(a => parseFloat(f.getAttribute(a)));
  });
  T.zoom = null;
  T.fit = "width";
  applyZoom();
}

// ------------------------------------------------------------------ zoom, fit, overview

function pictureSize() {
  const vb = T.picture.viewBox.baseVal;
  return [vb.width, vb.height];
}

function fitZoom() {  // the picture's width fills the pane ("width"), or all of it is in view ("whole")
  const holder = $("board"), [w, h] = pictureSize();
  const top = Math.max(0, holder.getBoundingClientRect().top);
  const css = getComputedStyle(holder);
  const availW = holder.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 2, availH = Math.max(120, window.innerHeight - top - 12);
  return T.fit === "whole" ? Math.min(availW / w, availH / h, 6) : Math.min(availW / w, 3);
}

function applyZoom(anchor) {
  if (!T.picture) return;
  const holder = $("board"), [w, h] = pictureSize();
  const old = T.picture.getBoundingClientRect();
  const z = T.zoom === null ? fitZoom() : T.zoom;
  T.picture.style.width = `${w * z}px`;
  T.picture.style.height = `${h * z}px`;
  holder.dataset.zoom = z.toFixed(4);
  holder.dataset.fit = T.zoom === null ? T.fit : "";
  $("zoom-level").textContent = `${Math.round(z * 100)}%`;
  if (anchor && old.width > 0) {  // keep the point under the cursor where it was
    const [cx, cy] = anchor, f = (w * z) / old.width;
    holder.scrollLeft = (holder.scrollLeft + cx) * f - cx;
    holder.scrollTop = (holder.scrollTop + cy) * f - cy;
  }
  overview();
}

function zoomBy(factor, anchor) {
  if (!T.picture) return;
  const z = T.zoom === null ? fitZoom() : T.zoom;
  T.zoom = Math.max(0.02, Math.min(8, z * factor));
  applyZoom(anchor);
}

function scale() { return T.picture.getBoundingClientRect().width / pictureSize()[0]; }

// scroll (and zoom out if need be) so that every tile of ``tiles`` is in view together
function showTiles(tiles, zoomOut) {
  const holder = $("board"), present = tiles.filter(t => T.geo[t]);
  if (!present.length) return;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const t of present) {
    const [x, y, w, h] = T.geo[t];
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + w); y1 = Math.max(y1, y + h);
  }
  const top = Math.max(0, holder.getBoundingClientRect().top);
  const viewW = holder.clientWidth, viewH = Math.min(holder.clientHeight, window.innerHeight - top);
  if (zoomOut) {
    const need = Math.min((viewW - 24) / (x1 - x0), (viewH - 24) / (y1 - y0));
    if (need < scale()) { T.zoom = need; applyZoom(); }
  }
  const k = scale();
  holder.scrollLeft = ((x0 + x1) / 2) * k - viewW / 2;
  holder.scrollTop = ((y0 + y1) / 2) * k - viewH / 2;
  overview();
}

const OVERVIEW_MARKS = {waiting: "#ff1744", locked: "#d500f9", next: "#ff8f00", cycle: "#ff1744"};

function overview() {
  const canvas = $("overview");
  if (!T.picture || !T.geo) return;
  const [w, h] = pictureSize(), holder = $("board");
  const k = Math.min(220 / w, 70 / h);
  canvas.width = Math.max(1, Math.round(w * k));
  canvas.height = Math.max(1, Math.round(h * k));
  const c = canvas.getContext("2d");
  c.fillStyle = "#2f4f3f";
  c.fillRect(0, 0, canvas.width, canvas.height);
  c.fillStyle = "#fdf6e3";
  T.picture.querySelectorAll(".tile:not(.gone)").forEach(g => {
    const [x, y, tw, th] = T.geo[+g.dataset.tile];
    c.fillRect(x * k, y * k, Math.max(1, tw * k), Math.max(1, th * k));
  });
  let marked = 0;
  for (const [cls, colour] of Object.entries(OVERVIEW_MARKS)) {
    c.fillStyle = colour;
    T.picture.querySelectorAll(`.tile.${cls}`).forEach(g => {
      const [x, y, tw, th] = T.geo[+g.dataset.tile];
      c.fillRect(x * k - 2, y * k - 2, Math.max(4, tw * k + 4), Math.max(4, th * k + 4));
      marked++;
    });
  }
  canvas.dataset.marked = String(marked);
  const s = scale();  // the part of the picture in view, framed
  const top = Math.max(0, holder.getBoundingClientRect().top);
  const viewH = Math.min(holder.clientHeight, window.innerHeight - top);
  c.strokeStyle = "#ffd23f";
  c.lineWidth = 2;
  c.strokeRect(holder.scrollLeft / s * k + 1, holder.scrollTop / s * k + 1,
    Math.min(w, holder.clientWidth / s) * k - 2, Math.min(h, viewH / s) * k - 2);
}

function overviewClicked(e) {
  const canvas = $("overview"), holder = $("board");
  const r = canvas.getBoundingClientRect(), [w] = pictureSize();
  const k = canvas.width / w, s = scale();
  holder.scrollLeft = (e.clientX - r.left) / k * s - holder.clientWidth / 2;
  holder.scrollTop = (e.clientY - r.top) / k * s - holder.clientHeight / 2;
  overview();
}

function tileClicked(t) {
  if (T.mode === "guided") {
    say("guided mode: step with Next and Back; press 'Play on from here' or Free play to play yourself");
    return;
  }
  clickTile(t);
}

function drawCycles(cycles) {  // each pair that can never meet: an arrow beside the tiles, clear of their labels
  const svg = T.picture, NS = "http://www.w3.org/2000/svg";
  if (!svg.querySelector("#cycle-arrow")) {
    const defs = document.createElementNS(NS, "defs");
    defs.innerHTML = '<marker id="cycle-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#ff1744"/></marker>';
    svg.prepend(defs);
  }
  for (const c of cycles) {
    for (const t of c.tiles) tileNode(t).classList.add("cycle");
    c.pairs.forEach(([a, b], i) => {
      const [xa, ya, wa, ha] = T.geo[a], [xb, yb, wb, hb] = T.geo[b];
      const side = i % 2 ? -1 : 1;  // alternate sides, so that two arrows of one stack do not overlap
      const x1 = side > 0 ? xa + wa + 3 : xa - 3, y1 = ya + ha / 2;
      const x2 = side > 0 ? xb + wb + 3 : xb - 3, y2 = yb + hb / 2;
      const bend = side * Math.max(18, Math.abs(y2 - y1) / 5, Math.abs(x2 - x1) / 5);
      const path = document.createElementNS(NS, "path");
      path.setAttribute("class", "cycle-link");
      path.setAttribute("marker-end", "url(#cycle-arrow)");
      path.setAttribute("d", `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 + bend} ${y2}, ${x2} ${y2}`);
      svg.appendChild(path);
    });
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
  lessonBar();
  if (T.zoom === null) applyZoom();  // the pane's size may have changed (the panel, the bar)
  if (guided && T.step < T.play.moves.length) showTiles(T.play.moves[T.step], false);
  else if (guided && T.play.stuck && T.play.stuck.clauses) {
    const far = [];  // the waiting x-chain tiles and their locked literal tiles, in view together
    for (const c of T.play.stuck.clauses) { far.push(c.x_chain_tile); for (const l of c.literals) if (l.present) far.push(l.tile); }
    showTiles(far, true);
  } else overview();
}

// ------------------------------------------------------------------ the lesson's bar

function formulaShort(L) {
  const text = L.original_clauses.join(" ∧ ");
  return text.length > 140 ? text.slice(0, 137) + "..." : text;
}

function lessonBar() {
  const bar = $("lesson-bar"), L = T.lesson;
  const text = $("lesson-text");
  for (const k of ["step", "total", "assignment", "result", "mode"]) delete bar.dataset[k];
  if (!L) { text.replaceChildren(); return; }
  const parts = [];
  bar.dataset.mode = T.mode;
  if (L.kind === "formula") {
    parts.push(h("span", {class: "what"}, `Lesson: ${L.source} → ${L.target} board of ${L.tiles} tiles`),
      h("span", {class: "formula"}, formulaShort(L)));
  } else {
    parts.push(h("span", {class: "what"}, `Lesson: height two, ${L.source}, ${L.tiles} tiles`),
      h("span", {class: L.solvable ? "ok" : "bad"}, L.verdict));
  }
  const play = T.play;
  if (T.mode === "guided" && play) {
    const N = play.moves.length, k = T.step;
    bar.dataset.step = String(k);
    bar.dataset.total = String(N);
    if (play.assignment) {
      bar.dataset.assignment = play.assignment.join(" ");
      parts.push(h("span", {class: "assignment"}, "assignment " + (play.assignment.map(lit).join(" ") || "(none)")));
    } else parts.push(h("span", {}, `${play.strategy === "theorem7" ? "Theorem 7" : "Theorem 5"}'s play`));
    parts.push(h("b", {class: "step"}, `step ${k} of ${N}`));
    let result = "", why = "";
    if (k === N) {
      const stuck = play.stuck || (play.cleared === false);
      result = stuck ? "stuck" : "cleared";
      if (play.stuck && play.stuck.falsified) why = `: ${play.stuck.falsified.join(", ")} falsified, its x-chain tile waits for ever`;
      else if (stuck) why = ": no group has a match";
    } else result = "playing";
    bar.dataset.result = result;
    if (result !== "playing") parts.push(h("b", {class: result === "cleared" ? "ok" : "bad"}, result + why));
  } else if (state) {
    const s = state.status;
    bar.dataset.result = s.won ? "cleared" : (s.verdict === "unsolvable" ? "lost" : "playing");
    const free = L.kind === "formula" && state.lesson && state.lesson.free;
    parts.push(h("span", {}, `free play: ${s.tiles_left} tiles left, ${s.moves_played} moves`));
    if (free && free.broken && free.broken.length) parts.push(h("b", {class: "bad"}, brokenText(free.broken)));
    else if (s.won) parts.push(h("b", {class: "ok"}, "cleared"));
    else if (s.verdict === "unsolvable") parts.push(h("b", {class: "bad"}, "lost: the board can no longer be cleared"));
  }
  text.replaceChildren(...parts);
}

function brokenText(vars) {
  const who = vars.map(v => `${v}'s`).join(" and ");
  return `both heads of ${who} chains went: the board is lost, whatever the formula`;
}

// ------------------------------------------------------------------ the legend and the plan

function showLegend(L) {
  const box = $("legend");
  const rows = (L.legend || []).map(e => [h("dt", {}, e.term), h("dd", {}, e.text)]).flat();
  const kids = [h("summary", {}, "Legend"), h("dl", {}, ...rows)];
  if (L.plan) {
    kids.push(h("h4", {}, "The proof in brief"));
    kids.push(h("ol", {class: "plan"}, ...L.plan.map(p => {
      const li = h("li", {"data-lemma": p.lemma}, p.text + " ");
      li.append(h("a", {href: "#", class: "steps", "data-lemma": p.lemma}));
      li.querySelector("a").addEventListener("click", (e) => { e.preventDefault(); jumpToLemma(p.lemma); });
      return li;
    })));
  }
  box.replaceChildren(...kids);
  box.open = true;
}

function planLinks() {  // each line of the plan: the moves of the play that use it
  document.querySelectorAll("#legend a.steps").forEach(a => {
    const moves = T.play && T.play.steps ? T.play.steps.map((s, i) => s.lemma === a.dataset.lemma ? i + 1 : 0).filter(Boolean) : [];
    a.textContent = moves.length ? `→ move${moves.length > 1 ? "s" : ""} ${moves.length > 3 ? moves[0] + "–" + moves[moves.length - 1] + ` (${moves.length})` : moves.join(", ")}` : "";
    a.dataset.moves = moves.join(" ");
  });
}

function jumpToLemma(key) {
  if (!(T.play && T.play.steps)) return;
  const idx = T.play.steps.map((s, i) => s.lemma === key ? i : -1).filter(i => i >= 0);
  if (!idx.length) return;
  if (T.mode !== "guided") setMode("guided");
  T.step = idx.find(i => i > T.step) ?? idx[0];  // the next move that uses it, round again at the end
  paint();
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
  document.body.classList.add("in-lesson");
  showLegend(lesson);
  if (lesson.kind === "formula") showFormula(lesson); else showHeight2(lesson);
}

// -- formula

function showFormula(L) {
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
    h("span", {class: "tiles"}, ` its ${c.clause} tiles: in the x-chain (tile ${c.x_chain_tile}); ` +
      c.literal_tiles.map((t, i) => `for ${c.literals[i]}, in ${chainOf(c.literals[i])} (tile ${t})`).join("; ")),
    h("span", {class: "status"}))));
  const start = L.model || new Array(L.variables).fill(false);
  $("switches").replaceChildren(...start.map((v, i) => {
    const box = h("input", {type: "checkbox", checked: v, class: "switch", "data-var": String(i + 1)});
    box.addEventListener("change", () => guided());
    return h("label", {}, box, ` V${i + 1}`);
  }));
  $("model").disabled = !L.model;
  if (trying) trying.cancelled = true;
  $("try-all").textContent = tryAllLabel(L);
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
  planLinks();
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
      h("p", {}, h("b", {}, `Move ${k + 1}: two ${m.group} tiles`), ` in the ${gadgets}`,
        h("span", {class: "tiles"}, ` (tiles ${m.tiles[0]} and ${m.tiles[1]})`), "."),
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
  const broken = free.broken && free.broken.length;
  box.dataset.lost = free.lost ? "1" : "0";
  put(box,
    h("p", {}, `The first SAT pair went in move ${free.move}. Your play has chosen (true chain's head gone before it: true):`),
    h("ul", {class: "lifted"}, ...values),
    h("p", {}, "On the formula:"),
    h("ul", {}, ...checks),
    h("p", {class: broken || !free.satisfied ? "bad" : "ok", id: "free-verdict"}, broken ?
      brokenText(free.broken) + " (Theorem 3's play takes exactly one head of each variable before the first SAT pair)." :
      (free.satisfied ?
        "This assignment satisfies the formula; the play clears the board only if its other moves keep the chain rules (Theorem 3)." :
        "It falsifies the formula: the board can no longer be cleared from here (Theorem 3).")),
    free.lift ? h("p", {class: "ok"}, `The board is clear; lift reads ${free.lift.map(lit).join(" ")} off the whole play.`) : null,
  );
}

let trying = null;  // the run of "Try assignments" under way: {cancelled}

async function tryAll() {
  if (trying) { trying.cancelled = true; return; }  // the button is Cancel while it runs
  const box = $("try-all-box"), L = T.lesson, run = trying = {cancelled: false};
  const limit = Math.min(L.assignments ?? L.try_all_limit, L.try_all_limit);
  const progress = h("progress", {id: "try-progress", max: limit, value: 0});
  const head = h("p", {id: "try-count"});
  const table = h("table", {}, h("tr", {}, h("th", {}, "assignment"), h("th", {}, "result")));
  const sampled = L.assignments === null || L.assignments > L.try_all_limit;
  const order = sampled ? ` A sample of ${L.try_all_limit}: ` + (L.model ? "the satisfying assignment, its neighbours at distance 1 and 2, then random ones." : "random ones.") : "";
  box.replaceChildren(h("p", {}, order + " Click a row to step through it."), progress, head, table);
  $("try-all").textContent = "Cancel";
  let tried = 0, cleared = 0, offset = 0;
  const count = () => {
    head.textContent = `${tried} of ${sampled ? limit + " sampled (" + (L.assignments ?? "2^" + L.variables) + " in all)" : L.assignments} assignments tried: ` +
      `${cleared} clear the board, ${tried - cleared} get stuck` + (run.cancelled ? " (cancelled)" : (offset === null ? "." : "..."));
    head.dataset.tried = String(tried);
    head.dataset.cleared = String(cleared);
    head.dataset.done = offset === null || run.cancelled ? "1" : "0";
    progress.value = tried;
  };
  count();
  try {
    while (offset !== null && !run.cancelled) {
      const res = await api("/api/lesson/tryall", {offset, count: 16});
      if (!res.ok) { box.append(h("p", {class: "error"}, res.reason)); break; }
      if (T.lesson !== L) return;
      for (const r of res.rows) {
        tried++;
        if (r.cleared) cleared++;
        const tr = h("tr", {class: "assignment" + (r.cleared ? " cleared" : ""), "data-assignment": r.assignment.join(" ")},
          h("td", {}, r.assignment.map(lit).join(" ")),
          h("td", {title: r.reason}, r.cleared ? `clears (${r.moves} moves)` : `stuck at ${r.falsified.join(", ")} (${r.tiles_left} left)`));
        tr.addEventListener("click", () => { setSwitches(r.values); guided(); });
        table.append(tr);
      }
      offset = res.next;
      count();
    }
  } finally {
    trying = null;
    count();
    if (T.lesson === L) $("try-all").textContent = tryAllLabel(L);
  }
}

function tryAllLabel(L) {
  return L.assignments && L.assignments <= L.try_all_limit ? `Try every assignment (${L.assignments})` : `Try ${L.try_all_limit} assignments`;
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
  if (L.seed !== null && L.seed !== undefined) $("h2-seed").value = String(L.seed);  // the board's own seed
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
    box.append(h("p", {}, h("b", {}, `Move ${k + 1}: two ${s.group} tiles`), h("span", {class: "tiles"}, ` (tiles ${s.tiles[0]} and ${s.tiles[1]})`),
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

window.addEventListener("keydown", (e) => {  // ←/→, Home/End step a guided play (before app.js's keys)
  if (!(T.lesson && T.mode === "guided" && T.play)) return;
  const tag = e.target.tagName;
  if (tag === "INPUT" && e.target.type !== "checkbox" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const N = T.play.moves.length;
  const to = {ArrowLeft: T.step - 1, ArrowRight: T.step + 1, Home: 0, End: N}[e.key];
  if (to === undefined) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  T.step = Math.max(0, Math.min(N, to));
  paint();
}, true);

window.addEventListener("load", () => {
  const bar = h("div", {id: "lesson-bar", role: "status"},
    h("div", {id: "lesson-text"}),
    h("div", {class: "zoom"},
      h("button", {id: "zoom-fit", title: "the whole picture in view"}, "Fit"),
      h("button", {id: "zoom-width", title: "the picture's width fills the pane"}, "Width"),
      h("button", {id: "zoom-out", title: "smaller (wheel down over the picture)"}, "−"),
      h("span", {id: "zoom-level"}),
      h("button", {id: "zoom-in", title: "larger (wheel up over the picture)"}, "+"),
      h("canvas", {id: "overview", title: "the whole board; the framed part is in view (click to go there)"})));
  $("status").before(bar);
  const legend = h("details", {id: "legend", class: "legend"});
  $("teach").querySelector(".tabs").after(legend);
  $("zoom-fit").addEventListener("click", () => { T.zoom = null; T.fit = "whole"; applyZoom(); });
  $("zoom-width").addEventListener("click", () => { T.zoom = null; T.fit = "width"; applyZoom(); });
  $("zoom-in").addEventListener("click", () => zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => zoomBy(0.8));
  $("overview").addEventListener("click", overviewClicked);
  $("board").addEventListener("wheel", (e) => {
    if (!T.lesson || e.shiftKey) return;  // shift+wheel scrolls sideways
    e.preventDefault();
    const r = $("board").getBoundingClientRect();
    zoomBy(e.deltaY < 0 ? 1.15 : 1 / 1.15, [e.clientX - r.left, e.clientY - r.top]);
  }, {passive: false});
  let framed = false;  // one overview per frame while the picture scrolls
  $("board").addEventListener("scroll", () => {
    if (!T.lesson || framed) return;
    framed = true;
    requestAnimationFrame(() => { framed = false; overview(); });
  });
  window.addEventListener("resize", () => { if (T.lesson && T.zoom === null) applyZoom(); });
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
