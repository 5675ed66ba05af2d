// Refusals in words: each reason a person can meet (docs/reference.md lists them all) as one
// sentence, the same table as the terminal's (clients/parlour/client/refusals.py).
import { ConnectError } from "@connectrpc/connect";

/** reason -> the sentence a person reads. */
export const SENTENCES: Record<string, string> = {
  MATCH_FULL: "Every seat of this match is taken: you can watch it instead.",
  MATCH_NOT_FOUND: "There is no match of that name: check the link or the code.",
  BAD_MATCH: "That is not a match's name: a match link ends with matches/ and its code.",
  BAD_OPTIONS: "The game cannot be set up with these options: check them and try again.",
  OPTIONS_TOO_LARGE: "These options are too long for the game.",
  BAD_SEAT_COUNT: "This way to play does not take that many seats.",
  BAD_COUNT: "That many bots do not fit at this table.",
  TOO_MANY_BOTS: "That many bots do not fit at this table.",
  BAD_STRATEGY: "There is no bot of that kind.",
  GAME_NOT_FOUND: "This server does not offer that game.",
  PLAYER_NOT_FOUND: "Nobody of that name has finished a rated match here yet.",
  BAD_PLAYER: "That is not a player's name: a record's name starts with players/.",
  IDENTITY_NOT_ENABLED: "This server does not sign players in: name the player instead.",
  VARIANT_NOT_FOUND: "This game has no way to play of that name.",
  GAME_OVER: "The match is over: nothing more can be played.",
  NOT_YOUR_TURN: "It is not your turn.",
  VERSION_MISMATCH: "The table moved on before your choice arrived: here it is as it is now.",
  TOO_MUCH_CONTENTION: "Many players moved at once: try your choice again.",
  NOT_IN_ZONE: "That card or piece is not where this move needs it.",
  SEAT_TAKEN: "That seat is taken: choose another, or watch.",
  ALREADY_SEATED: "You already hold a seat in this match: open it again from its link.",
  ALREADY_JOINED: "You already took a seat with this request: open it again from its link.",
  SPECTATORS_NOT_ALLOWED: "This match cannot be watched.",
  NOT_INVITED: "This is a private table: joining needs its join code or an invitation.",
  BAD_JOIN_SECRET: "That join code is too short.",
  MISSING_SEAT_TOKEN: "You need a seat at this match to do that.",
  INVALID_SEAT_TOKEN: "Your seat's pass does not fit this match: join it again.",
  SEAT_TOKEN_REVOKED: "Your seat was left or opened elsewhere: join the match again.",
  SEAT_NOT_YOURS: "Another person holds that seat.",
  NOTHING_TO_UNDO: "You have no move of your own to take back.",
  OTHER_SEAT_ACTED: "Another player moved after you: that move can no longer be taken back.",
  UNDO_NOT_ALLOWED: "This match does not allow taking moves back.",
  UNDO_AFTER_RANDOMNESS: "That move drew or shuffled cards: it cannot be taken back.",
  UNDO_AFTER_REVEAL: "That move showed hidden cards: it cannot be taken back.",
  UNDO_ALREADY_REQUESTED: "A request to take a move back is already open.",
  UNDO_REFUSED: "Your request to take that move back was refused.",
  NO_UNDO_REQUEST: "Nobody is asking to take a move back now.",
  ANSWER_NOT_AWAITED: "This request to take a move back does not wait for your answer.",
  ALREADY_ANSWERED: "You already accepted this request to take a move back.",
  CREATE_QUOTA_EXCEEDED: "You have started too many matches for now: try again later.",
  STREAM_QUOTA_EXCEEDED: "You follow too many matches at once: close one and try again.",
  SERVER_DRAINING: "The server is restarting: try again in a moment.",
  BACKEND_UNAVAILABLE: "The game's server does not answer now: try again in a moment.",
  STORAGE_UNAVAILABLE: "The server's storage does not answer now: try again in a moment.",
  NOT_REPLICATED: "The server could not make your move safe in time: try again.",
  HISTORY_REWOUND: "The server lost its newest events: the table is re-read.",
  HISTORY_TRIMMED: "The start of this match's feed is no longer kept.",
  BAD_TICKET: "That is not a ticket's name: use the one Play now gave you.",
  TICKET_NOT_FOUND: "That search for a match has ended or is unknown: press Play now again.",
  TICKET_ALREADY_MATCHED: "A match was found already: your seat waits at its link.",
  PARTY_TOO_BIG: "Your party is bigger than this way to play has seats.",
  SEATING_FAILED: "Your match was found but your seat was not set: try again.",
  NOT_YOUR_TICKET: "This search for a match is not yours: its leader must name you in it.",
  BAD_PARTY: "Name each friend of your party once, and not yourself.",
  INTERNAL: "Something went wrong on the server: try again.",
};

/** A reason at the start of a refusal's message: "BAD_OPTIONS: …". */
const REASON = /^([A-Z][A-Z0-9_]+):\s*/;

/** One sentence for a refusal: the table's, else the server's message as a sentence. */
export function refusalText(message: string): string {
  const reason = REASON.exec(message)?.[1] ?? "";
  if (reason in SENTENCES) return SENTENCES[reason];
  const said = message.replace(REASON, "").trim() || "the server refused that";
  const sentence = said.charAt(0).toUpperCase() + said.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** Whether a stream ended because the server lost events it had delivered (a Redis
 * fail-over, issue 40): the page reads the match again instead of stopping. */
export function rewound(error: unknown): boolean {
  if (!(error instanceof ConnectError)) return false;
  const reason = REASON.exec(error.rawMessage)?.[1];
  return reason === "HISTORY_REWOUND" || reason === "SEQUENCE_AHEAD";
}

/** Any error as the sentence a person reads: never a class name or a raw error. */
export function errorText(error: unknown): string {
  if (error instanceof ConnectError) return refusalText(error.rawMessage);
  if (error instanceof SyntaxError) return "The options are not valid JSON: check their brackets, quotes and commas.";
  const message = error instanceof Error ? error.message : String(error);
  return refusalText(message);
}
