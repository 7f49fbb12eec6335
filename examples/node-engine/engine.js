#!/usr/bin/env node
// A small international draughts engine in JavaScript that speaks the suite's JSON-lines
// protocol, version 1.1 (docs/protocol.md). It proves the protocol is language-neutral: no
// npm packages, one file. It answers fen, legal_moves, move_count and perft (depth by depth,
// within half the request timeout the harness announces in 'start': past it, the counts of the
// depths it reached).
//
//   draughts-conformance run 'jsonl:node examples/node-engine/engine.js'
'use strict';

const readline = require('readline');

// -- the board (FMJD Art. 2) ------------------------------------------------------------------
// Squares 1-50, row 0 = squares 1-5 on Black's side. Dark squares are the odd columns of even
// rows and the even columns of odd rows. North (toward 1-5) is White's forward direction.
const DIRECTIONS = [[-1, -1], [-1, 1], [1, -1], [1, 1]]; // north-west, north-east, south-west, south-east
const FORWARD = { W: [0, 1], B: [2, 3] };
const PROMOTION_ROW = { W: 0, B: 9 };

const rowOf = (s) => Math.floor((s - 1) / 5);
const columnOf = (s) => 2 * ((s - 1) % 5) + (rowOf(s) % 2 === 0 ? 1 : 0);
const squareAt = (r, c) => (r < 0 || r > 9 || c < 0 || c > 9 ? 0 : r * 5 + Math.floor(c / 2) + 1);

// RAYS[s][d]: the squares from s in direction d, nearest first.
const RAYS = [];
for (let s = 1; s <= 50; s++) {
  RAYS[s] = DIRECTIONS.map(([dr, dc]) => {
    const ray = [];
    for (let r = rowOf(s) + dr, c = columnOf(s) + dc; squareAt(r, c); r += dr, c += dc) ray.push(squareAt(r, c));
    return ray;
  });
}

// -- positions and PDN FEN ------------------------------------------------------------------------
// A position: { turn: 'W' | 'B', board: [null | { color, king }] indexed by square }.

function parseFen(text) {
  const fen = String(text).trim();
  const [side, ...sections] = fen.split(':');
  const turn = side.trim();
  if (turn !== 'W' && turn !== 'B') throw new Error(`side to move ${JSON.stringify(side)} is not W or B`);
  const board = new Array(51).fill(null);
  const seen = new Set();
  const count = { W: 0, B: 0 };
  for (const raw of sections) {
    const section = raw.trim();
    const color = section[0];
    if (color !== 'W' && color !== 'B') throw new Error(`section ${JSON.stringify(raw)} does not start with W or B`);
    if (seen.has(color)) throw new Error(`the ${color} section appears twice`);
    seen.add(color);
    const body = section.slice(1).trim();
    if (!body) continue;
    for (const item of body.split(',')) {
      const match = /^(K?)(\d+)(?:-(\d+))?$/.exec(item.trim());
      if (!match) throw new Error(`${JSON.stringify(item)} is not a square, a K-square or a range`);
      const king = match[1] === 'K';
      const first = Number(match[2]);
      const last = match[3] === undefined ? first : Number(match[3]);
      if (first < 1 || last > 50 || last < first) throw new Error(`${JSON.stringify(item)} is outside 1-50 or runs backward`);
      for (let s = first; s <= last; s++) {
        if (board[s]) throw new Error(`square ${s} is listed twice`);
        if (!king && rowOf(s) === PROMOTION_ROW[color]) throw new Error(`a ${color} man on its promotion row (${s})`);
        board[s] = { color, king };
        count[color] += 1;
      }
    }
  }
  if (count.W > 20 || count.B > 20) throw new Error('more than 20 pieces on one side');
  return { turn, board };
}

function formatFen({ turn, board }) {
  const section = (color) => board.flatMap((p, s) => (p && p.color === color ? [(p.king ? 'K' : '') + s] : [])).join(',');
  return `${turn}:W${section('W')}:B${section('B')}`;
}

// -- moves (Art. 3 and 4) ---------------------------------------------------------------------------
// A move by identity: { from, to, captured: [ascending squares] }.

function capturesFrom(board, from, me, out) {
  const piece = board[from];
  board[from] = null; // the capturing piece's own start square counts as empty
  const taken = new Set(); // taken pieces stay on the board until the end: they block, and are jumped once
  const walk = (at) => {
    let goesOn = false;
    for (let d = 0; d < 4; d++) {
      const ray = RAYS[at][d];
      let i = 0;
      if (piece.king) while (i < ray.length && !board[ray[i]]) i++; // a king flies to the piece (4.3)
      const victim = ray[i];
      if (i >= ray.length - 1 || !board[victim] || board[victim].color === me || taken.has(victim)) continue;
      for (let j = i + 1; j < ray.length && !board[ray[j]]; j++) {
        taken.add(victim);
        goesOn = true;
        walk(ray[j]); // a capture goes on while it can (4.5, 4.6)
        taken.delete(victim);
        if (!piece.king) break; // a man lands right behind the piece (4.2)
      }
    }
    if (!goesOn && taken.size) out.push({ from, to: at, captured: [...taken].sort((a, b) => a - b) });
  };
  walk(from);
  board[from] = piece;
}

function legalMoves({ turn, board }) {
  const captures = [];
  for (let s = 1; s <= 50; s++) if (board[s] && board[s].color === turn) capturesFrom(board, s, turn, captures);
  if (captures.length) {
    // the capture taking the most pieces is compulsory, a king counting as one (4.13);
    // routes with the same start, end and captured set are one move
    const most = Math.max(...captures.map((m) => m.captured.length));
    const moves = new Map();
    for (const m of captures) if (m.captured.length === most) moves.set(`${m.from}x${m.to}:${m.captured}`, m);
    return [...moves.values()];
  }
  const steps = [];
  for (let s = 1; s <= 50; s++) {
    const piece = board[s];
    if (!piece || piece.color !== turn) continue;
    for (const d of piece.king ? [0, 1, 2, 3] : FORWARD[turn]) {
      for (const t of RAYS[s][d]) {
        if (board[t]) break;
        steps.push({ from: s, to: t, captured: [] }); // a man one square forward (3.4), a king any distance (3.9)
        if (!piece.king) break;
      }
    }
  }
  return steps;
}

function play({ turn, board }, move) {
  const next = board.slice();
  const piece = next[move.from];
  next[move.from] = null;
  for (const s of move.captured) next[s] = null; // removed when the capture is over (4.11)
  const crowned = !piece.king && rowOf(move.to) === PROMOTION_ROW[turn]; // only where the move ends (3.5, 4.15)
  next[move.to] = crowned ? { color: turn, king: true } : piece;
  return { turn: turn === 'W' ? 'B' : 'W', board: next };
}

function perft(position, depth) {
  const moves = legalMoves(position);
  if (depth === 1) return moves.length;
  return moves.reduce((sum, m) => sum + perft(play(position, m), depth - 1), 0);
}

// Depth 1, 2, ... in turn; a depth that would end past the budget (its time guessed from the last
// depth's, times the last growth of the count) is not started: the counts reached are answered.
function perftWithin(position, depth, budgetMs) {
  const started = Date.now();
  const counts = [];
  let lastMs = 0;
  for (let d = 1; d <= depth; d++) {
    const growth = counts.length >= 2 && counts[counts.length - 2] > 0 ? counts[counts.length - 1] / counts[counts.length - 2] : 1;
    if (counts.length && Date.now() - started + lastMs * growth > budgetMs) return { counts };
    const before = Date.now();
    counts.push(perft(position, d));
    lastMs = Date.now() - before;
  }
  return { count: counts[depth - 1] };
}

// -- the protocol -------------------------------------------------------------------------------------

const OPS = {
  fen: (r) => {
    try {
      return { valid: true, position: formatFen(parseFen(r.fen)) };
    } catch (error) {
      return { valid: false, position: null };
    }
  },
  legal_moves: (r) => ({ moves: legalMoves(parseFen(r.fen)) }),
  move_count: (r) => ({ count: legalMoves(parseFen(r.fen)).length }),
  perft: (r) => perftWithin(parseFen(r.fen), r.depth, budgetMs),
};
let budgetMs = 5000; // half the harness's default 10 s, until 'start' says otherwise

const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.type === 'start') {
    if (typeof message.timeout === 'number') budgetMs = (message.timeout * 1000) / 2;
    send({ type: 'started', protocol: 1, minor: 1, engine: { name: 'node-example', version: '1.1.0' }, capabilities: Object.keys(OPS) });
  } else if (message.type === 'stop') {
    process.exit(0);
  } else if (!OPS[message.op]) {
    send({ type: 'response', seq: message.seq, declined: `${message.op} is not offered` });
  } else {
    try {
      send({ type: 'response', seq: message.seq, ...OPS[message.op](message) });
    } catch (error) {
      send({ type: 'response', seq: message.seq, error: String(error.message || error) });
    }
  }
});
