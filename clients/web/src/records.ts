// Players' records in words (issue 36): a rating and its change, a standing, a leaderboard
// row and a recorded match, worded as the terminal's (clients/parlour/client/records.py).
import { PlayerKind, type GameInfo, type GameRecord, type RecordedMatch } from "./gen/parlour/gateway/v1/gateway_pb";

/** A rating as shown: one decimal ("27.3", "−1.8" with a true minus sign). */
export function ratingText(value: number): string {
  const shown = Math.round(value * 10) / 10;
  return shown < 0 ? `\u2212${(-shown).toFixed(1)}` : shown.toFixed(1);
}

/** A change of rating: "+1.2", "−0.8" (a true minus sign), "+0.0". */
export function changeText(change: number): string {
  const shown = Math.round(change * 10) / 10;
  return shown < 0 ? `\u2212${(-shown).toFixed(1)}` : `+${Math.abs(shown).toFixed(1)}`;
}

/** "<Game> (<variant title>)", or the game's title alone when the variant's title is it. */
export function where(info: GameInfo | undefined, variant: string): string {
  const game = info?.displayName ?? "";
  const title = info?.variants.find((v) => v.name === variant)?.displayName ?? variant;
  return !title || title === game ? game : `${game} (${title})`;
}

/** Who a record is, as a person reads it: the name it plays under, a bot as its seats call
 * it without their number ("Clever bot", sent by the server: parlour.engine.text.bot_name),
 * the game's own opponent by name; never the record's key. */
export function playerName(kind: PlayerKind, player: string, displayName: string): string {
  if (kind === PlayerKind.BOT) return displayName || `${player.replace(/^players\/bot:/, "")} bot`;
  if (kind === PlayerKind.RULES) {
    const key = player.replace(/^players\/game:/, "");
    return `${displayName || key.charAt(0).toUpperCase() + key.slice(1)} (the game)`;
  }
  return displayName || "a player without a name";
}

/** "4 rated matches, 2 wins". */
export function tally(matches: bigint, wins: bigint): string {
  return `${matches} rated match${matches === 1n ? "" : "es"}, ${wins} win${wins === 1n ? "" : "s"}`;
}

/** "Your rating in <place>: 27.3 (+3.1) — 4 rated matches, 2 wins, #3 of 12". */
export function standingLine(place: string, record: GameRecord, players: bigint, change?: number): string {
  const moved = change === undefined ? "" : ` (${changeText(change)})`;
  const rank = record.rank && players ? `, #${record.rank} of ${players}` : "";
  return `Your rating in ${place}: ${ratingText(record.rating?.display ?? 0)}${moved} — ${tally(record.matches, record.wins)}${rank}`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 10 && tens <= 20 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th";
  return `${n}${suffix}`;
}

/** "2026-12-04 21:40 UTC, won, 1st of 3 (+2.1)", "…, 2nd of 2 (−0.8, private table)". */
export function recordedText(recorded: RecordedMatch): string {
  const when = new Date(Number(recorded.finishedUnixMs)).toISOString().slice(0, 16).replace("T", " ");
  const won = recorded.place === 1 ? "won, " : "";
  const privately = recorded.private ? ", private table" : "";
  return `${when} UTC, ${won}${ordinal(recorded.place)} of ${recorded.sides} (${changeText(recorded.change)}${privately})`;
}

/** The variant of a game whose leaderboard opens first: the one last played to the end here
 * (issue 43: a game's opened on its standard game after a win in another variant). */
export function lastVariant(game: string): string | null {
  return localStorage.getItem(`parlour:variant:${game}`);
}

export function rememberVariant(game: string, variant: string): void {
  localStorage.setItem(`parlour:variant:${game}`, variant);
}
