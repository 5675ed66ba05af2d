// The table drawn by the game's own board module (services/parlour/games/<game>/board.ts,
// found by build.py), with the legal actions offered on it (choose.ts).
import type { JsonObject } from "@bufbuild/protobuf";
import { BOARDS } from "./gen/boards";
import { offer } from "./choose";
import type { Choice, Ctx, GameBoard, Obj } from "./kit";

export interface Drawn {
  board: GameBoard;
  ctx: Ctx;
  element: HTMLElement;
}

/** The game's board for this view, or null when the game draws none. */
export function drawBoard(game: string, view: JsonObject, catalogue: JsonObject, seatNames: string[], viewer: number | null, actions: JsonObject[], labels: string[]): Drawn | null {
  const board = (BOARDS as Record<string, GameBoard>)[game];
  if (!board) return null;
  // The same table again (a heartbeat's redraw): the same element, so focus and hover stay.
  const same = JSON.stringify([game, view, seatNames, viewer, actions, labels]);
  if (last?.same === same) return last.drawn;
  const choices: Choice[] = actions.map((action, i) => {
    const [kind, fields] = Object.entries(action)[0] ?? ["", {}];
    return { kind, fields: (fields ?? {}) as Obj, label: labels[i] ?? kind };
  });
  const ctx: Ctx = {
    view: view as Obj, catalogue: catalogue as Obj, seatNames, viewer, choices,
    who: (seat) => (seat === viewer ? "you" : seatNames[seat] || `Player ${seat + 1}`),
  };
  const element = document.createElement("div");
  element.className = `board board-${game}`;
  element.append(board.draw(ctx));
  const info = document.createElement("p");
  info.className = "card-info";
  info.setAttribute("aria-live", "polite");
  info.textContent = "Point at or focus a card to read it.";
  element.append(info);
  const tell = (event: Event) => {
    const about = (event.target as Element).closest?.("[data-info]");
    if (about) info.textContent = about.getAttribute("data-info");
  };
  element.addEventListener("mouseover", tell);
  element.addEventListener("focusin", tell);
  element.addEventListener("click", tell);
  const drawn = { board, ctx, element };
  last = { same, drawn };
  return drawn;
}

let last: { same: string; drawn: Drawn } | null = null;

/** Offer the viewer's legal actions on the board. */
export function offerOnBoard(drawn: Drawn, panel: HTMLElement, busy: boolean, version: string, act: (index: number) => void): void {
  offer({ board: drawn.board, ctx: drawn.ctx, root: drawn.element, panel, choices: drawn.ctx.choices, busy, version, act });
}
