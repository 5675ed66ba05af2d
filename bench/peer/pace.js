// Live matches at a human pace for the boardgame.io peer, the shape of parlour's
// bench/sizing.py live-match run: MATCHES matches, every seat its own boardgame.io Client
// and socket.io (websocket) connection, each match making its next move PACE_MIN-PACE_MAX
// seconds (uniform) after the other player saw the previous one. Latency = move -> the
// OTHER client sees the new state.
//
//   node pace.js PORT MATCHES PACE_MIN PACE_MAX DURATION_S
//
// Prints {"ready": true} once every client is connected and synced, waits for a line on
// stdin, runs DURATION_S seconds, then prints one JSON line of results and exits.
const readline = require('readline');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Counter, MOVES } = require('./game');

const [port, matches, paceMin, paceMax, duration] = process.argv.slice(2).map(Number);
const server = `http://127.0.0.1:${port}`;
const clock = () => Number(process.hrtime.bigint()) / 1e9;
const latencies = [];
let running = false;

class LiveMatch {
  constructor(i) {
    const matchID = `live${process.pid}-${i}`;
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
    this.synced = new Promise((resolve) => (this.onSynced = resolve));
    this.players.forEach((client, p) => client.subscribe((state) => this.onState(p, state)));
    this.players.forEach((client) => client.start());
  }

  onState(p, state) {
    if (!state) return;
    if (this.onSynced && this.players.every((c) => c.getState() && c.getState().isConnected)) {
      const resolve = this.onSynced;
      this.onSynced = null;
      resolve();
    }
    const count = state.G.count;
    if (count <= this.seen[p]) return;
    this.seen[p] = count;
    // move k is made by player (k-1) % 2 and observed by player k % 2
    if (count % 2 !== p || !this.movedAt) return;
    if (running) latencies.push(clock() - this.movedAt);
    this.movedAt = 0;
    if (count < MOVES) this.later(p);
  }

  later(p) {
    const wait = (paceMin + Math.random() * (paceMax - paceMin)) * 1000;
    this.timer = setTimeout(() => {
      if (!running) return;
      this.movedAt = clock();
      this.players[p].moves.inc();
    }, wait);
  }

  stop() {
    clearTimeout(this.timer);
    this.players.forEach((c) => c.stop());
  }
}

async function main() {
  const live = [];
  for (let i = 0; i < matches; i += 1) {
    live.push(new LiveMatch(i));
    if (i % 200 === 199) await Promise.all(live.slice(-200).map((m) => m.synced));
  }
  await Promise.all(live.map((m) => m.synced));
  process.stdout.write(JSON.stringify({ ready: true }) + '\n');
  const rl = readline.createInterface({ input: process.stdin });
  await new Promise((resolve) => rl.once('line', resolve));
  rl.close();
  running = true;
  live.forEach((m) => m.later(0));
  await new Promise((resolve) => setTimeout(resolve, duration * 1000));
  running = false;
  const sorted = latencies.slice().sort((a, b) => a - b);
  const pct = (q) =>
    sorted.length ? sorted[Math.min(sorted.length, Math.max(1, Math.ceil((q / 100) * sorted.length))) - 1] * 1e3 : null;
  const result = {
    concurrency: matches,
    window_s: duration,
    moves_in_window: sorted.length,
    moves_per_s: sorted.length / duration,
    moves_total: sorted.length,
    matches_finished: 0,
    delivery: { n: sorted.length, p50_ms: pct(50), p99_ms: pct(99), max_ms: pct(100) },
  };
  live.forEach((m) => m.stop());
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack) + '\n');
  process.exit(1);
});
