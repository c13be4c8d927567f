// The other side of benchmarks/bench_bondt.py: runs a compiled copy of the TypeScript port
// of de Bondt's solver (`src/app/model/solver.ts` of the public repository ffalt/mah, MIT;
// not part of mjsat, never copied into it) on the deals bench_bondt.py writes.
//
//   node bondt_driver.js SOLVER_JS DEALS_JSON
//
// DEALS_JSON: {"positions": [[row, col, lev], ...], "deals": [[group of each tile], ...]}.
// Then on stdin, one line "FIRST END" per block: the deals FIRST..END-1 are solved, one
// `new Solver().solveLayout(stones)` each, and answered by one JSON line per deal
// ({"i", "solvable", "cpu_ms", "wall_ms", "plays", "prunes"}) and a line "end". The CPU
// time is the process's (process.cpuUsage: every thread of node, its collector's too).
// An empty line or the end of stdin stops it.
"use strict";
const fs = require("fs");
const readline = require("readline");

const [solverPath, dealsPath] = process.argv.slice(2);
if (!solverPath || !dealsPath) {
  process.stderr.write("usage: node bondt_driver.js SOLVER_JS DEALS_JSON\n");
  process.exit(2);
}
const { Solver } = require(require("path").resolve(solverPath));
const data = JSON.parse(fs.readFileSync(dealsPath, "utf8"));

function solveOne(i) {
  const groups = data.deals[i];
  // the port's grid is lo[y][x][z] on the half-tile grid: y the row, x the column, z the level
  const stones = data.positions.map((p, k) => ({ y: p[0], x: p[1], z: p[2], groupnr: groups[k] }));
  const solver = new Solver();
  const c0 = process.cpuUsage();
  const w0 = process.hrtime.bigint();
  const left = solver.solveLayout(stones); // 0: cleared; 2: no clearing exists
  const w1 = process.hrtime.bigint();
  const c = process.cpuUsage(c0);
  return {
    i,
    solvable: left === 0,
    cpu_ms: (c.user + c.system) / 1000,
    wall_ms: Number(w1 - w0) / 1e6,
    plays: solver.nrPlays,
    prunes: solver.nPlays,
  };
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) {
    rl.close();
    return;
  }
  const [first, end] = line.trim().split(/\s+/).map(Number);
  const out = [];
  for (let i = first; i < end; i++) out.push(JSON.stringify(solveOne(i)));
  out.push("end");
  process.stdout.write(out.join("\n") + "\n");
});
