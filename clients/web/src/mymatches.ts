// The lobby's "Your turn" and "Waiting for others" (issue 44): the signed-in person's matches
// across games (ListMyMatches), or, without identity, the seats kept in this browser, with
// the time left (a date when it is long); the page title counts the matches waiting for you,
// and at the table a browser notification says when it becomes your turn in a hidden tab.
import { gateway } from "./api";
import { signedIn } from "./signin";
import { MatchStatus, type Match } from "./gen/parlour/gateway/v1/gateway_pb";

const TITLE = "parlour";
const DAY = 86_400_000;

interface Mine {
  match: Match;
  seat: number;
}

/** "no clock", "2 h 5 min left", or "3 days left (until Tue 8 Dec, 14:00)". */
export function timeLeft(deadline: number, now = Date.now()): string {
  if (!deadline) return "no clock";
  const left = Math.max(0, deadline - now);
  if (left >= DAY) {
    const days = Math.floor(left / DAY);
    const until = new Date(deadline).toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
    return `${days} day${days === 1 ? "" : "s"} left (until ${until})`;
  }
  const minutes = Math.floor(left / 60_000);
  const hours = Math.floor(minutes / 60);
  return hours ? `${hours} h ${minutes % 60} min left` : `${minutes} min left`;
}

async function mine(): Promise<Mine[]> {
  if (signedIn()) {
    const { matches } = await gateway.listMyMatches({});
    return matches.flatMap((m) => (m.match ? [{ match: m.match, seat: m.seat }] : []));
  }
  const kept: Array<{ match: string; seat: number }> = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith("parlour:seat:")) kept.push(JSON.parse(localStorage.getItem(key) ?? "{}"));
  }
  const found = await Promise.all(kept.map(async (k) => {
    try {
      const { match } = await gateway.getMatch({ match: k.match });
      return match ? [{ match, seat: k.seat }] : [];
    } catch {
      return []; // expired or deleted: nothing to show
    }
  }));
  return found.flat();
}

function entry(m: Mine, gameName: (game: string) => string, open: (match: string) => void): HTMLElement {
  const item = document.createElement("li");
  const button = document.createElement("button");
  const deadlines = (m.match.progress?.pending ?? []).map((d) => Number(d.deadlineUnixMs)).filter((d) => d);
  const others = m.match.seats.filter((s) => s.seat !== m.seat).map((s) => s.displayName || "an empty seat");
  button.textContent = `${gameName(m.match.game)} with ${others.join(", ")} · ${timeLeft(deadlines.length ? Math.min(...deadlines) : 0)}`;
  button.onclick = () => open(m.match.name);
  item.append(button);
  return item;
}

/** Fills #your-turn and #waiting; the title counts the matches waiting for you. */
export async function drawMyMatches(gameName: (game: string) => string, open: (match: string) => void): Promise<void> {
  const yours: HTMLElement[] = [];
  const waiting: HTMLElement[] = [];
  for (const m of await mine()) {
    if (m.match.status === MatchStatus.FINISHED) continue;
    const turn = (m.match.progress?.pending ?? []).some((d) => d.seat === m.seat);
    (turn ? yours : waiting).push(entry(m, gameName, open));
  }
  const none = () => Object.assign(document.createElement("li"), { textContent: "none" });
  document.getElementById("your-turn")!.replaceChildren(...(yours.length ? yours : [none()]));
  document.getElementById("waiting")!.replaceChildren(...(waiting.length ? waiting : [none()]));
  document.title = yours.length ? `(${yours.length}) Your turn · ${TITLE}` : TITLE;
}

/** Ask, on a click that seats the person, whether the page may notify them. */
export function askToNotify(): void {
  if ("Notification" in window && Notification.permission === "default") void Notification.requestPermission();
}

let wasYours = false;

/** At the table: the title says "Your turn" while it is, and a hidden tab notifies once. */
export function noteTurn(yours: boolean, what: string): void {
  if (yours && !wasYours) {
    document.title = `Your turn · ${TITLE}`;
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      new Notification("Your turn", { body: what, tag: what });
    }
  } else if (!yours && wasYours) {
    document.title = TITLE;
  }
  wasYours = yours;
}
