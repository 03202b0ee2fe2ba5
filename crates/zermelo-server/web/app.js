// The visualiser: draw a graph, ask /api/solve?trace=true, replay the backward wave event by
// event. Plain DOM + SVG; every label shown comes from the server's trace, none is computed here.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const R = 30; // node radius
const $ = (id) => document.getElementById(id);

const model = { pos: [], edges: [], misere: false }; // the graph being edited
let run = null;        // { trace, solution, i, nodes: [...], queue: [...] } once solved
let timer = null;      // pending setTimeout of Play
let pendingEdgeFrom = null;

// ---------- graph editing ----------

function loadPreset(p) {
  model.pos = p.pos.map(([x, y]) => [x, y]);
  model.edges = p.edges.map(([u, v]) => [u, v]);
  model.misere = p.misere;
  $("misere").checked = p.misere;
  invalidate();
}

function invalidate() {
  stop();
  run = null;
  pendingEdgeFrom = null;
  $("log").innerHTML = "";
  $("pos").textContent = "0";
  $("total").textContent = "–";
  $("queue").textContent = "[]";
  setDone(false);
  narrate("Press Play or Step to run retrograde analysis on this graph.");
  draw();
}

function outDegree(u) {
  return model.edges.filter(([a]) => a === u).length;
}

function svgPoint(evt) {
  const svg = $("graph");
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX;
  pt.y = evt.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function onCanvasClick(evt) {
  const mode = document.querySelector('input[name="mode"]:checked').value;
  const hit = evt.target.closest(".node");
  if (mode === "node" && !hit) {
    const p = svgPoint(evt);
    model.pos.push([Math.round(p.x), Math.round(p.y)]);
    $("preset").value = "";
    invalidate();
  } else if (mode === "edge" && hit) {
    const u = Number(hit.dataset.node);
    if (pendingEdgeFrom === null) {
      pendingEdgeFrom = u;
      draw();
    } else {
      model.edges.push([pendingEdgeFrom, u]);
      $("preset").value = "";
      invalidate();
    }
  }
}

// ---------- drawing ----------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function edgePath(u, v) {
  const [x1, y1] = model.pos[u];
  const [x2, y2] = model.pos[v];
  if (u === v) {
    // A self-loop above the node.
    return `M${x1 - 12},${y1 - R + 3} C${x1 - 45},${y1 - 95} ${x1 + 45},${y1 - 95} ${x1 + 12},${y1 - R + 3}`;
  }
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  // Bend an edge whose reverse also exists, so the two stay apart.
  const twoWay = model.edges.some(([a, b]) => a === v && b === u);
  const bend = twoWay ? 28 : 0;
  const sx = x1 + ux * R, sy = y1 + uy * R, ex = x2 - ux * (R + 3), ey = y2 - uy * (R + 3);
  const mx = (sx + ex) / 2 - uy * bend, my = (sy + ey) / 2 + ux * bend;
  return `M${sx},${sy} Q${mx},${my} ${ex},${ey}`;
}

function draw() {
  const eg = $("edges"), ng = $("nodes");
  eg.innerHTML = "";
  ng.innerHTML = "";
  const hot = run && run.hot; // [u, v] edge touched by the current event
  const done = run && run.i >= run.trace.length;
  model.edges.forEach(([u, v], k) => {
    const isHot = hot && hot[0] === u && hot[1] === v;
    const isBest = done && run.solution[u].best_move === v;
    const cls = "edge" + (isHot ? " hot" : "") + (isBest ? " best" : "");
    const marker = isHot ? "arrow-hot" : isBest ? "arrow-best" : "arrow";
    el("path", { d: edgePath(u, v), class: cls, "marker-end": `url(#${marker})`,
      "data-edge": k, "data-from": u, "data-to": v }, eg);
  });
  model.pos.forEach(([x, y], u) => {
    const st = run ? run.nodes[u] : { label: null, depth: null, counter: outDegree(u) };
    const cls = ["node"];
    if (st.label) cls.push(st.label);
    if (run && run.popped === u) cls.push("popped");
    if (run && run.queue.includes(u)) cls.push("queued");
    if (run && run.flash === u) cls.push("flash");
    if (pendingEdgeFrom === u) cls.push("selected");
    const g = el("g", { class: cls.join(" "), "data-node": u,
      "data-label": st.label || "", "data-depth": st.depth === null ? "" : st.depth }, ng);
    el("circle", { class: "ring", cx: x, cy: y, r: R + 6 }, g);
    el("circle", { class: "body", cx: x, cy: y, r: R }, g);
    el("text", { class: "id", x, y }, g).textContent = u;
    const label = st.label ? st.label.toUpperCase() + (st.depth === null ? "" : " " + st.depth) : "";
    el("text", { class: "label", x, y: y + R + 18 }, g).textContent = label;
    // The out-degree counter: moves not yet ruled out by a WIN child.
    const bx = x + R * 0.85, by = y - R * 0.85;
    const badge = el("g", { class: "counter", "data-counter": st.counter }, g);
    el("circle", { class: "badge", cx: bx, cy: by, r: 11 }, badge);
    el("text", { class: "count", x: bx, y: by }, badge).textContent = st.counter;
  });
}

// ---------- running the trace ----------

async function solve() {
  const body = { nodes: model.pos.length, edges: model.edges, misere: model.misere };
  const res = await fetch("/api/solve?trace=true", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.error || res.statusText);
  run = {
    trace: answer.trace, solution: answer.solution, i: 0, queue: [], popped: null, hot: null, flash: null,
    nodes: model.pos.map((_, u) => ({ label: null, depth: null, counter: outDegree(u) })),
  };
  $("total").textContent = run.trace.length;
  const log = $("log");
  log.innerHTML = "";
  run.trace.forEach((e) => {
    const li = document.createElement("li");
    li.textContent = describe(e);
    log.appendChild(li);
  });
}

function describe(e) {
  switch (e.event) {
    case "seed": return `seed ${e.node}: terminal, ${e.outcome.toUpperCase()} in 0`;
    case "pop": return `pop ${e.node}: visit its predecessors`;
    case "win": return `${e.node} WIN in ${e.depth}: child ${e.child} is LOSE`;
    case "decrement": return `${e.node}: counter ${e.remaining + 1} → ${e.remaining} (child ${e.child} is WIN)`;
    case "lose_at_zero": return `${e.node} LOSE in ${e.depth}: counter hit 0 (last child ${e.child})`;
    case "draw": return `${e.node} DRAW: never decided`;
    default: return JSON.stringify(e);
  }
}

function narrateEvent(e) {
  switch (e.event) {
    case "seed": return `Node ${e.node} has no moves: it is seeded ${e.outcome.toUpperCase()} (depth 0)` +
      (e.outcome === "draw" ? "." : " and queued.");
    case "pop": return `Pop ${e.node} (${run.nodes[e.node].label.toUpperCase()}) from the queue; the wave moves to its predecessors over reverse edges.`;
    case "win": return `Node ${e.node} can move to ${e.child}, which is LOSE: ${e.node} is WIN at once, in ${e.depth} plies.`;
    case "decrement": return `Child ${e.child} is WIN, which rules out one move of ${e.node}: its counter ticks down to ${e.remaining}.`;
    case "lose_at_zero": return `Node ${e.node}'s counter reaches 0: every move leads to a WIN, so it is LOSE in ${e.depth} plies.`;
    case "draw": return `The queue is empty and ${e.node} was never decided: it can dodge forever, DRAW.`;
    default: return "";
  }
}

function apply(e) {
  const n = run.nodes;
  run.hot = null;
  run.flash = e.node;
  switch (e.event) {
    case "seed":
      n[e.node].label = e.outcome; n[e.node].depth = 0;
      if (e.outcome !== "draw") run.queue.push(e.node);
      break;
    case "pop":
      run.queue = run.queue.filter((x) => x !== e.node);
      run.popped = e.node;
      run.flash = null;
      break;
    case "win":
      n[e.node].label = "win"; n[e.node].depth = e.depth;
      run.queue.push(e.node); run.hot = [e.node, e.child];
      break;
    case "decrement":
      n[e.node].counter = e.remaining; run.hot = [e.node, e.child];
      break;
    case "lose_at_zero":
      n[e.node].label = "lose"; n[e.node].depth = e.depth; n[e.node].counter = 0;
      run.queue.push(e.node); run.hot = [e.node, e.child];
      break;
    case "draw":
      n[e.node].label = "draw"; n[e.node].depth = null; run.popped = null;
      break;
  }
}

async function step() {
  try {
    if (!run) await solve();
  } catch (err) {
    stop();
    narrate("Error: " + err.message);
    return false;
  }
  if (run.i >= run.trace.length) return false;
  const e = run.trace[run.i];
  apply(e);
  run.i += 1;
  const items = $("log").children;
  for (const li of items) li.classList.remove("current");
  const li = items[run.i - 1];
  li.classList.add("current", "seen");
  li.scrollIntoView({ block: "nearest" });
  $("pos").textContent = run.i;
  $("queue").textContent = "[" + run.queue.join(", ") + "]";
  narrate(narrateEvent(e));
  if (run.i >= run.trace.length) finish();
  draw();
  return run.i < run.trace.length;
}

function finish() {
  run.popped = null;
  run.hot = null;
  run.flash = null;
  const c = run.solution.reduce((a, r) => (a[r.outcome]++, a), { win: 0, lose: 0, draw: 0 });
  narrate(`Done: ${c.win} WIN, ${c.lose} LOSE, ${c.draw} DRAW. Purple arrows are best moves (fast win, slow loss, hold the draw).`);
  setDone(true);
  stop();
}

function setDone(done) {
  const s = $("status");
  s.dataset.done = String(done);
  s.textContent = done ? "finished" : "";
}

function narrate(text) {
  $("narration").textContent = text;
}

function delay() {
  return 1000 / Number($("speed").value);
}

async function tick() {
  timer = null;
  const more = await step();
  if (more && playing()) timer = setTimeout(tick, delay());
  else stop();
}

function playing() {
  return $("play").dataset.playing === "true";
}

function play() {
  if (playing()) { stop(); return; }
  if (run && run.i >= run.trace.length) invalidate();
  $("play").dataset.playing = "true";
  $("play").textContent = "Pause";
  tick();
}

function stop() {
  if (timer) clearTimeout(timer);
  timer = null;
  $("play").dataset.playing = "false";
  $("play").textContent = "Play";
}

// ---------- wiring ----------

function init() {
  const sel = $("preset");
  const custom = document.createElement("option");
  custom.value = "";
  custom.textContent = "(your own graph)";
  sel.appendChild(custom);
  window.PRESETS.forEach((p, k) => {
    const o = document.createElement("option");
    o.value = String(k);
    o.textContent = p.name;
    o.dataset.id = p.id;
    sel.appendChild(o);
  });
  sel.addEventListener("change", () => {
    if (sel.value !== "") loadPreset(window.PRESETS[Number(sel.value)]);
  });
  $("play").addEventListener("click", play);
  $("step").addEventListener("click", () => { stop(); step(); });
  $("reset").addEventListener("click", invalidate);
  $("clear").addEventListener("click", () => {
    model.pos = []; model.edges = []; sel.value = ""; invalidate();
  });
  $("misere").addEventListener("change", () => { model.misere = $("misere").checked; invalidate(); });
  $("speed").addEventListener("input", () => { $("speed-out").textContent = $("speed").value; });
  $("graph").addEventListener("click", onCanvasClick);
  sel.value = "0";
  loadPreset(window.PRESETS[0]);
}

init();
