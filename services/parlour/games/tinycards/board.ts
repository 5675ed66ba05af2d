// Tiny Cards on the page: every seat's played cards (its score), the deck, your hand. Click
// a card in your hand to play it, or the deck to draw.
import { area, canvas, card, label, svg, type Choice, type Ctx, type GameBoard, type Obj } from "../../../../clients/web/src/kit";

const W = 760;
const COLOURS = ["#2b5fa8", "#8a1f1f", "#2f8a4a", "#c2621a"];

function draw(ctx: Ctx): Element {
  const view = ctx.view;
  const piles = (view.played ?? []) as Obj[];
  const sizes = (view.handSizes ?? []) as number[];
  const rowH = 96;
  const H = 40 + piles.length * rowH + 170;
  const root = canvas(W, H, "Tiny Cards table");
  root.append(svg("rect", { width: W, height: H, fill: "#efe6d2", rx: 10 }));
  piles.forEach((pile, seat) => {
    const cards = (pile.cards ?? []) as number[];
    const score = cards.reduce((a, b) => a + b, 0);
    const y = 10 + seat * rowH;
    const who = seat === ctx.viewer ? "You" : ctx.seatNames[seat] || `Player ${seat + 1}`;
    const turn = !view.finished && (view.turn ?? 0) === seat;
    root.append(area(10, y, W - 20, rowH - 8, "", { fill: turn ? "#fff4d6" : "#fff", "aria-label": `${who}: ${sizes[seat] ?? 0} in hand, played ${cards.join(", ") || "nothing"}, ${score} points`, role: "img" }));
    root.append(label(80, y + 30, [who], { "font-weight": "bold", "font-size": 14 }));
    root.append(label(80, y + 50, [`${score} points`], { "font-size": 12 }));
    root.append(label(80, y + 68, [`${sizes[seat] ?? 0} in hand${turn ? " · to play" : ""}`], { "font-size": 11 }));
    cards.forEach((c, i) => root.append(card({ x: 160 + i * 48, y: y + 6, w: 44, h: 74, name: "", value: String(c), colour: COLOURS[seat % 4], aria: `${who} played ${c}` })));
  });
  const y = 20 + piles.length * rowH;
  root.append(card({ x: 20, y: y + 20, w: 80, h: 120, name: "Deck", note: `${view.deckSize ?? 0} cards`, back: true, target: "draw", aria: `the deck, ${view.deckSize ?? 0} cards` }));
  if (ctx.viewer !== null) {
    root.append(label(300, y + 12, ["Your hand"], { "font-weight": "bold", "font-size": 13 }));
    ((view.hand ?? []) as number[]).forEach((c, i) => root.append(card({ x: 130 + i * 86, y: y + 20, w: 80, h: 120, name: "", value: String(c), colour: COLOURS[ctx.viewer! % 4], target: `hand:${c}`, aria: `your ${c}` })));
  }
  return root;
}

function steps(choice: Choice): string[] {
  return choice.kind === "play" ? [`hand:${choice.fields.card}`] : ["draw"];
}

function prompt(): string {
  return "Your turn: click a card in your hand to play it (it scores its number), or the deck to draw.";
}

export const board: GameBoard = { draw, steps, prompt };
