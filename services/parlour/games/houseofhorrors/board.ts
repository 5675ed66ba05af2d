// House of Horrors on the page: the Room of the encounter and the battle, the Room Items on
// the table, what each seat has played (Mortal or Horror side, its total), the decks, your
// hand and spoils as cards. The Butler clicks a revealed Room, then a battle; a card is
// played by clicking it (an Item, then the side it joins); spoils are taken or given by
// clicking the card, then the ally.
import { area, canvas, card, entry, hit, label, svg, type Choice, type Ctx, type GameBoard, type Obj } from "../../../../clients/web/src/kit";

const W = 980;
const KIND_COLOUR: Record<string, string> = {
  CARD_KIND_MORTAL: "#2b5fa8", CARD_KIND_HORROR: "#8a1f1f", CARD_KIND_ITEM: "#b07a1c",
  CARD_KIND_ROOM: "#3b2f2a", CARD_KIND_ROOM_ITEM: "#6b3fa0", CARD_KIND_MIDNIGHT: "#222", CARD_KIND_DAWN: "#c2621a",
};
const BATTLES: [string, string][] = [["BATTLE_PSYCHIC", "Psychic"], ["BATTLE_STRENGTH", "Strength"], ["BATTLE_TERROR", "Terror"], ["BATTLE_BLOODBATH", "Bloodbath"]];
const SIDE_WORDS: Record<string, string> = { SIDE_MORTAL: "Mortal", SIDE_HORROR: "Horror" };

function info(ctx: Ctx, id: number | undefined): Obj {
  return entry(ctx.catalogue, "cards", id) ?? {};
}

function stat(s: Obj | undefined): string {
  if (!s) return "–";
  const parts = [s.fixed ? String(s.fixed) : "", s.dice ? `${s.dice}d6` : ""].filter(Boolean);
  return parts.join("+") || "–";
}

function facts(c: Obj): string {
  if (c.kind === "CARD_KIND_MORTAL" || c.kind === "CARD_KIND_HORROR") return `P ${stat(c.psychic)} · S ${stat(c.strength)} · T ${stat(c.terror)}`;
  return c.hourglasses ? `${c.hourglasses} hourglass${c.hourglasses === 1 ? "" : "es"}` : "";
}

function drawCard(ctx: Ctx, id: number, x: number, y: number, target?: string, w = 84, h = 110): SVGElement {
  const c = info(ctx, id);
  const kind = (c.kind ?? "").replace("CARD_KIND_", "").replace("_", " ").toLowerCase();
  const text = [facts(c), c.hourglasses ? `${c.hourglasses} hourglasses` : "", c.text ?? ""].filter(Boolean).join(". ");
  return card({
    x, y, w, h, name: c.name ?? "card", value: c.hourglasses ? String(c.hourglasses) : undefined,
    note: facts(c) || (c.hourglasses ? `${kind}, hourglasses` : kind), colour: KIND_COLOUR[c.kind] ?? "#555", text: `${kind}: ${text}`, target,
    aria: `${c.name ?? "card"}, ${kind}${facts(c) ? ", " + facts(c) : ""}${c.hourglasses ? `, ${c.hourglasses} hourglasses` : ""}`,
  });
}

function who(ctx: Ctx, seat: number): string {
  return seat === ctx.viewer ? "You" : ctx.seatNames[seat] || `Player ${seat + 1}`;
}

function draw(ctx: Ctx): Element {
  const view = ctx.view;
  const seats = ((view.handSizes ?? []) as number[]).length;
  const root = canvas(W, 300 + seats * 76 + 150, "House of Horrors table");
  root.append(svg("rect", { width: "100%", height: "100%", fill: "#2b2233", rx: 10 }));
  const light = { fill: "#eee" };
  // the encounter: the Room, the battle, Midnight/Dawn, the decks
  root.append(label(60, 20, ["The Room"], { ...light, "font-weight": "bold", "font-size": 13 }));
  if (view.room) root.append(drawCard(ctx, view.room, 10, 28, undefined, 100, 130));
  else root.append(card({ x: 10, y: 28, w: 100, h: 130, name: "No Room yet", back: true }));
  const battle = BATTLES.find(([b]) => b === view.battle)?.[1];
  root.append(label(190, 20, ["Battle"], { ...light, "font-weight": "bold", "font-size": 13 }));
  BATTLES.forEach(([key, name], i) => {
    const bx = 130 + (i % 2) * 64, by = 30 + Math.floor(i / 2) * 44;
    const now = key === view.battle;
    root.append(svg("rect", { x: bx, y: by, width: 58, height: 36, rx: 18, fill: now ? "#e08a00" : "#4a3b5c", stroke: "#c9b98f", "aria-hidden": "true" }));
    root.append(label(bx + 29, by + 22, [name], { fill: "#fff", "font-size": 11, "aria-hidden": "true" }));
    root.append(hit(bx, by, 58, 36, `battle:${key}`, `${name} battle${now ? " (declared)" : ""}`));
  });
  const flags = [view.midnight ? "Midnight: two Mortals or two Horrors may be played" : "", view.finalRound ? "Dawn: the final round" : ""].filter(Boolean);
  flags.forEach((f, i) => root.append(label(130, 134 + i * 14, [f], { ...light, "font-size": 10, "text-anchor": "start" })));
  root.append(label(130, 172, [`Butler: ${who(ctx, view.butler ?? 0)}${battle ? ` · ${battle} battle` : ""}`], { ...light, "font-size": 12, "text-anchor": "start", "font-weight": "bold" }));
  root.append(card({ x: 290, y: 28, w: 70, h: 96, name: "Room deck", note: `${view.roomDeckSize ?? 0} cards`, back: true }));
  root.append(card({ x: 366, y: 28, w: 70, h: 96, name: "House deck", note: `${view.houseDeckSize ?? 0} cards`, back: true }));
  // rooms revealed for the Butler's choice, or the Room Items on the table
  const revealed = (view.revealedRooms ?? []) as number[];
  const table = (view.table ?? []) as number[];
  root.append(label(700, 20, [revealed.length ? "Rooms revealed: the Butler chooses" : "On the table"], { ...light, "font-weight": "bold", "font-size": 13 }));
  revealed.forEach((c, i) => root.append(drawCard(ctx, c, 450 + i * 92, 28, `room:${c}`)));
  table.forEach((c, i) => root.append(drawCard(ctx, c, 450 + (revealed.length + i) * 92, 28, `table:${c}`)));
  if (view.claimCard) {
    root.append(label(890, 150, ["Claim with"], { ...light, "font-size": 11 }));
    root.append(drawCard(ctx, view.claimCard, 850, 158, `claim:${view.claimCard}`, 80, 100));
  }
  // what each seat has played
  let y = 200;
  const showings = (view.showings ?? []) as Obj[];
  for (let seat = 0; seat < seats; seat++) {
    const s = showings[seat] ?? {};
    const side = SIDE_WORDS[s.side] ?? "";
    const g = area(10, y, W - 20, 70, "", { fill: seat === view.turn ? "#4a3b5c" : "#3a3045" });
    g.append(label(16, y + 20, [`${who(ctx, seat)}${side ? ` — ${side}` : ""}${seat === view.butler ? " (Butler)" : ""}`], { ...light, "text-anchor": "start", "font-weight": "bold", "font-size": 12, "aria-hidden": "true" }));
    g.append(label(16, y + 38, [`${(view.handSizes ?? [])[seat] ?? 0} in hand · ${(view.spoilsSizes ?? [])[seat] ?? 0} spoils${s.total ? ` · total ${s.total}` : ""}`], { ...light, "text-anchor": "start", "font-size": 11, "aria-hidden": "true" }));
    const played = [...((s.characters ?? []) as number[]), ...((s.items ?? []) as number[])];
    g.append(hit(10, y, 200, 70, `seat:${seat}`, `${who(ctx, seat)}${side ? `, ${side} side` : ""}: ${played.map((c) => info(ctx, c).name).join(", ") || "nothing played"}${s.total ? `, total ${s.total}` : ""}`));
    root.append(g);
    played.forEach((c, i) => root.append(drawCard(ctx, c, 220 + i * 74, y + 4, undefined, 70, 62)));
    y += 76;
  }
  for (const [field, words] of [["underMortal", "Under the Room, Mortal side"], ["underHorror", "Under the Room, Horror side"]] as const) {
    const cards = (view[field] ?? []) as number[];
    if (!cards.length) continue;
    root.append(label(16, y + 14, [`${words}: ${cards.map((c) => info(ctx, c).name).join(", ")}`], { ...light, "text-anchor": "start", "font-size": 11 }));
    y += 20;
  }
  // spoils to hand out, your hand, your spoils
  const pool = (view.spoilsPool ?? []) as number[];
  if (pool.length) {
    root.append(label(16, y + 16, [`Spoils to hand out (${who(ctx, view.spoilsLeader ?? 0)} leads)`], { ...light, "text-anchor": "start", "font-weight": "bold", "font-size": 12 }));
    pool.forEach((c, i) => root.append(drawCard(ctx, c, 260 + i * 90, y + 2, `spoil:${c}`, 84, 64)));
    y += 72;
  }
  const hand = (view.hand ?? []) as number[];
  const spoils = (view.spoils ?? []) as number[];
  if (ctx.viewer !== null) {
    root.append(label(16, y + 16, [`Your hand (${hand.length}${view.handLimit ? ` of ${view.handLimit}` : ""})${spoils.length ? ` · your spoils: ${spoils.map((c) => info(ctx, c).name).join(", ")}` : ""}`], { ...light, "text-anchor": "start", "font-weight": "bold", "font-size": 12 }));
    const step = Math.min(90, Math.floor((W - 100) / Math.max(hand.length, 1)));
    hand.forEach((c, i) => root.append(drawCard(ctx, c, 10 + i * step, y + 24, `hand:${c}`)));
  }
  root.setAttribute("viewBox", `0 0 ${W} ${y + (ctx.viewer === null ? 10 : 140)}`);
  return root;
}

function steps(choice: Choice): string[] {
  const f = choice.fields;
  switch (choice.kind) {
    case "chooseRoom": return [`room:${f.room}`];
    case "declareBattle": return [`battle:${f.battle}`];
    case "playCharacter": return [`hand:${f.card}`, "play"];
    case "playItem": return [`hand:${f.card}`, `side:${f.side}`];
    case "discard": return [`hand:${f.card}`, "discard"];
    case "takeRoomItem": return [`table:${f.card}`];
    case "claim": return [`claim:${f.card}`];
    case "takeSpoil": return [`spoil:${f.card}`];
    case "giveSpoil": return [`spoil:${f.card}`, `seat:${f.seat ?? 0}`];
    default: return [choice.kind];
  }
}

function prompt(ctx: Ctx, chosen: string[], next: string[]): string {
  const view = ctx.view;
  if (next.some((k) => k.startsWith("side:"))) return "Which side does this Item join?";
  if (next.includes("play") || next.includes("discard")) return "Play this card, or discard it?";
  if (chosen[0]?.startsWith("spoil:")) return "Give this spoil to which ally? Click their row.";
  switch (view.phase) {
    case "PHASE_CHOOSE_ROOM": return "You are the Butler: click the Room of this encounter.";
    case "PHASE_DECLARE": return "You are the Butler: click the battle to fight in this Room.";
    case "PHASE_CLAIM": return "Claim: click the card to claim it, or decline.";
    case "PHASE_SPOILS": return "Spoils: click a card to take it (or give it to an ally).";
  }
  const can = [next.some((k) => k.startsWith("hand:")) ? "a card in your hand to play (or discard) it" : "", next.some((k) => k.startsWith("table:")) ? "a Room Item on the table to take it" : ""].filter(Boolean);
  return can.length ? `Your turn: click ${can.join(", or ")}; or end your turn.` : "Your turn.";
}

function keyLabel(key: string): string | undefined {
  if (key.startsWith("side:")) return `as a ${SIDE_WORDS[key.slice(5)] ?? "side"} card`;
  return { play: "Play it", discard: "Discard it", endTurn: "End your turn", declineClaim: "Decline the Claim" }[key];
}

export const board: GameBoard = {
  draw, steps, prompt, keyLabel,
};
