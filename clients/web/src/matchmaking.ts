// "Play now" (issue 45): for each game and way to play, a ticket on the gateway's
// matchmaking (FindMatch); while it searches the page shows the rating window as it
// widens, with a Cancel button; once matched, the page sits down at the match's seat.
import { ConnectError } from "@connectrpc/connect";
import { gateway } from "./api";
import { errorText } from "./errors";
import { TicketState, type FindMatchResponse, type Game } from "./gen/parlour/gateway/v1/gateway_pb";

/** What the page needs to sit down at a matched seat (main.ts's Seated). */
export interface MatchedSeat {
  match: string;
  token: string;
  seat: number;
  variant: string;
  ticket: string; // re-opens the seat after a reload (reopenSeat)
}

/** A matched ticket's seat again, with a fresh token (a reload, a second visit); once the
 * gateway forgot the ticket (its keep period after the match was found), the seat's last
 * token as `kept`. */
export async function reopenSeat(
  ticket: string, variant = "", kept?: { match: string; seat: number; token?: string },
): Promise<MatchedSeat> {
  try {
    for await (const state of gateway.findMatch({ ticket })) {
      if (state.state === TicketState.MATCHED) {
        const mine = state.seats[0];
        return { match: state.match, token: mine.seatToken, seat: mine.seat, variant, ticket };
      }
    }
  } catch (e) {
    const forgotten = e instanceof ConnectError && /^TICKET_NOT_FOUND:/.test(e.rawMessage);
    if (!forgotten || !kept?.token) throw e;
    return { match: kept.match, token: kept.token, seat: kept.seat, variant, ticket };
  }
  throw new Error("TICKET_NOT_FOUND: that search for a match ended without a match");
}

interface Hooks {
  name: () => string;
  rated: () => boolean;
  sit: (seated: MatchedSeat) => Promise<void>;
  error: (message: string) => void;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text = ""): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  return node;
}

/** The wait in words: the window's current spread around the ticket's rating. */
export function waitText(state: FindMatchResponse): string {
  const seconds = Math.round(Number(state.waitedMs) / 1000);
  return `Looking for players rated ${state.rating.toFixed(1)} ± ${state.window.toFixed(1)} ` +
    `(waited ${seconds} s; the range widens as you wait)`;
}

/** Put the "Play now" section at the top of the lobby, one row per game. */
export function mountPlayNow(games: Game[], hooks: Hooks): void {
  const section = el("section");
  section.id = "play-now";
  section.setAttribute("aria-labelledby", "play-now-title");
  const title = el("h2", "Play now");
  title.id = "play-now-title";
  const wait = el("p");
  wait.id = "play-now-wait";
  wait.setAttribute("role", "status");
  const cancel = el("button", "Cancel");
  cancel.id = "play-now-cancel";
  cancel.hidden = true;
  const rows = games.map((game) => row(game));
  section.append(title, ...rows.map((r) => r.node), wait, cancel);
  document.getElementById("lobby")!.prepend(section);

  let ticket = "";
  let stop: AbortController | null = null;

  function waiting(on: boolean): void {
    cancel.hidden = !on;
    for (const r of rows) r.button.disabled = on;
  }

  function row(game: Game) {
    const info = game.info!;
    const node = el("div");
    node.className = "field play-now-row";
    node.dataset.game = info.game;
    const ways = info.variants.length ? info.variants : [];
    const select = el("select");
    select.setAttribute("aria-label", `Variant of ${info.displayName}`);
    for (const v of ways) {
      const option = el("option", v.displayName);
      option.value = v.name;
      select.append(option);
    }
    select.hidden = ways.length < 2;
    const button = el("button", "Play now");
    button.onclick = () => void play(info.game, select.value, select.selectedOptions[0]?.textContent ?? "");
    node.append(el("label", info.displayName), " ", select, " ", button);
    return { node, button };
  }

  async function play(game: string, variant: string, label: string): Promise<void> {
    hooks.error("");
    stop = new AbortController();
    ticket = "";
    waiting(true);
    wait.textContent = "Looking for players…";
    try {
      const stream = gateway.findMatch(
        { game, variant, displayName: hooks.name(), rated: hooks.rated() }, { signal: stop.signal });
      for await (const state of stream) {
        ticket = state.ticket;
        if (state.state === TicketState.SEARCHING) wait.textContent = waitText(state);
        else if (state.state === TicketState.MATCHED) {
          const mine = state.seats[0];
          wait.textContent = "";
          waiting(false);
          await hooks.sit({ match: state.match, token: mine.seatToken, seat: mine.seat, variant: label, ticket });
          return;
        } else {
          wait.textContent = state.state === TicketState.EXPIRED
            ? "Nobody was found in time: try again." : "Stopped looking.";
        }
      }
    } catch (e) {
      if (!stop.signal.aborted) hooks.error(errorText(e));
    } finally {
      waiting(false);
    }
  }

  cancel.onclick = () => {
    const asked = ticket;
    if (!asked) {
      stop?.abort();
      wait.textContent = "Stopped looking.";
      return;
    }
    gateway.cancelTicket({ ticket: asked }).catch((e) => {
      // matched meanwhile: the stream sits the page down
      if (!/TICKET_ALREADY_MATCHED/.test(String(e))) hooks.error(errorText(e));
    });
  };
}
