// Load client for the boardgame.io peer, the same shape as parlour's bench/loadgen.py:
// `concurrency` slots each play matches one after another, two players per match, each
// player its own boardgame.io client with its own socket.io connection (kept across the
// slot's matches, as parlour's bench keeps one channel). One move in flight per match:
// a player moves when it sees the other's move. Latency = move -> the OTHER client sees
// the new state.
//
//   node load.js PORT CONCURRENCY WARMUP_S DURATION_S
//
// Prints {"ready": true} once every slot is connected and synced, waits for a line on
// stdin, runs, then prints one JSON line of results and exits.
const readline = require('readline');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Counter, MOVES } = require('./game');

const [port, concurrency, warmup, duration] = process.argv.slice(2).map(Number);
const server = `http://127.0.0.1:${port}`;
const clock = () => Number(process.hrtime.bigint()) / 1e9;
const samples = []; // [move time, latency] in seconds
let window = { start: Infinity, end: Infinity };
let matchesFinished = 0;
let moves = 0;
let nextMatch = 0;

function newMatchID() {
  nextMatch += 1;
  return `m${process.pid}-${nextMatch}`;
}

class Slot {
  constructor() {
    const matchID = newMatchID();
    this.players = ['0', '1'].map((playerID) =>
      Client({
        game: Counter,
        numPlayers: 2,
        matchID,
        playerID,
        debug: false,
        multiplayer: SocketIO({ server, socketOpts: { transports: ['websocket'] } }),
      })
    );
    this.seen = [0, 0];
    this.movedAt = 0;
    this.waiting = null; // resolves when both players are synced on a fresh match
    this.done = null; // resolves when the match's last move is seen
    this.players.forEach((client, p) => client.subscribe((state) => this.onState(p, state)));
  }

  fresh() {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.check();
    });
  }

  check() {
    if (!this.waiting) return;
    const ok = this.players.every((c) => {
      const s = c.getState();
      return s && s.isConnected && s.G.count === 0 && !s.ctx.gameover && c.matchID === this.matchID;
    });
    if (ok) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve();
    }
  }

  onState(p, state) {
    if (!state) return;
    if (this.waiting) return this.check();
    const count = state.G.count;
    // Move k (1-based) is made by player (k-1) % 2 and observed by player k % 2.
    if (count <= this.seen[p] || count % 2 !== p) {
      this.seen[p] = Math.max(this.seen[p], count);
      return;
    }
    this.seen[p] = count;
    const now = clock();
    samples.push([this.movedAt, now - this.movedAt]);
    moves += 1;
    if (count >= MOVES) {
      const resolve = this.done;
      this.done = null;
      if (resolve) resolve();
      return;
    }
    queueMicrotask(() => this.move(p));
  }

  move(p) {
    this.movedAt = clock();
    this.players[p].moves.inc();
  }

  async start(matchID) {
    this.matchID = matchID;
    this.seen = [0, 0];
    const ready = this.fresh();
    for (const c of this.players) {
      if (c.matchID !== matchID) c.updateMatchID(matchID);
    }
    await ready;
  }

  async play() {
    const finished = new Promise((resolve) => (this.done = resolve));
    this.move(0);
    await finished;
    matchesFinished += 1;
  }

  stop() {
    this.players.forEach((c) => c.stop());
  }
}

async function main() {
  const slots = Array.from({ length: concurrency }, () => new Slot());
  slots.forEach((s) => s.players.forEach((c) => c.start()));
  await Promise.all(slots.map((s) => s.start(s.players[0].matchID)));
  process.stdout.write(JSON.stringify({ ready: true }) + '\n');
  const rl = readline.createInterface({ input: process.stdin });
  await new Promise((resolve) => rl.once('line', resolve));
  rl.close();
  const begin = clock();
  window = { start: begin + warmup, end: begin + warmup + duration };
  await Promise.all(
    slots.map(async (s) => {
      let first = true;
      while (clock() < window.end) {
        if (!first) await s.start(newMatchID());
        first = false;
        await s.play();
      }
    })
  );
  const elapsed = clock() - begin;
  const inWindow = samples
    .filter(([t]) => t >= window.start && t < window.end)
    .map(([, lat]) => lat)
    .sort((a, b) => a - b);
  const pct = (q) =>
    inWindow.length ? inWindow[Math.min(inWindow.length, Math.max(1, Math.ceil((q / 100) * inWindow.length))) - 1] * 1e3 : null;
  const result = {
    concurrency,
    window_s: duration,
    elapsed_s: elapsed,
    moves_in_window: inWindow.length,
    moves_per_s: inWindow.length / duration,
    moves_total: moves,
    matches_finished: matchesFinished,
    delivery: { n: inWindow.length, p50_ms: pct(50), p99_ms: pct(99), max_ms: pct(100) },
  };
  slots.forEach((s) => s.stop());
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack) + '\n');
  process.exit(1);
});
