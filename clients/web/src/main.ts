// parlour in the browser: create, join or watch a match; your view, the feed, the legal moves.
import type { JsonObject } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { bearer, decode, gateway, packOptions } from "./api";
import { Names, namer, picture } from "./pictures";
import { describe, viewLines } from "./words";
import type { Game, Match } from "./gen/parlour/gateway/v1/gateway_pb";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

interface Seated {
  match: string;
  token: string | null; // null: spectator
  seat: number | null;
}

let games: Game[] = [];
let current: Seated | null = null;
let version = 0n;
let lastSequence = -1n;
let actions: Any[] = [];
let refreshing: Promise<void> | null = null;
let again = false;
let stopStream: AbortController | null = null;

function show(section: "lobby" | "table"): void {
  $("lobby").hidden = section !== "lobby";
  $("table").hidden = section !== "table";
}

function error(message: string): void {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

function gameOf(name: string): Game | undefined {
  return games.find((g) => g.name === `games/${name}` || g.info?.game === name);
}

async function loadGames(): Promise<void> {
  games = (await gateway.listGames({})).games;
  const select = $<HTMLSelectElement>("game");
  select.replaceChildren(...games.map((g) => {
    const option = document.createElement("option");
    option.value = g.info?.game ?? g.name;
    option.textContent = `${g.info?.displayName} (${g.info?.minSeats}–${g.info?.maxSeats} seats)`;
    return option;
  }));
  syncSeats();
}

function syncSeats(): void {
  const info = gameOf($<HTMLSelectElement>("game").value)?.info;
  if (!info) return;
  const seats = $<HTMLInputElement>("seats");
  seats.min = String(info.minSeats);
  seats.max = String(info.maxSeats);
  seats.value = String(Math.max(info.minSeats, Math.min(info.maxSeats, Number(seats.value) || info.minSeats)));
  const bots = $<HTMLInputElement>("bots");
  bots.max = String(info.maxSeats - 1);
  bots.value = String(Math.min(Number(seats.value) - 1, Math.max(0, Number(bots.value))));
}

function remember(seated: Seated): void {
  sessionStorage.setItem(`parlour:${seated.match}`, JSON.stringify(seated));
}

async function create(): Promise<void> {
  const game = $<HTMLSelectElement>("game").value;
  const info = gameOf(game)?.info;
  const seats = Number($<HTMLInputElement>("seats").value);
  const bots = Math.min(seats - 1, Number($<HTMLInputElement>("bots").value));
  const options = packOptions(info?.optionsType ?? "", $<HTMLTextAreaElement>("options").value);
  const created = await gateway.createMatch({
    game, seats, options, allowSpectators: true, requestId: crypto.randomUUID(),
  });
  const match = created.match!.name;
  const joined = await gateway.joinMatch({ match, seat: 0, displayName: name(), requestId: crypto.randomUUID() });
  if (bots > 0) {
    const response = await fetch("/api/bots", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ match, count: bots, strategy: $<HTMLSelectElement>("strategy").value }),
    });
    if (!response.ok) throw new Error(`bots: ${(await response.json()).message}`);
  }
  await sit({ match, token: joined.seatToken, seat: joined.seat });
}

function name(): string {
  return $<HTMLInputElement>("name").value.trim() || "guest";
}

function matchName(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith("matches/") ? trimmed : `matches/${trimmed}`;
}

async function join(): Promise<void> {
  const match = matchName($<HTMLInputElement>("match").value);
  const stored = sessionStorage.getItem(`parlour:${match}`);
  if (stored) return sit(JSON.parse(stored) as Seated);
  const joined = await gateway.joinMatch({ match, displayName: name(), requestId: crypto.randomUUID() });
  await sit({ match, token: joined.seatToken, seat: joined.seat });
}

async function watch(): Promise<void> {
  await sit({ match: matchName($<HTMLInputElement>("match").value), token: null, seat: null });
}

async function sit(seated: Seated): Promise<void> {
  current = seated;
  version = 0n;
  lastSequence = -1n;
  if (seated.token) remember(seated);
  history.replaceState(null, "", `#${seated.token ? "join" : "watch"}=${seated.match}`);
  $("feed").replaceChildren();
  $("match-name").textContent = seated.match;
  $("you").textContent = seated.seat === null ? "You are watching." : `You are seat ${seated.seat}.`;
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
    const stream = gateway.streamEvents({ match: seated.match, afterSequence: 0n }, { ...bearer(seated.token), signal: controller.signal });
    for await (const item of stream) {
      const events = item.kind.case === "event" ? [item.kind.value] : item.kind.case === "batch" ? item.kind.value.events : [];
      for (const event of events) {
        const text = event.text || describe(decode(event.event));
        const line = document.createElement("li");
        line.textContent = `#${event.sequence} ${seatLabel(event.actor)}${text}`;
        $("feed").prepend(line);
      }
      const last = item.kind.case === "heartbeat" ? item.kind.value.lastSequence : events.length ? events[events.length - 1].sequence : 0n;
      // A heartbeat: look again (an action may change the match without any event).
      if (item.kind.case === "heartbeat" || last > lastSequence) void refresh();
    }
  })().catch((e) => { if (!controller.signal.aborted) error(String(e)); });
}

let seatNames: string[] = [];

function seatLabel(actor: number): string {
  if (actor < 0) return "";
  if (current?.seat === actor) return "You: ";
  return `${seatNames[actor] || "seat " + actor}: `;
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
  })().finally(() => { refreshing = null; });
  return refreshing;
}

async function redraw(): Promise<void> {
  if (!current) return;
  const seated = current;
  const { match } = await gateway.getMatch({ match: seated.match });
  const viewResponse = await gateway.getView({ match: seated.match }, bearer(seated.token));
  const listed = seated.token ? await gateway.listActions({ match: seated.match }, bearer(seated.token)) : null;
  const progress = listed?.progress ?? viewResponse.progress;
  if (!match || !progress || progress.version < version) return;
  version = progress.version;
  lastSequence = progress.lastSequence;
  seatNames = match.seats.map((s) => s.displayName);
  const game = match.game;
  const info = gameOf(game)?.info;
  $("game-title").textContent = info?.displayName ?? game;
  const view = decode(viewResponse.view);
  const names = new Names(decode(info?.catalogue));
  $("status").textContent = status(match, progress);
  $("seats-list").textContent = match.seats.map((s) => `${s.seat}: ${s.displayName || "(free)"}${s.seat === seated.seat ? " — you" : ""}`).join(" · ");
  const pic = picture(game, view, names, seatNames);
  $("picture").replaceChildren(...(pic ? [pic] : []));
  $("picture").hidden = !pic;
  $("view").textContent = viewLines(view, namer(game, names)).join("\n");
  actions = listed?.actions ?? [];
  const labels = listed?.labels ?? [];
  $("actions").replaceChildren(...actions.map((action, i) => {
    const button = document.createElement("button");
    button.textContent = `${i + 1}. ${labels[i] || describe(decode(action))}`;
    button.dataset.index = String(i);
    button.onclick = () => void act(i);
    return button;
  }));
  $("actions-box").hidden = !actions.length;
  document.body.dataset.state = progress.outcome ? "over" : actions.length ? "your-turn" : "waiting";
  document.body.dataset.version = String(progress.version);
}

function status(match: Match, progress: NonNullable<Match["progress"]>): string {
  if (progress.outcome) {
    const winners = progress.outcome.winners.map((w) => (w === current?.seat ? "You" : seatNames[w] || `seat ${w}`));
    return `Game over. ${winners.length ? "Winner: " + winners.join(", ") : "Nobody won"}. Scores ${progress.outcome.scores.join(", ")}. ${progress.outcome.summary}`;
  }
  return progress.pending.map((d) => `${d.seat === current?.seat ? "You decide" : (seatNames[d.seat] || "seat " + d.seat) + " decides"}: ${d.kind.replace(/_/g, " ")}`).join("; ") || "waiting";
}

async function act(index: number): Promise<void> {
  if (!current?.token) return;
  document.body.dataset.state = "acting";
  try {
    await gateway.submitAction(
      { match: current.match, action: actions[index], requestId: crypto.randomUUID(), expectedVersion: version },
      bearer(current.token),
    );
    error("");
  } catch (e) {
    error(String(e));
  }
  await refresh();
}

function guard(action: () => Promise<void>): () => void {
  return () => { error(""); action().catch((e) => error(String(e))); };
}

async function start(): Promise<void> {
  $("game").onchange = syncSeats;
  $("seats").onchange = syncSeats;
  $("create").onclick = guard(create);
  $("join").onclick = guard(join);
  $("watch").onclick = guard(watch);
  $("leave").onclick = () => { stopStream?.abort(); current = null; history.replaceState(null, "", "#"); show("lobby"); };
  await loadGames();
  const [kind, match] = window.location.hash.slice(1).split("=");
  if (match && (kind === "join" || kind === "watch")) {
    $<HTMLInputElement>("match").value = match;
    await (kind === "join" ? join() : watch());
  } else {
    show("lobby");
  }
  document.body.dataset.ready = "1";
}

start().catch((e) => error(String(e)));

export type { JsonObject };
