// Players' records on the page (issue 36): your rating under a finished match, and in the
// lobby a leaderboard per game (a variant picker, your row highlighted) and "Your record"
// (each recent match links to its page, which replays its feed).
import { ConnectError } from "@connectrpc/connect";
import { gateway } from "./api";
import { errorText } from "./errors";
import { signedIn } from "./signin";
import type { Game, GameInfo, LeaderboardEntry, ListLeaderboardResponse, Match } from "./gen/parlour/gateway/v1/gateway_pb";
import { lastVariant, playerName, ratingText, recordedText, rememberVariant, standingLine, tally, where } from "./records";

/** Where the record the last seat taken counts toward is kept (JoinMatchResponse.player). */
const PLAYER = "parlour:player";
/** A finished match's record is read again this often, this many times, until it lists the
 * match (the rules service updates it as the match ends; after a crash within seconds). */
const POLL_MS = 200;
const POLL_TIMES = 25;

/** Keep the record a seat just taken counts toward ("" counts toward nobody: kept as it was). */
export function keepPlayer(player: string): void {
  if (player) localStorage.setItem(PLAYER, player);
}

/** The record "you" are: signed in, your own ("players/me"); else the last seat's. */
function me(): string {
  return signedIn() ? "players/me" : localStorage.getItem(PLAYER) ?? "";
}

function el(tag: string, text = "", className = ""): HTMLElement {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A leaderboard as a table: the top rows, "…" where the rows around you are apart from
 * them, then those; your row highlighted. */
function boardTable(board: ListLeaderboardResponse, mine: string): HTMLElement {
  const table = el("table", "", "leaderboard");
  const head = el("tr");
  for (const title of ["#", "Player", "Rating", "Rated matches"]) head.append(el("th", title));
  table.append(head);
  const row = (entry: LeaderboardEntry) => {
    const you = entry.player === mine;
    const tr = el("tr", "", you ? "mine" : "");
    const name = playerName(entry.kind, entry.player, entry.displayName) + (you ? " (you)" : "");
    for (const cell of [`${entry.rank}`, name, ratingText(entry.rating?.display ?? 0), tally(entry.matches, entry.wins)]) tr.append(el("td", cell));
    return tr;
  };
  const shown = new Set(board.top.map((e) => e.rank));
  table.append(...board.top.map(row));
  const rest = board.around.filter((e) => !shown.has(e.rank));
  const last = board.top.length ? board.top[board.top.length - 1].rank : 0n;
  if (rest.length && rest[0].rank > last + 1n) {
    const gap = el("tr", "", "gap");
    gap.append(el("td", "…"));
    table.append(gap);
  }
  table.append(...rest.map(row));
  return table;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Under a finished match: your rating, its change and the leaderboard around you; nothing
 * for an unrated match or a seat that counts toward nobody. */
export async function showRating(box: HTMLElement, match: Match, player: string, info: GameInfo | undefined): Promise<void> {
  box.replaceChildren();
  box.hidden = !(match.rated && player);
  if (box.hidden) return;
  box.append(el("p", "Your rating is being updated…"));
  for (let attempt = 0; attempt < POLL_TIMES; attempt++) {
    const { records, player: key } = await gateway.getPlayerRecord({ player, game: match.game });
    for (const record of records) {
      const played = record.recent.find((m) => m.match === match.name);
      if (!played) continue;
      rememberVariant(record.game, record.variant);
      const board = await gateway.listLeaderboard({ game: match.game, variant: record.variant, top: 5, around: player });
      const place = where(info, record.variant);
      box.replaceChildren(el("p", standingLine(place, record, board.players, played.change), "standing"), boardTable(board, key));
      return;
    }
    await sleep(POLL_MS);
  }
  box.replaceChildren(el("p", "Your rating is not updated yet: see it later under “Your record” in the lobby."));
}

/** One game's leaderboard with its variant picker. */
function gameBoard(game: GameInfo, mine: () => string): HTMLElement {
  const box = el("section", "", "game-board");
  box.append(el("h3", game.displayName));
  const picker = document.createElement("select");
  picker.setAttribute("aria-label", `${game.displayName} leaderboard`);
  for (const variant of game.variants) {
    const option = el("option", variant.displayName) as HTMLOptionElement;
    option.value = variant.name;
    picker.append(option);
  }
  picker.value = game.variants.some((v) => v.name === lastVariant(game.game)) ? lastVariant(game.game)! : picker.value;
  const shown = el("div");
  const load = async () => {
    const board = await gateway.listLeaderboard({ game: game.game, variant: picker.value, top: 10, around: mine() });
    const key = mine() === "players/me" ? await ownKey() : mine();
    shown.replaceChildren(board.players ? boardTable(board, key) : el("p", "Nobody has finished a rated match here yet."));
  };
  picker.onchange = () => void load().catch((e) => shown.replaceChildren(el("p", errorText(e))));
  if (game.variants.length > 1) box.append(picker);
  box.append(shown);
  void load().catch((e) => shown.replaceChildren(el("p", errorText(e))));
  return box;
}

let own: Promise<string> | null = null;

/** Signed in: your record's own name (the leaderboards list it, not "players/me"). */
function ownKey(): Promise<string> {
  own ??= gateway.getPlayerRecord({ player: "players/me" }).then((r) => r.player, () => "");
  return own;
}

/** The lobby's "Leaderboards" (one per game) and "Your record" (`open` opens a match's page). */
export async function drawLobbyRecords(games: Game[], open: (match: string) => void): Promise<void> {
  const infos = games.map((g) => g.info).filter((i): i is GameInfo => !!i && i.variants.length > 0);
  document.getElementById("leaderboards")!.replaceChildren(...infos.map((info) => gameBoard(info, me)));
  await drawRecord(infos, open);
}

async function drawRecord(infos: GameInfo[], open: (match: string) => void): Promise<void> {
  const box = document.getElementById("record")!;
  const player = me();
  if (!player) {
    box.replaceChildren(el("p", "Finish a rated match and your record starts here."));
    return;
  }
  let response;
  try {
    response = await gateway.getPlayerRecord({ player });
  } catch (e) {
    const none = e instanceof ConnectError && e.rawMessage.startsWith("PLAYER_NOT_FOUND");
    box.replaceChildren(el("p", none ? "Finish a rated match and your record starts here." : errorText(e)));
    return;
  }
  if (!response.records.length) {
    box.replaceChildren(el("p", "Finish a rated match and your record starts here."));
    return;
  }
  const parts: HTMLElement[] = [el("p", `Playing as ${playerName(response.kind, response.player, response.displayName)}.`)];
  for (const record of response.records) {
    const info = infos.find((i) => i.game === record.game);
    const rank = record.rank ? `, #${record.rank}` : "";
    parts.push(el("h3", `${where(info, record.variant)}: ${ratingText(record.rating?.display ?? 0)} — ${tally(record.matches, record.wins)}${rank}`));
    const list = el("ul");
    for (const recorded of record.recent) {
      const link = el("a", recordedText(recorded)) as HTMLAnchorElement;
      link.href = `#watch=${recorded.match}`;
      link.onclick = (event) => { event.preventDefault(); open(recorded.match); };
      const item = el("li");
      item.append(link);
      list.append(item);
    }
    parts.push(list);
  }
  box.replaceChildren(...parts);
}
