/** Seat references in text from the gateway (event text, labels, table text, summaries),
 * written out for a viewer; shared by this client and the web page (clients/web). */

/** Any seat reference: "{seat:N}", "{seat:N's}" or "{seat:N|third|second}"
 * (docs/reference.md, "Seat references"; parlour.engine.text writes them). */
const SEAT_REFERENCE = /\{seat:(\d+)('s|\|[^|{}]*\|[^|{}]*)?\}/g;

/** Text with its seat references written out for `viewer` (null: a spectator): "you" or the
 * player's name, "your" or "Ada's", "you hold" or "Ada holds"; the viewer's reference is
 * capitalised where a sentence starts. */
export function renderText(text: string, viewer: number | null, names: readonly string[]): string {
  return text.replace(SEAT_REFERENCE, (_m, n: string, form: string | undefined, offset: number) => {
    const seat = Number(n);
    const mine = seat === viewer;
    const name = mine ? "you" : names[seat] || `Player ${seat + 1}`;
    let out = name;
    if (form === "'s") out = mine ? "your" : `${name}'s`;
    else if (form) {
      const [third, second] = form.slice(1).split("|");
      out = `${name} ${mine ? second : third}`;
    }
    const opens = /(?:^|[.!?]\s+)$/.test(text.slice(0, offset));
    return mine && opens ? out.charAt(0).toUpperCase() + out.slice(1) : out;
  });
}
