// Pictures of the table for the games where people would rather look than read.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { enumWords } from "./words";

type Obj = Record<string, any>;

function el(tag: string, className = "", text = ""): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** Names from a game's catalogue, per list: every entry with a number/card/id and a name. */
export class Names {
  private lists = new Map<string, Map<number, Obj>>();
  constructor(catalogue: JsonObject) {
    for (const [key, list] of Object.entries(catalogue)) {
      if (!Array.isArray(list)) continue;
      const byId = new Map<number, Obj>();
      for (const item of list as Obj[]) {
        const id = item && typeof item === "object" ? item.number ?? item.card ?? item.id : undefined;
        if (typeof id === "number") byId.set(id, item);
      }
      this.lists.set(key, byId);
    }
  }
  entry(list: string, id: number | undefined): Obj | undefined {
    return id === undefined ? undefined : this.lists.get(list)?.get(id);
  }
  /** The entry's name, or `fallback` (a word, never the bare id) when the catalogue has none. */
  name(list: string, id: number | undefined, fallback: string): string {
    const entry = this.entry(list, id);
    return entry?.name ?? entry?.title ?? fallback;
  }
}

const SIDES = ["n", "e", "s", "w"];

function castle(view: Obj, names: Names, seatNames: string[]): HTMLElement {
  const box = el("div", "castle");
  const tiles: Obj[] = view.tiles ?? [];
  const levels = [...new Set(tiles.map((t) => t.level ?? 0))].sort((a, b) => b - a);
  const players: Obj[] = view.players ?? [];
  for (const level of levels) {
    const onLevel = tiles.filter((t) => (t.level ?? 0) === level);
    const xs = onLevel.map((t) => t.x ?? 0), ys = onLevel.map((t) => t.y ?? 0);
    const [minX, minY] = [Math.min(...xs), Math.min(...ys)];
    const floor = el("div", "floor");
    floor.append(el("h4", "", level < 0 ? "Basement" : level === 0 ? "Ground floor" : `Floor ${level}`));
    const grid = el("div", "grid");
    grid.style.gridTemplateColumns = `repeat(${Math.max(...xs) - minX + 1}, 7.5em)`;
    for (const tile of onLevel) {
      const room = names.entry("rooms", tile.tile) ?? {};
      const cell = el("div", "room");
      cell.dataset.tile = String(tile.tile);
      cell.style.gridColumn = String((tile.x ?? 0) - minX + 1);
      cell.style.gridRow = String((tile.y ?? 0) - minY + 1);
      for (const side of (room.doors ?? []) as number[]) {
        const door = el("span", `door door-${SIDES[(side + (tile.rotation ?? 0)) % 4]}`);
        door.title = "doorway";
        cell.append(door);
      }
      for (const side of (tile.padlocked ?? []) as number[]) cell.append(el("span", `padlock padlock-${SIDES[side]}`, "🔒"));
      cell.append(el("div", "room-name", room.name ?? (tile.tile >= 90 ? "Brick Wall" : "Room")));
      const pieces = el("div", "pieces");
      players.forEach((p, seat) => {
        if (Math.floor((p.place ?? -2) / 2) === tile.tile) {
          const piece = el("span", `piece seat-${seat}`, enumWords(p.character ?? "", "character").slice(0, 3));
          piece.title = `${seatNames[seat] || "Player " + (seat + 1)}: ${enumWords(p.character ?? "", "character")}`;
          pieces.append(piece);
        }
      });
      if (view.holmes !== undefined && Math.floor(view.holmes / 2) === tile.tile) pieces.append(el("span", "piece holmes", "H"));
      cell.append(pieces);
      const cubes = ((tile.safes ?? []) as Obj[]).map((s) => (s.counts ?? []).reduce((a: number, b: number) => a + b, 0));
      if (cubes.some((c) => c)) cell.append(el("div", "safe", `safe: ${cubes.join(" / ")} cube${cubes.length === 1 && cubes[0] === 1 ? "" : "s"}`));
      grid.append(cell);
    }
    floor.append(grid);
    box.append(floor);
  }
  return box;
}

function clash(view: Obj, names: Names): HTMLElement {
  const box = el("div", "clash");
  const clock = el("div", "clock");
  // The View's `hours` is the time gone (the Time Marker), of the clock's 12.
  const hours = view.hours ?? 0;
  clock.append(el("div", "hand"), el("div", "clock-label", hours >= 12 ? "The clock has struck twelve" : `${hours} of 12 hours gone, ${12 - hours} left`));
  (clock.firstChild as HTMLElement).style.transform = `rotate(${(hours % 12) * 30}deg)`;
  box.append(clock);
  const threads = el("div", "threads");
  ((view.threads ?? []) as Obj[]).forEach((thread, i) => {
    const column = el("div", "thread");
    column.append(el("h4", "", `Thread ${i + 1}${thread.revealed ? ": " + names.name("crimePlan", thread.crimeCard, "crime") : ""}`));
    ((thread.sides ?? []) as Obj[]).forEach((side, who) => {
      const row = el("div", `side side-${who}`);
      row.append(el("span", "side-name", who === 0 ? "Holmes" : "Moriarty"));
      for (const card of (side.cards ?? []) as Obj[]) {
        const text = card.card ? names.name("influence", card.card, "card") : "?";
        row.append(el("span", `card${card.support ? " support" : ""}${card.faceDown ? " face-down" : ""}`, text));
      }
      column.append(row);
    });
    threads.append(column);
  });
  box.append(threads);
  return box;
}

function horrors(view: Obj, names: Names, seatNames: string[]): HTMLElement {
  const box = el("div", "horrors");
  const room = el("div", "encounter");
  room.append(el("h4", "", view.room ? `Room: ${names.name("cards", view.room, "a room")}` : "No encounter now"));
  if (view.battle) room.append(el("div", "battle", `Battle: ${enumWords(view.battle, "battle")}`));
  const table = el("div", "played");
  for (const card of (view.table ?? []) as number[]) table.append(el("span", "card room-item", names.name("cards", card, "card")));
  room.append(table);
  ((view.showings ?? []) as Obj[]).forEach((showing, seat) => {
    const cards = [...((showing.characters ?? []) as number[]), ...((showing.items ?? []) as number[])];
    if (!cards.length && !showing.side) return;
    const row = el("div", "showing");
    row.append(el("span", "side-name", `${seatNames[seat] || "Player " + (seat + 1)}${showing.side ? " (" + enumWords(showing.side, "side") + ")" : ""}`));
    for (const card of cards) row.append(el("span", "card", names.name("cards", card, "card")));
    room.append(row);
  });
  for (const [field, side] of [["underMortal", "Under the Mortals"], ["underHorror", "Under the Horrors"]] as const) {
    const cards = (view[field] ?? []) as number[];
    if (!cards.length) continue;
    const row = el("div", "showing");
    row.append(el("span", "side-name", side));
    for (const card of cards) row.append(el("span", "card", names.name("cards", card, "card")));
    room.append(row);
  }
  box.append(room);
  return box;
}

const PICTURES: Record<string, (view: Obj, names: Names, seats: string[]) => HTMLElement> = {
  murdercastle: castle,
  clashofminds: clash,
  houseofhorrors: horrors,
};

/** The picture of a game's table, or null for games shown in words only. */
export function picture(game: string, view: JsonValue, names: Names, seatNames: string[]): HTMLElement | null {
  const draw = PICTURES[game];
  return draw ? draw(view as Obj, names, seatNames) : null;
}

/** Which view fields hold ids of which catalogue list, per game. */
const NAMED_FIELDS: Record<string, Record<string, string>> = {
  houseofhorrors: Object.fromEntries(
    ["hand", "spoils", "roomDiscard", "houseDiscard", "revealedRooms", "table", "room", "revealed", "items", "characters", "underMortal", "underHorror", "claimCard", "spoilsPool", "cards"].map((f) => [f, "cards"]),
  ),
  murdercastle: { hand: "events", eventDiscard: "events", peeked: "rooms", tile: "rooms" },
  clashofminds: { hand: "influence", discard: "influence", site: "sites", siteDiscard: "sites", crimeCard: "crimePlan" },
};

/** View fields holding place ids (a room: its tile * 2 + which room of a two-room tile), per game. */
const PLACE_FIELDS: Record<string, [string, Set<string>]> = {
  murdercastle: ["rooms", new Set(["place", "places", "fromPlace", "toPlace", "holmes", "room", "landing", "a", "b"])],
};

/** Names for catalogue ids in a game's view (undefined: show the number). */
export function namer(game: string, names: Names): (field: string, id: number) => string | undefined {
  const fields = NAMED_FIELDS[game] ?? {};
  const [placeList, placeFields] = PLACE_FIELDS[game] ?? ["", new Set<string>()];
  return (field, id) => {
    if (placeFields.has(field)) {
      const room = names.entry(placeList, Math.floor(id / 2));
      if (!room?.name) return undefined;
      return (room.halves ?? []).length > 1 ? `${room.name} (${id % 2 === 0 ? "north-west" : "south-east"})` : room.name;
    }
    return fields[field] ? names.entry(fields[field], id)?.name : undefined;
  };
}
