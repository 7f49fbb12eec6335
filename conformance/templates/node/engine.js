// A starter JSON-lines engine for draughts-conformance in Node.js (18 or later, no npm packages): it
// answers 'start' and 'stop' and declines every request until you fill its handlers in.
//
//     draughts-conformance run      # in this folder: draughts-conformance.toml names this engine
//     draughts-conformance run 'jsonl:node engine.js'        # the same, without the settings file
//
// One JSON object per line in, one per line out; logs go to stderr (console.error). The protocol,
// with an example of every request and answer: docs/protocol.md of draughts-conformance.
"use strict";
const readline = require("node:readline");

const NAME = "my-engine", VERSION = "0.1", PROTOCOL = 1;

class Declined extends Error {}  // thrown by a handler that will not answer: a skip, not scored

const notYet = (request) => { throw new Declined(`${request.op} is not implemented yet`); };

// One handler per operation: it gets the request and returns the answer's keys, e.g.
//   legal_moves -> {moves: [{from: 32, to: 28, captured: []}, ...]}   perft -> {count: 9}
// Remove the operations you will never answer: their questions become 'unsupported', not 'skip'.
const OPERATIONS = "fen initial_position legal_moves move_count perft play parse_move format_move outcome";
const HANDLERS = Object.fromEntries(OPERATIONS.split(" ").map((op) => [op, notYet]));

function respond(request) {
  const reply = { type: "response", seq: request.seq };
  try {
    return { ...reply, ...HANDLERS[request.op](request) };
  } catch (error) {
    if (error instanceof Declined) return { ...reply, declined: error.message };
    return { ...reply, error: `${error.name}: ${error.message}` };  // report it and go on
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  let reply;
  if (message.type === "start") {
    reply = { type: "started", protocol: PROTOCOL, engine: { name: NAME, version: VERSION } };
    reply.capabilities = Object.keys(HANDLERS).sort();
  } else if (message.type === "request") {
    reply = respond(message);
  } else {  // "stop"
    lines.close();
    return;
  }
  process.stdout.write(JSON.stringify(reply) + "\n");  // one write per line: nothing is buffered
});
