/**
 * Matchmaking from TypeScript (issue 45): `node dist/playnow.js ADDRESS GAME NAME` waits for
 * a match of GAME, printing the search as it widens, then prints the match and the seat.
 */
import { ParlourClient } from "./client.js";

const [address, game, name] = process.argv.slice(2);
if (!address || !game || !name) {
  console.error("usage: node dist/playnow.js ADDRESS GAME NAME");
  process.exit(2);
}
const client = new ParlourClient(address);
const seats = await client.playNow(game, {
  name,
  onState: (s) => {
    if (!s.match) console.log(`searching: rating ${s.rating.toFixed(1)} ± ${s.window.toFixed(1)}`);
  },
});
console.log(`matched ${seats[0].match} seat ${seats[0].seat}`);
