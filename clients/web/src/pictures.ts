// Names for the ids in a game's view (the raw view under "Details"): which fields name
// which catalogue list comes from the game folder's names.json (bundled as gen/names.ts).
import type { JsonObject } from "@bufbuild/protobuf";
import { NAMES } from "./gen/names";

type Obj = Record<string, any>;

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
}

/** Names for catalogue ids in a game's view (undefined: show the number). */
export function namer(game: string, names: Names): (field: string, id: number) => string | undefined {
  const fields = NAMES[game]?.named ?? {};
  const places = NAMES[game]?.places;
  return (json, id) => {
    const field = json.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (places?.fields.includes(field)) {
      const room = names.entry(places.list, Math.floor(id / 2));
      if (!room?.name) return undefined;
      return (room.halves ?? []).length > 1 ? `${room.name} (${id % 2 === 0 ? "north-west" : "south-east"})` : room.name;
    }
    return fields[field] ? names.entry(fields[field], id)?.name : undefined;
  };
}
