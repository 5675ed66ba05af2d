/**
 * Plays a full match of every game the gateway serves with random legal actions and prints
 * the public feed (the words come from each game's rules), then the first seat's rating and
 * the leaderboard it is on:  node dist/play.js HOST:PORT [SEED]
 */
import { ParlourClient, messageType, renderText, unpack, type FeedItem, type SeatHandle } from "./client.js";

const FEED_LINES = 8;

/** A small seeded generator (mulberry32), so a run can be repeated. */
function random(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

async function follow(items: AsyncGenerator<FeedItem>, names: string[]) {
  let shown = 0;
  let finished = false;
  for await (const item of items) {
    if ("finished" in item) {
      finished = true;
      break;
    }
    if ("progress" in item) continue; // the match moved; this feed shows only events
    const { event } = item;
    if (shown++ < FEED_LINES) {
      const who = event.actor >= 0 ? names[event.actor] : "-";
      const text = event.text.charAt(0).toUpperCase() + event.text.slice(1);
      console.log(`  #${String(event.sequence).padEnd(5)} ${who.padStart(6)}  ${renderText(text, null, names)}`);
    }
  }
  if (shown > FEED_LINES) console.log(`  … ${shown - FEED_LINES} more events`);
  return { shown, finished };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The seat's rating after the finished match (its record is updated as the match ends:
 * read again every 200 ms for up to 5 s until it lists the match), and its leaderboard. */
async function rating(client: ParlourClient, seat: SeatHandle, game: string): Promise<string> {
  for (let attempt = 0; attempt < 25; attempt++) {
    const { records } = await client.getPlayerRecord(seat.player, { game });
    for (const record of records) {
      const played = record.recent.find((m) => m.match === seat.match);
      if (!played) continue;
      const board = await client.listLeaderboard(game, { variant: record.variant, top: 3, around: seat.player });
      const change = played.change < 0 ? `\u2212${(-played.change).toFixed(1)}` : `+${played.change.toFixed(1)}`;
      const top = board.top.map((e) => `#${e.rank} ${e.displayName} ${e.rating!.display.toFixed(1)}`).join(", ");
      return `rating in ${record.variant}: ${record.rating!.display.toFixed(1)} (${change}), #${record.rank} of ${board.players}; top: ${top}`;
    }
    await sleep(200);
  }
  return "rating: not updated";
}

async function main() {
  const [address, seedText = "7"] = process.argv.slice(2);
  if (!address) throw new Error("usage: node dist/play.js HOST:PORT [SEED]");
  const client = new ParlourClient(address);
  const choose = random(Number(seedText));
  let failures = 0;
  for (const { info } of await client.games()) {
    if (!info) continue;
    const seats = info.minSeats;
    const viewType = messageType(info.viewTypeUrl);
    console.log(`=== ${info.displayName}: ${seats} seats, View ${viewType?.typeName}`);
    const match = await client.createMatch(info.game, seats, { seed: BigInt(seedText), spectators: true });
    console.log(`  ${match.name}, rules version ${match.rulesVersion}`);
    const names = Array.from({ length: seats }, (_, i) => `ts${i}`);
    // The first seat plays for its name's record, the others as bots of the "random" strategy.
    const players = await Promise.all(names.map((name, i) => client.join(match.name, name, i, i ? { bot: "random" } : {})));
    const feed = follow(client.spectate(match.name), names);
    let { view, progress } = await players[0].view();
    if (view?.$typeName !== viewType?.typeName) throw new Error(`View is ${view?.$typeName}`);
    let actions = 0;
    while (!progress.outcome) {
      const pending = [...new Set(progress.pending.map((d) => d.seat))];
      const seat = pending[choose(pending.length)];
      const legal = await players[seat].actions();
      const pick = choose(legal.actions.length);
      if (!legal.labels[pick]) throw new Error("a legal action without its label");
      progress = (await players[seat].submit(legal.actions[pick])).result!.progress!;
      actions++;
    }
    const { shown, finished } = await feed;
    const outcome = progress.outcome;
    const winners = outcome.winners.map((w) => names[w]).join(" and ") || "nobody";
    console.log(`  ${actions} actions, ${shown} public events; scores ${outcome.scores.join(", ")}`);
    console.log(`  won: ${winners}${outcome.summary ? ` — ${renderText(outcome.summary, null, names)}` : ""}`);
    const catalogue = unpack(info.catalogue);
    console.log(`  catalogue: ${catalogue?.$typeName}; feed ended: ${finished}`);
    console.log(`  ${names[0]}'s ${await rating(client, players[0], info.game)}`);
    if (!finished || !catalogue) failures++;
  }
  console.log(failures ? `${failures} game(s) did not end properly` : "every game played to the end");
  process.exitCode = failures ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
