"""Redis key names; the match id is a hash tag so one match lives in one cluster slot."""

#: Pub/sub channel carrying the hash of every revoked seat token.
REVOKED = "parlour:revoked"


def state(match: str) -> str:
    """Hash: v (version), q (last event sequence), s (State bytes), p (progress),
    o (the packed Options the match was created with)."""
    return f"parlour:{{{match}}}:state"


def events(match: str) -> str:
    """Stream: entry id "<sequence>-0"; fields e (RecordedEvent), v (visibility), a (actor),
    n (version), f (the last event), s (seat version; see store/commit.lua)."""
    return f"parlour:{{{match}}}:events"


def match_of(key: str) -> str:
    """The match id inside any of a match's keys."""
    return key[key.index("{") + 1 : key.index("}")]


def meta(match: str) -> str:
    """Hash: game, seats, spectators, fp (creation fingerprint), name:<seat>, token:<seat>,
    t:<token hash> -> seat, join:<request id> -> "seat|fingerprint", joinrid:<seat>,
    proof:<proof> -> seat and proofof:<seat> (the hash of the join secret 's…' or the
    subject 'p…' that took it; store/seat.lua), invite (1: a private table; 2: a match
    matchmaking made, whose seats only its tickets' members and its bots may take, not
    private in the records), code (its join code), inv:<proof> (an invited subject or
    ticket member),
    sv (seat version: how many tokens were revoked; absent until one is), status,
    listed (its lobby member, while it is listed); audit: commitment, salt, seed (secret
    until the end), secret_after_end. The field names are in store/meta.py."""
    return f"parlour:{{{match}}}:meta"


def mine(subject_key: str) -> str:
    """Sorted set: the matches a subject (identity.Identity.key) sat down in, by join time
    (ms); ListMyMatches."""
    return f"parlour:mine:{subject_key}"


def requests(match: str) -> str:
    """Hash: 12-byte digest of a request id -> 16-byte fingerprint + recorded ActResult,
    one per accepted action; the hash lives the retry window past the match's last action
    (PARLOUR_REQUEST_RETRY_SECONDS, store/commit.lua)."""
    return f"parlour:{{{match}}}:requests"


def actions(match: str) -> str:
    """List of LoggedAction bytes (seat, action, request id, version), in commit order."""
    return f"parlour:{{{match}}}:actions"


#: Request ids the platform itself acts with (turn timeouts); refused from clients.
PLATFORM_REQUEST_PREFIX = "parlour:"


def timers(game: str) -> str:
    """Sorted set of one game's matches with a running turn timer, scored by the earliest
    deadline (Unix ms). A hint only: the deadlines in the stored progress are the truth, and
    a score is never later than them."""
    return f"parlour:timers:{game}"


def lobby(game: str = "") -> str:
    """Sorted set: listed match ids scored by creation time (ms), every game or one game."""
    return f"parlour:lobby:{game}" if game else "parlour:lobby"


def lobby_pick(request_id: str) -> str:
    """String: the match a JoinOrCreate request id chose (kept an hour)."""
    return f"parlour:lobby-pick:{request_id}"


def gateways(match: str) -> str:
    """Set of the ids of the gateways with subscribers of the match (each is told of the
    commits it did not make itself, on its gateway_channel)."""
    return f"parlour:{{{match}}}:gateways"


def ratings_due(game: str) -> str:
    """Sorted set: one game's matches whose finishing commit is being made or was made and
    not rated yet, scored by when (ms). A hint written before the commit: the stored outcome
    is the truth, and `rated` below says whether it counted (rules/ratings.py)."""
    return f"parlour:ratings-due:{game}"


def board(game: str, variant: str) -> str:
    """Sorted set: player key -> Rating.display; one game and variant's leaderboard. Every
    ratings key of a game and variant shares one hash tag (one cluster slot), so a match's
    update is one atomic script (store/ratings.lua)."""
    return f"parlour:{{rate:{game}:{variant}}}:board"


def players(game: str, variant: str) -> str:
    """Hash: player key -> "mu|sigma|matches|wins|display name" (ratingstore.Standing)."""
    return f"parlour:{{rate:{game}:{variant}}}:players"


def recent(game: str, variant: str, player: str) -> str:
    """List: a player's newest rated matches there (RecordedMatch bytes), newest first."""
    return f"parlour:{{rate:{game}:{variant}}}:recent:{player}"


def rated(game: str, variant: str, match: str) -> str:
    """String: present once the match's result is in the ratings; it expires with the match
    (PARLOUR_FINISHED_RETENTION_SECONDS; a week when matches are kept for ever): a match no
    longer stored is never rated again."""
    return f"parlour:{{rate:{game}:{variant}}}:rated:{match}"


def played(player: str) -> str:
    """Set: "<game>/<variant>" of every leaderboard a player is on (GetPlayerRecord)."""
    return f"parlour:played:{player}"


#: A gateway's channel is this plus its id; each message names a match with new events.
GATEWAY_CHANNEL = "parlour:gateway:"


def notified(match: str) -> str:
    """Hash: the notices written for a match (issue 44; parlour.notify.outbox)."""
    return f"parlour:{{{match}}}:notified"


def all_for(match: str) -> list[str]:
    """Every key of one match."""
    return [
        state(match),
        events(match),
        meta(match),
        requests(match),
        actions(match),
        gateways(match),
        notified(match),
    ]


def pool_tag(pool: str) -> str:
    """The hash tag of a matchmaking pool ("<game>:<variant>:<options digest or ->:<r|f>"):
    every key of one pool lives in one Cluster slot, so a matching pass is one script."""
    return f"parlour:{{mm:{pool}}}"


def tickets(pool: str) -> str:
    """Hash: ticket id -> the ticket as JSON (store/tickets.lua says which fields)."""
    return f"{pool_tag(pool)}:tickets"


def ticket_ratings(pool: str) -> str:
    """Sorted set: searching ticket id -> its rating (mu), for the window's range query."""
    return f"{pool_tag(pool)}:ratings"


def ticket_waiting(pool: str) -> str:
    """Sorted set: searching ticket id -> when it was asked for (ms), oldest first."""
    return f"{pool_tag(pool)}:waiting"


def tickets_done(pool: str) -> str:
    """Sorted set: matched, cancelled or expired ticket id -> when (ms); its record is
    dropped once this is older than the keep period."""
    return f"{pool_tag(pool)}:done"


#: Sorted set: every matchmaking pool with tickets -> when a ticket last entered it (ms);
#: each gateway's matcher runs a pass over every pool listed.
POOLS = "parlour:mm:pools"

#: Sorted set: a matchmade match whose bots run -> until when (ms) the gateway running them
#: holds it (it renews the lease every pass); a lapsed lease is claimed by any gateway's
#: matcher, which restarts the bots (store/bots.lua). One hash tag with BOT_SEATS.
BOT_LEASES = "parlour:{mm:bots}:leases"
#: Hash: such a match -> its bots as JSON: seats (the bot seats), n (restarts so far).
BOT_SEATS = "parlour:{mm:bots}:seats"
