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
// ONLY=text runs the tests whose name contains it (for working on one page).
const ONLY = process.env.ONLY || "";
async function test(name, body) {
  if (!name.includes(ONLY)) return;
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

  // The tablebase page. With EXPECT_TABLES=1 (scripts/e2e.sh serves the 3-piece tables with
  // their DTZ tables) every test below checks the page against /api/tb and /standard.
  const tbApi = async (fen) => {
    const res = await fetch(BASE + "/api/tb?fen=" + encodeURIComponent(fen));
    assert(res.ok, `/api/tb answered ${res.status} for ${fen}`);
    return res.json();
  };
  const standardApi = async (fen) => {
    const res = await fetch(BASE + "/standard?fen=" + encodeURIComponent(fen));
    assert(res.ok, `/standard answered ${res.status} for ${fen}`);
    return res.json();
  };
  /** Waits until the page shows its answer for `fen` (the verdict names the FEN it is about). */
  const probed = (fen) => page.waitForFunction((f) => document.querySelector("#verdict").dataset.fen === f, fen, { timeout: 10000 });
  /** Types `fen` into the FEN field and presses Enter. */
  const enterFen = async (fen) => { await page.fill("#fen", fen); await page.press("#fen", "Enter"); await probed(fen); };
  const placement = async () => (await page.inputValue("#fen")).split(" ")[0];
  const sq = (name) => page.locator(`#board .sq[data-square="${name}"]`);
  const centre = async (loc) => { const b = await loc.boundingBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
  const drag = async (fromLoc, to, mid) => {
    const [x0, y0] = await centre(fromLoc);
    const [x1, y1] = Array.isArray(to) ? to : await centre(to);
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 4 });
    await page.mouse.move(x1, y1, { steps: 4 });
    if (mid) await mid();
    await page.mouse.up();
  };
  // The mover's class of a move row is the mirror of the class of the position after it.
  const MIRROR = { win: "loss", "cursed-win": "blessed-loss", draw: "draw", "blessed-loss": "cursed-win", loss: "win" };
  // lichess's tablebase colours (style.css): win green, cursed win and blessed loss muted, draw grey, loss red.
  const COLOUR = { win: "rgb(98, 153, 36)", "cursed-win": "rgb(154, 166, 126)", draw: "rgb(138, 138, 138)",
    "blessed-loss": "rgb(184, 148, 148)", loss: "rgb(204, 51, 51)" };
  const MATE_IN_1 = "4k3/8/4K3/4Q3/8/8/8/8 w - - 0 1";

  await test("the tablebase page loads and reports whether tables are served", async () => {
    errors.length = 0;
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
    const dtms = await page.$$eval("#moves tr td.dtm", (tds) => tds.map((t) => t.textContent));
    eq(dtms, answer.moves.map((m) => (m.dtm_plies === null ? "–" : String(m.dtm_plies))), "DTM per move");
    await page.screenshot({ path: path.join(SHOTS, "tablebase.png") });
    // Play the best move by clicking its from- and to-squares on the board.
    const best = answer.moves[0];
    await sq(best.uci.slice(0, 2)).click();
    await sq(best.uci.slice(2, 4)).click();
    const [board, turn, castling, ep] = best.fen.split(" ");
    const played = `${board} ${turn} ${castling} ${ep} ${best.zeroing ? 0 : 1} ${turn === "w" ? 2 : 1}`;
    await probed(played);
    eq(await page.inputValue("#fen"), played, "FEN after the move (clock and move number carried on)");
    const after = await tbApi(played);
    eq(await page.getAttribute("#verdict", "data-category"), after.moves.length === 0 ? (after.outcome === "lose" ? "loss" : "draw") : after.category, "class after the move");
    eq(await page.locator("#moves tr").count(), after.moves.length, "moves after the move");
    await page.screenshot({ path: path.join(SHOTS, "tablebase-after-move.png") });
  });

  const needTables = async (name, body) => test(name, async () => {
    assert(process.env.EXPECT_TABLES === "1", "needs EXPECT_TABLES=1 and tables served (scripts/e2e.sh)");
    await body();
  });

  await needTables("tablebase: moves in SAN with their class, DTZ and DTM, coloured as on lichess", async () => {
    const seen = new Set();
    // White with the clock at 99 (the mates in one win, slower wins are cursed, draws), black
    // lost (losses), black saved by the clock (blessed losses). (At 100 every decisive move is
    // cursed: a draw could be claimed before it, as lichess counts it.)
    const fens = ["4k3/8/4K3/4Q3/8/8/8/8 b - - 0 80", "3k4/8/3K4/8/8/8/8/7R b - - 98 1", "4k3/8/4K3/4Q3/8/8/8/8 w - - 99 80"];
    const shots = ["tb-san-loss.png", "tb-san-blessed-loss.png", "tb-san-colours.png"];
    for (const [k, fen] of fens.entries()) {
      await enterFen(fen);
      const api = await tbApi(fen);
      const lichess = await standardApi(fen);
      const rows = await page.$$eval("#moves tr", (trs) => trs.map((tr) => ({
        san: tr.querySelector("td.san").textContent,
        category: tr.dataset.category,
        shown: tr.querySelector(".cat").textContent,
        colour: getComputedStyle(tr.querySelector(".cat")).backgroundColor,
        tags: [...tr.querySelectorAll(".tag")].map((t) => t.textContent),
        dtz: tr.querySelector("td.dtz").textContent,
        dtm: tr.querySelector("td.dtm").textContent,
      })));
      eq(rows.map((r) => r.san), api.moves.map((m) => m.san), `SAN list of ${fen}`);
      eq(rows.map((r) => r.san), lichess.moves.map((m) => m.san), `SAN list of ${fen} vs /standard`);
      eq(rows.map((r) => r.category), api.moves.map((m) => MIRROR[m.category]), `classes of ${fen}`);
      eq(rows.map((r) => r.shown), rows.map((r) => r.category.replace("-", " ")), "class words");
      eq(rows.map((r) => r.colour), rows.map((r) => COLOUR[r.category]), `class colours of ${fen}`);
      eq(rows.map((r) => r.dtz), api.moves.map((m) => (m.dtz === 0 ? "–" : String(Math.abs(m.dtz)))), `DTZ of ${fen}`);
      eq(rows.map((r) => r.dtm), api.moves.map((m) => (m.dtm_plies === null ? "–" : String(m.dtm_plies))), `DTM of ${fen}`);
      eq(rows.map((r) => r.tags.includes("checkmate")), lichess.moves.map((m) => m.checkmate), `checkmate tags of ${fen}`);
      eq(rows.map((r) => r.tags.includes("stalemate")), lichess.moves.map((m) => m.stalemate), `stalemate tags of ${fen}`);
      rows.forEach((r) => seen.add(r.category));
      eq(await page.getAttribute("#verdict", "data-category"), api.category, `position class of ${fen}`);
      await page.screenshot({ path: path.join(SHOTS, shots[k]), fullPage: true });
    }
    eq([...seen].sort(), Object.keys(COLOUR).sort(), "every class shown at least once");
  });

  await needTables("tablebase: coordinates on the board (files a-h on the first rank, ranks 1-8 on the a-file)", async () => {
    await enterFen(MATE_IN_1);
    const files = await page.$$eval("#board .coord.file", (cs) => cs.map((c) => [c.textContent, c.parentElement.dataset.square]));
    eq(files, [..."abcdefgh"].map((f) => [f, f + "1"]), "file letters");
    const ranks = await page.$$eval("#board .coord.rank", (cs) => cs.map((c) => [c.textContent, c.parentElement.dataset.square]));
    eq(ranks, [..."87654321"].map((r) => [r, "a" + r]), "rank numbers");
    // Drawn inside their squares and readable (not the square's own colour).
    for (const name of ["a1", "h1", "a8"]) {
      const box = await sq(name).boundingBox();
      for (const c of await sq(name).locator(".coord").all()) {
        const b = await c.boundingBox();
        assert(b.width > 0 && b.x >= box.x && b.y >= box.y && b.x + b.width <= box.x + box.width && b.y + b.height <= box.y + box.height, `coordinate inside ${name}`);
        const [fg, bg] = await c.evaluate((e) => [getComputedStyle(e).color, getComputedStyle(e.parentElement).backgroundColor]);
        assert(fg !== bg, `coordinate of ${name} readable`);
      }
    }
    await page.locator("#board").screenshot({ path: path.join(SHOTS, "tb-coordinates.png") });
  });

  await needTables("tablebase: pieces placed by clicking, side to move toggled, FEN in sync both ways", async () => {
    await enterFen(MATE_IN_1);
    await page.click("#clear");
    await probed("8/8/8/8/8/8/8/8 w - - 0 1");
    eq(await page.locator("#board .sq .piece").count(), 0, "cleared board");
    for (const [piece, square] of [["K", "e6"], ["k", "e8"], ["Q", "e5"]]) {
      await page.click(`#palette .tool[data-tool="${piece}"]`);
      await sq(square).click();
    }
    eq(await page.inputValue("#fen"), MATE_IN_1, "FEN of the placed pieces");
    await probed(MATE_IN_1);
    const api = await tbApi(MATE_IN_1);
    eq(await page.locator("#moves tr").count(), api.moves.length, "moves of the placed position");
    // The same piece again removes it; another piece replaces it.
    await sq("e5").click();
    eq(await placement(), "4k3/8/4K3/8/8/8/8/8", "queen removed");
    await page.click('#palette .tool[data-tool="R"]');
    await sq("e5").click();
    eq(await placement(), "4k3/8/4K3/4R3/8/8/8/8", "rook placed");
    await page.click('#palette .tool[data-tool="x"]');
    await sq("e5").click();
    eq(await placement(), "4k3/8/4K3/8/8/8/8/8", "rook removed");
    await page.click('#palette .tool[data-tool="Q"]');
    await sq("e5").click();
    // Side to move.
    await page.click("#turn");
    const black = "4k3/8/4K3/4Q3/8/8/8/8 b - - 0 1";
    eq(await page.inputValue("#fen"), black, "black to move");
    eq(await page.textContent("#turn"), "Black to move", "toggle label");
    await probed(black);
    eq(await page.getAttribute("#verdict", "data-category"), (await tbApi(black)).category, "class with black to move");
    await page.screenshot({ path: path.join(SHOTS, "tb-place.png") });
    await page.click("#turn");
    // And the other way: a FEN typed in redraws the board, the side to move and the clock.
    await page.fill("#fen", "8/8/8/8/8/2k5/8/K6R b - - 7 30");
    await page.waitForFunction(() => document.querySelector('#board .sq[data-square="h1"]').dataset.piece === "R");
    eq(await sq("c3").getAttribute("data-piece"), "k", "typed black king drawn");
    eq(await sq("e5").getAttribute("data-piece"), "", "old queen gone");
    eq(await page.textContent("#turn"), "Black to move", "typed side to move");
    eq(await page.inputValue("#clock"), "7", "typed clock");
    await probed("8/8/8/8/8/2k5/8/K6R b - - 7 30");
    await page.click('#palette .tool[data-tool=""]');
  });

  await needTables("tablebase: pieces dragged between squares, from the palette and off the board; a legal drag plays the move", async () => {
    await enterFen(MATE_IN_1);
    await page.click('#palette .tool[data-tool=""]');
    // Not a legal move (black's king, white to move): the piece is moved as set-up.
    await drag(sq("e8"), sq("a8"), () => page.screenshot({ path: path.join(SHOTS, "tb-drag-mid.png") }));
    eq(await placement(), "k7/8/4K3/4Q3/8/8/8/8", "king dragged to a8");
    // From the palette onto the board, then off the board.
    await drag(page.locator('#palette .tool[data-tool="r"]'), sq("h1"));
    eq(await placement(), "k7/8/4K3/4Q3/8/8/8/7r", "black rook dragged in from the palette");
    const board = await page.locator("#board").boundingBox();
    await drag(sq("h1"), [board.x + board.width + 60, board.y + board.height / 2]);
    eq(await placement(), "k7/8/4K3/4Q3/8/8/8/8", "rook dragged off the board");
    await page.click("#back"); await page.click("#back"); await page.click("#back");
    eq(await page.inputValue("#fen"), MATE_IN_1, "Back undoes the set-up changes");
    await probed(MATE_IN_1);
    // A legal move dragged: played, with the clock carried on.
    const api = await tbApi(MATE_IN_1);
    const mate = api.moves.find((m) => m.san === "Qb8#");
    assert(mate, "Qb8# listed");
    await drag(sq("e5"), sq("b8"));
    const played = mate.fen.split(" ").slice(0, 4).join(" ") + " 1 1";
    await probed(played);
    eq(await page.inputValue("#fen"), played, "FEN after the dragged move");
    eq(await page.getAttribute("#verdict", "data-end"), "checkmate", "the dragged move mates");
    await page.screenshot({ path: path.join(SHOTS, "tb-drag.png") });
    // A pawn dragged to the last rank promotes to a queen, and a pawn move resets the clock.
    await enterFen("8/4P3/8/8/8/2k5/8/K7 w - - 5 1");
    await drag(sq("e7"), sq("e8"));
    await probed("4Q3/8/8/8/8/2k5/8/K7 b - - 0 1");
    eq(await page.inputValue("#clock"), "0", "clock after the promotion");
  });

  await needTables("tablebase: checkmate and stalemate named as such, not as mate in 0 plies", async () => {
    const cases = [["4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1", "checkmate", "Checkmate", "tb-checkmate.png"],
      ["k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", "stalemate", "Stalemate", "tb-stalemate.png"]];
    for (const [fen, flag, word, shot] of cases) {
      const lichess = await standardApi(fen);
      assert(lichess[flag] === true, `/standard says ${flag} for ${fen}`);
      await enterFen(fen);
      eq(await page.getAttribute("#verdict", "data-end"), flag, `end of ${fen}`);
      eq(await page.textContent("#verdict .headline"), word, `headline of ${fen}`);
      const text = await page.textContent("#verdict");
      assert(!/mate in 0|0 plies/.test(text), `no "mate in 0" in ${JSON.stringify(text)}`);
      eq(await page.locator("#moves tr").count(), 0, "no moves listed");
      assert(await page.locator("table.tb-moves").isHidden(), "no empty move table");
      await page.screenshot({ path: path.join(SHOTS, shot) });
    }
  });

  await needTables("tablebase: the halfmove clock changes the class (KQvK mate in 1 at clock 100 is a cursed win)", async () => {
    await enterFen("4k3/8/4K3/4Q3/8/8/8/8 w - - 0 80");
    eq(await page.getAttribute("#verdict", "data-category"), "win", "win at clock 0");
    // Past the 75-move rule's 150 plies: the server's refusal, named.
    await page.fill("#clock", "151");
    await probed("4k3/8/4K3/4Q3/8/8/8/8 w - - 151 80");
    assert(/halfmove clock 151: expected 0 to 150/.test(await page.textContent("#tb-status")), "clock 151 refused with the reason");
    eq(await page.locator("#moves tr").count(), 0, "nothing listed for a refused position");
    await page.fill("#clock", "100");
    const fen = "4k3/8/4K3/4Q3/8/8/8/8 w - - 100 80";
    await probed(fen);
    eq(await page.inputValue("#fen"), fen, "the clock goes into the FEN's fifth field");
    const api = await tbApi(fen);
    eq(api.category, "cursed-win", "/api/tb's class at clock 100");
    eq(await page.getAttribute("#verdict", "data-category"), "cursed-win", "class shown at clock 100");
    assert((await page.textContent("#verdict .headline")).includes("cursed win"), "headline says cursed win");
    const classes = await page.$$eval("#moves tr", (trs) => trs.map((tr) => tr.dataset.category));
    eq(classes, api.moves.map((m) => MIRROR[m.category]), "move classes at clock 100");
    assert(classes.includes("cursed-win"), "some moves are cursed wins at clock 100");
    await page.screenshot({ path: path.join(SHOTS, "tb-clock.png") });
    // Clicking a move in the list plays it; a quiet move carries the clock on.
    const quiet = api.moves.find((m) => m.san === "Qb2");
    await page.click('#moves tr[data-uci="e5b2"] td.san a');
    const played = quiet.fen.split(" ").slice(0, 4).join(" ") + " 101 80";
    await probed(played);
    eq(await page.inputValue("#fen"), played, "FEN after clicking Qb2");
    eq(await page.inputValue("#clock"), "101", "clock after a quiet move");
    eq(await page.getAttribute("#verdict", "data-category"), (await tbApi(played)).category, "class after Qb2");
  });

  await test("no errors in the browser console on the tablebase page", async () => {
    // Positions half set up are refused by the server (400 illegal, 404 no table): the page
    // shows the server's message, and Chromium logs the failed fetch, which is not an error.
    eq(errors.filter((e) => !/^Failed to load resource: the server responded with a status of 40[04]/.test(e)), [], "console errors");
  });

  await test("the values page draws the thermograph of a value typed in", async () => {
    errors.length = 0;
    await page.goto(BASE + "/values");
    const shown = async (value) => {
      await page.fill("#value", value);
      await page.click("#draw");
      const api = await (await fetch(BASE + "/api/cgt/thermograph?value=" + encodeURIComponent(value))).json();
      await page.waitForFunction((v) => document.querySelector("#v-value").textContent === v, api.value);
      return api;
    };
    const api = await shown("{{3|2}|{-1|-3}}");
    eq([api.mean, api.temperature], ["1/4", "9/4"], "the API's mean and temperature");
    eq(await page.textContent("#v-mean"), api.mean, "mean on the page");
    eq(await page.textContent("#v-temperature"), api.temperature, "temperature on the page");
    assert(await page.locator("#picture svg polyline").count() === 2, "two walls drawn");
    await page.screenshot({ path: path.join(SHOTS, "values-thermograph.png") });
    await shown("+-1 + ^");
    eq(await page.textContent("#v-mean"), "0", "mean of +-1 + ^");
    await page.fill("#value", "{1|");
    await page.click("#draw");
    await page.waitForFunction(() => document.querySelector("#value-error").textContent !== "");
    assert(/column 4/.test(await page.textContent("#value-error")), "the column of a malformed value");
    eq(errors.filter((e) => !/^Failed to load resource: the server responded with a status of 400/.test(e)), [], "console errors");
  });

} finally {
  await browser.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
