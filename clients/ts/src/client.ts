/**
 * A small typed client of parlour.gateway.v1.GatewayService over gRPC (Connect-ES),
 * with the message types buf generates from protos/ with protobuf-es.
 */
import { create, createFileRegistry, createMutableRegistry, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { anyUnpack, FileDescriptorSetSchema, type Any, type FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { file_parlour_engine_v1_platform } from "./gen/parlour/engine/v1/platform_pb.js";
import type {
  FindMatchResponse,
  Game,
  GetPlayerRecordResponse,
  ListActionsResponse,
  ListLeaderboardResponse,
  Match,
  MatchEvent,
  MatchFinished,
  MatchProgress,
  SetAwayResponse,
  SubmitActionResponse,
} from "./gen/parlour/gateway/v1/gateway_pb.js";
import { GatewayService } from "./gen/parlour/gateway/v1/gateway_service_pb.js";

export type * from "./gen/parlour/gateway/v1/gateway_pb.js";
export { renderText } from "./seats.js";

/** The message types this client knows, to unpack the Any fields of the API: the
 * platform's events (TimedOut, Undone, Abandoned), then every game's messages as the
 * gateway describes them (`learnFiles`; ParlourClient does it when it first needs to), so
 * no game needs code here. */
export const registry = createMutableRegistry(file_parlour_engine_v1_platform);

/** Add proto files (a FileDescriptorSet's files, dependencies first, as ListGames sends
 * them with `withFiles`) to the registry. */
export function learnFiles(files: FileDescriptorProto[]): void {
  for (const type of createFileRegistry(create(FileDescriptorSetSchema, { file: files }))) registry.add(type);
}

/** A game message (View, Event, Action, Catalogue) from an Any, or undefined if unknown. */
export function unpack(any: Any | undefined) {
  return any ? anyUnpack(any, registry) : undefined;
}

/** A game message of a known type from an Any; undefined if the Any holds another type. */
export function unpackAs<Desc extends DescMessage>(
  any: Any | undefined,
  schema: Desc,
): MessageShape<Desc> | undefined {
  return any ? anyUnpack(any, schema) : undefined;
}

/** The message descriptor of a type URL, e.g. GameInfo.viewTypeUrl. */
export function messageType(typeUrl: string): DescMessage | undefined {
  return registry.getMessage(typeUrl.slice(typeUrl.lastIndexOf("/") + 1));
}

/** One item of an event stream: an event, the match's progress after a change (sent after
 * the change's events, also when it made none), or the final message of a finished match. */
export type FeedItem = { event: MatchEvent } | { progress: MatchProgress } | { finished: MatchFinished };

async function* feed(
  stream: AsyncIterable<{ kind: { case: string | undefined; value?: unknown } }>,
): AsyncGenerator<FeedItem> {
  for await (const message of stream) {
    const { kind } = message;
    if (kind.case === "event") yield { event: kind.value as MatchEvent };
    else if (kind.case === "batch") {
      const batch = kind.value as { events: MatchEvent[]; progress?: MatchProgress };
      for (const event of batch.events) yield { event };
      if (batch.progress) yield { progress: batch.progress };
    } else if (kind.case === "progress") yield { progress: kind.value as MatchProgress };
    else if (kind.case === "finished") yield { finished: kind.value as MatchFinished };
  }
}

/** Where a seat token travels when the gateway verifies identity (authorization: the JWT). */
export const SEAT_HEADER = "x-parlour-seat-token";

/** A JWT from the host's identity provider, or a function returning a current one. */
export type IdentityToken = string | (() => string | Promise<string>);

/** Sends `authorization: Bearer <JWT>` on every call; a seat token the call carried in
 * `authorization` moves to x-parlour-seat-token (the gateway's form with identity on). */
export function identityInterceptor(token: IdentityToken): Interceptor {
  return (next) => async (request) => {
    const seat = request.header.get("authorization");
    if (seat !== null) request.header.set(SEAT_HEADER, seat.replace(/^Bearer /, ""));
    const jwt = typeof token === "function" ? await token() : token;
    request.header.set("authorization", `Bearer ${jwt}`);
    return next(request);
  };
}

/** A connection to a gateway; with `identityToken`, for a gateway that verifies identity. */
export class ParlourClient {
  readonly api: Client<typeof GatewayService>;

  constructor(address: string, options: { tls?: boolean; identityToken?: IdentityToken } = {}) {
    const scheme = options.tls ? "https" : "http";
    const interceptors = options.identityToken === undefined ? [] : [identityInterceptor(options.identityToken)];
    this.api = createClient(
      GatewayService,
      createGrpcTransport({ baseUrl: `${scheme}://${address}`, interceptors }),
    );
  }

  private learnt?: Promise<void>;

  /** The games served; their messages join the registry. */
  async games(): Promise<Game[]> {
    const response = await this.api.listGames({ withFiles: true });
    learnFiles(response.files);
    return response.games;
  }

  /** A game message from an Any, learning the served games' types first if it is of one
   * not known yet (a game this client was built without); undefined if none knows it. */
  async unpack(any: Any | undefined) {
    if (any?.typeUrl && !messageType(any.typeUrl)) {
      this.learnt ??= this.games().then(() => undefined);
      await this.learnt;
      if (!messageType(any.typeUrl)) this.learnt = undefined;
    }
    return unpack(any);
  }

  /** Create a match; the request id makes retries safe. `rated: false`: a friendly match
   * whose result changes nobody's record (unset: the gateway's default, rated). The match
   * starts on the newest rules version a replica plays (`rulesVersion`). */
  async createMatch(
    game: string,
    seats: number,
    options: { seed?: bigint; spectators?: boolean; requestId?: string; rated?: boolean } = {},
  ): Promise<Match> {
    const response = await this.api.createMatch({
      game,
      seats,
      seed: options.seed,
      allowSpectators: options.spectators ?? false,
      requestId: options.requestId ?? crypto.randomUUID(),
      rated: options.rated,
    });
    return response.match!;
  }

  /** A match as it stands (`rulesVersion`: the rules version it is played under). */
  async match(name: string): Promise<Match> {
    return (await this.api.getMatch({ match: name })).match!;
  }

  /** Take a seat (the lowest free one unless `seat` is given). A retry with the same
   * `joinSecret` re-opens the seat with a fresh token if the first answer was lost. A bot
   * names its strategy in `bot` ("greedy"): its results count toward the strategy's record.
   * The handle's `player` is the record the seat counts toward ("": nobody's). */
  async join(
    match: string,
    name: string,
    seat?: number,
    options: { joinSecret?: string; requestId?: string; bot?: string } = {},
  ): Promise<SeatHandle> {
    const response = await this.api.joinMatch({
      match,
      seat,
      displayName: name,
      requestId: options.requestId ?? crypto.randomUUID(),
      joinSecret: options.joinSecret ?? "",
      bot: options.bot ?? "",
    });
    return new SeatHandle(this, match, response.seat, response.seatToken, response.player);
  }

  /** A player's record ("players/{key}" as a join or a leaderboard names it, or "players/me"
   * with identity): per game and variant its rating, matches, wins, rank and newest rated
   * matches; only `game` (and its `variant`) when given. */
  async getPlayerRecord(player: string, options: { game?: string; variant?: string } = {}): Promise<GetPlayerRecordResponse> {
    return this.api.getPlayerRecord({ player, game: options.game ?? "", variant: options.variant ?? "" });
  }

  /** A game and variant's leaderboard (variant unset: the game's first): the `top` best
   * (default 10), and the `neighbours` (default 5) on either side of the player `around`. */
  async listLeaderboard(
    game: string,
    options: { variant?: string; top?: number; around?: string; neighbours?: number } = {},
  ): Promise<ListLeaderboardResponse> {
    return this.api.listLeaderboard({
      game,
      variant: options.variant ?? "",
      top: options.top ?? 0,
      around: options.around ?? "",
      neighbours: options.neighbours ?? 0,
    });
  }

  /** Matchmaking (issue 45): a ticket for `game` (its `variant`, default the first; seat
   * counts minSeats..maxSeats, default the variant's fewest; `party`: friends' names, seated
   * together) and its states until the last (matched, expired, cancelled); `ticket`
   * re-opens an existing ticket's stream instead. Leaving the loop early closes the stream:
   * the ticket is matched no more and expires after the host's grace. */
  findMatch(
    game: string,
    options: {
      variant?: string; name?: string; minSeats?: number; maxSeats?: number; rated?: boolean;
      party?: string[]; ticket?: string; signal?: AbortSignal;
    } = {},
  ): AsyncIterable<FindMatchResponse> {
    return this.api.findMatch({
      game,
      variant: options.variant ?? "",
      displayName: options.name ?? "",
      minSeats: options.minSeats ?? 0,
      maxSeats: options.maxSeats ?? 0,
      rated: options.rated,
      party: options.party ?? [],
      ticket: options.ticket ?? "",
    }, { signal: options.signal });
  }

  /** Cancel a searching ticket (refused FAILED_PRECONDITION TICKET_ALREADY_MATCHED once
   * matched); answers its TicketState. */
  async cancelTicket(ticket: string) {
    return (await this.api.cancelTicket({ ticket })).state;
  }

  /** Wait for a match of `game` (findMatch's options) and return its seats, the caller's
   * first; `onState` sees each state on the way. Throws if the ticket ends unmatched. */
  async playNow(
    game: string,
    options: Parameters<ParlourClient["findMatch"]>[1] & { onState?: (state: FindMatchResponse) => void } = {},
  ): Promise<SeatHandle[]> {
    for await (const state of this.findMatch(game, options)) {
      options.onState?.(state);
      if (state.match) return state.seats.map((s) => new SeatHandle(this, state.match, s.seat, s.seatToken));
      if (state.state > 2) throw new Error(`the ticket ended unmatched (state ${state.state})`);
    }
    throw new Error("the ticket's stream ended without an answer");
  }

  /** The spectators' event feed, ending with MatchFinished once the match is over. */
  spectate(match: string, after = 0n): AsyncGenerator<FeedItem> {
    return feed(this.api.streamEvents({ match, afterSequence: after, progressWithEvents: true }));
  }
}

/** A seated player: its token travels with every call. */
export class SeatHandle {
  private readonly headers: Record<string, string>;

  constructor(
    readonly client: ParlourClient,
    readonly match: string,
    readonly seat: number,
    token: string,
    /** The record this seat's results count toward ("players/{key}"; "": nobody's). */
    readonly player = "",
  ) {
    this.headers = { authorization: `Bearer ${token}` };
  }

  /** The seat's View (unpacked) and the match progress. */
  async view(): Promise<{ view: MessageShape<DescMessage> | undefined; progress: MatchProgress }> {
    const response = await this.client.api.getView({ match: this.match }, { headers: this.headers });
    return { view: await this.client.unpack(response.view), progress: response.progress! };
  }

  /** The seat's legal actions, each with the label the game's rules give it. */
  async actions(): Promise<ListActionsResponse> {
    return this.client.api.listActions({ match: this.match }, { headers: this.headers });
  }

  /** Submit one action (as listed, or packed by the caller). */
  async submit(action: Any, expectedVersion?: bigint): Promise<SubmitActionResponse> {
    return this.client.api.submitAction(
      { match: this.match, action, requestId: crypto.randomUUID(), expectedVersion },
      { headers: this.headers },
    );
  }

  /** In a correspondence match, pause this seat's clock until a date (Unix ms, within the
   * match's limits; an earlier date cuts the pause short), or 0n: back now. Every seat sees
   * it; retrying with the same request id is safe. */
  async setAway(untilUnixMs: bigint, requestId: string = crypto.randomUUID()): Promise<SetAwayResponse> {
    return this.client.api.setAway({ match: this.match, untilUnixMs, requestId }, { headers: this.headers });
  }

  /** The seat's event feed, ending with MatchFinished once the match is over. */
  events(after = 0n): AsyncGenerator<FeedItem> {
    return feed(this.api().streamEvents({ match: this.match, afterSequence: after, progressWithEvents: true }, { headers: this.headers }));
  }

  private api() {
    return this.client.api;
  }
}
