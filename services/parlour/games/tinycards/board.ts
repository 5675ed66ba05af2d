// Tiny Cards on the page: every seat's hand (face down, its size) and the cards it played
// (face up, its score), the deck, your hand as cards. A card is played by clicking it in
// your hand; the deck draws.
import { area, canvas, card, label, svg, type Choice, type Ctx, type GameBoard } from "../../../../clients/web/src/kit";

const W = 980;
const ROW = 136;
/** A colour per third of the deck (1-4, 5-8, 9-12), so high cards stand out. */
const COLOURS = ["#2b5fa8", "#2f8a4a", "#b07a1c"];

function colour(value: number): string {
  return COLOURS[Math.min(2, Math.floor((value - 1) / 4))];
}

function cards(n: number): string {
  return `${n} card${n === 1 ? "" : "s"}`;
}

function points(n: number): string {
  return `${n} point${n === 1 ? "" : "s"}`;
}

function face(value: number, x: number, y: number, extra: { w?: number; h?: number; target?: string; aria?: string } = {}) {
  return card({
    x, y, w: extra.w ?? 74, h: extra.h ?? 100, name: `The ${value}`, value: String(value), colour: colour(value),
    text: `Scores ${points(value)} for whoever plays it.`, target: extra.target, aria: extra.aria,
  });
}

/** One seat's row: its name and score, its hand face down, the cards it played face up. */
function seatRow(ctx: Ctx, seat: number, y: number): SVGElement {
  const view = ctx.view;
  const name = ctx.who(seat);
  const Name = name.charAt(0).toUpperCase() + name.slice(1);
  const size = ((view.handSizes ?? []) as number[])[seat] ?? 0;
  const played = (((view.played ?? []) as { cards?: number[] }[])[seat]?.cards ?? []);
  const score = played.reduce((sum, c) => sum + c, 0);
  const turn = !view.finished && (view.turn ?? 0) === seat;
  const g = area(10, y, W - 20, ROW - 10, "", { fill: turn ? "#fff4d6" : "#fff" });
  g.append(label(20, y + 22, [`${Name}${turn ? " — to play" : ""}`], { "text-anchor": "start", "font-weight": "bold", "font-size": 14 }));
  g.append(label(20, y + 40, [`${points(score)} · ${cards(size)} in hand`], { "text-anchor": "start", "font-size": 12 }));
  if (seat !== ctx.viewer) {
    const hand = svg("g", { role: "img", "aria-label": `${Name}: ${cards(size)} in hand, face down` });
    for (let c = 0; c < size; c++) hand.append(svg("rect", { x: 20 + c * 16, y: y + 56, width: 44, height: 64, rx: 4, fill: "#4a3b5c", stroke: "#c9b98f" }));
    g.append(hand);
  }
  g.append(label(330, y + 22, [played.length ? `Played (${points(score)})` : "Played: nothing yet"], { "text-anchor": "start", "font-size": 12 }));
  const step = Math.min(52, Math.floor((W - 360) / Math.max(played.length, 1)));
  played.forEach((c, i) => g.append(face(c, 330 + i * step, y + 32, { w: 48, h: 70, aria: `the ${c}, played by ${name}` })));
  return g;
}

function draw(ctx: Ctx): Element {
  const view = ctx.view;
  const seats = ((view.handSizes ?? []) as number[]).length;
  const order = [...Array(seats).keys()].filter((s) => s !== ctx.viewer);
  if (ctx.viewer !== null) order.push(ctx.viewer);
  const deckY = order.length * ROW;
  const hand = (view.hand ?? []) as number[];
  const height = deckY + (ctx.viewer === null ? 130 : 260);
  const root = canvas(W, height, "Tiny Cards table");
  root.append(svg("rect", { width: W, height, fill: "#efe6d2", rx: 10 }));
  order.forEach((seat, i) => root.append(seatRow(ctx, seat, 10 + i * ROW)));
  const left = view.deckSize ?? 0;
  root.append(card({
    x: 20, y: deckY + 10, w: 80, h: 110, name: "The deck", note: cards(left), back: true, target: "draw",
    aria: `the deck, ${cards(left)} left`, text: "Draw its top card instead of playing one: only you see it.",
  }));
  root.append(label(120, deckY + 60, [left ? `${cards(left)} left to draw` : "The deck is empty: play a card"], { "text-anchor": "start", "font-size": 12 }));
  if (ctx.viewer !== null) {
    const total = hand.reduce((sum, c) => sum + c, 0);
    const y = deckY + 130;
    root.append(label(20, y + 14, [`Your hand: ${cards(hand.length)} (${points(total)})`], { "text-anchor": "start", "font-weight": "bold", "font-size": 13 }));
    hand.forEach((c, i) => root.append(face(c, 20 + i * 84, y + 22, { target: `hand:${c}`, aria: `the ${c} in your hand` })));
  }
  return root;
}

function steps(choice: Choice): string[] {
  return choice.kind === "play" ? [`hand:${choice.fields.card}`] : ["draw"];
}

function prompt(_ctx: Ctx, _chosen: string[], next: string[]): string {
  const draw = next.includes("draw") ? ", or the deck to draw its top card" : "";
  return `Your turn: click a card in your hand to play it (it scores its number)${draw}.`;
}

export const board: GameBoard = { draw, steps, prompt };
