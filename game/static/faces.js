// The Mahjong set drawn as SVG symbols, the project's own drawing: dots as circles,
// bamboo as sticks, characters as a numeral over the sign 万 (萬), winds as letters,
// dragons (red 中, green 发, white frame), flowers and seasons with their number and a motif.
// Every stroke is a path here, so no font with Chinese glyphs is needed.
// window.Faces.defs(svg) adds the symbols; Faces.use(parent, id, x, y, w, h) places one;
// Faces.name(id) is the face's name in words ("3 of dots", "east wind", "flower 2 (orchid)"),
// as mjsat.game.faces.long_name says it.
"use strict";

(function () {
  const NS = "http://www.w3.org/2000/svg";
  const W = 40, H = 52;  // a symbol's box (a tile's face is about this shape)
  const BLUE = "#1d4f9c", GREEN = "#1f7a3a", RED = "#c0282d", BLACK = "#1d1d1d";

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  // Chinese numerals and signs as strokes in a 10 x 10 box (x right, y down).
  const STROKES = {
    1: [[[1, 5], [9, 5]]],
    2: [[[2, 3], [8, 3]], [[1, 7.5], [9, 7.5]]],
    3: [[[2, 1.8], [8, 1.8]], [[3, 5], [7, 5]], [[1, 8.6], [9, 8.6]]],
    4: [[[1.5, 2], [1.5, 9]], [[1.5, 2], [8.5, 2], [8.5, 9]], [[1.5, 8.8], [8.5, 8.8]],
        [[4, 2], [3.8, 5.5], [2.8, 6.8]], [[6, 2], [6, 5.8], [7.3, 6.3]]],
    5: [[[2, 1.5], [8, 1.5]], [[4.6, 1.5], [3.6, 8.6]], [[2.4, 4.8], [7.2, 4.8], [7.2, 8.6]], [[1, 8.6], [9, 8.6]]],
    6: [[[4.6, 0.6], [5.6, 2.2]], [[1.2, 3.6], [8.8, 3.6]], [[4, 5.4], [1.8, 9.2]], [[6, 5.4], [8.4, 9.2]]],
    7: [[[1, 5.2], [9, 4]], [[4, 1], [4, 8.2], [5, 9.1], [8.8, 9.1], [9, 7.6]]],
    8: [[[4, 1.8], [3.6, 5.8], [1, 9.2]], [[6, 1.8], [6.4, 5.8], [9, 9.2]]],
    9: [[[4.4, 0.8], [4, 5], [1, 9.2]], [[1.4, 3.6], [6.2, 3.6], [6.2, 8.4], [7, 9.1], [8.8, 9.1], [9, 7.6]]],
    wan: [[[1, 2], [9, 2]], [[4.2, 2], [3.8, 6.2], [1.4, 9.6]], [[4, 5], [8.2, 5], [8, 8.4], [6.8, 9.6], [5.6, 9]]],
    zhong: [[[1.5, 3], [1.5, 7.4]], [[1.5, 3], [8.5, 3], [8.5, 7.4]], [[1.5, 7.2], [8.5, 7.2]], [[5, 0.4], [5, 9.8]]],
    fa: [[[2.6, 0.8], [2, 2.6]], [[6.6, 0.8], [7.8, 2]], [[1, 3.6], [9, 3.6]], [[5.2, 0.6], [4.6, 4.6], [1.4, 9.6]],
         [[3.8, 5.6], [8, 5.6], [4.6, 9.6]], [[4.8, 6.8], [9, 9.6]]],
  };

  function strokes(parent, key, x, y, size, colour, width) {
    const d = STROKES[key].map(line => "M" + line.map(([a, b]) => `${(x + a * size / 10).toFixed(2)} ${(y + b * size / 10).toFixed(2)}`).join("L")).join(" ");
    el("path", {d, fill: "none", stroke: colour, "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round"}, parent);
  }

  // Where the 1..9 dots (or sticks) sit, as fractions of the face.
  const SPOTS = {
    1: [[0.5, 0.5]],
    2: [[0.5, 0.27], [0.5, 0.73]],
    3: [[0.25, 0.2], [0.5, 0.5], [0.75, 0.8]],
    4: [[0.3, 0.27], [0.7, 0.27], [0.3, 0.73], [0.7, 0.73]],
    5: [[0.27, 0.22], [0.73, 0.22], [0.5, 0.5], [0.27, 0.78], [0.73, 0.78]],
    6: [[0.3, 0.18], [0.7, 0.18], [0.3, 0.5], [0.7, 0.5], [0.3, 0.82], [0.7, 0.82]],
    7: [[0.22, 0.14], [0.5, 0.24], [0.78, 0.34], [0.3, 0.58], [0.7, 0.58], [0.3, 0.84], [0.7, 0.84]],
    8: [[0.3, 0.14], [0.7, 0.14], [0.3, 0.38], [0.7, 0.38], [0.3, 0.62], [0.7, 0.62], [0.3, 0.86], [0.7, 0.86]],
    9: [[0.22, 0.18], [0.5, 0.18], [0.78, 0.18], [0.22, 0.5], [0.5, 0.5], [0.78, 0.5], [0.22, 0.82], [0.5, 0.82], [0.78, 0.82]],
  };
  const DOT_COLOURS = {1: [RED], 2: [GREEN, BLUE], 3: [BLUE, RED, GREEN], 4: [BLUE, GREEN, GREEN, BLUE],
                       5: [BLUE, GREEN, RED, GREEN, BLUE], 6: [GREEN, GREEN, RED, RED, RED, RED],
                       7: [GREEN, GREEN, GREEN, RED, RED, RED, RED], 8: Array(8).fill(BLUE),
                       9: [BLUE, BLUE, BLUE, RED, RED, RED, GREEN, GREEN, GREEN]};

  function dots(g, n) {
    const r = n === 1 ? 13 : n <= 4 ? 7.2 : n <= 6 ? 6.2 : n === 9 ? 5.2 : 4.7;
    SPOTS[n].forEach(([fx, fy], i) => {
      const cx = 3 + fx * (W - 6), cy = 3 + fy * (H - 6), c = DOT_COLOURS[n][i];
      el("circle", {cx, cy, r, fill: "none", stroke: c, "stroke-width": n === 1 ? 3 : 2}, g);
      el("circle", {cx, cy, r: r * 0.45, fill: c}, g);
    });
  }

  function stick(g, cx, cy, len, colour) {
    el("rect", {x: cx - 2.6, y: cy - len / 2, width: 5.2, height: len, rx: 2.4, fill: colour}, g);
    el("line", {x1: cx - 2.6, y1: cy, x2: cx + 2.6, y2: cy, stroke: "#f7f1df", "stroke-width": 1}, g);
  }

  function bamboo(g, n) {
    if (n === 1) {  // the one of bamboo: a tall stick with red knots
      stick(g, W / 2, H / 2, 40, GREEN);
      for (const y of [H / 2 - 12, H / 2 + 12]) el("rect", {x: W / 2 - 4, y: y - 1.5, width: 8, height: 3, rx: 1, fill: RED}, g);
      return;
    }
    const len = n <= 4 ? 18 : n <= 6 ? 13 : 10;
    SPOTS[n].forEach(([fx, fy], i) => {
      const red = (n === 5 || n === 9) ? (n === 5 ? i === 2 : (i % 3 === 1)) : (n === 7 && i === 0);
      stick(g, 3 + fx * (W - 6), 3 + fy * (H - 6), len, red ? RED : GREEN);
    });
  }

  function characters(g, n) {
    strokes(g, n, 9, 4, 22, BLUE, 3);
    strokes(g, "wan", 9, 28, 22, RED, 3);
  }

  const WINDS = {east: "E", south: "S", west: "W", north: "N"};
  function wind(g, which) {
    el("text", {x: W / 2, y: H / 2 + 12, "text-anchor": "middle", "font-size": 34, "font-weight": "bold",
                "font-family": "DejaVu Sans, Liberation Sans, sans-serif", fill: BLACK}, g).textContent = WINDS[which] || "?";
  }

  function dragon(g, which) {
    if (which === "red") strokes(g, "zhong", 6, 10, 28, RED, 3.6);
    else if (which === "green") strokes(g, "fa", 6, 10, 28, GREEN, 3.2);
    else {  // white: a blue double frame
      el("rect", {x: 7, y: 7, width: W - 14, height: H - 14, rx: 2, fill: "none", stroke: BLUE, "stroke-width": 3}, g);
      el("rect", {x: 12, y: 12, width: W - 24, height: H - 24, rx: 1, fill: "none", stroke: BLUE, "stroke-width": 1.5}, g);
    }
  }

  const BLOOM = ["#d81b60", "#8e24aa", "#ef6c00", "#c62828"];
  function flower(g, n) {
    const c = BLOOM[(n - 1) % 4], cx = W / 2, cy = H / 2 + 5;
    el("line", {x1: cx, y1: cy + 6, x2: cx, y2: H - 4, stroke: GREEN, "stroke-width": 2}, g);
    for (let k = 0; k < 5; k++) {
      const a = (k * 72 - 90) * Math.PI / 180;
      el("circle", {cx: cx + 7 * Math.cos(a), cy: cy + 7 * Math.sin(a), r: 5, fill: c}, g);
    }
    el("circle", {cx, cy, r: 3.5, fill: "#fbc02d"}, g);
    number(g, n, c);
  }

  const SEASON = ["#2e7d32", "#e53935", "#ef6c00", "#1565c0"];  // spring, summer, autumn, winter
  function season(g, n) {
    const c = SEASON[(n - 1) % 4], cx = W / 2, cy = H / 2 + 5;
    for (let k = 0; k < 8; k++) {
      const a = k * Math.PI / 4;
      el("line", {x1: cx + 9 * Math.cos(a), y1: cy + 9 * Math.sin(a), x2: cx + 14 * Math.cos(a), y2: cy + 14 * Math.sin(a),
                  stroke: c, "stroke-width": 2.4, "stroke-linecap": "round"}, g);
    }
    el("circle", {cx, cy, r: 7, fill: c}, g);
    number(g, n, c);
  }

  function number(g, n, colour) {
    el("text", {x: 4, y: 13, "font-size": 12, "font-weight": "bold", "font-family": "DejaVu Sans, sans-serif", fill: colour}, g)
      .textContent = String(n);
  }

  // face id -> {kind, value, variant}: "dots-3", "wind-east", "dragon-red", "flower-2", "dots-3-2" (variant 2)
  const KINDS = ["dots", "bamboo", "chars", "wind", "dragon", "flower", "season"];
  function parse(id) {
    const m = /^(dots|bamboo|chars|wind|dragon|flower|season)-([a-z0-9]+)(?:[-.~:_/#v]+(\d+))?$/.exec(String(id || ""));
    if (!m) return null;
    const [, kind, value, variant] = m;
    const numeric = kind === "dots" || kind === "bamboo" || kind === "chars" || kind === "flower" || kind === "season";
    if (numeric) {
      const n = parseInt(value, 10);
      const top = (kind === "flower" || kind === "season") ? 4 : 9;
      if (!(n >= 1 && n <= top)) return null;
      return {kind, value: n, variant: variant ? parseInt(variant, 10) : 0};
    }
    if (kind === "wind" && !(value in WINDS)) return null;
    if (kind === "dragon" && !["red", "green", "white"].includes(value)) return null;
    return {kind, value, variant: variant ? parseInt(variant, 10) : 0};
  }

  const FLOWER_NAMES = ["plum", "orchid", "chrysanthemum", "bamboo"];
  const SEASON_NAMES = ["spring", "summer", "autumn", "winter"];
  const DRAW = {dots, bamboo, chars: characters, wind, dragon, flower, season};
  const SUIT_WORDS = {dots: "dots", bamboo: "bamboo", chars: "characters"};

  function name(id) {
    const f = parse(id);
    if (!f) return String(id);
    let s;
    if (f.kind in SUIT_WORDS) s = `${f.value} of ${SUIT_WORDS[f.kind]}`;
    else if (f.kind === "wind") s = `${f.value} wind`;
    else if (f.kind === "dragon") s = `${f.value} dragon`;
    else s = `${f.kind} ${f.value} (${(f.kind === "flower" ? FLOWER_NAMES : SEASON_NAMES)[f.value - 1]})`;
    return f.variant > 1 ? `${s}, set ${f.variant}` : s;
  }

  // Variants (boards with more groups than the set has faces) keep the face and add a
  // coloured corner mark with the set's number, so that every group looks different.
  const VARIANT = ["#6a1b9a", "#00838f", "#ad1457", "#4e342e", "#37474f", "#827717"];
  function variantMark(g, v) {
    const c = VARIANT[(v - 2) % VARIANT.length];
    el("path", {d: `M${W} ${H - 15} L${W} ${H} L${W - 15} ${H} Z`, fill: c}, g);
    el("text", {x: W - 2.5, y: H - 2.5, "font-size": 8, "text-anchor": "end", "font-weight": "bold",
                "font-family": "DejaVu Sans, sans-serif", fill: "#fff"}, g).textContent = String(v);
  }

  function symbolId(id) { return "face-" + String(id).replace(/[^a-z0-9-]/gi, "_"); }

  // Add to svg's <defs> the symbols of the faces in ids (each once).
  function defs(svg, ids) {
    const holder = el("defs", {}, svg);
    for (const id of new Set(ids)) {
      const f = parse(id);
      if (!f) continue;
      const sym = el("symbol", {id: symbolId(id), viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none"}, holder);
      DRAW[f.kind](sym, f.value);
      if (f.variant > 1) variantMark(sym, f.variant);
    }
    return holder;
  }

  function use(parent, id, x, y, w, h) {
    if (!parse(id)) return null;
    const node = el("use", {href: "#" + symbolId(id), x, y, width: w, height: h, class: "face-img", "data-face": id}, parent);
    return node;
  }

  window.Faces = {defs, use, name, parse, KINDS};
})();
