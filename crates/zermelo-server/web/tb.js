// The tablebase page: a board set up by clicking or dragging pieces (or from a FEN), the probe
// of /api/tb (and /standard for the end-of-game flags of each move), and moves played by
// clicking a move in the list, its from- and to-squares, or dragging the piece.
//
// The page keeps one position `pos` (board, side to move, castling, en passant, halfmove clock,
// move number); the board, the FEN field, the side-to-move button and the clock input all show
// it, and editing any of them rewrites the others.
"use strict";

const $ = (id) => document.getElementById(id);
const GLYPH = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟\uFE0E" };
// White pieces: the filled glyph in white under the outline glyph (style.css), so that they read
// as white pieces on both square colours.
const FILLED = { K: "♚", Q: "♛", R: "♜", B: "♝", N: "♞", P: "♟\uFE0E" };
function pieceSpan(piece, extra) {
  const s = document.createElement("span");
  const white = piece === piece.toUpperCase();
  s.className = "piece " + (white ? "white" : "black") + (extra ? " " + extra : "");
  s.textContent = white ? FILLED[piece] : GLYPH[piece];
  if (white) s.dataset.outline = GLYPH[piece];
  return s;
}
const FILES = "abcdefgh";
// lichess's words, as shown.
const WORDS = { win: "win", "cursed-win": "cursed win", draw: "draw", "blessed-loss": "blessed loss", loss: "loss" };
// A move's row says the class of the position after it, for the opponent: the mover's is the mirror.
const MIRROR = { win: "loss", "cursed-win": "blessed-loss", draw: "draw", "blessed-loss": "cursed-win", loss: "win" };
// Without DTZ tables (no category) the outcome is all there is.
const OUTCOME = { win: "win", lose: "loss", draw: "draw" };
const MAX_CLOCK = 150;

const history = [];
let pos = null;       // the position shown
let probe = null;     // /api/tb's answer for it, or null
let flags = null;     // /standard's answer for it (checkmate, stalemate, ... per move), or null
let from = null;      // the square clicked first when playing by clicks
let tool = "";        // "" plays moves, "x" removes pieces, a FEN letter places that piece
let seq = 0;          // the latest probe sent: older answers are dropped
let dragged = false;  // a drag just ended: the click that follows is not a click

/** The position of a FEN, or null when its placement is malformed (the server names the rest). */
function parseFen(fen) {
  const f = fen.trim().split(/\s+/);
  const rows = (f[0] || "").split("/");
  if (rows.length !== 8) return null;
  const board = [];
  for (const row of rows) {
    let n = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) { for (let k = 0; k < Number(ch); k++) board.push(""); n += Number(ch); }
      else if (GLYPH[ch]) { board.push(ch); n++; }
      else return null;
    }
    if (n !== 8) return null;
  }
  return {
    board, // index 0 is a8, 63 is h1
    turn: f[1] === "b" ? "b" : "w",
    castling: f[2] || "-",
    ep: f[3] || "-",
    clock: f[4] === undefined ? "0" : f[4], // kept as typed: the server reports a bad one
    fullmove: f[5] || "1",
  };
}

function toFen(p) {
  const rows = [];
  for (let r = 0; r < 8; r++) {
    let row = "", empty = 0;
    for (let c = 0; c < 8; c++) {
      const piece = p.board[r * 8 + c];
      if (piece) { if (empty) row += empty; empty = 0; row += piece; } else empty++;
    }
    rows.push(row + (empty ? empty : ""));
  }
  return `${rows.join("/")} ${p.turn} ${p.castling} ${p.ep} ${p.clock} ${p.fullmove}`;
}

const index = (square) => (8 - Number(square[1])) * 8 + FILES.indexOf(square[0]);
const clockOf = (p) => (/^\d+$/.test(String(p.clock)) ? Number(p.clock) : 0);

function drawPalette() {
  for (const row of document.querySelectorAll("#palette .tool-row")) {
    row.innerHTML = "";
    for (const role of "KQRBNP") {
      const piece = row.dataset.color === "w" ? role : role.toLowerCase();
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tool";
      b.dataset.tool = piece;
      b.title = `${row.dataset.color === "w" ? "white" : "black"} ${{ K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight", P: "pawn" }[role]}: click squares to place, or drag onto the board`;
      b.appendChild(pieceSpan(piece));
      row.appendChild(b);
    }
  }
  for (const b of document.querySelectorAll("#palette .tool")) {
    b.addEventListener("click", () => { if (!dragged) selectTool(b.dataset.tool); });
    if (b.dataset.tool.length === 1 && GLYPH[b.dataset.tool]) {
      b.addEventListener("pointerdown", (e) => startDrag(e, { piece: b.dataset.tool }));
    }
  }
}

function selectTool(t) {
  tool = t;
  from = null;
  for (const b of document.querySelectorAll("#palette .tool")) b.classList.toggle("here", b.dataset.tool === t);
  $("board").dataset.tool = t;
  drawBoard();
}

function drawBoard() {
  const board = $("board");
  board.innerHTML = "";
  pos.board.forEach((piece, k) => {
    const file = k % 8, rank = 8 - Math.floor(k / 8);
    const name = FILES[file] + rank;
    const d = document.createElement("div");
    d.className = "sq " + ((file + rank) % 2 === 0 ? "light" : "dark") + (from === name ? " from" : "");
    d.dataset.square = name;
    d.dataset.piece = piece;
    if (piece) {
      d.appendChild(pieceSpan(piece));
    }
    // Coordinates as on a printed board: ranks down the a-file, files along the first rank.
    if (file === 0) d.appendChild(coord("rank", String(rank)));
    if (rank === 1) d.appendChild(coord("file", FILES[file]));
    d.addEventListener("click", () => { if (!dragged) clickSquare(name); });
    d.addEventListener("pointerdown", (e) => { if (piece) startDrag(e, { square: name }); });
    board.appendChild(d);
  });
}

function coord(kind, text) {
  const s = document.createElement("span");
  s.className = "coord " + kind;
  s.textContent = text;
  return s;
}

/** The legal move from `a` to `b` in the probe (a promotion to a queen first), if any. */
function legal(a, b) {
  if (!probe) return null;
  const ms = probe.moves.filter((m) => m.uci.startsWith(a + b));
  return ms.find((m) => m.uci.length === 4 || m.uci[4] === "q") || ms[0] || null;
}

function clickSquare(name) {
  const k = index(name);
  if (tool === "x") { edit((b) => { b[k] = ""; }); return; }
  if (tool) { edit((b) => { b[k] = b[k] === tool ? "" : tool; }); return; }
  // Playing by clicks: a piece with a legal move, then its destination.
  if (from === null) {
    if (probe && probe.moves.some((m) => m.uci.startsWith(name))) from = name;
  } else {
    const m = legal(from, name);
    from = null;
    if (m) { play(m); return; }
  }
  drawBoard();
}

// Dragging: a piece of the board or of the palette follows the pointer; dropped on a square it
// plays the legal move there or, failing one, is put there; dropped off the board it is removed.
function startDrag(e, source) {
  if (e.button !== 0) return;
  e.preventDefault();
  const x0 = e.clientX, y0 = e.clientY;
  const piece = source.piece || pos.board[index(source.square)];
  let ghost = null;
  const move = (ev) => {
    if (!ghost && Math.hypot(ev.clientX - x0, ev.clientY - y0) < 4) return;
    if (!ghost) {
      ghost = pieceSpan(piece, "ghost");
      document.body.appendChild(ghost);
      if (source.square) document.querySelector(`#board .sq[data-square="${source.square}"]`).classList.add("lifted");
    }
    ghost.style.left = ev.clientX + "px";
    ghost.style.top = ev.clientY + "px";
  };
  const up = (ev) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    if (!ghost) return; // a click: the click handler has it
    ghost.remove();
    dragged = true;
    setTimeout(() => { dragged = false; }, 0);
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const sq = under && under.closest("#board .sq");
    drop(source, piece, sq ? sq.dataset.square : null);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

function drop(source, piece, to) {
  if (source.square) {
    if (to === source.square) { drawBoard(); return; }
    const m = to && legal(source.square, to);
    if (m) { play(m); return; }
    const a = index(source.square);
    edit((b) => { b[a] = ""; if (to) b[index(to)] = piece; });
  } else if (to) {
    edit((b) => { b[index(to)] = piece; });
  }
}

/** A change to the set-up (not a move): remembered for Back; castling and en passant cleared. */
function edit(change) {
  history.push(toFen(pos));
  const next = { ...pos, board: pos.board.slice(), castling: "-", ep: "-" };
  change(next.board);
  show(next);
}

function play(m) {
  history.push(toFen(pos));
  const next = parseFen(m.fen);
  const zeroing = m.zeroing !== undefined ? m.zeroing
    : pos.board[index(m.uci.slice(2, 4))] !== "" || pos.board[index(m.uci.slice(0, 2))].toUpperCase() === "P";
  next.clock = String(zeroing ? 0 : Math.min(clockOf(pos) + 1, MAX_CLOCK));
  next.fullmove = String((Number(pos.fullmove) || 1) + (pos.turn === "b" ? 1 : 0));
  show(next);
}

/** Shows `p` everywhere (board, FEN, side to move, clock) and probes it. */
function show(p) {
  pos = p;
  from = null;
  $("fen").value = toFen(p);
  syncControls();
  drawBoard();
  load(toFen(p));
}

function syncControls() {
  const t = $("turn");
  t.dataset.turn = pos.turn;
  t.textContent = pos.turn === "w" ? "White to move" : "Black to move";
  $("clock").value = /^\d+$/.test(String(pos.clock)) ? pos.clock : "";
}

function status(text, cls) {
  const s = $("tb-status");
  s.textContent = text;
  s.className = cls || "";
}

async function load(fen) {
  const mine = ++seq;
  const get = (url) => fetch(url + encodeURIComponent(fen)).then(async (r) => ({ ok: r.ok, status: r.status, body: await r.json() }));
  let answer, lichess;
  try {
    [answer, lichess] = await Promise.all([get("/api/tb?fen="), get("/standard?fen=").catch(() => null)]);
  } catch (e) {
    answer = { ok: false, status: 0, body: { error: String(e) } };
  }
  if (mine !== seq) return;
  $("moves").innerHTML = "";
  const v = $("verdict");
  v.innerHTML = "";
  v.removeAttribute("data-category");
  v.removeAttribute("data-end");
  v.dataset.fen = fen; // which position the verdict and the list are about (for tests and tools)
  if (!answer.ok) {
    probe = flags = null;
    $("moves").closest("table").hidden = true;
    const err = answer.body.error || `HTTP ${answer.status}`;
    status(answer.status === 404 && /no tablebases/.test(err) ? "No tables served: " + err : err, "notice");
    return;
  }
  probe = answer.body;
  flags = lichess && lichess.ok ? lichess.body : null;
  $("moves").closest("table").hidden = probe.moves.length === 0;
  status("");
  verdict(v);
  const standard = new Map(((flags && flags.moves) || []).map((m) => [m.uci, m]));
  probe.moves.forEach((m) => row(m, standard.get(m.uci) || {}));
}

function verdict(v) {
  const side = pos.turn === "w" ? "White" : "Black";
  const head = document.createElement("div");
  head.className = "headline";
  const detail = document.createElement("div");
  detail.className = "detail";
  if (probe.moves.length === 0) {
    const mate = probe.outcome === "lose";
    v.dataset.end = mate ? "checkmate" : "stalemate";
    v.dataset.category = mate ? "loss" : "draw";
    head.textContent = mate ? "Checkmate" : "Stalemate";
    detail.textContent = mate ? `${side} is checkmated.` : `${side} has no legal move: a draw.`;
  } else {
    const cat = probe.category || OUTCOME[probe.outcome];
    v.dataset.category = cat;
    head.innerHTML = `${side} to move: <span class="cat ${cat}">${WORDS[cat]}</span>`;
    const parts = [];
    if (cat === "cursed-win") parts.push("a win only without the 50-move rule");
    if (cat === "blessed-loss") parts.push("a loss saved by the 50-move rule");
    if (probe.dtz !== undefined && probe.dtz !== 0) parts.push(`DTZ ${Math.abs(probe.dtz)}`);
    if (probe.dtm_plies !== null) {
      const n = probe.dtm_moves, verb = probe.outcome === "win" ? "mate" : "mated";
      parts.push(`DTM ${probe.dtm_plies} (${verb} in ${n} ${n === 1 ? "move" : "moves"})`);
    }
    if (flags && flags.insufficient_material) parts.push("insufficient material");
    detail.textContent = parts.join(" · ");
  }
  v.append(head, detail);
}

function row(m, lichess) {
  const cat = m.category ? MIRROR[m.category] : OUTCOME[{ win: "lose", lose: "win", draw: "draw" }[m.outcome]];
  const tr = document.createElement("tr");
  tr.className = cat;
  tr.dataset.uci = m.uci;
  tr.dataset.category = cat;
  const tags = [];
  if (m.outcome === "lose" && m.dtm_plies === 0) tags.push("checkmate");
  if (lichess.stalemate) tags.push("stalemate");
  if (m.zeroing) tags.push("zeroing");
  const dtz = m.dtz === undefined ? "?" : m.dtz === 0 ? "–" : String(Math.abs(m.dtz));
  tr.innerHTML = `<td class="san"><a href="#" title="${m.uci}">${m.san || m.uci}</a></td>` +
    `<td><span class="cat ${cat}">${WORDS[cat]}</span>${tags.map((t) => ` <span class="tag ${t}">${t}</span>`).join("")}</td>` +
    `<td class="dtz">${dtz}</td><td class="dtm">${m.dtm_plies === null ? "–" : m.dtm_plies}</td>`;
  tr.querySelector("a").addEventListener("click", (e) => { e.preventDefault(); play(m); });
  $("moves").appendChild(tr);
}

// The FEN field: every keystroke that leaves a readable placement redraws the board (and probes
// after a pause); Enter or Probe probes what is typed, whatever it is.
let typing = null;
$("fen").addEventListener("input", () => {
  const p = parseFen($("fen").value);
  if (!p) return;
  pos = p;
  from = null;
  syncControls();
  drawBoard();
  clearTimeout(typing);
  typing = setTimeout(() => load($("fen").value.trim()), 300);
});
function probeTyped() {
  clearTimeout(typing);
  const p = parseFen($("fen").value);
  if (p) { pos = p; syncControls(); drawBoard(); }
  load($("fen").value.trim());
}
$("fen").addEventListener("keydown", (e) => { if (e.key === "Enter") probeTyped(); });
$("go").addEventListener("click", probeTyped);
$("back").addEventListener("click", () => {
  const fen = history.pop();
  if (fen) show(parseFen(fen));
});
$("turn").addEventListener("click", () => {
  history.push(toFen(pos));
  show({ ...pos, turn: pos.turn === "w" ? "b" : "w", ep: "-" });
});
$("clock").addEventListener("input", () => {
  // Any whole number goes into the FEN: past 150 the server's refusal is shown, as for a FEN typed.
  const c = $("clock").value;
  if (!/^\d+$/.test(c)) return;
  pos = { ...pos, clock: String(Number(c)) };
  $("fen").value = toFen(pos);
  load(toFen(pos));
});
$("clear").addEventListener("click", () => edit((b) => b.fill("")));

drawPalette();
pos = parseFen($("fen").value) || parseFen("8/8/8/8/8/8/8/8 w - - 0 1");
syncControls();
drawBoard();
load($("fen").value.trim());
