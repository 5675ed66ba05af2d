// Clash of Minds on the page: the clock, the Investigation Site, three Crime Threads (each
// side's cards face up or down with their Influence Values, the Crime Plan Card between),
// your hand, deck and Action Cards, the Agents. A move is built on it: a card, then a
// thread, then the Action Card it is made with.
import { area, canvas, card, entry, hit, label, svg, type Choice, type Ctx, type GameBoard, type Obj } from "../../../../clients/web/src/kit";

const W = 980;
const H = 660;
const HOLMES = 0;
const ROLE = ["Holmes", "Moriarty"];
const ICON_COLOUR: Record<string, string> = { person: "#2b5fa8", evidence: "#2f8a4a", object: "#b07a1c" };
const ACTION_CARDS: [string, string, string][] = [
  ["ACTION_CARD_MANDATORY", "Mandatory", "Put one Influence Card into play."],
  ["ACTION_CARD_DRAW_OR_USE", "Draw / Use", "Draw one Influence Card, or use one Influence Card in play."],
  ["ACTION_CARD_USE_OR_SUPPORT", "Use / Support", "Use one Influence Card in play, or add one Support Card."],
  ["ACTION_CARD_DRAW_OR_SUPPORT", "Draw / Support", "Draw one Influence Card, or add one Support Card."],
];
const ACTION_NAME = Object.fromEntries(ACTION_CARDS.map(([k, n]) => [k, n]));
const THREAD_W = 310;
const ORDINAL = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];
const PLACED_W = 56;
const PLACED_H = 64;

function influence(ctx: Ctx, id: number | undefined): Obj | undefined {
  return entry(ctx.catalogue, "influence", id);
}

function siteKeyIs(ctx: Ctx, name: string): boolean {
  return entry(ctx.catalogue, "sites", ctx.view.site)?.name === name;
}

/** A card's Influence Value as the rules count it (influence.py card_value), from the view;
 * undefined when it is hidden from the viewer. */
function cardValue(ctx: Ctx, t: number, seat: number, i: number): number | undefined {
  const thread = ctx.view.threads[t] as Obj;
  const placed = (thread.sides?.[seat]?.cards ?? [])[i] as Obj;
  if (placed.support) return siteKeyIs(ctx, "Buckingham Palace") ? 0 : 1;
  const spec = influence(ctx, placed.card);
  if (!spec) return undefined;
  const active = (c: Obj, name: string) => !c.support && !c.faceDown && !c.distracted && influence(ctx, c.card)?.name === name;
  const sides = (thread.sides ?? []) as Obj[];
  const fingerprinted = sides.some((side, s) => ((side.cards ?? []) as Obj[]).some((c, j) => (s !== seat || j !== i) && active(c, "Fingerprints")));
  if (fingerprinted) return 1;
  let value = placed.used ? spec.used ?? 0 : spec.played ?? 0;
  if (placed.used) {
    value += siteKeyIs(ctx, "The Docks") ? 1 : 0;
    value += ((sides[seat]?.cards ?? []) as Obj[]).filter((c) => active(c, "Footprints")).length;
  }
  return value;
}

/** The seat shown at the bottom: the viewer's, else Holmes. */
function me(ctx: Ctx): number {
  return ctx.viewer ?? HOLMES;
}

function placedCard(ctx: Ctx, t: number, seat: number, i: number, x: number, y: number, w: number): SVGElement {
  const placed = (ctx.view.threads[t].sides[seat].cards ?? [])[i] as Obj;
  const spec = influence(ctx, placed.card);
  const value = cardValue(ctx, t, seat, i);
  const notes = [placed.support ? "support" : "", placed.used ? "used" : "", placed.faceDown ? "face down" : "", placed.distracted ? "distracted" : ""].filter(Boolean);
  const known = !!spec && !placed.support;
  const owner = seat === ctx.viewer ? "your" : `${ROLE[seat]}'s`;
  const name = known ? spec!.name : placed.support ? "Support" : "?";
  return card({
    x, y, w, h: PLACED_H, name,
    value: value === undefined ? undefined : String(value),
    note: notes.join(", "),
    colour: known ? ICON_COLOUR[spec!.icon] : undefined,
    text: known ? spec!.text : placed.support ? "A Support Card: Influence Value 1 (0 at Buckingham Palace)." : "A face-down card.",
    back: !known,
    dim: !!placed.distracted,
    target: `placed:${seat}:${t}:${i}`,
    aria: `${owner} ${ORDINAL[i] ?? `${i + 1}th`} card in Crime Thread ${t + 1}: ${name}${value === undefined ? "" : `, value ${value}`}${notes.length ? ", " + notes.join(", ") : ""}`,
  });
}

function sideTotal(ctx: Ctx, t: number, seat: number): string {
  const cards = (ctx.view.threads[t].sides?.[seat]?.cards ?? []) as Obj[];
  let total = 0;
  let hidden = 0;
  cards.forEach((_, i) => {
    const v = cardValue(ctx, t, seat, i);
    if (v === undefined) hidden++;
    else total += v;
  });
  return hidden ? `${total} + ${hidden} hidden` : String(total);
}

function thread(ctx: Ctx, t: number, x: number, y: number, h: number): SVGElement {
  const view = ctx.view;
  const crime = view.threads[t] as Obj;
  const g = svg("g", { class: "thread" });
  const target = area(x, y, THREAD_W, h, "", { fill: "#fbf8ef" });
  g.append(target, hit(x, y, THREAD_W, h, `thread:${t}`, `Crime Thread ${t + 1}`));
  const bottom = me(ctx);
  const top = 1 - bottom;
  const half = (h - 110) / 2;
  for (const [seat, sy] of [[top, y + 6], [bottom, y + half + 104]] as const) {
    const cards = (crime.sides?.[seat]?.cards ?? []) as Obj[];
    g.append(label(x + THREAD_W / 2, seat === top ? sy + 12 : sy + half - 4,
      [`${seat === ctx.viewer ? "Your" : ROLE[seat] + "'s"} side: ${sideTotal(ctx, t, seat)}`], { "font-size": 12, "font-weight": "bold", fill: seat === HOLMES ? "#2b5fa8" : "#8a1f1f" }));
    // one row, the cards narrower when there are many
    const w = Math.min(PLACED_W, Math.floor((THREAD_W - 12) / Math.max(cards.length, 1)) - 4);
    cards.forEach((_, i) => {
      const cx = x + 8 + i * (w + 4);
      const cy = seat === top ? sy + 20 : sy + half - 22 - PLACED_H;
      g.append(placedCard(ctx, t, seat, i, cx, cy, w));
    });
  }
  const cy = y + half + 8;
  const plan = entry(ctx.catalogue, "crimePlan", crime.crimeCard);
  const visible = !!plan;
  const tokens = [crime.deductionToken ? "Deduction Token" : "", crime.seenByHolmes ? "seen by Holmes" : ""].filter(Boolean).join(", ");
  target.append(card({
    x: x + 40, y: cy, w: THREAD_W - 80, h: 88,
    name: visible ? `${plan!.name}${crime.revealed ? "" : " (face down)"}` : `Crime Thread ${t + 1}: face down`,
    note: tokens || (visible ? `${plan!.thread} · Crime Thread ${t + 1}` : ""),
    text: visible ? plan!.text : "Its Crime Plan Card is face down.",
    back: !visible || !crime.revealed,
    colour: "#8a1f1f",
    aria: `Crime Plan Card of Crime Thread ${t + 1}: ${visible ? plan!.name : "face down"}${tokens ? ", " + tokens : ""}`,
  }));
  return g;
}

function clock(ctx: Ctx, x: number, y: number): SVGElement {
  const hours = ctx.view.hours ?? 0;
  const g = svg("g", { class: "clock", role: "img", "aria-label": `The clock: ${hours} of 12 hours gone` });
  g.append(svg("title", {}, `${hours} of 12 hours gone; Moriarty wins when the clock strikes twelve with a Crime Plan Card face down.`));
  g.append(svg("circle", { cx: x, cy: y, r: 46, fill: "#fff", stroke: "#3b2f2a", "stroke-width": 4 }));
  for (let h = 0; h < 12; h++) {
    const a = (h * Math.PI) / 6;
    g.append(svg("circle", { cx: x + Math.sin(a) * 38, cy: y - Math.cos(a) * 38, r: h < hours ? 4 : 2, fill: h < hours ? "#b22" : "#999" }));
  }
  const a = ((hours % 12) * Math.PI) / 6;
  g.append(svg("line", { x1: x, y1: y, x2: x + Math.sin(a) * 30, y2: y - Math.cos(a) * 30, stroke: "#b22", "stroke-width": 4, "stroke-linecap": "round" }));
  g.append(label(x, y + 64, [`${hours} of 12 hours`], { "font-size": 12, "font-weight": "bold" }));
  return g;
}

function actionCards(ctx: Ctx, seat: number, x: number, y: number): SVGElement {
  const g = svg("g", { class: "action-cards" });
  const player = (ctx.view.players?.[seat] ?? {}) as Obj;
  const used = new Set((player.usedActions ?? []) as string[]);
  const slots = (player.finalSlots ?? []) as Obj[];
  ACTION_CARDS.forEach(([key, name, text], i) => {
    const slot = slots.find((s) => s.card === key);
    const note = used.has(key) ? "used" : slot ? `Thread ${(slot.thread ?? 0) + 1}${slot.revealed ? ", shown" : ""}` : "";
    g.append(card({ x: x + i * 70, y, w: 64, h: 70, name, note, text, colour: "#6b4e2e", dim: used.has(key), target: seat === ctx.viewer ? `act:${key}` : undefined, aria: `${seat === ctx.viewer ? "your" : ROLE[seat] + "'s"} Action Card ${name}${note ? ", " + note : ""}` }));
  });
  slots.filter((s) => !s.card).forEach((s, i) => {
    g.append(card({ x: x + (4 + i) * 70, y, w: 64, h: 70, name: "?", note: `Thread ${(s.thread ?? 0) + 1}`, back: true, aria: `a face-down Action Card in Crime Thread ${(s.thread ?? 0) + 1}` }));
  });
  return g;
}

function agent(ctx: Ctx, seat: number, x: number, y: number): SVGElement | null {
  const player = (ctx.view.players?.[seat] ?? {}) as Obj;
  const g = svg("g", { class: "agents" });
  const a = (player.agent ?? {}) as Obj;
  const spec = entry(ctx.catalogue, "agents", a.agent);
  if (a.inPlay) {
    const supports = ((a.supports ?? []) as number[]).length;
    g.append(card({
      x, y, w: 80, h: 100, name: spec ? spec.name : "Agent", value: spec ? `cost ${spec.cost}` : undefined,
      note: [a.activated ? "active" : "", supports ? `${supports} support` : ""].filter(Boolean).join(", "),
      text: spec?.text, back: !spec, colour: "#444", target: seat === ctx.viewer ? "agent" : undefined,
      aria: `${seat === ctx.viewer ? "your" : ROLE[seat] + "'s"} Agent: ${spec ? spec.name : "face down"}`,
    }));
  }
  const drawn = entry(ctx.catalogue, "agents", player.drawnAgent);
  if (drawn) g.append(card({ x: x + 86, y, w: 80, h: 100, name: drawn.name, value: `cost ${drawn.cost}`, note: "just drawn", text: drawn.text, colour: "#444", target: "agent:new", aria: `the Agent you drew: ${drawn.name}` }));
  return g.childNodes.length ? g : null;
}

function draw(ctx: Ctx): Element {
  const view = ctx.view;
  const root = canvas(W, H, "Clash of Minds table");
  root.append(svg("rect", { width: W, height: H, fill: "#efe6d2", rx: 10 }));
  const bottom = me(ctx);
  const top = 1 - bottom;
  // Top band: the clock, the Investigation Site, the opponent.
  root.append(clock(ctx, 62, 58));
  const site = entry(ctx.catalogue, "sites", view.site);
  if (site) root.append(card({ x: 130, y: 8, w: 150, h: 96, name: site.name, value: `+${site.hours}h, limit ${site.limit}`, text: site.text, colour: "#3b2f2a", note: `Round ${view.round ?? 1} · Investigation Site` }));
  const opp = (view.players?.[top] ?? {}) as Obj;
  root.append(label(470, 26, [`${ROLE[top]}${top === ctx.viewer ? " (you)" : ctx.seatNames[top] ? ` — ${ctx.seatNames[top]}` : ""}`], { "font-size": 15, "font-weight": "bold", fill: top === HOLMES ? "#2b5fa8" : "#8a1f1f" }));
  root.append(label(470, 46, [`${opp.handSize ?? 0} cards in hand · ${opp.deckSize ?? 0} in deck · ${((opp.discard ?? []) as number[]).length} discarded`], { "font-size": 12 }));
  const oppHand = svg("g", { role: "img", "aria-label": `${ROLE[top]} holds ${opp.handSize ?? 0} cards` });
  for (let i = 0; i < Math.min(opp.handSize ?? 0, 8); i++) oppHand.append(svg("rect", { x: 400 + i * 16, y: 56, width: 28, height: 40, rx: 3, fill: "#4a3b5c", stroke: "#c9b98f" }));
  root.append(oppHand);
  root.append(actionCards(ctx, top, 600, 8));
  const oppAgent = agent(ctx, top, 890, 4);
  if (oppAgent) { oppAgent.setAttribute("transform", "scale(0.8) translate(222,0)"); root.append(oppAgent); }
  root.append(label(900, 100, [`Deduction ${view.deductionSupply ?? 0} · Distraction ${view.distractionSupply ?? 0}`], { "font-size": 10 }));
  // The three Crime Threads.
  const threads = (view.threads ?? []) as Obj[];
  threads.forEach((_, t) => root.append(thread(ctx, t, 10 + t * (THREAD_W + 15), 112, 340)));
  // Bottom band: your hand, deck, discard, Action Cards, Agent (or Moriarty's drawn Crime Plan).
  const mine = (view.players?.[bottom] ?? {}) as Obj;
  const y = 458;
  const drawn = (view.crimeDrawn ?? []) as number[];
  if (drawn.length) {
    root.append(label(80, y + 14, ["Crime Plan drawn"], { "font-size": 12, "font-weight": "bold" }));
    drawn.forEach((c, i) => {
      const plan = entry(ctx.catalogue, "crimePlan", c);
      root.append(card({ x: 10 + i * 96, y: y + 22, w: 90, h: 110, name: plan?.name ?? "Crime Plan", note: plan?.thread, text: plan?.text, colour: "#8a1f1f", target: `crime:${c}` }));
    });
  }
  const hand = (view.hand ?? []) as number[];
  const hx = drawn.length ? 300 : 10;
  root.append(label(hx + 60, y + 14, [ctx.viewer === null ? `${ROLE[bottom]} holds ${mine.handSize ?? 0} cards` : `Your hand (${hand.length})`], { "font-size": 12, "font-weight": "bold" }));
  const step = Math.min(80, Math.floor((560 - hx) / Math.max(hand.length, 1)));
  hand.forEach((c, i) => {
    const spec = influence(ctx, c);
    root.append(card({
      x: hx + i * step, y: y + 22, w: 74, h: 110, name: spec?.name ?? "card", value: spec ? `${spec.played}/${spec.used}` : undefined,
      note: spec?.icon ?? "", colour: spec ? ICON_COLOUR[spec.icon] : undefined, text: spec?.text,
      target: `hand:${c}`, aria: `${spec?.name ?? "card"} in your hand, played ${spec?.played}, used ${spec?.used}`,
    }));
  });
  const px = 580;
  root.append(card({ x: px, y: y + 22, w: 64, h: 90, name: "Deck", note: `${mine.deckSize ?? 0} cards`, back: true, target: "deck", aria: `${ctx.viewer === null ? ROLE[bottom] + "'s" : "your"} Influence Deck, ${mine.deckSize ?? 0} cards` }));
  const discard = (mine.discard ?? []) as number[];
  const topDiscard = influence(ctx, discard[discard.length - 1]);
  root.append(card({ x: px + 70, y: y + 22, w: 64, h: 90, name: topDiscard?.name ?? "Discard", note: `${discard.length} discarded`, text: topDiscard?.text, dim: true, aria: `discard pile, ${discard.length} cards` }));
  root.append(actionCards(ctx, bottom, px - 420 + 420, y + 120 + 10 > H - 72 ? H - 74 : y + 130));
  const myAgent = agent(ctx, bottom, px + 150, y + 22);
  if (myAgent) root.append(myAgent);
  root.append(label(px + 180, y + 14, [`${ROLE[bottom]}${bottom === ctx.viewer ? " (you)" : ""}`], { "font-size": 15, "font-weight": "bold", fill: bottom === HOLMES ? "#2b5fa8" : "#8a1f1f" }));
  return root;
}

/** The keys of one legal action, in the order a player clicks them. */
/** The most cards in play one step highlights; past it a Crime Thread is clicked first. */
const PLACED_AT_ONCE = 8;

/** The first key of a choice about a card in play: the card itself, or (when more cards in
 * play than PLACED_AT_ONCE could be chosen now, e.g. many Support Cards) its Crime Thread. */
function placedSteps(ctx: Ctx, key: string, thread: number): string[] {
  const inPlay = new Set(ctx.choices.map((c) => placedKey(c, ctx)).filter(Boolean));
  return inPlay.size > PLACED_AT_ONCE ? [`thread:${thread}`, key] : [key];
}

/** The card in play a choice is about, if any. */
function placedKey(choice: Choice, ctx: Ctx): string {
  const f = choice.fields;
  const seat = ctx.viewer ?? 0;
  const t = f.thread ?? 0;
  switch (choice.kind) {
    case "useInfluence": case "removeSupport": case "moveCard": return `placed:${seat}:${t}:${f.index ?? 0}`;
    case "targetCard": {
      const forged = influence(ctx, ctx.view.effect?.card)?.name === "Forged Letter";
      return `placed:${forged ? seat : 1 - seat}:${t}:${f.index ?? 0}`;
    }
    default: return "";
  }
}

function steps(choice: Choice, ctx: Ctx): string[] {
  const f = choice.fields;
  const t = f.thread ?? 0;
  const placed = placedKey(choice, ctx);
  switch (choice.kind) {
    case "arrangeCrime": return ((f.order ?? []) as number[]).slice(0, 2).map((c) => `crime:${c}`);
    case "keepAgent": return ["agent"];
    case "replaceAgent": return ["agent:new"];
    case "placeSetupCard": return [`hand:${f.card}`, `thread:${t}`];
    case "playInfluence": return [`hand:${f.card}`, `thread:${t}`, "act:ACTION_CARD_MANDATORY"];
    case "addSupport": return [`hand:${f.card}`, f.underAgent ? "agent" : `thread:${t}`, `act:${f.actionCard}`];
    case "useInfluence": case "removeSupport": return [...placedSteps(ctx, placed, t), `act:${f.actionCard}`];
    case "drawInfluence": return ["deck", `act:${f.actionCard}`];
    case "activateAgent": return ["agent"];
    case "placeActionCard": return [`act:${f.card}`, `thread:${t}`];
    case "revealActionCard": return [`act:${f.card}`];
    case "moveCard": return [...placedSteps(ctx, placed, t), `thread:${f.toThread ?? 0}`];
    case "targetCard": return placedSteps(ctx, placed, t);
    case "targetThread": return [`thread:${t}`];
    case "discardCard": return [`hand:${f.card}`];
    default: return [choice.kind];
  }
}

function prompt(ctx: Ctx, chosen: string[], next: string[]): string {
  const view = ctx.view;
  const effect = view.effect as Obj | undefined;
  if (effect && effect.card) {
    const source = effect.source === "EFFECT_SOURCE_AGENT" ? entry(ctx.catalogue, "agents", effect.card) : influence(ctx, effect.card);
    if (source) return `${source.name}: ${source.text} Choose on the board.`;
  }
  const first = chosen[0] ?? "";
  const cardName = first.startsWith("hand:") ? influence(ctx, Number(first.slice(5)))?.name : undefined;
  switch (view.phase) {
    case "PHASE_PREPARING_CRIME":
      return `Put a drawn Crime Plan Card face down into Crime Thread ${chosen.length + 1}.`;
    case "PHASE_AGENTS":
      return "Keep the Agent in play (click it) or take the one you drew.";
    case "PHASE_INITIAL_SETUP":
      return cardName ? `Which Crime Thread does ${cardName} go to, face down?` : "Initial Setup: choose a card from your hand to place face down.";
    case "PHASE_FINAL_PLACEMENT":
      return chosen.length ? "In which Crime Thread does this Action Card go, face down?" : "Final Turn: choose an Action Card to place face down.";
    case "PHASE_FINAL_REVEAL":
      return "Final Turn: reveal one of your placed Action Cards, or skip it.";
    case "PHASE_ARCHIVING":
      return "Archiving: click cards in your hand to discard them, or keep your hand.";
  }
  if (next.every((k) => k.startsWith("act:"))) return `With which Action Card${cardName ? ` (for ${cardName})` : ""}? Each says what it does.`;
  if (cardName) return `Where does ${cardName} go? Click a Crime Thread (or your Agent).`;
  if (chosen[0] === "deck") return "Draw with which Action Card?";
  if (first.startsWith("placed:") || (first.startsWith("thread:") && chosen.length > 1)) return "Use it (or remove it) with which Action Card?";
  if (first.startsWith("thread:")) return `Which card in Crime Thread ${Number(first.slice(7)) + 1}?`;
  const can = [
    next.some((k) => k.startsWith("hand:")) ? "a card in your hand to play it or add it as Support" : "",
    next.some((k) => k.startsWith("placed:")) ? "a card of yours in play to use it" : "",
    next.some((k) => k.startsWith("thread:")) ? "a Crime Thread to use a card of yours in it" : "",
    next.includes("deck") ? "your deck to draw" : "",
    next.includes("agent") ? "your Agent" : "",
  ].filter(Boolean);
  return can.length ? `Your turn: click ${can.join(", ")}.` : "Your turn.";
}

function keyLabel(key: string, ctx: Ctx): string | undefined {
  if (key.startsWith("act:")) return `with ${ACTION_NAME[key.slice(4)] ?? "an Action Card"}`;
  if (key.startsWith("hand:")) return influence(ctx, Number(key.slice(5)))?.name;
  if (key.startsWith("thread:")) return `Crime Thread ${Number(key.slice(7)) + 1}`;
  return { passMandatory: "Pass (nothing can be put into play)", endTurn: "End your turn", skipAction: "Skip this Action Card", keepHand: "Keep your hand" }[key];
}

export const board: GameBoard = {
  draw, steps, prompt, keyLabel,
};
