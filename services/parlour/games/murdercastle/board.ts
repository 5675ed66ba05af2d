// Murder Castle on the page: each floor of the castle as a grid of rooms (doorways, padlocks,
// stairs, trapdoors, bookcase pathways, the cubes in each safe), Holmes and the pawns; beside
// it the players' evidence boards, the Ferris Wheel, the Evidence Bag, the Action Tiles, your
// Keep cards. Rooms, doorways, tiles, cubes and cards are clicked; a new room's rotation is
// chosen on pictures of the room in each turn, its doorways drawn, where it joins marked.
import { area, canvas, card, entry, hit, label, sharedWords, svg, type Choice, type Ctx, type GameBoard, type Obj } from "../../../../clients/web/src/kit";

const C = 112; // a cell of the castle grid
const SIDE_W = 330; // the column beside the castle
const COLOURS = ["COLOUR_BLUE", "COLOUR_WHITE", "COLOUR_GREEN", "COLOUR_RED", "COLOUR_YELLOW"];
const FILL = ["#2b5fa8", "#f4f4f4", "#2f8a4a", "#b22", "#e8c020"];
const SEAT_FILL = ["#b22", "#26b", "#2a2", "#a6a", "#c80", "#088", "#666"];
const SIDES = ["north", "east", "south", "west"];
const TILE_WORDS: Record<string, string> = {
  ACTION_TILE_EXPLORE: "Explore", ACTION_TILE_MOVE_ONE: "Move 1", ACTION_TILE_MOVE_TWO: "Move 2",
  ACTION_TILE_COLLECT: "Collect", ACTION_TILE_DRAW: "Draw", ACTION_TILE_MOVE_HOLMES: "Move Holmes",
  ACTION_TILE_MOVE_ONE_CROWD: "Move 1 (crowd)",
};

function room(ctx: Ctx, tile: number | undefined): Obj {
  return entry(ctx.catalogue, "rooms", tile) ?? {};
}

function evidence(ctx: Ctx, i: number): string {
  return ((ctx.catalogue.evidenceNames ?? []) as string[])[i] ?? SIDES[i];
}

function colourWords(ctx: Ctx, colour: string): string {
  const i = COLOURS.indexOf(colour);
  return i < 0 ? "Fake Evidence" : `${evidence(ctx, i)} (${colour.slice(7).toLowerCase()})`;
}

/** A place's name: the room, and which room of a two-room tile. */
export function placeName(ctx: Ctx, place: number): string {
  const r = room(ctx, Math.floor(place / 2));
  if (!r.name) return "a room";
  return (r.halves ?? []).length > 1 ? `${r.name} (${place % 2 ? "south-east" : "north-west"})` : r.name;
}

function character(ctx: Ctx, seat: number): Obj {
  const holmes = ctx.view.options?.playAsHolmes;
  if (holmes && (holmes.seat ?? 0) === seat) return { name: "Holmes" };
  const c = ctx.view.players?.[seat]?.character;
  return ((ctx.catalogue.characters ?? []) as Obj[]).find((e) => e.character === c) ?? {};
}

function seatWords(ctx: Ctx, seat: number): string {
  const who = seat === ctx.viewer ? "You" : ctx.seatNames[seat] || `Player ${seat + 1}`;
  const name = character(ctx, seat).name;
  return name ? `${who} (${name})` : who;
}

/** A short mark for a pawn: the character's initials ("HG" Hotel Guest, "HF" Hoyt Flemming). */
function pawnMark(ctx: Ctx, seat: number): string {
  const name = character(ctx, seat).name as string | undefined;
  return name ? name.split(/[\s-]+/).slice(0, 2).map((w) => w[0]).join("").toUpperCase() : `P${seat + 1}`;
}

function cubes(counts: number[], x: number, y: number, size: number, keyOf?: (c: number) => string | undefined, nameOf?: (c: number) => string): SVGElement {
  const g = svg("g", { "aria-hidden": keyOf ? undefined : "true" });
  let at = 0;
  counts.forEach((n, c) => {
    for (let k = 0; k < n; k++) {
      g.append(svg("rect", { x: x + at * (size + 2), y, width: size, height: size, fill: FILL[c] ?? "#777", stroke: "#222", rx: 2 }));
      const key = keyOf?.(c);
      if (key && k === 0) g.append(hit(x + at * (size + 2) - 1, y - 1, (size + 2) * n, size + 2, key, nameOf?.(c) ?? key));
      at++;
    }
  });
  return g;
}

/** Doorway marks of a room tile turned `rotation` quarter turns, in a cell at (x, y). */
function doorways(doors: number[], rotation: number, x: number, y: number, size: number, join?: number): SVGElement {
  const g = svg("g", { "aria-hidden": "true" });
  const w = size * 0.34, t = 7;
  for (const printed of doors) {
    const side = (printed + rotation) % 4;
    const [dx, dy, dw, dh] = [[size / 2 - w / 2, -t / 2, w, t], [size - t / 2, size / 2 - w / 2, t, w], [size / 2 - w / 2, size - t / 2, w, t], [-t / 2, size / 2 - w / 2, t, w]][side];
    g.append(svg("rect", { x: x + dx, y: y + dy, width: dw, height: dh, fill: side === join ? "#e08a00" : "#f7f3ea", stroke: "#5a4636" }));
  }
  return g;
}

interface Floor { level: number; minX: number; minY: number; cols: number; rows: number; top: number }

function floors(ctx: Ctx): Floor[] {
  const tiles = (ctx.view.tiles ?? []) as Obj[];
  const ghost = placing(ctx);
  const cells = tiles.map((t) => [t.level ?? 0, t.x ?? 0, t.y ?? 0]);
  if (ghost) cells.push([ghost.level, ghost.x, ghost.y]);
  const levels = [...new Set(cells.map((c) => c[0]))].sort((a, b) => b - a);
  let top = 8;
  return levels.map((level) => {
    const on = cells.filter((c) => c[0] === level);
    const xs = on.map((c) => c[1]), ys = on.map((c) => c[2]);
    const f = { level, minX: Math.min(...xs), minY: Math.min(...ys), cols: Math.max(...xs) - Math.min(...xs) + 1, rows: Math.max(...ys) - Math.min(...ys) + 1, top };
    top += 26 + f.rows * C + 14;
    return f;
  });
}

/** The frame of a room being placed (its rotation is being chosen), with its level. */
function placing(ctx: Ctx): Obj | null {
  const frame = ((ctx.view.frames ?? []) as Obj[]).find((f) => f.kind === "FRAME_KIND_PLACE_ROOM");
  if (!frame) return null;
  const origin = ((ctx.view.tiles ?? []) as Obj[]).find((t) => t.tile === Math.floor((frame.place ?? 0) / 2));
  return { ...frame, x: frame.x ?? 0, y: frame.y ?? 0, side: frame.side ?? 0, level: origin?.level ?? 0 };
}

function levelName(level: number): string {
  return level < 0 ? "Basement" : level === 0 ? "Ground floor" : level === 1 ? "Upstairs (2nd Story)" : `Floor ${level + 1}`;
}

function castle(ctx: Ctx, root: SVGElement): number {
  const view = ctx.view;
  const tiles = (view.tiles ?? []) as Obj[];
  const fl = floors(ctx);
  const players = (view.players ?? []) as Obj[];
  const me = ctx.viewer !== null ? players[ctx.viewer]?.place : undefined;
  const centre = new Map<number, [number, number]>();
  const at = (f: Floor, x: number, y: number): [number, number] => [10 + (x - f.minX) * C, f.top + 26 + (y - f.minY) * C];
  for (const f of fl) {
    root.append(label(10 + (f.cols * C) / 2, f.top + 16, [levelName(f.level)], { "font-weight": "bold", "font-size": 13, "text-anchor": "middle" }));
    for (const t of tiles.filter((t) => (t.level ?? 0) === f.level)) {
      const [x, y] = at(f, t.x ?? 0, t.y ?? 0);
      const r = room(ctx, t.tile);
      const wall = (t.tile ?? 0) >= 90 || r.brickWall;
      const g = svg("g", { class: "room", "data-info": r.name ? `${r.name}${r.special ? ` — ${r.special.replace(/_/g, " ")}` : ""}` : undefined });
      g.append(svg("rect", { x: x + 3, y: y + 3, width: C - 6, height: C - 6, fill: wall ? "#8a5a44" : "#e9dcc0", stroke: "#5a4636", "stroke-width": 4 }));
      if (!wall) g.append(doorways((r.doors ?? []) as number[], t.rotation ?? 0, x + 3, y + 3, C - 6));
      g.append(label(x + C / 2, y + 22, wall ? ["Brick Wall"] : (r.name ? r.name.split(" ").reduce((lines: string[], w: string) => { const l = lines.length - 1; if (l >= 0 && (lines[l] + " " + w).length <= 14) lines[l] += " " + w; else lines.push(w); return lines; }, []).slice(0, 2) : ["Room"]), { "font-size": 11, "font-weight": "bold", fill: wall ? "#fff" : "#222" }));
      for (const side of (t.padlocked ?? []) as number[]) {
        const [px, py] = [[x + C / 2 + 16, y + 8], [x + C - 20, y + C / 2 + 16], [x + C / 2 + 16, y + C - 20], [x + 8, y + C / 2 + 16]][side];
        g.append(svg("rect", { x: px, y: py, width: 12, height: 10, fill: "#444", rx: 2 }), svg("path", { d: `M${px + 2} ${py} v-4 a4 4 0 0 1 8 0 v4`, fill: "none", stroke: "#444", "stroke-width": 2 }));
      }
      if (t.stairs) {
        const side = t.stairs - 1;
        const [sx, sy] = [[x + C / 2 - 30, y + 10], [x + C - 26, y + C / 2 - 28], [x + C / 2 - 30, y + C - 24], [x + 8, y + C / 2 - 28]][side];
        g.append(svg("path", { d: `M${sx} ${sy + 12} h6 v-4 h6 v-4 h6`, fill: "none", stroke: "#5a4636", "stroke-width": 2 }));
      } else if (r.stairsTo) {
        g.append(svg("path", { d: `M${x + 10} ${y + C - 14} h6 v-4 h6 v-4 h6`, fill: "none", stroke: "#5a4636", "stroke-width": 2 }));
      }
      const safes = (t.safes ?? []) as Obj[];
      safes.forEach((safe, half) => {
        const counts = (safe.counts ?? []) as number[];
        if (!counts.some((n) => n)) return;
        const place = (t.tile ?? 0) * 2 + half;
        const mine = place === me;
        g.append(cubes(counts, x + 12 + half * 50, y + 48, 11, mine ? (c) => `collect:${COLOURS[c]}` : undefined, (c) => `collect ${colourWords(ctx, COLOURS[c])} from the safe`));
      });
      const name = wall ? "Brick Wall" : r.name ?? "room";
      const halves = Math.max(1, ((r.halves ?? []) as Obj[]).length);
      for (let half = 0; half < halves; half++) {
        const place = (t.tile ?? 0) * 2 + half;
        centre.set(place, [x + C / 2 + (halves > 1 ? (half ? 22 : -22) : 0), y + C / 2]);
        const occupants = players.map((p, s) => [p, s] as const).filter(([p]) => p.place === place && p.place !== undefined).map(([, s]) => seatWords(ctx, s));
        if (view.holmes === place) occupants.push("Holmes");
        const aria = `${placeName(ctx, place)}, ${levelName(f.level).toLowerCase()}${occupants.length ? ": " + occupants.join(", ") : ""}${(t.padlocked ?? []).length ? `, padlocked ${(t.padlocked as number[]).map((s) => SIDES[s]).join(" and ")}` : ""}`;
        g.append(hit(x + 3 + (halves > 1 ? half * (C - 6) / 2 : 0), y + 3, (C - 6) / halves, C - 6, `place:${place}`, wall ? name : aria));
      }
      root.append(g);
    }
    // the room being placed: where it goes
    const ghost = placing(ctx);
    if (ghost && ghost.level === f.level) {
      const [x, y] = at(f, ghost.x, ghost.y);
      root.append(svg("rect", { x: x + 3, y: y + 3, width: C - 6, height: C - 6, fill: "#fff4d6", stroke: "#e08a00", "stroke-width": 3, "stroke-dasharray": "8 5" }));
      root.append(label(x + C / 2, y + C / 2, wrap2(`New: ${room(ctx, ghost.tile).name ?? "room"}`), { "font-size": 11, "font-weight": "bold" }));
    }
  }
  // bookcase pathways and trapdoors
  for (const p of (view.pathways ?? []) as Obj[]) {
    const a = centre.get(p.a ?? 0), b = centre.get(p.b ?? 0);
    if (a && b) root.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#6b3fa0", "stroke-width": 3, "stroke-dasharray": "6 4", "aria-hidden": "true" }));
  }
  for (const t of (view.trapdoors ?? []) as Obj[]) {
    const a = centre.get(t.room ?? 0);
    if (a) root.append(svg("circle", { cx: a[0] + 36, cy: a[1] - 18, r: 8, fill: t.deathtrap ? "#b22" : "#222", "aria-hidden": "true" }, svg("title", {}, t.deathtrap ? "Deathtrap" : "Trapdoor")));
  }
  // Holmes and the pawns, on top
  const pawns = new Map<number, number>();
  const pawn = (place: number, fill: string, mark: string, words: string) => {
    const c = centre.get(place);
    if (!c) return;
    const k = pawns.get(place) ?? 0;
    pawns.set(place, k + 1);
    const px = c[0] - 30 + (k % 4) * 20, py = c[1] + 26 + Math.floor(k / 4) * 20;
    const g = svg("g", { role: "img", "aria-label": words });
    g.append(svg("title", {}, words), svg("circle", { cx: px, cy: py, r: 10, fill, stroke: "#fff", "stroke-width": 2 }), label(px, py + 4, [mark], { fill: "#fff", "font-size": 10, "font-weight": "bold" }));
    root.append(g);
  };
  if (view.holmes !== undefined) pawn(view.holmes, "#000", "H", `Holmes, in ${placeName(ctx, view.holmes)}`);
  players.forEach((p, s) => { if (p.place !== undefined) pawn(p.place, SEAT_FILL[s % 7], pawnMark(ctx, s), `${seatWords(ctx, s)}, in ${placeName(ctx, p.place)}`); });
  // doorways of your room to explore through
  if (me !== undefined) {
    const t = tiles.find((t) => t.tile === Math.floor(me / 2));
    const f = fl.find((f) => f.level === (t?.level ?? 0));
    if (t && f) {
      const [x, y] = at(f, t.x ?? 0, t.y ?? 0);
      for (let side = 0; side < 4; side++) {
        const [dx, dy, w, h] = [[C / 2 - 22, -8, 44, 22], [C - 14, C / 2 - 22, 22, 44], [C / 2 - 22, C - 14, 44, 22], [-8, C / 2 - 22, 22, 44]][side];
        root.append(hit(x + dx, y + dy, w, h, `door:${side}`, `the ${SIDES[side]} doorway of ${placeName(ctx, me)}`));
      }
    }
  }
  const last = fl[fl.length - 1];
  return last ? last.top + 26 + last.rows * C + 10 : 100;
}

function wrap2(text: string): string[] {
  const words = text.split(" ");
  const half = Math.ceil(words.length / 2);
  return words.length > 2 ? [words.slice(0, half).join(" "), words.slice(half).join(" ")] : [text];
}

/** The new room in each rotation offered: its doorways drawn, the side it joins on marked. */
function rotations(ctx: Ctx, x: number, y: number, root: SVGElement, offered: Obj[]): number {
  const ghost = placing(ctx);
  if (!ghost || !offered.length) return y;
  const r = room(ctx, ghost.tile);
  const join = (ghost.side + 2) % 4;
  root.append(label(x + SIDE_W / 2, y + 14, [`How does ${r.name ?? "the new room"} turn?`], { "font-size": 13, "font-weight": "bold" }));
  root.append(label(x + SIDE_W / 2, y + 30, [`It joins ${placeName(ctx, ghost.place ?? 0)} on its orange side.`], { "font-size": 11 }));
  const size = 70;
  offered.forEach((o, i) => {
    const rot = o.rotation ?? 0;
    const level = o.level ?? 0;
    const cx = x + 6 + (i % 4) * (size + 10), cy = y + 40 + Math.floor(i / 4) * (size + 26);
    root.append(svg("rect", { x: cx, y: cy, width: size, height: size, fill: "#e9dcc0", stroke: "#5a4636", "stroke-width": 3 }));
    root.append(doorways((r.doors ?? []) as number[], rot, cx, cy, size, join));
    const opens = ((r.doors ?? []) as number[]).map((d) => SIDES[(d + rot) % 4]);
    const lvl = offered.some((p) => (p.level ?? 0) !== level) ? `, ${levelName(level).toLowerCase()}` : "";
    root.append(label(cx + size / 2, cy + size + 14, [`${rot * 90}°${lvl ? " " + levelName(level).split(" ")[0] : ""}`], { "font-size": 10 }));
    root.append(hit(cx, cy, size, size, `rotate:${rot}:${level}`, `${r.name ?? "the new room"} turned ${rot * 90} degrees${lvl}: doorways ${opens.join(", ")}`));
  });
  return y + 40 + Math.ceil(offered.length / 4) * (size + 26);
}

function side(ctx: Ctx, x: number, root: SVGElement, offered: Obj[]): number {
  const view = ctx.view;
  let y = 8;
  y = rotations(ctx, x, y, root, offered);
  // the players' evidence boards
  const players = (view.players ?? []) as Obj[];
  root.append(label(x + SIDE_W / 2, y + 14, ["Players and their evidence"], { "font-size": 13, "font-weight": "bold" }));
  y += 22;
  players.forEach((p, s) => {
    const g = area(x, y, SIDE_W, 44, "", { fill: s === ctx.viewer ? "#fff8e4" : "#fff" });
    g.append(svg("circle", { cx: x + 16, cy: y + 16, r: 10, fill: SEAT_FILL[s % 7], "aria-hidden": "true" }), label(x + 16, y + 20, [pawnMark(ctx, s)], { fill: "#fff", "font-size": 10, "font-weight": "bold", "aria-hidden": "true" }));
    const facts = [`${p.strikes ?? 0} strike${p.strikes === 1 ? "" : "s"}`, `${p.keepCount ?? 0} Keep card${p.keepCount === 1 ? "" : "s"}`];
    g.append(label(x + 32, y + 15, [seatWords(ctx, s)], { "text-anchor": "start", "font-size": 11, "font-weight": "bold" }));
    g.append(label(x + 32, y + 31, [facts.join(" · ")], { "text-anchor": "start", "font-size": 10 }));
    ((p.board?.counts ?? []) as number[]).forEach((n, c) => {
      g.append(svg("rect", { x: x + 156 + c * 34, y: y + 23, width: 12, height: 12, fill: FILL[c], stroke: "#222", rx: 2, "aria-hidden": "true" }));
      g.append(label(x + 156 + c * 34 + 15, y + 33, [String(n)], { "font-size": 11, "text-anchor": "start", "aria-hidden": "true" }));
    });
    const held = ((p.board?.counts ?? []) as number[]).map((n, c) => n ? `${n} ${evidence(ctx, c)}` : "").filter(Boolean);
    g.append(hit(x, y, SIDE_W, 44, `seat:${s}`, `${seatWords(ctx, s)}: ${facts.join(", ")}; evidence: ${held.join(", ") || "none"}`));
    root.append(g);
    y += 48;
  });
  // the Ferris Wheel
  const gondolas = (view.gondolas ?? []) as Obj[];
  if (gondolas.length) {
    y += 6;
    const cx = x + 70, cy = y + 70;
    root.append(label(x + SIDE_W / 2 + 60, y + 14, ["The Ferris Wheel"], { "font-size": 13, "font-weight": "bold" }));
    root.append(svg("circle", { cx, cy, r: 52, fill: "none", stroke: "#5a4636", "stroke-width": 3, "aria-hidden": "true" }));
    gondolas.forEach((g, i) => {
      const a = (i / gondolas.length) * Math.PI * 2 - Math.PI / 2;
      const gx = cx + Math.cos(a) * 52, gy = cy + Math.sin(a) * 52;
      root.append(svg("line", { x1: cx, y1: cy, x2: gx, y2: gy, stroke: "#c9b98f", "aria-hidden": "true" }));
      root.append(svg("rect", { x: gx - 16, y: gy - 9, width: 32, height: 18, rx: 4, fill: i === (view.unloading ?? 0) ? "#fff4d6" : "#fff", stroke: i === (view.unloading ?? 0) ? "#e08a00" : "#5a4636", "aria-hidden": "true" }));
      root.append(cubes((g.counts ?? []) as number[], gx - 14, gy - 4, 7));
    });
    const carried = gondolas.map((g, i) => `${i === (view.unloading ?? 0) ? "unloading: " : ""}${((g.counts ?? []) as number[]).reduce((a, b) => a + b, 0)}`).join(", ");
    root.append(svg("g", { role: "img", "aria-label": `The Ferris Wheel: cubes per gondola ${carried}` }, svg("rect", { x: x, y: y + 16, width: 140, height: 112, fill: "transparent" })));
    root.append(label(x + 150, y + 40, ["orange: the gondola", "unloading next"], { "font-size": 10, "text-anchor": "start" }));
    y += 136;
  }
  // the Evidence Bag (cubes chosen from it) and the Action Tiles
  const bag = (view.bag?.counts ?? []) as number[];
  root.append(label(x + 40, y + 16, ["Evidence Bag"], { "font-size": 12, "font-weight": "bold" }));
  COLOURS.forEach((colour, c) => {
    const bx = x + 90 + c * 46;
    root.append(svg("rect", { x: bx, y: y + 4, width: 20, height: 20, fill: FILL[c], stroke: "#222", rx: 3, "aria-hidden": "true" }));
    root.append(label(bx + 32, y + 19, [`${bag[c] ?? 0}`], { "font-size": 11, "aria-hidden": "true" }));
    root.append(hit(bx - 2, y + 2, 44, 24, `cube:${colour}`, `${colourWords(ctx, colour)}: ${bag[c] ?? 0} in the bag`));
  });
  y += 34;
  const open = (view.tilesOpen ?? []) as string[];
  if (open.length || view.current) {
    root.append(label(x + 40, y + 16, ["Action Tiles"], { "font-size": 12, "font-weight": "bold" }));
    const tiles = [...new Set([...open, ...(view.current ? [view.current] : [])])];
    tiles.forEach((t, i) => {
      const tx = x + 84 + (i % 3) * 82, ty = y + Math.floor(i / 3) * 32;
      const now = t === view.current;
      root.append(svg("rect", { x: tx, y: ty, width: 76, height: 26, rx: 5, fill: now ? "#3b2f2a" : "#fff", stroke: "#5a4636", "aria-hidden": "true" }));
      root.append(label(tx + 38, ty + 17, [TILE_WORDS[t] ?? t], { "font-size": 11, fill: now ? "#fff" : "#222", "aria-hidden": "true" }));
      root.append(hit(tx, ty, 76, 26, `tile:${t}`, `Action Tile ${TILE_WORDS[t] ?? t}${now ? " (in play)" : ""}`));
    });
    y += Math.ceil(tiles.length / 3) * 32 + 6;
  }
  // potions on the Laboratory Shelf
  const shelf = (view.shelfFaceDown ?? []) as boolean[];
  if (shelf.length) {
    root.append(label(x + 50, y + 16, ["Laboratory Shelf"], { "font-size": 12, "font-weight": "bold" }));
    shelf.forEach((down, i) => {
      const px = x + 110 + i * 40;
      root.append(svg("rect", { x: px, y: y + 2, width: 30, height: 26, rx: 5, fill: down ? "#4a3b5c" : "#eee", stroke: "#222", "aria-hidden": "true" }));
      root.append(hit(px, y + 2, 30, 26, `potion:${i}`, `shelf spot ${i + 1}: ${down ? "a face-down potion" : "empty"}`));
    });
    y += 36;
  }
  // rooms Jeremiah peeked at
  const peeked = (view.peeked ?? []) as number[];
  peeked.forEach((tile, i) => {
    root.append(card({ x: x + i * 84, y: y + 4, w: 78, h: 56, name: room(ctx, tile).name ?? "room", note: "next room tile", target: `pick:${tile}` }));
  });
  if (peeked.length) y += 66;
  return y;
}

function draw(ctx: Ctx, offered: Obj[] = []): Element {
  const scratch = svg("g");
  const height = castle(ctx, scratch);
  const fl = floors(ctx);
  const castleW = Math.max(260, ...fl.map((f) => f.cols * C + 20));
  const sideG = svg("g");
  const sideH = side(ctx, castleW + 10, sideG, offered);
  // your Keep cards
  const hand = (ctx.view.hand ?? []) as number[];
  const handG = svg("g");
  const top = Math.max(height, sideH) + 8;
  if (ctx.viewer !== null) {
    handG.append(label(10, top + 14, [hand.length ? `Your Keep cards (${hand.length})` : "You hold no Keep cards."], { "font-size": 12, "font-weight": "bold", "text-anchor": "start" }));
    hand.forEach((c, i) => {
      const e = entry(ctx.catalogue, "events", c) ?? {};
      handG.append(card({ x: 10 + i * 92, y: top + 22, w: 86, h: 96, name: e.name ?? "Event", note: (e.category ?? "").replace(/_/g, " "), text: e.effect, colour: "#6b3fa0", target: `hand:${c}`, aria: `${e.name ?? "Event"} in your hand` }));
    });
  }
  const W = castleW + 10 + SIDE_W + 10;
  const H = top + (ctx.viewer === null ? 0 : hand.length ? 126 : 24);
  const root = canvas(Math.max(W, 10 + hand.length * 92), H, "Murder Castle table");
  root.append(svg("rect", { width: "100%", height: H, fill: "#efe6d2", rx: 10 }), scratch, sideG, handG);
  return root;
}

function steps(choice: Choice): string[] {
  const f = choice.fields;
  switch (choice.kind) {
    case "select": return [`tile:${f.tile}`];
    case "explore": return [`door:${f.side ?? 0}`];
    case "rotate": return [`rotate:${f.rotation ?? 0}:${f.level ?? 0}`];
    case "cube": return [`cube:${f.colour}`];
    case "collect": return [`collect:${f.colour}`];
    case "move": case "place": return [`place:${f.place ?? 0}`];
    case "target": return [`seat:${f.seat ?? 0}`];
    case "play": return [`hand:${f.card}`, "play"];
    case "discard": return [`hand:${f.card}`, "discard"];
    case "give": return [`hand:${f.card}`, "give"];
    case "pick": return [`pick:${f.tile}`];
    case "potion": return [`potion:${f.spot ?? 0}`];
    case "assign": return [`holmes-card:${f.card ?? 0}`, `tile:${f.tile}`];
    default: return [`${choice.kind}:${JSON.stringify(f)}`];
  }
}

const FRAME_PROMPT: Record<string, string> = {
  FRAME_KIND_SELECT_TILE: "Choose an Action Tile for this turn (highlighted beside the castle).",
  FRAME_KIND_PLACE_ROOM: "Choose how the new room turns: each picture shows its doorways; the orange one joins the room you came from.",
  FRAME_KIND_FILL_SAFE: "The new room's safe is filled from the Evidence Bag: click a colour in the bag.",
  FRAME_KIND_HOLMES_ROOM: "Choose the room Holmes goes to: click it in the castle.",
  FRAME_KIND_RAMPAGE: "Holmes rampages: choose on the board.",
  FRAME_KIND_ESCAPE: "Escape: choose the room to flee to.",
  FRAME_KIND_DROP_EVIDENCE: "Holmes strikes: choose which evidence cube you drop.",
  FRAME_KIND_HAND_LIMIT: "Too many Keep cards: click one to discard.",
  FRAME_KIND_EVENT_WINDOW: "You may play an Event Card now: click it in your hand, or pass.",
  FRAME_KIND_CHOOSE_PLACE: "Choose a room: click it in the castle.",
  FRAME_KIND_CHOOSE_SEAT: "Choose a player: click them in the list of players.",
  FRAME_KIND_DEFEND: "Someone plays an Event against you: counter it with a card from your hand, or pass.",
  FRAME_KIND_HIDE: "Choose where you hide.",
  FRAME_KIND_CHOOSE_COLOUR: "Choose a cube colour.",
  FRAME_KIND_EVENT_MOVE: "Move: click the room to go to.",
  FRAME_KIND_PICK_ROOM_TILE: "Choose the next room tile.",
  FRAME_KIND_CHOOSE_DOOR: "Choose a doorway.",
  FRAME_KIND_GIVE_CARD: "Choose a Keep card to give.",
  FRAME_KIND_PICK_POTION: "Take a potion from the Laboratory Shelf.",
  FRAME_KIND_PANEL_CUBE: "Put the cube on a Control Panel placeholder.",
};

/** What each frame's prompt is about (the keys it expects among the targets). */
const FRAME_KEYS: Record<string, string[]> = {
  FRAME_KIND_SELECT_TILE: ["tile:"], FRAME_KIND_PLACE_ROOM: ["rotate:"], FRAME_KIND_FILL_SAFE: ["cube:"],
  FRAME_KIND_HOLMES_ROOM: ["place:"], FRAME_KIND_ESCAPE: ["place:"], FRAME_KIND_HAND_LIMIT: ["hand:"],
  FRAME_KIND_EVENT_WINDOW: ["hand:"], FRAME_KIND_CHOOSE_PLACE: ["place:"], FRAME_KIND_CHOOSE_SEAT: ["seat:"],
  FRAME_KIND_DEFEND: ["hand:"], FRAME_KIND_EVENT_MOVE: ["place:"], FRAME_KIND_PICK_ROOM_TILE: ["pick:"],
  FRAME_KIND_CHOOSE_DOOR: ["door:"], FRAME_KIND_GIVE_CARD: ["hand:"], FRAME_KIND_PICK_POTION: ["potion:"],
  FRAME_KIND_CHOOSE_COLOUR: ["cube:", "collect:"], FRAME_KIND_DROP_EVIDENCE: [],
};

const KEY_WORDS: [string, string][] = [
  ["place:", "a room in the castle"], ["door:", "a doorway of your room (to explore through it)"],
  ["tile:", "an Action Tile"], ["cube:", "a colour in the Evidence Bag"], ["collect:", "a cube in your room's safe"],
  ["hand:", "a Keep card"], ["seat:", "a player"], ["rotate:", "how the new room turns"],
  ["potion:", "a potion on the Laboratory Shelf"], ["pick:", "a room tile"],
];

function prompt(ctx: Ctx, chosen: string[], next: string[]): string {
  const frames = (ctx.view.frames ?? []) as Obj[];
  const top = frames[frames.length - 1];
  if (chosen.length && next.every((k) => ["play", "discard", "give"].includes(k))) return "Play this card, or discard it?";
  const tile = ctx.view.current as string | undefined;
  const buttons = next.some((k) => !KEY_WORDS.some(([p]) => k.startsWith(p))) ? ", or use a button above the board" : "";
  if (top?.kind === "FRAME_KIND_ACT" && tile && next.some((k) => /^(place|door|collect):/.test(k))) {
    const what = { ACTION_TILE_EXPLORE: "click a highlighted doorway of your room to explore through it", ACTION_TILE_COLLECT: "click a cube in your room's safe to collect it" }[tile] ?? "click the room to move to";
    return `${TILE_WORDS[tile] ?? "Your action"}: ${what}${buttons}.`;
  }
  const expects = FRAME_KEYS[top?.kind ?? ""];
  if (expects && FRAME_PROMPT[top.kind] && (!expects.length || next.some((k) => expects.some((p) => k.startsWith(p))))) {
    // what the choice does, in the server's words shared by every option ("move Holmes to …")
    const shared = sharedWords(ctx.choices.map((c) => c.label));
    return shared ? `${FRAME_PROMPT[top.kind]} (${shared})` : FRAME_PROMPT[top.kind];
  }
  const kinds = KEY_WORDS.filter(([p]) => next.some((k) => k.startsWith(p))).map(([, w]) => w);
  return kinds.length ? `Choose ${kinds.join(", or ")}${buttons}.` : "Choose with the buttons above the board.";
}

function keyLabel(key: string): string | undefined {
  return { play: "Play it", discard: "Discard it", give: "Give it" }[key];
}

export const board: GameBoard = {
  draw: (ctx) => draw(ctx, ctx.choices.filter((c) => c.kind === "rotate").map((c) => c.fields)),
  steps, prompt, keyLabel,
};
