// End-to-end tests of the visualiser in real headless Chromium (Debian's /usr/bin/chromium),
// driven by playwright-core. Usage: BASE_URL=http://127.0.0.1:PORT node run.mjs
// Every preset is run to completion through the UI and its final labels compared with
// POST /api/solve; screenshots go to $SHOT_DIR (default ../../../target/e2e).
import { chromium } from "playwright-core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const BASE = process.env.BASE_URL || "http://127.0.0.1:8080";
const SHOTS = process.env.SHOT_DIR || path.resolve(here, "../../../target/e2e");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
fs.mkdirSync(SHOTS, { recursive: true });

let passed = 0, failed = 0;
async function test(name, body) {
  try {
    await body();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n     ${String(e && e.stack || e).split("\n").join("\n     ")}`);
  }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }
function eq(a, b, msg) {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  if (x !== y) throw new Error(`${msg}: got ${x}, expected ${y}`);
}

async function apiSolve(graph) {
  const res = await fetch(BASE + "/api/solve", { method: "POST", body: JSON.stringify(graph) });
  assert(res.ok, `POST /api/solve answered ${res.status}`);
  return res.json();
}

/** Labels and depths as the page shows them: [{label, depth}] per node. */
async function pageLabels(page) {
  return page.$$eval("#nodes .node", (gs) => gs.map((g) => ({
    label: g.dataset.label, depth: g.dataset.depth === "" ? null : Number(g.dataset.depth),
  })));
}
function apiLabels(answer) {
  return answer.solution.map((r) => ({ label: r.outcome, depth: r.depth }));
}
async function runToEnd(page) {
  await page.fill("#speed", "40");
  await page.dispatchEvent("#speed", "input");
  await page.click("#play");
  await page.waitForSelector('#status[data-done="true"]', { timeout: 20000 });
}

const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zermelo-e2e-"));
// A fresh profile per run; playwright passes it to Chromium as --user-data-dir.
const browser = await chromium.launchPersistentContext(userDataDir, {
  executablePath: CHROMIUM,
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = browser.pages()[0] || await browser.newPage();
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });

try {
  await page.goto(BASE + "/");
  const presets = await page.$$eval("#preset option", (os) =>
    os.filter((o) => o.value !== "").map((o) => ({ value: o.value, id: o.dataset.id, name: o.textContent })));
  const cases = JSON.parse(fs.readFileSync(path.resolve(here, "../../zermelo/tests/data/seed-examples.json"), "utf8").toString());

  await test("the page loads with every preset of seed-examples.json", async () => {
    const ids = presets.map((p) => p.id).sort();
    eq(ids, cases.cases.map((c) => c.name).sort(), "preset ids");
    assert(presets.some((p) => p.name === "Cycle + terminal"), "Cycle + terminal preset");
    assert(presets.some((p) => p.name === "Forced chain"), "Forced chain preset");
  });

  for (const p of presets) {
    await test(`preset "${p.name}" runs to completion and matches /api/solve`, async () => {
      await page.selectOption("#preset", p.value);
      const c = cases.cases.find((c) => c.name === p.id);
      const graph = { nodes: c.nodes, edges: c.edges, misere: c.terminal === "WIN" };
      const edgesShown = await page.$$eval("#edges path", (ps) => ps.map((e) => [Number(e.dataset.from), Number(e.dataset.to)]));
      eq(edgesShown, c.edges, "edges drawn");
      await runToEnd(page);
      const api = await apiSolve(graph);
      eq(await pageLabels(page), apiLabels(api), "labels on the page vs the API");
      // And the API agrees with the seed document's worked answer.
      eq(api.solution.map((r) => r.outcome.toUpperCase()), c.labels, "API labels vs the seed");
      eq(api.solution.map((r) => r.depth), c.dist, "API depths vs the seed");
      const best = await page.$$eval("#edges path.best", (ps) => ps.map((e) => [Number(e.dataset.from), Number(e.dataset.to)]));
      const expected = api.solution.filter((r) => r.best_move !== null).map((r) => [r.node, r.best_move]);
      eq(best.sort(), expected.sort(), "best-move arrows");
      await page.screenshot({ path: path.join(SHOTS, `preset-${p.id}.png`) });
    });
  }

  await test("Forced chain: stepping shows the seed, the wave, counters and the final depths", async () => {
    const p = presets.find((p) => p.id === "forced-chain");
    await page.selectOption("#preset", p.value);
    await page.click("#step"); // seed 3
    await page.waitForSelector('#nodes .node[data-node="3"][data-label="lose"]');
    eq(await page.textContent("#queue"), "[3]", "queue after the seed");
    await page.click("#step"); // pop 3
    await page.click("#step"); // 2 wins
    await page.waitForSelector('#nodes .node[data-node="2"][data-label="win"][data-depth="1"]');
    await page.click("#step"); // pop 2
    await page.click("#step"); // 1 lose at zero
    await page.waitForSelector('#nodes .node[data-node="1"][data-label="lose"][data-depth="2"]');
    eq(await page.$eval('#nodes .node[data-node="1"] .counter', (g) => g.dataset.counter), "0", "counter of 1");
    await page.screenshot({ path: path.join(SHOTS, "forced-chain-mid.png") });
    await runToEnd(page);
    eq((await pageLabels(page)).map((l) => l.depth), [3, 2, 1, 0], "depths");
  });

  await test("Cycle + terminal: counters tick down, leftovers turn DRAW, screenshots mid-way and at the end", async () => {
    const p = presets.find((p) => p.id === "cycle-plus-terminal");
    await page.selectOption("#preset", p.value);
    for (let k = 0; k < 5; k++) await page.click("#step"); // seed 3, pop 3, win 1, pop 1, decrement 0 / 2
    await page.waitForSelector("#edges path.hot");
    const counters = await page.$$eval("#nodes .counter", (gs) => gs.map((g) => Number(g.dataset.counter)));
    eq(counters, [1, 1, 2, 0, 1], "counters after 1 turns WIN");
    await page.screenshot({ path: path.join(SHOTS, "visualiser-mid.png") });
    await runToEnd(page);
    eq((await pageLabels(page)).map((l) => l.label), ["draw", "win", "draw", "lose", "draw"], "labels");
    await page.screenshot({ path: path.join(SHOTS, "visualiser-end.png") });
  });

  await test("a graph drawn by clicking is solved like the API solves it", async () => {
    await page.click("#clear");
    await page.check('input[name="mode"][value="node"]');
    const box = await page.locator("#graph").boundingBox();
    const at = (x, y) => page.mouse.click(box.x + box.width * x, box.y + box.height * y);
    await at(0.2, 0.5); await at(0.5, 0.3); await at(0.5, 0.7); await at(0.8, 0.5);
    eq(await page.locator("#nodes .node").count(), 4, "nodes added");
    await page.check('input[name="mode"][value="edge"]');
    const node = (u) => page.locator(`#nodes .node[data-node="${u}"] circle.body`);
    for (const [u, v] of [[0, 1], [0, 2], [1, 3], [2, 1], [2, 0]]) { await node(u).click(); await node(v).click(); }
    eq(await page.locator("#edges path").count(), 5, "edges added");
    await runToEnd(page);
    const api = await apiSolve({ nodes: 4, edges: [[0, 1], [0, 2], [1, 3], [2, 1], [2, 0]] });
    eq(await pageLabels(page), apiLabels(api), "labels");
    await page.screenshot({ path: path.join(SHOTS, "drawn-graph.png") });
  });

  await test("no errors in the browser console on the visualiser", async () => { eq(errors, [], "console errors"); });

  await test("the tablebase page loads and reports whether tables are served", async () => {
    await page.goto(BASE + "/tb");
    await page.waitForFunction(() => document.querySelector("#tb-status").textContent !== "" ||
      document.querySelector("#moves").children.length > 0);
    eq(await page.locator("#board .sq").count(), 64, "squares");
    const fen = await page.inputValue("#fen");
    const probe = await fetch(BASE + "/api/tb?fen=" + encodeURIComponent(fen));
    if (process.env.EXPECT_TABLES === "1") assert(probe.status === 200, `tables expected, /api/tb answered ${probe.status}`);
    if (probe.status === 404) {
      assert(/No tables served/.test(await page.textContent("#tb-status")), "no-tables notice");
      await page.screenshot({ path: path.join(SHOTS, "tablebase.png") });
      return;
    }
    const answer = await probe.json();
    eq(await page.locator("#moves tr").count(), answer.moves.length, "moves listed");
    const dtms = await page.$$eval("#moves tr td:nth-child(3)", (tds) => tds.map((t) => t.textContent));
    eq(dtms, answer.moves.map((m) => (m.dtm_plies === null ? "–" : String(m.dtm_plies))), "DTM per move");
    await page.screenshot({ path: path.join(SHOTS, "tablebase.png") });
    // Play the best move by clicking its from- and to-squares on the board.
    const best = answer.moves[0];
    await page.click(`#board .sq[data-square="${best.uci.slice(0, 2)}"]`);
    await page.click(`#board .sq[data-square="${best.uci.slice(2, 4)}"]`);
    await page.waitForFunction((f) => document.querySelector("#fen").value === f, best.fen);
    const after = await (await fetch(BASE + "/api/tb?fen=" + encodeURIComponent(best.fen))).json();
    await page.waitForFunction((o) => document.querySelector("#verdict").textContent.includes(`Side to move: ${o}`),
      after.outcome.toUpperCase(), { timeout: 5000 });
    eq(await page.locator("#moves tr").count(), after.moves.length, "moves after the move");
    await page.screenshot({ path: path.join(SHOTS, "tablebase-after-move.png") });
  });

} finally {
  await browser.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
