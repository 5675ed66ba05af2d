// parlour in the browser: create, join or watch a match; the table in the game's words,
// the feed, the clocks, the choices.
import type { JsonObject } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { bearer, decode, gateway, listGames, packOptions } from "./api";
import { drawLobbyRecords, keepPlayer, showRating } from "./boards";
import { Names, namer } from "./pictures";
import { drawBoard, offerOnBoard } from "./tableboard";
import { checkSeating, wayLabel } from "./seating";
import { onRenewed, signIn } from "./signin";
import { ConnectError } from "@connectrpc/connect";
import { errorText, rewound } from "./errors";
import { mountPlayNow, reopenSeat, type MatchedSeat } from "./matchmaking";
import { askToNotify, drawMyMatches, noteTurn } from "./mymatches";
import { awayLines, drawAway, pickedUntil, setAway } from "./away";
import { andList, clockText, describe, plural, render, seatWord, viewLines } from "./words";
import { UndoAnswer, type Game, type Match, type MatchProgress, type TableText, type Variant } from "./gen/parlour/gateway/v1/gateway_pb";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

interface Seated {
  match: string;
  token: string | null; // null: spectator
  seat: number | null;
  variant?: string; // the way to play's title, when this page created the match
  player?: string; // the record the seat counts toward (JoinMatchResponse.player)
  botsComing?: number; // bots this page asked for, still sitting down while seats are free
}

let games: Game[] = [];
let gamesAskedFor = ""; // the match whose game last made the page ask ListGames again
let current: Seated | null = null;
let version = 0n;
let lastSequence = -1n;
let actions: Any[] = [];
let acting = false;
let progressNow: MatchProgress | undefined;
let refreshing: Promise<void> | null = null;
let again = false;
let stopStream: AbortController | null = null;
let seatNames: string[] = [];
let feedTexts: string[] = [];
let ratingShown = false;

function show(section: "lobby" | "table"): void {
  $("lobby").hidden = section !== "lobby";
  $("table").hidden = section !== "table";
}

function error(message: string): void {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

function el(tag: string, text = "", className = ""): HTMLElement {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function gameOf(name: string): Game | undefined {
  return games.find((g) => g.name === `games/${name}` || g.info?.game === name);
}

// -- the lobby: game, way to play, seats, bots -------------------------------------------

function variants(): Variant[] {
  const info = gameOf($<HTMLSelectElement>("game").value)?.info;
  if (!info) return [];
  if (info.variants.length) return info.variants;
  return [{ name: "standard", displayName: info.displayName, minSeats: info.minSeats, maxSeats: info.maxSeats } as Variant];
}

function variant(): Variant | undefined {
  return variants().find((v) => v.name === $<HTMLSelectElement>("variant").value);
}

function option(value: string, text: string): HTMLOptionElement {
  const node = document.createElement("option");
  node.value = value;
  node.textContent = text;
  return node;
}

async function loadGames(): Promise<void> {
  games = await listGames();
  $<HTMLSelectElement>("game").replaceChildren(...games.map((g) => option(g.info?.game ?? g.name, g.info?.displayName ?? g.name)));
  syncVariants();
}

function syncVariants(): void {
  $<HTMLSelectElement>("variant").replaceChildren(...variants().map((v) => option(v.name, wayLabel(v.displayName, v.minSeats, v.maxSeats))));
  syncVariant();
}

function syncVariant(): void {
  const chosen = variant();
  if (!chosen) return;
  const seats = $<HTMLInputElement>("seats");
  seats.min = String(chosen.minSeats);
  seats.max = String(chosen.maxSeats);
  seats.value = String(chosen.minSeats);
  $<HTMLInputElement>("bots").value = String(chosen.minSeats - 1);
  $<HTMLTextAreaElement>("options").value = chosen.options ? JSON.stringify(decode(chosen.options)) : "";
  checkChoice();
}

/** Say what is wrong with the choice before any match exists; Create only when nothing is. */
function checkChoice(): ReturnType<typeof checkSeating> | null {
  const chosen = variant();
  if (!chosen) return null;
  const seating = checkSeating(chosen.displayName, chosen.minSeats, chosen.maxSeats,
    Number($<HTMLInputElement>("seats").value), Number($<HTMLInputElement>("bots").value));
  $("seating").textContent = [...seating.errors, ...seating.warnings].join(" ");
  $("seating").className = seating.errors.length ? "bad" : seating.warnings.length ? "warn" : "";
  $("fill").hidden = !seating.empty;
  $<HTMLButtonElement>("create").disabled = seating.errors.length > 0;
  return seating;
}

function fillWithBots(): void {
  $<HTMLInputElement>("bots").value = String(Number($<HTMLInputElement>("seats").value) - 1);
  checkChoice();
}

/** A seat this browser took: its join secret re-opens it from the match's link, in any tab,
 * after the tab closed or the match filled up or ended (JoinMatchRequest.join_secret). */
interface Kept {
  match: string;
  seat: number;
  joinSecret: string;
  variant?: string;
  player?: string; // the record the seat counts toward (JoinMatchResponse.player)
  ticket?: string; // a matchmade seat: its ticket re-opens it (FindMatchRequest.ticket)
  token?: string; // ... and once the ticket is forgotten, its last seat token does
}

function keep(kept: Kept): void {
  localStorage.setItem(`parlour:seat:${kept.match}`, JSON.stringify(kept));
  keepPlayer(kept.player ?? "");
}

function kept(match: string): Kept | null {
  const stored = localStorage.getItem(`parlour:seat:${match}`);
  return stored ? (JSON.parse(stored) as Kept) : null;
}

function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (c) => ({ "+": "-", "/": "_", "=": "" })[c] ?? "");
}

function chosenOptions(chosen: Variant, typeName: string): Any | undefined {
  const typed = $<HTMLTextAreaElement>("options").value;
  const given = chosen.options ? JSON.stringify(decode(chosen.options)) : "";
  return typed.trim() === given ? chosen.options : packOptions(typeName, typed);
}

async function create(): Promise<void> {
  const game = $<HTMLSelectElement>("game").value;
  const info = gameOf(game)?.info;
  const chosen = variant();
  const seating = checkChoice();
  if (!chosen || !seating || seating.errors.length) return;
  const seats = Number($<HTMLInputElement>("seats").value);
  const bots = Number($<HTMLInputElement>("bots").value);
  const options = chosenOptions(chosen, info?.optionsType ?? "");
  const created = await gateway.createMatch({
    game, seats, options, allowSpectators: true, requestId: crypto.randomUUID(),
    rated: $<HTMLInputElement>("rated").checked,
  });
  const match = created.match!.name;
  const joinSecret = newSecret();
  const joined = await gateway.joinMatch({ match, seat: 0, displayName: name(), requestId: crypto.randomUUID(), joinSecret });
  keep({ match, seat: joined.seat, joinSecret, variant: chosen.displayName, player: joined.player });
  if (bots > 0) {
    const response = await fetch("/api/bots", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ match, count: bots, strategy: $<HTMLSelectElement>("strategy").value }),
    });
    if (!response.ok) throw new Error(await refusalOf(response));
  }
  await sit({ match, token: joined.seatToken, seat: joined.seat, variant: chosen.displayName, player: joined.player, botsComing: bots });
}

/** The name box, remembered for the next tab (it names the record a match counts for). */
function name(): string {
  const typed = $<HTMLInputElement>("name").value.trim() || "guest";
  localStorage.setItem("parlour:name", typed);
  return typed;
}

/** The name box agrees with the name this browser sits under (issue 43: "guest" in the box
 * while the header said "You are Ada"). */
function agreeName(seated: string): void {
  if (!seated) return;
  $<HTMLInputElement>("name").value = seated;
  localStorage.setItem("parlour:name", seated);
}

/** Tabs of this browser tell each other the seats they open: the older tab of a seat knows
 * at once that its pass was replaced. */
const seatsOpened = new BroadcastChannel("parlour:seats");
seatsOpened.onmessage = (message: MessageEvent<{ match: string; seat: number }>) => {
  const { match, seat } = message.data;
  if (current?.token && current.match === match && current.seat === seat) loseSeat();
};

/** The seat's pass was replaced (the seat re-opened in another tab or window): true when
 * that was the error, and this tab stops playing it. */
function seatLost(e: unknown): boolean {
  if (!(e instanceof ConnectError) || !/^(INVALID_SEAT_TOKEN|SEAT_TOKEN_REVOKED):/.test(e.rawMessage) || !current) return false;
  loseSeat(); // once: a call still in flight with the old pass is refused the same way
  return true;
}

/** This tab no longer plays its seat: it says so and offers to re-open the seat here. */
function loseSeat(): void {
  if (!current?.token) return;
  const match = current.match;
  stopStream?.abort();
  current = { ...current, token: null };
  actions = [];
  $("actions").replaceChildren();
  $("actions-box").hidden = true;
  document.body.dataset.state = "seat-lost";
  const again = el("button", "Re-open your seat here") as HTMLButtonElement;
  again.onclick = guard(async () => { $<HTMLInputElement>("match").value = match; await join(); });
  error("Your seat was opened in another tab or window, so this tab no longer plays it.");
  $("error").append(" ", again);
}

function matchName(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith("matches/") ? trimmed : `matches/${trimmed}`;
}

/** A refused HTTP call's "REASON: message" (its body may be JSON, or empty). */
async function refusalOf(response: Response): Promise<string> {
  const body = await response.text();
  try {
    const parsed = JSON.parse(body) as { code?: string; message?: string };
    return parsed.message || parsed.code || response.statusText;
  } catch {
    return body || response.statusText;
  }
}

/** Sit at the match: re-open the seat this browser kept for it, else take a free one; a
 * full or finished match offers to watch it instead. */
async function join(): Promise<void> {
  const match = matchName($<HTMLInputElement>("match").value);
  const mine = kept(match);
  if (mine?.ticket) return sitMatched(await reopenSeat(mine.ticket, mine.variant, mine));
  const joinSecret = mine?.joinSecret ?? newSecret();
  try {
    const joined = await gateway.joinMatch({ match, seat: mine?.seat, displayName: name(), requestId: crypto.randomUUID(), joinSecret });
    keep({ match, seat: joined.seat, joinSecret, variant: mine?.variant, player: joined.player });
    await sit({ match, token: joined.seatToken, seat: joined.seat, variant: mine?.variant, player: joined.player });
  } catch (e) {
    const full = e instanceof ConnectError && /^(MATCH_FULL|SEAT_TAKEN|GAME_OVER):/.test(e.rawMessage);
    if (!full) throw e;
    offerToWatch(match, errorText(e));
  }
}

/** Sit at a matchmade seat, keeping its ticket and token for a reload or a later visit. */
function sitMatched(seated: MatchedSeat): Promise<void> {
  const { match, seat, variant, ticket, token } = seated;
  keep({ match, seat, joinSecret: "", variant, ticket, token });
  return sit(seated);
}

function offerToWatch(match: string, why: string): void {
  show("lobby");
  history.replaceState(null, "", "#");
  $<HTMLInputElement>("match").value = match;
  $("offer-text").textContent = why;
  $("offer").hidden = false;
}

async function watch(): Promise<void> {
  await sit({ match: matchName($<HTMLInputElement>("match").value), token: null, seat: null });
}

// -- at the table ---------------------------------------------------------------------

async function sit(seated: Seated): Promise<void> {
  current = seated;
  version = 0n;
  lastSequence = -1n;
  feedTexts = [];
  seatNames = [];
  ratingShown = false;
  $("rating").hidden = true;
  $("status").textContent = ""; // not the last table's end until this one is read
  $("offer").hidden = true;
  error("");
  if (seated.token) { seatsOpened.postMessage({ match: seated.match, seat: seated.seat }); askToNotify(); }
  history.replaceState(null, "", `#${seated.token ? "join" : "watch"}=${seated.match}`);
  $("feed").replaceChildren();
  $("match-name").textContent = "";
  $("variant-title").textContent = seated.variant ?? "";
  $("rules-version").textContent = "";
  document.body.dataset.state = "playing";
  show("table");
  await refresh();
  follow(seated);
}

function follow(seated: Seated): void {
  stopStream?.abort();
  const controller = new AbortController();
  stopStream = controller;
  (async () => {
    const stream = gateway.streamEvents({ match: seated.match, afterSequence: 0n, progressWithEvents: true }, { ...bearer(seated.token), signal: controller.signal });
    for await (const item of stream) {
      const events = item.kind.case === "event" ? [item.kind.value] : item.kind.case === "batch" ? item.kind.value.events : [];
      for (const event of events) {
        feedTexts.push(event.text || describe(decode(event.event)));
        $("feed").prepend(feedLine(feedTexts[feedTexts.length - 1]));
      }
      const last = item.kind.case === "heartbeat" || item.kind.case === "progress" ? item.kind.value.lastSequence : events.length ? events[events.length - 1].sequence : 0n;
      // Progress (the match moved, maybe without an event) or a heartbeat: look again.
      const moved = item.kind.case === "progress" || (item.kind.case === "batch" && item.kind.value.progress !== undefined);
      if (moved || item.kind.case === "heartbeat" || last > lastSequence) void refresh();
    }
    // The stream ended (the seat's pass revoked, the match over): look once more.
    if (!controller.signal.aborted) await refresh();
  })().catch((e) => {
    if (controller.signal.aborted || seatLost(e)) return;
    if (!rewound(e)) return error(errorText(e));
    // the server lost events it had shown (a fail-over): the feed and table again, as stored
    feedTexts.length = 0;
    $("feed").replaceChildren();
    follow(seated);
    void refresh();
  });
}

/** One feed line in the viewer's terms, as a sentence. */
function feedLine(text: string): HTMLElement {
  // Capitalised before the names go in: a player's name is written as they typed it.
  return el("li", render(text.charAt(0).toUpperCase() + text.slice(1), current?.seat ?? null, seatNames));
}

/** The feed again, when a seat's name became known after its lines were written. */
function drawFeed(): void {
  $("feed").replaceChildren(...feedTexts.map(feedLine).reverse());
}

function refresh(): Promise<void> {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      await redraw();
    } while (again);
  })().catch((e) => { if (!seatLost(e)) error(errorText(e)); }).finally(() => { refreshing = null; });
  return refreshing;
}

/** The table's sections; each item's rules text on hover (title) and on a tap (below it). */
function drawTable(table: TableText | undefined, viewer: number | null): HTMLElement[] {
  return (table?.sections ?? []).map((section) => {
    const box = el("section", "", "table-section");
    box.append(el("h4", render(section.title, viewer, seatNames)));
    const list = el("ul");
    for (const item of section.items) {
      const line = el("li", render(item.text, viewer, seatNames));
      if (item.detail) {
        const detail = render(item.detail, viewer, seatNames);
        line.title = detail;
        line.className = "has-detail";
        line.tabIndex = 0;
        const rules = el("div", detail, "detail");
        rules.hidden = true;
        line.append(rules);
        line.onclick = () => { rules.hidden = !rules.hidden; };
      }
      list.append(line);
    }
    box.append(list);
    return box;
  });
}

async function redraw(): Promise<void> {
  if (!current) return;
  const seated = current;
  const { match } = await gateway.getMatch({ match: seated.match });
  const viewResponse = await gateway.getView({ match: seated.match }, bearer(seated.token));
  const listed = seated.token ? await gateway.listActions({ match: seated.match }, bearer(seated.token)) : null;
  const progress = listed?.progress ?? viewResponse.progress;
  // The seat was lost (or the table left) while this was read: its choices are not ours.
  if (current !== seated) return;
  if (!match || !progress || progress.version < version) return;
  version = progress.version;
  lastSequence = progress.lastSequence;
  progressNow = progress;
  const names = match.seats.map((s) => s.displayName);
  const renamed = names.join("\n") !== seatNames.join("\n");
  seatNames = names;
  if (renamed) drawFeed();
  const viewer = seated.seat;
  const game = match.game;
  // a game not served when the page loaded: its facts and message types, asked once a match
  if (!gameOf(game) && gamesAskedFor !== seated.match) {
    gamesAskedFor = seated.match;
    await loadGames();
    if (current !== seated) return;
  }
  const info = gameOf(game)?.info;
  $("game-title").textContent = info?.displayName ?? game;
  $("variant-title").hidden = seated.variant === info?.displayName;
  // the rules it is played under (a host's migration moves it forward: shown as it moves)
  $("rules-version").textContent = match.rulesVersion ? `rules version ${match.rulesVersion}` : "";
  const view = decode(viewResponse.view);
  const catalogue = new Names(decode(info?.catalogue));
  $("status").textContent = status(match, progress);
  noteTurn(seated.seat !== null && !progress.outcome && progress.pending.some((d) => d.seat === seated.seat), info?.displayName ?? game);
  $("you").textContent = viewer === null ? "You are watching." : `You are ${seatNames[viewer] || "seated"}.`;
  if (viewer !== null) agreeName(seatNames[viewer]);
  $("seats-list").textContent = "At the table: " + match.seats.map((s) => s.seat === viewer ? `${s.displayName} (you)` : s.displayName || "(empty seat)").join(" · ");
  const drawn = drawBoard(game, view, decode(info?.catalogue), seatNames, viewer,
    (listed?.actions ?? []).map(decode), (listed?.labels ?? []).map((l) => render(l, viewer, seatNames)));
  const pic = drawn?.element ?? null;
  if ($("picture").firstChild !== pic) $("picture").replaceChildren(...(pic ? [pic] : []));
  $("picture").hidden = !pic;
  const sections = drawTable(viewResponse.table, viewer);
  $("board").replaceChildren(...sections);
  $("board").hidden = !sections.length;
  $("view").textContent = viewLines(view, namer(game, catalogue)).join("\n");
  // No table from the game: its View is all there is, so it is shown open.
  $<HTMLDetailsElement>("details").open ||= !sections.length;
  actions = listed?.actions ?? [];
  const labels = listed?.labels ?? [];
  if (drawn && actions.length) offerOnBoard(drawn, $("actions"), acting, String(progress.version), (i) => void act(i));
  else $("actions").replaceChildren(...actions.map((action, i) => {
    const button = el("button", render(labels[i] || describe(decode(action)), viewer, seatNames)) as HTMLButtonElement;
    button.disabled = acting;
    button.onclick = () => void act(i);
    return button;
  }));
  $("actions-box").hidden = !actions.length;
  $("prompt").textContent = render(listed?.prompt ?? "", viewer, seatNames);
  drawUndo(progress, viewer);
  drawAway(match, progress, viewer);
  drawClocks();
  if (progress.outcome && seated.token && !ratingShown) {
    ratingShown = true;
    showRating($("rating"), match, seated.player ?? "", info).catch((e) => { $("rating").textContent = errorText(e); });
  }
  document.body.dataset.state = progress.outcome ? "over" : acting ? "acting" : actions.length ? "your-turn" : "waiting";
  document.body.dataset.version = String(progress.version);
}

/** Whose turn it is ("Your turn; waiting for Ben"), or how the match ended: the game's
 * summary (who won, what the scores mean), then the scores (as the terminal's table.py). */
function status(match: Match, progress: MatchProgress): string {
  const viewer = current?.seat ?? null;
  const outcome = progress.outcome;
  if (outcome) {
    const scores = outcome.scores.map((s, seat) => `${seatWord(seat, viewer, seatNames)} ${s}`).join(", ");
    const winners = outcome.winners.map((w) => seatWord(w, viewer, seatNames));
    const summary = render(outcome.summary, viewer, seatNames).trim();
    const said = summary ? (/[.!?]$/.test(summary) ? summary : `${summary}.`)
      : winners.length ? `${andList(winners)} won.` : "Nobody won.";
    return `Game over. ${said} Final scores: ${scores}.`;
  }
  const seats = [...new Set(progress.pending.map((d) => d.seat))];
  const others = seats.filter((s) => s !== viewer).map((s) => seatWord(s, null, seatNames));
  const parts = viewer !== null && seats.includes(viewer) ? ["your turn"] : [];
  if (others.length) parts.push(`waiting for ${andList(others)}`);
  const free = match.seats.filter((s) => !s.occupied).length;
  const bots = Math.min(free, current?.botsComing ?? 0);
  if (bots) parts.push(`${bots === 1 ? "a bot is" : `${bots} bots are`} sitting down`);
  if (free > bots) parts.push(`waiting for ${plural(free - bots, "more player")}: share this page's address to let them join`);
  const text = parts.join("; ") || "waiting";
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Turn timers and time banks, running: drawn again every second. */
function drawClocks(): void {
  const progress = progressNow;
  const viewer = current?.seat ?? null;
  const now = Date.now();
  const lines: string[] = [];
  if (progress && !progress.outcome) {
    for (const clock of progress.clocks) {
      const runs = Number(clock.bankRunsFromUnixMs);
      const left = Number(clock.bankMs) - (runs ? Math.max(0, now - runs) : 0);
      lines.push(`${seatWord(clock.seat, viewer, seatNames)}: ${clockText(left)} in the bank${runs && now >= runs ? " (running)" : ""}`);
    }
    for (const decision of progress.pending) {
      const deadline = Number(decision.deadlineUnixMs);
      if (deadline) lines.push(render(`{seat:${decision.seat}|has|have} ${clockText(deadline - now)} to decide`, viewer, seatNames));
    }
    lines.push(...awayLines(progress, now, viewer, seatNames));
  }
  $("clocks").textContent = lines.join(" · ");
  $("clocks").hidden = !lines.length;
}

function drawUndo(progress: MatchProgress, viewer: number | null): void {
  const ask = progress.undoRequest;
  $("undo").hidden = !ask;
  if (!ask) return;
  const waiting = ask.awaiting.filter((s) => !ask.accepted.includes(s)).map((s) => `{seat:${s}}`);
  const tookBack = render(ask.tookBack, viewer, seatNames);
  $("undo-text").textContent = render(`{seat:${ask.seat}|asks|ask} to take back “${tookBack}”; waiting for ${andList(waiting) || "nobody"}.`, viewer, seatNames);
  const owed = viewer !== null && ask.awaiting.includes(viewer) && !ask.accepted.includes(viewer);
  $("undo-accept").hidden = $("undo-refuse").hidden = !owed;
}

async function answerUndo(accept: boolean): Promise<void> {
  if (!current?.token) return;
  await gateway.answerUndo(
    { match: current.match, requestId: crypto.randomUUID(), answer: accept ? UndoAnswer.ACCEPT : UndoAnswer.REFUSE },
    bearer(current.token),
  );
  await refresh();
}

function submit(action: Any, expected: bigint) {
  return gateway.submitAction(
    { match: current!.match, action, requestId: crypto.randomUUID(), expectedVersion: expected },
    bearer(current!.token),
  );
}

/** The match's version now if `error` is a version mismatch and `action` (its exact bytes)
 * is still among the seat's legal actions; else null. */
async function stillOffered(error: unknown, action: Any): Promise<bigint | null> {
  if (!(error instanceof ConnectError) || !error.rawMessage.startsWith("VERSION_MISMATCH")) return null;
  const listed = await gateway.listActions({ match: current!.match }, bearer(current!.token));
  const same = (a: Any) => a.typeUrl === action.typeUrl && a.value.length === action.value.length
    && a.value.every((b, i) => b === action.value[i]);
  return listed.actions.some(same) ? listed.progress?.version ?? null : null;
}

async function act(index: number): Promise<void> {
  if (!current?.token || acting) return;
  acting = true;
  document.body.dataset.state = "acting";
  for (const button of $("actions").querySelectorAll("button")) (button as HTMLButtonElement).disabled = true;
  const chosen = actions[index];
  try {
    let answer;
    try {
      answer = await submit(chosen, version);
    } catch (e) {
      // Another seat moved first (a simultaneous vote: each vote is a new version). When
      // the very same choice is still offered, it still means what the person chose: send
      // it again at the new version rather than bounce it (the 409 of issue 33 item 3).
      const now = await stillOffered(e, chosen);
      if (now === null) throw e;
      answer = await submit(chosen, now);
    }
    // Views read before the action are older than this: drop them.
    const after = answer.result?.progress?.version ?? 0n;
    if (after > version) version = after;
    error("");
  } catch (e) {
    if (!seatLost(e)) error(errorText(e));
  } finally {
    acting = false;
  }
  await refresh();
}

/** The lobby's leaderboards and "Your record", whose matches open their pages; "Your turn"
 * and "Waiting for others", whose matches re-open the seat. */
function lobbyRecords(): void {
  const rejoin = (match: string) => { $<HTMLInputElement>("match").value = match; guard(join)(); };
  drawMyMatches((game) => gameOf(game)?.info?.displayName ?? game, rejoin).catch((e) => { $("your-turn").textContent = errorText(e); });
  const open = (match: string) => { $<HTMLInputElement>("match").value = match; guard(watch)(); };
  drawLobbyRecords(games, open).catch((e) => { $("record").textContent = errorText(e); });
}

function guard(action: () => Promise<void>): () => void {
  return () => { error(""); action().catch((e) => error(errorText(e))); };
}

async function start(): Promise<void> {
  await signIn();
  onRenewed(() => { if (current) { $("feed").replaceChildren(); feedTexts = []; follow(current); } });
  $("game").onchange = syncVariants;
  $("variant").onchange = syncVariant;
  $("seats").oninput = () => void checkChoice();
  $("bots").oninput = () => void checkChoice();
  $("fill").onclick = fillWithBots;
  $("create").onclick = guard(create);
  $("join").onclick = guard(join);
  $("watch").onclick = guard(watch);
  $("offer-watch").onclick = guard(watch);
  $("undo-accept").onclick = guard(() => answerUndo(true));
  $("undo-refuse").onclick = guard(() => answerUndo(false));
  $("away-set").onclick = guard(async () => {
    const until = pickedUntil();
    if (!current || Number.isNaN(until)) return error("Pick the date you are back first.");
    await setAway(current.match, current.token, until);
    await refresh();
  });
  $("away-back").onclick = guard(async () => { if (current) await setAway(current.match, current.token, 0); await refresh(); });
  $("leave").onclick = () => { stopStream?.abort(); current = null; history.replaceState(null, "", "#"); show("lobby"); lobbyRecords(); };
  setInterval(drawClocks, 1000);
  setInterval(() => { if (!$("lobby").hidden && !document.hidden) lobbyRecords(); }, 30_000);
  window.addEventListener("focus", () => { if (!$("lobby").hidden) lobbyRecords(); });
  $<HTMLInputElement>("name").value = localStorage.getItem("parlour:name") || $<HTMLInputElement>("name").value;
  await loadGames();
  mountPlayNow(games, { name, rated: () => $<HTMLInputElement>("rated").checked, sit: sitMatched, error });
  lobbyRecords();
  const [kind, match] = window.location.hash.slice(1).split("=");
  if (match && (kind === "join" || kind === "watch")) {
    $<HTMLInputElement>("match").value = match;
    try {
      await (kind === "join" ? join() : watch());
    } catch (e) {
      // a link to no match (or one this page cannot open): the lobby, with the reason
      show("lobby");
      history.replaceState(null, "", "#");
      error(errorText(e));
    }
  } else {
    show("lobby");
  }
  document.body.dataset.ready = "1";
}

start().catch((e) => error(errorText(e)));

export type { JsonObject };
