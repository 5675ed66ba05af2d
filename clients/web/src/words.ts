// Game messages in words: field names and enum values made readable.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { renderText } from "../../ts/src/seats";

function words(name: string): string {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** CARD_MORIARTY -> "Moriarty" (enum prefixes differ per enum; drop the first word(s) up to the last known prefix). */
export function enumWords(value: string, field: string): string {
  const prefix = field.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase() + "_";
  let name = value.startsWith(prefix) ? value.slice(prefix.length) : value.replace(/^[A-Z]+_/, "");
  if (name === "UNSPECIFIED") name = "none";
  return name.replace(/_/g, " ").toLowerCase().replace(/^./, (c) => c.toUpperCase());
}

/** A number's name in the game's catalogue, when the field holds catalogue ids. */
export type Namer = (field: string, id: number) => string | undefined;

export function inline(value: JsonValue, field = "", namer?: Namer): string {
  if (value === null) return "-";
  if (Array.isArray(value)) return value.map((v) => inline(v, field, namer)).join(", ") || "none";
  if (typeof value === "object") {
    const parts = Object.entries(value).map(([k, v]) => `${words(k).toLowerCase()} ${inline(v, k, namer)}`);
    return parts.join(", ") || "-";
  }
  if (typeof value === "number" && namer) {
    const name = namer(field, value);
    if (name) return name;
  }
  if (typeof value === "string" && /^[A-Z][A-Z0-9_]+$/.test(value)) return enumWords(value, field);
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/** A view as "Label: value" lines. */
export function viewLines(view: JsonObject, namer?: Namer): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(view)) {
    if (Array.isArray(value) && value.some((v) => v !== null && typeof v === "object")) {
      lines.push(`${words(key)}:`);
      value.forEach((item, i) => lines.push(`  ${i}: ${inline(item, key, namer)}`));
    } else {
      lines.push(`${words(key)}: ${inline(value, key, namer)}`);
    }
  }
  return lines;
}

/** An action or event without a text from the server: its kind and fields in words. */
export function describe(message: JsonObject): string {
  const entries = Object.entries(message);
  if (!entries.length) return "-";
  return entries.map(([kind, body]) => `${words(kind)}${body && typeof body === "object" && Object.keys(body).length ? ": " + inline(body, kind) : ""}`).join("; ");
}

/** Text with its seat references written for the viewer (null: a spectator): the TS
 * client's renderText ("you" / the player's name, "your" / "Ada's", "you hold" / "Ada holds"). */
export const render = renderText;

/** "1 more player", "2 more players". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "Ada", "Ada and Ben", "Ada, Ben and Cleo". */
export function andList(items: string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items.join("");
}

/** A seat as the viewer reads it: "You", or the player's name. */
export function seatWord(seat: number, viewer: number | null, names: string[]): string {
  return render(`{seat:${seat}}`, viewer, names);
}

/** Milliseconds as m:ss (h:mm:ss past an hour), never below 0:00. */
export function clockText(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
