// "Away until …" (issue 44): beside the clocks of a correspondence match that takes pauses,
// a seated player picks the date they are back (SetAway: their clock waits until then) or
// says they are back now; the clocks line says who is away until when.
import { bearer, gateway } from "./api";
import { render } from "./words";
import type { Match, MatchProgress } from "./gen/parlour/gateway/v1/gateway_pb";

const DAY = 86_400_000;

/** A date as the feed says it: "Tue 8 Dec 18:00 UTC". */
export function dateWords(ms: number): string {
  const d = new Date(ms);
  const part = (o: Intl.DateTimeFormatOptions) => d.toLocaleDateString("en-GB", { ...o, timeZone: "UTC" });
  return `${part({ weekday: "short" })} ${d.getUTCDate()} ${part({ month: "short" })} ${d.toISOString().slice(11, 16)} UTC`;
}

/** "Ada is away until Tue 8 Dec 18:00 UTC", for each pause still running at `now`. */
export function awayLines(progress: MatchProgress, now: number, viewer: number | null, names: string[]): string[] {
  return progress.away
    .filter((a) => Number(a.untilUnixMs) > now)
    .map((a) => render(`{seat:${a.seat}|is|are} away until ${dateWords(Number(a.untilUnixMs))}`, viewer, names));
}

/** A time as a datetime-local input takes it (the browser's local time). */
function localInput(ms: number): string {
  return new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The control shows for a seated player of a match that takes pauses, until it is over. */
export function drawAway(match: Match, progress: MatchProgress, viewer: number | null, now = Date.now()): void {
  const open = viewer !== null && match.maxPauseDays > 0 && !progress.outcome;
  document.getElementById("away")!.hidden = !open;
  if (!open) return;
  const away = progress.away.some((a) => a.seat === viewer && Number(a.untilUnixMs) > now);
  document.getElementById("away-back")!.hidden = !away;
  const input = document.getElementById("away-until") as HTMLInputElement;
  input.min = localInput(now);
  input.max = localInput(now + match.maxPauseDays * DAY);
}

/** Away until the date picked (0: back now). */
export async function setAway(match: string, token: string | null, untilMs: number): Promise<void> {
  await gateway.setAway({ match, untilUnixMs: BigInt(untilMs), requestId: crypto.randomUUID() }, bearer(token));
}

/** The date picked in the control, in Unix ms; NaN when none. */
export function pickedUntil(): number {
  return new Date((document.getElementById("away-until") as HTMLInputElement).value).getTime();
}
