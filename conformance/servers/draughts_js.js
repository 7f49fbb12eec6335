#!/usr/bin/env node
// draughts.js (npm package `draughts`, version 0.2.1, MPL-2.0) as an engine over the JSON-lines
// protocol, version 1.1 (docs/protocol.md).
//
//   node <this file> <engines dir>/draughts-js
//
// The argument is the folder where `draughts-conformance engines install draughts-js` ran npm: the
// library is required from its node_modules. `draughts-conformance run draughts-js` runs this for
// you (conformance/engines/npm.py). Nothing of this project runs here: no oracle, no FEN reader of
// ours; every answer is the library's, never corrected.
//
// Each question and the library's API that answers it (`game` is a `new Draughts()`; a position is
// given with `game.validate_fen(fen)` and, if valid, `game.load(fen)` on the request's FEN as is;
// an invalid one is answered `illegal` about the position, the library's refusal):
//
// - fen:              `game.validate_fen(text).valid`; if valid, `game.load(text)`, then `game.fen()`
// - initial_position: `new Draughts().fen()`
// - legal_moves:      `game.moves()`: `from`, `to`, `takes` (the captured squares), as listed
//                     (a move the library lists twice is reported twice)
// - move_count:       `game.moves().length`
// - perft:            `game.perft(depth)`, the library's own
// - play:             `game.move({from, to})` for each PDN move text, then `game.fen()`. The
//                     library's move API takes a from and a to square and nothing else (the
//                     README: "requires move object instead of string"), so the text's first and
//                     last squares are handed over; `false` (no legal move from-to) is `illegal`
//                     with the move's ply. Where two legal moves share from and to, `move()` plays
//                     the first it lists: the library cannot be told which.
// - parse_move, PDN:  `game.parsePDN(pdn)`, the library's only move-text reader, on a game of one
//                     move from the position: `[Setup "1"]`, `[FEN "<fen>"]`, then `1. <text>`
//                     (the reader loads a setup only under the tag `Setup`, though the library's
//                     writer writes `SetUp`). Read: `legal`, the move being `from` and `to` of
//                     `game.history({verbose: true})`, its captured squares those where a piece
//                     of the other colour stood before and none after (`game.position()` before
//                     and after: the history lists no captures for a capture that promotes).
//                     Refused (`false`, with no reason given): `illegal`, the protocol's answer of
//                     an engine that refuses a move; the library's reader has this one "no" and
//                     never says malformed or ambiguous. Read as several moves, or as a result
//                     and no move (`1-0`): declined.
// - format_move, PDN: the listed move with that identity (none: `illegal`), played with
//                     `game.move({from, to})`, written by the library's PDN writer `game.pdn()`
//                     (the move's text after the headers, its move number taken off)
// - parse_move, format_move, Hub: declined: the library has no Hub reader or writer
// - outcome:          `game.move({from, to})` for each ply as in `play`; after each ply
//                     `game.gameOver()`: the side to move has lost, by Art. 7.2.2 when it has no
//                     piece left (`game.position()`), else 7.2.3. When the game is not over after
//                     the last move, the question is declined: draughts.js has none of the draw
//                     rules of Art. 6 (`game.inDraw()` is a stub that always returns false, as its
//                     README says), so it cannot tell a game that goes on from a drawn one.
//
// Capabilities: every operation above; not `counters` (its games count nothing, and its FEN
// holds no counters) and not `choose_move` (it has no search). It declares `pipeline`: it answers
// each request before reading the next, so requests sent ahead wait in its stdin.
//
// Whatever the library prints (console.log in its move reader, console.error on a FEN it
// refuses) goes to stderr: stdout carries the protocol only.
'use strict'

const fs = require('fs')
const path = require('path')
const readline = require('readline')

const NAME = 'draughts-js'
const PROTOCOL = 1
const MINOR = 1
const PIPELINE = 16
const CAPABILITIES = [
  'fen', 'format_move', 'initial_position', 'legal_moves', 'move_count', 'outcome', 'parse_move',
  'perft', 'play'
]
const NO_DRAW_RULES = 'draughts.js has no draw rules (Art. 6): inDraw() is a stub that always ' +
  'returns false, so it cannot tell a game that goes on from a drawn one'

// -- the answers other than a result (docs/protocol.md, "Requests and responses") ----------------

class MoveRefused extends Error {
  constructor (move, ply, reason) {
    super(reason)
    this.answer = { illegal: { move, ply, reason } }
  }
}

class PositionRefused extends Error {
  constructor (fen, reason) {
    super(reason)
    this.answer = { illegal: { position: fen, reason } }
  }
}

class Declined extends Error {
  constructor (reason) {
    super(reason)
    this.answer = { declined: reason }
  }
}

// -- the library -----------------------------------------------------------------------------------

function loadLibrary (folder) {
  const packageFolder = path.join(folder, 'node_modules', 'draughts')
  const version = JSON.parse(fs.readFileSync(path.join(packageFolder, 'package.json'), 'utf8')).version
  return { Draughts: require(packageFolder), version }
}

function newGame (Draughts, fen) {
  const game = new Draughts()
  const check = game.validate_fen(fen)
  if (!check.valid) {
    const why = check.error && check.error.message ? check.error.message : 'not valid'
    throw new PositionRefused(fen, `draughts.js validate_fen: ${why}`)
  }
  game.load(fen)
  return game
}

function moveJson (move) {
  return { from: move.from, to: move.to, captured: move.takes || [] }
}

function sameMove (listed, wanted) {
  const taken = listed.takes || []
  const set = new Set(wanted.captured)
  return listed.from === wanted.from && listed.to === wanted.to && taken.length === set.size &&
    taken.every((square) => set.has(square))
}

function ends (text) {
  // The from and to squares of a PDN move text: what the library's move() takes.
  const squares = /^\d+(?:[-x]\d+)+$/.test(text) ? text.split(/[-x]/).map(Number) : null
  if (!squares) throw new Error(`cannot take the from and to squares of move text ${JSON.stringify(text)}`)
  return { from: squares[0], to: squares[squares.length - 1] }
}

function push (game, text, ply) {
  if (!game.move(ends(text))) {
    throw new MoveRefused(text, ply, 'draughts.js move() lists no legal move with these from and to squares')
  }
}

function piecesOf (game, colour) {
  // game.position(): the side to move, then squares 1-50 as b, B, w, W or 0.
  return game.position().slice(1).split('').filter((piece) => piece.toLowerCase() === colour).length
}

function taken (before, after, move) {
  // The squares of the pieces the move took off the board: of the other colour than the piece
  // that moved, there before the move, empty after it (positions as game.position() writes them).
  const other = before[move.from].toLowerCase() === 'w' ? 'b' : 'w'
  const squares = []
  for (let square = 1; square <= 50; square++) {
    if (before[square].toLowerCase() === other && after[square] === '0') squares.push(square)
  }
  return squares
}

function pdnMoveText (game) {
  // game.pdn(): the headers (SetUp, FEN), a blank line, then '1. 32-28 ' (or '19-23 ' for Black).
  const lines = game.pdn().split('\n')
  return lines[lines.length - 1].trim().replace(/^\d+\.\s*/, '')
}

function operations (Draughts) {
  return {
    fen (request) {
      const game = new Draughts()
      if (!game.validate_fen(request.fen).valid) return { valid: false, position: null }
      game.load(request.fen)
      return { valid: true, position: game.fen() }
    },
    initial_position () {
      return { position: new Draughts().fen() }
    },
    legal_moves (request) {
      return { moves: newGame(Draughts, request.fen).moves().map(moveJson) }
    },
    move_count (request) {
      return { count: newGame(Draughts, request.fen).moves().length }
    },
    perft (request) {
      return { count: newGame(Draughts, request.fen).perft(request.depth) }
    },
    play (request) {
      const game = newGame(Draughts, request.fen)
      request.moves.forEach((text, index) => push(game, text, index + 1))
      return { position: game.fen() }
    },
    parse_move (request) {
      if (request.notation !== 'pdn') throw new Declined('draughts.js has no Hub move-text reader')
      const before = newGame(Draughts, request.fen)
      const game = new Draughts()
      if (!game.parsePDN(`[Setup "1"]\n[FEN "${request.fen}"]\n\n1. ${request.text}`)) {
        throw new MoveRefused(request.text, 1, 'draughts.js parsePDN refused the game of this one move')
      }
      const history = game.history({ verbose: true })
      if (history.length !== 1) {
        throw new Declined(`draughts.js parsePDN read ${history.length} moves in this text, not one`)
      }
      const { from, to } = history[0]
      return { verdict: 'legal', move: { from, to, captured: taken(before.position(), game.position(), { from }) } }
    },
    format_move (request) {
      if (request.notation !== 'pdn') throw new Declined('draughts.js has no Hub move-text writer')
      const game = newGame(Draughts, request.fen)
      const wanted = request.move
      const listed = game.moves().find((move) => sameMove(move, wanted))
      const words = `${wanted.from}-${wanted.to} {${[...wanted.captured].sort((a, b) => a - b).join(',')}}`
      if (!listed) throw new MoveRefused(words, 1, 'draughts.js does not list it among its legal moves')
      game.move({ from: listed.from, to: listed.to })
      return { text: pdnMoveText(game) }
    },
    outcome (request) {
      const counters = request.counters || {}
      if ((counters.occurrences || 1) !== 1 || counters.no_progress_plies || counters.endgame_plies) {
        throw new Declined('draughts.js cannot take draw-rule counters')
      }
      const game = newGame(Draughts, request.fen)
      for (let ply = 0; ; ply++) {
        if (game.gameOver()) {
          const loser = game.turn()
          const result = loser === 'w' ? 'black_wins' : 'white_wins'
          return { result, rule: piecesOf(game, loser) === 0 ? '7.2.2' : '7.2.3', ply }
        }
        if (ply === request.moves.length) throw new Declined(NO_DRAW_RULES)
        push(game, request.moves[ply], ply + 1)
      }
    }
  }
}

// -- the protocol ------------------------------------------------------------------------------------

const ARGUMENTS = {
  fen: ['fen'],
  initial_position: [],
  legal_moves: ['fen'],
  move_count: ['fen'],
  perft: ['fen', 'depth'],
  play: ['fen', 'moves'],
  parse_move: ['fen', 'text', 'notation'],
  format_move: ['fen', 'move', 'notation'],
  outcome: ['fen', 'counters', 'moves']
}

function answer (ops, request) {
  const reply = { type: 'response', seq: request.seq }
  if (!CAPABILITIES.includes(request.op)) {
    return { ...reply, declined: `this engine does not offer ${JSON.stringify(request.op)}` }
  }
  const missing = ARGUMENTS[request.op].filter((key) => !(key in request))
  if (missing.length) return { ...reply, error: `invalid request: ${request.op} without ${missing.join(', ')}` }
  try {
    return { ...reply, ...ops[request.op](request) }
  } catch (error) {
    if (error.answer) return { ...reply, ...error.answer }
    return { ...reply, error: `${error.name}: ${error.message}` }
  }
}

function main (argv) {
  if (argv.length !== 1) {
    process.stderr.write('usage: node draughts_js.js <folder holding node_modules/draughts>\n')
    return 2
  }
  let library
  try {
    library = loadLibrary(argv[0])
  } catch (error) {
    process.stderr.write(`draughts-js: cannot load draughts.js from ${argv[0]}: ${error.message}\n` +
      'run: draughts-conformance engines install draughts-js\n')
    return 2
  }
  for (const name of ['log', 'info', 'debug', 'warn']) console[name] = console.error
  const ops = operations(library.Draughts)
  const send = (message) => process.stdout.write(JSON.stringify(message) + '\n')
  const lines = readline.createInterface({ input: process.stdin })
  let started = false
  lines.on('line', (line) => {
    let message
    try {
      message = JSON.parse(line)
    } catch (error) {
      message = null
    }
    if (!message || typeof message !== 'object') {
      process.stderr.write(`draughts-js: a line that is not a JSON object: ${line.slice(0, 200)}; stopping\n`)
      process.exitCode = 2
      lines.close()
    } else if (!started) {
      if (message.type !== 'start') {
        process.stderr.write(`draughts-js: expected 'start' as the first line, got ${line.slice(0, 200)}; stopping\n`)
        process.exitCode = 2
        lines.close()
        return
      }
      started = true
      send({
        type: 'started',
        protocol: PROTOCOL,
        minor: MINOR,
        pipeline: PIPELINE,
        engine: { name: NAME, version: library.version },
        capabilities: CAPABILITIES
      })
    } else if (message.type === 'stop') {
      lines.close()
    } else if (message.type !== 'request' || !Number.isInteger(message.seq)) {
      process.stderr.write(`draughts-js: expected a request with an integer seq or stop, got ${line.slice(0, 200)}; stopping\n`)
      process.exitCode = 2
      lines.close()
    } else {
      send(answer(ops, message))
    }
  })
  lines.on('close', () => process.stdin.destroy())
  return 0
}

const status = main(process.argv.slice(2))
if (status !== 0) process.exitCode = status
