// What a game's board module (services/parlour/games/<game>/board.ts) is given and returns:
// SVG helpers for cards, piles and tokens, and the contract of a clickable board. A board
// marks every place a choice can land with data-target="<key>"; the game's steps() says, per
// legal action, which keys are clicked in which order (see choose.ts).

export type Obj = Record<string, any>;

/** What a board is drawn from: the viewer's View (nothing else), the game's catalogue, seats. */
export interface Ctx {
  view: Obj;
  catalogue: Obj;
  seatNames: string[];
  viewer: number | null;
  /** A seat in the viewer's words: "you", or the player's name. */
  who(seat: number): string;
  /** The viewer's legal actions now (a board may draw what only a choice shows, e.g. a
   * room's rotations). */
  choices: Choice[];
}

/** One legal action: the oneof case of the game's Action, its fields, the server's words. */
export interface Choice {
  kind: string;
  fields: Obj;
  label: string;
}

/** A game's board module. */
export interface GameBoard {
  /** The table as one SVG (or HTML) element, targets marked with data-target. */
  draw(ctx: Ctx): Element;
  /** The keys clicked, in order, to make this choice (the last may name a fallback button). */
  steps(choice: Choice, ctx: Ctx): string[];
  /** What the next click is for, given the keys clicked so far and those offered next. */
  prompt?(ctx: Ctx, chosen: string[], next: string[]): string;
  /** Words for a key offered as a button (a target with no place on the board). */
  keyLabel?(key: string, ctx: Ctx): string | undefined;
}

/** A game folder's names.json: which View fields (proto names) hold ids of which catalogue
 * list, and the fields holding place ids (tile * 2 + which room of the tile) with the
 * rooms' list; the raw view under "Details" shows names for them. */
export interface NamingTable {
  named?: Record<string, string>;
  places?: { list: string; fields: string[] };
}

const NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children (strings become text). */
export function svg(tag: string, attrs: Obj = {}, ...children: (Node | string | null | undefined)[]): SVGElement {
  const node = document.createElementNS(NS, tag) as SVGElement;
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** Words broken into lines of at most `width` characters (at most `lines` lines). */
export function wrap(text: string, width: number, lines = 3): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = out.length - 1;
    if (last >= 0 && (out[last] + " " + word).length <= width) out[last] += " " + word;
    else out.push(word);
  }
  if (out.length > lines) {
    out.length = lines;
    out[lines - 1] = out[lines - 1].replace(/.{0,1}$/, "…");
  }
  return out;
}

/** Lines of text centred at (x, y). */
export function label(x: number, y: number, lines: string[], attrs: Obj = {}): SVGElement {
  const size = Number(attrs["font-size"] ?? 11);
  const t = svg("text", { x, y, "text-anchor": "middle", "font-size": size, ...attrs });
  lines.forEach((line, i) => t.append(svg("tspan", { x, dy: i ? size * 1.1 : 0 }, line)));
  return t;
}

export interface CardSpec {
  x: number;
  y: number;
  w?: number;
  h?: number;
  name: string;
  /** The big number(s) in the corner, e.g. "3" or "3/2". */
  value?: string;
  /** Smaller words under the name ("used", "support", "face down"). */
  note?: string;
  colour?: string;
  /** Rules text: on hover (title) and in the card panel when focused or tapped. */
  text?: string;
  /** Drawn as a card back (the name is then what the viewer may know, e.g. "face down"). */
  back?: boolean;
  /** Turned sideways or greyed (a used card, a used Action Card). */
  dim?: boolean;
  target?: string;
  /** Accessible name (default: name, value, note). */
  aria?: string;
}

/** A card: a rounded rectangle with its name, value and colour; hover shows its rules. A
 * card that can be a target carries a hit area on top (named for screen readers; the
 * printed words under it are hidden from them, the name says them all). */
export function card(spec: CardSpec): SVGElement {
  const w = spec.w ?? 74, h = spec.h ?? 100;
  const words = [spec.name, spec.value ? `value ${spec.value}` : "", spec.note ?? ""].filter(Boolean).join(", ");
  const name = spec.aria ?? words;
  const g = svg("g", {
    class: `card${spec.back ? " back" : ""}${spec.dim ? " dim" : ""}`,
    transform: `translate(${spec.x},${spec.y})`,
    "data-info": spec.text ? `${spec.name}: ${spec.text}` : undefined,
    "aria-label": spec.target ? undefined : name,
    role: spec.target ? undefined : "img",
  });
  g.append(svg("title", {}, spec.text ? `${words}. ${spec.text}` : words));
  const face = svg("g", { "aria-hidden": "true" });
  g.append(face);
  face.append(svg("rect", { class: "card-face", width: w, height: h, rx: 6, fill: spec.back ? "#4a3b5c" : "#fffdf4", stroke: spec.colour ?? "#555", "stroke-width": 3 }));
  if (spec.back) {
    face.append(svg("rect", { x: 6, y: 6, width: w - 12, height: h - 12, rx: 4, fill: "none", stroke: "#c9b98f", "stroke-dasharray": "4 3" }));
    face.append(label(w / 2, h / 2 - (spec.name === "?" ? -6 : 6), wrap(spec.name, 10, 3), { fill: "#f7f3ea", "font-size": spec.name === "?" ? 22 : 11 }));
  } else {
    if (spec.colour) face.append(svg("rect", { width: w, height: 16, rx: 6, fill: spec.colour }));
    const small = w < 70;
    face.append(label(w / 2, 30, wrap(spec.name, Math.max(6, Math.floor(w / (small ? 5.4 : 6.5))), 3), { "font-weight": "bold", "font-size": small ? 9 : 11 }));
    if (spec.value) face.append(label(w / 2, h - 12, [spec.value], { "font-size": 18, "font-weight": "bold", fill: "#3b2f2a" }));
  }
  if (spec.note) face.append(label(w / 2, spec.back ? h - 8 : h - 32, [spec.note], { "font-size": 9, fill: spec.back ? "#f7f3ea" : "#555" }));
  if (spec.target) g.append(hit(0, 0, w, h, spec.target, name));
  return g;
}

/** A transparent target on top of a drawing: what is highlighted, focused and clicked. */
export function hit(x: number, y: number, w: number, h: number, target: string, name: string): SVGElement {
  return svg("rect", { class: "hit", x, y, width: w, height: h, rx: 6, fill: "transparent", "data-target": target, role: "img", "aria-label": name });
}

/** A labelled round token (a clock hour, a supply count, a pawn). */
export function token(x: number, y: number, r: number, text: string, colour: string, attrs: Obj = {}): SVGElement {
  const g = svg("g", { class: "token", ...attrs });
  g.append(svg("circle", { cx: x, cy: y, r, fill: colour, stroke: "#222" }));
  g.append(label(x, y + 4, [text], { fill: "#fff", "font-size": 11, "font-weight": "bold" }));
  return g;
}

/** A region (a thread, a seat) drawn as a rounded outline with a caption. */
export function area(x: number, y: number, w: number, h: number, caption: string, attrs: Obj = {}): SVGElement {
  const g = svg("g", { class: "area", ...attrs, fill: undefined });
  g.append(svg("rect", { class: "area-face", x, y, width: w, height: h, rx: 8, fill: attrs.fill ?? "#fff", stroke: "#c9b98f" }));
  if (caption) g.append(label(x + w / 2, y + 16, [caption], { "font-weight": "bold", "font-size": 12, "aria-hidden": "true" }));
  return g;
}

/** An SVG canvas of the given size that scales to its box. */
export function canvas(w: number, h: number, title: string): SVGSVGElement {
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, width: "100%", class: "board-svg", role: "group", "aria-label": title }) as SVGSVGElement;
  return root;
}

/** A catalogue list's entry by id (entries keyed by id, number or card). */
export function entry(catalogue: Obj, list: string, id: number | undefined): Obj | undefined {
  if (id === undefined) return undefined;
  return ((catalogue[list] ?? []) as Obj[]).find((e) => (e.id ?? e.number ?? e.card) === id);
}

/** The words several labels begin with ("put Lock face down on …"), or undefined. */
export function sharedWords(labels: string[]): string | undefined {
  const split = labels.map((l) => l.split(" "));
  let n = 0;
  while (split.length > 1 && split.every((w) => w[n] !== undefined && w[n] === split[0][n])) n++;
  return n ? `${split[0].slice(0, n).join(" ")} …` : undefined;
}
