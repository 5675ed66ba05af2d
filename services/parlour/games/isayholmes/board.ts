// I Say, Holmes! on the page: the opponents (hand sizes, scores), the Draw Pile, the Story
// Sequence (the Discard Pile, top card last), the Location chit, your hand as cards. A card
// is played, defended with, shown or given by clicking it; an opponent is named by
// clicking their seat; the Draw Pile draws.
import { area, canvas, card, entry, hit, label, svg, type Choice, type Ctx, type GameBoard, type Obj } from "../../../../clients/web/src/kit";

const W = 980;
const H = 480;
const KIND: Record<string, string> = { LONDON_LOCATION: "London", COUNTRY_LOCATION: "Country", I_SAY: "I Say" };
const COLOURS: Record<string, string> = {
  VILLAIN: "#8a1f1f", MOVEMENT: "#2b5fa8", LONDON_LOCATION: "#2f8a4a", COUNTRY_LOCATION: "#7a8a2f",
  INFORMATION: "#6b3fa0", ACTION: "#c2621a", ALIBI: "#666", MASTERMIND: "#222", I_SAY: "#b07a1c",
  SPECIAL: "#3b2f2a",
};

function info(ctx: Ctx, id: string | undefined): Obj | undefined {
  return entry(ctx.catalogue, "cards", id as unknown as number);
}

function title(ctx: Ctx, id: string | undefined): string {
  return info(ctx, id)?.title ?? "a card";
}

function drawCard(ctx: Ctx, id: string, x: number, y: number, extra: Obj = {}): SVGElement {
  const spec = info(ctx, id);
  return card({
    x, y, w: 78, h: 112, name: spec?.title ?? "card", value: spec ? String(spec.value) : undefined,
    note: spec ? KIND[spec.category] ?? spec.category.toLowerCase().replace("_", " ") : "",
    colour: COLOURS[spec?.category ?? ""] ?? "#8a6a3a", text: spec?.text, ...extra,
  });
}

/** "1 card", "3 cards". */
function cards(n: number): string {
  return `${n} card${n === 1 ? "" : "s"}`;
}

function seatName(ctx: Ctx, seat: number): string {
  return seat === ctx.viewer ? "You" : ctx.seatNames[seat] || `Player ${seat + 1}`;
}

function draw(ctx: Ctx): Element {
  const view = ctx.view;
  const root = canvas(W, H, "I Say, Holmes! table");
  root.append(svg("rect", { width: W, height: H, fill: "#efe6d2", rx: 10 }));
  const sizes = (view.handSizes ?? []) as number[];
  const scores = (view.scores ?? []) as number[];
  const others = sizes.map((_, s) => s).filter((s) => s !== ctx.viewer);
  const slot = Math.min(240, (W - 20) / Math.max(others.length, 1));
  others.forEach((seat, i) => {
    const x = 10 + i * slot;
    const turn = view.turn === seat || (view.turn === undefined && seat === 0);
    const g = area(x, 8, slot - 10, 92, `${seatName(ctx, seat)}${turn ? " — to play" : ""}`, { fill: turn ? "#fff4d6" : "#fff" });
    for (let c = 0; c < Math.min(sizes[seat] ?? 0, 10); c++) g.append(svg("rect", { x: x + 10 + c * 14, y: 30, width: 26, height: 38, rx: 3, fill: "#4a3b5c", stroke: "#c9b98f" }));
    g.append(label(x + (slot - 10) / 2, 88, [`${cards(sizes[seat] ?? 0)} · ${scores[seat] ?? 0} points`], { "font-size": 12, "aria-hidden": "true" }));
    g.append(hit(x, 8, slot - 10, 92, `seat:${seat}`, `${seatName(ctx, seat)}: ${cards(sizes[seat] ?? 0)}, ${scores[seat] ?? 0} points${turn ? ", to play" : ""}`));
    root.append(g);
  });
  // The middle: Draw Pile, Location chit, the Story Sequence.
  const my = 116;
  root.append(card({ x: 10, y: my + 18, w: 78, h: 112, name: "Draw Pile", note: cards(view.drawPileSize ?? 0), back: true, target: "draw", aria: `the Draw Pile, ${cards(view.drawPileSize ?? 0)}` }));
  const region = view.location === "REGION_COUNTRY" ? "The Country" : view.location === "REGION_LONDON" ? "London" : "—";
  const chit = svg("g", { role: "img", "aria-label": `Location chit: ${region}` });
  chit.append(svg("title", {}, `The Location chit shows ${region}: Trains go to the other region, Hansom Cabs stay in this one.`));
  chit.append(svg("circle", { cx: 140, cy: my + 74, r: 38, fill: region === "London" ? "#2f8a4a" : "#7a8a2f", stroke: "#222", "stroke-width": 2 }));
  chit.append(label(140, my + 72, [region], { fill: "#fff", "font-weight": "bold", "font-size": 12 }));
  chit.append(label(140, my + 88, ["Location"], { fill: "#fff", "font-size": 9 }));
  root.append(chit);
  root.append(label(140, my + 130, [`Round ${view.round ?? 1} of ${view.rounds ?? 1}`], { "font-size": 12, "font-weight": "bold" }));
  const story = ((view.discardPile ?? []) as string[]);
  const shown = story.slice(-9);
  root.append(label(560, my + 10, [`The Story Sequence (${story.length} card${story.length === 1 ? "" : "s"}, the last played on the right)`], { "font-size": 12, "font-weight": "bold" }));
  shown.forEach((c, i) => {
    const last = i === shown.length - 1;
    root.append(drawCard(ctx, c, 200 + i * 84, my + 20, { aria: `${last ? "top of the story" : "in the story"}: ${title(ctx, c)}` }));
  });
  const aside = (view.setAside ?? []) as string[];
  if (aside.length) root.append(label(560, my + 148, [`Set aside this round: ${aside.map((c) => title(ctx, c)).join(", ")}`], { "font-size": 11 }));
  // What is happening now: the card being resolved, a look at someone's cards.
  const effect = view.effect as Obj | undefined;
  const notes: string[] = [];
  if (effect?.card) notes.push(`Now: ${seatName(ctx, effect.actor ?? 0)} played ${title(ctx, effect.card)}${effect.target !== undefined && effect.target !== effect.actor ? ` against ${seatName(ctx, effect.target)}` : ""}.`);
  const peek = view.peek as Obj | undefined;
  if (peek?.cards?.length) notes.push(`You looked at ${seatName(ctx, peek.target ?? 0)}'s cards: ${(peek.cards as string[]).map((c) => title(ctx, c)).join(", ")}.`);
  if (view.passing) notes.push(`You pass ${title(ctx, view.passing)} to your left.`);
  notes.forEach((n, i) => root.append(label(490, my + 174 + i * 16, [n], { "font-size": 12 })));
  // Your hand.
  const hand = (view.hand ?? []) as string[];
  const hy = 316;
  if (ctx.viewer !== null) {
    const total = hand.reduce((sum, c) => sum + (info(ctx, c)?.value ?? 0), 0);
    root.append(label(490, hy + 12, [`Your hand: ${cards(hand.length)}, ${total} points if the round ended now · your score ${scores[ctx.viewer] ?? 0}`], { "font-size": 13, "font-weight": "bold" }));
    const step = Math.min(84, Math.floor((W - 100) / Math.max(hand.length, 1)));
    hand.forEach((c, i) => root.append(drawCard(ctx, c, 10 + i * step, hy + 24, { target: `hand:${c}`, aria: `${title(ctx, c)} in your hand, ${info(ctx, c)?.value ?? 0} points` })));
  }
  return root;
}

function steps(choice: Choice): string[] {
  const f = choice.fields;
  switch (choice.kind) {
    case "play": case "defend": case "show": case "give": case "discardVillain": case "passLeft":
      return [`hand:${f.card}`];
    case "draw": return ["draw"];
    case "target": return [`seat:${f.seat ?? 0}`];
    default: return [choice.kind];
  }
}

function prompt(ctx: Ctx, _chosen: string[], next: string[]): string {
  const view = ctx.view;
  const effect = (view.effect ?? {}) as Obj;
  const story = (view.discardPile ?? []) as string[];
  const played = effect.card ? title(ctx, effect.card) : story.length ? title(ctx, story[story.length - 1]) : "your card";
  if (next.length && next.every((k) => k.startsWith("seat:"))) return `Name an opponent for ${played}: click their seat.`;
  switch (view.phase) {
    case "PHASE_TARGET": return `Name an opponent for ${played}: click their seat.`;
    case "PHASE_RESPOND": return `${seatName(ctx, effect.actor ?? 0)} played ${played} against you: click an Alibi or Mastermind to defend, or decline.`;
    case "PHASE_SHOW": return `Disguise: click which of your highest cards to show ${seatName(ctx, effect.actor ?? 0)}.`;
    case "PHASE_GIVE": return `Constabulary: click the card to pass secretly to ${seatName(ctx, effect.target ?? 0)}.`;
    case "PHASE_FLEE": return "Fleeing: click a Villain to discard it, or keep them.";
    case "PHASE_PASS_LEFT": return "Thick Fog: click the card you pass to your left.";
    case "PHASE_EXTRA_ARREST": return "Inspector on Scotland Yard: click an opponent to Arrest too, or do not.";
    case "PHASE_ACCUSE": return "Someone went out: click the opponent you accuse (they are Arrested).";
  }
  const top = story.length ? title(ctx, story[story.length - 1]) : "";
  return top ? `Your turn: click a card that may follow ${top} in the story, or the Draw Pile to draw.` : "Your turn: click a card to play, or the Draw Pile to draw.";
}

function keyLabel(key: string): string | undefined {
  return { passTurn: "Pass your turn", escape: "Escape (play your Villains)", decline: "Do not defend" }[key];
}

export const board: GameBoard = { draw, steps, prompt, keyLabel };
