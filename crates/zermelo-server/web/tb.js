// The tablebase page: a board from a FEN, the probe of /api/tb, and moves played by clicking
// a move in the list or its from- and to-squares on the board.
"use strict";

const $ = (id) => document.getElementById(id);
const GLYPH = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const history = [];
let probe = null;
let from = null;

function squares(fen) {
  const rows = fen.split(" ")[0].split("/");
  const out = [];
  rows.forEach((row) => {
    for (const ch of row) {
      if (/\d/.test(ch)) for (let k = 0; k < Number(ch); k++) out.push("");
      else out.push(ch);
    }
  });
  return out;
}

function drawBoard(fen) {
  const board = $("board");
  board.innerHTML = "";
  squares(fen).forEach((piece, k) => {
    const file = k % 8, rank = 8 - Math.floor(k / 8);
    const name = "abcdefgh"[file] + rank;
    const d = document.createElement("div");
    d.className = "sq " + ((file + rank) % 2 === 0 ? "light" : "dark") + (from === name ? " from" : "");
    d.dataset.square = name;
    d.textContent = GLYPH[piece] || "";
    d.addEventListener("click", () => clickSquare(name));
    board.appendChild(d);
  });
}

function clickSquare(name) {
  if (!probe) return;
  if (from === null) {
    if (probe.moves.some((m) => m.uci.startsWith(name))) from = name;
  } else {
    const m = probe.moves.find((m) => m.uci.startsWith(from + name));
    from = null;
    if (m) { play(m); return; }
  }
  drawBoard(probe.fen);
}

function play(m) {
  history.push(probe.fen);
  $("fen").value = m.fen;
  load(m.fen);
}

function show(text, cls) {
  const s = $("tb-status");
  s.textContent = text;
  s.className = cls || "";
}

async function load(fen) {
  drawBoard(fen);
  const res = await fetch("/api/tb?fen=" + encodeURIComponent(fen));
  const answer = await res.json();
  $("moves").innerHTML = "";
  $("verdict").textContent = "";
  if (!res.ok) {
    probe = null;
    show(res.status === 404 && /no tablebases/.test(answer.error) ? "No tables served: " + answer.error : answer.error, "notice");
    return;
  }
  probe = answer;
  show("");
  $("verdict").textContent = `Side to move: ${answer.outcome.toUpperCase()}` + (answer.dtm_plies === null ? "" : `, mate in ${answer.dtm_plies} ${answer.dtm_plies === 1 ? "ply" : "plies"}`);
  answer.moves.forEach((m) => {
    const tr = document.createElement("tr");
    // The outcome after the move is the opponent's: LOSE there is a win for the mover.
    const mine = { win: "lose", lose: "win", draw: "draw" }[m.outcome];
    tr.className = mine;
    tr.innerHTML = `<td><a href="#">${m.uci}</a></td><td class="o">${mine.toUpperCase()}</td><td>${m.dtm_plies === null ? "–" : m.dtm_plies}</td>`;
    tr.querySelector("a").addEventListener("click", (e) => { e.preventDefault(); play(m); });
    $("moves").appendChild(tr);
  });
  drawBoard(answer.fen);
}

$("go").addEventListener("click", () => load($("fen").value.trim()));
$("back").addEventListener("click", () => {
  const fen = history.pop();
  if (fen) { $("fen").value = fen; load(fen); }
});
load($("fen").value.trim());
