// Before a match is created: does the chosen way to play fit the seats and bots asked for?
// The same rules as the terminal client's (clients/parlour/client/seating.py).

export interface Seating {
  errors: string[]; // do not create
  warnings: string[]; // tell, and offer bots
  empty: number; // seats nobody would fill
}

export function seatsPhrase(low: number, high: number): string {
  return low === high ? `exactly ${low} seat${low === 1 ? "" : "s"}` : `${low} to ${high} seats`;
}

/** A way to play as offered: "Automa (Beginner) — 1 seat", "Standard — 2 to 4 seats" (as seating.py's way_label). */
export function wayLabel(title: string, low: number, high: number): string {
  return `${title} — ${low === high ? `${low} seat${low === 1 ? "" : "s"}` : `${low} to ${high} seats`}`;
}

/** A choice of `seats` seats and `bots` bots for a way to play taking low..high seats, the person in one. */
export function checkSeating(title: string, low: number, high: number, seats: number, bots: number): Seating {
  const out: Seating = { errors: [], warnings: [], empty: 0 };
  if (!Number.isInteger(seats) || seats < low || seats > high) out.errors.push(`${title} takes ${seatsPhrase(low, high)}, not ${seats}.`);
  if (!Number.isInteger(bots) || bots < 0) out.errors.push("The number of bots cannot be negative.");
  else if (bots > seats - 1) {
    const most = Math.max(0, seats - 1);
    out.errors.push(`At most ${most} bot${most === 1 ? "" : "s"}: you take one of the ${seats} seats.`);
  }
  if (!out.errors.length) {
    out.empty = seats - 1 - bots;
    if (out.empty) out.warnings.push(`${out.empty} seat${out.empty === 1 ? "" : "s"} would stay empty: the match waits until someone joins. Fill them with bots?`);
  }
  return out;
}
