"""Issue 36 item 1: every game's finished rated match moves its players' ratings exactly as
openskill's Plackett-Luce computes them, with the sides the game declares (free-for-all,
1v1, one against all, a seat against the Automa), and exactly once per match however many
times it is rated. Real rules core, real Redis."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from openskill.models import PlackettLuce

from parlour.engine.game import Outcome
from parlour.engine.registry import get_game
from parlour.engine.rng import Rng
from parlour.games.clashofminds.v1 import clashofminds_pb2 as com
from parlour.games.murdercastle.v1 import murdercastle_pb2 as mc
from parlour.rules.core import RulesCore, pack
from parlour.rules.v1 import rules_pb2 as pb
from parlour.store import keys
from parlour.store.ratingstore import RatingStore, Standing

MODEL = PlackettLuce()


def record_key(name: str) -> str:
    return "n" + uuid.uuid5(uuid.NAMESPACE_URL, name).hex


async def play(core: RulesCore, store, options, seats: int, seed: int, players: list[str],
               meta: dict | None = None) -> tuple[str, pb.MatchProgress]:
    """Create a match, seat `players` (record keys), play seeded random legal actions to the
    end; returns the match id and the final progress."""
    match = uuid.uuid4().hex
    await core.create_match(pb.CreateMatchRequest(
        match_id=match, options=pack(options), seats=seats, seed=seed,
        meta={"game": core.game.name, "seats": str(seats), **(meta or {})}))
    for seat, player in enumerate(players):
        taken = await store.take_seat(match, seat, f"h{seat}", f"P{seat}", "", "f",
                                      record=player)
        assert taken.seat == seat
    rng = Rng.from_seed(seed)
    progress = (await core.current(match)).progress
    step = 0
    while not progress.HasField("outcome"):
        seat = progress.pending[0].seat
        actions = (await core.list_actions(match, seat)).actions
        response = await core.act(pb.ActRequest(
            match_id=match, seat=seat, action=actions[rng.below(len(actions))],
            token_hash=f"h{seat}", request_id=f"r{step}"))
        progress = response.result.progress
        step += 1
    return match, progress


def expected(sides: list[list[Standing]], places: list[int]) -> list[list[tuple[float, float]]]:
    """The library's own numbers for these sides and places."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    return [[(r.mu, r.sigma) for r in team] for team in MODEL.rate(teams, ranks=places)]


def ffa_places(outcome, lowest_first: bool = False) -> list[int]:
    """Winners first, then by score, higher first unless the lowest score wins (the default
    every-seat-for-itself sides)."""
    sign = -1 if lowest_first else 1
    keys_ = [(s in outcome.winners, sign * score) for s, score in enumerate(outcome.scores)]
    return [1 + sum(other > mine for other in keys_) for mine in keys_]


CASES = {
    # name: (game, options, seats, sides of seats by outcome -> (sides, places))
    "isayholmes free-for-all": ("isayholmes", None, 4, "ffa"),
    "houseofhorrors free-for-all": ("houseofhorrors", None, 3, "ffa"),
    "tinycards free-for-all": ("tinycards", None, 3, "ffa"),
    "clashofminds 1v1": ("clashofminds", com.Options(), 2, "ffa"),
    "clashofminds agents 1v1": ("clashofminds", com.Options(agents=True), 2, "ffa"),
    "murdercastle standard free-for-all": ("murdercastle", mc.Options(), 3, "ffa"),
    "murdercastle Automa": ("murdercastle", mc.Options(automa=mc.AUTOMA_LEVEL_BEGINNER), 1,
                            "automa"),
    "murdercastle Play as Holmes, one against all": (
        "murdercastle", mc.Options(play_as_holmes=mc.PlayAsHolmes(seat=1)), 4, "holmes"),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_a_finished_match_rates_its_players_as_openskill_does(store, case):
    """Issue 36 item 1: two matches in a row between the same players; after each, every
    stored (mu, sigma) is the library's rating of the sides the game declares, from the
    ratings before it."""
    name, options, seats, shape = CASES[case]
    game = get_game(name)
    options = options or game.default_options(seats)
    core = RulesCore(game, store)
    ratings = RatingStore(store.redis)
    variant = game.rated_variant(options)
    players = [record_key(f"{case}-{uuid.uuid4()}-{s}") for s in range(seats)]
    automa = "game:automa"
    before = {p: Standing(25.0, 25 / 3, 0, 0, "") for p in [*players, automa]}
    (automa_now,) = await ratings.read(name, variant, [automa])
    if automa_now:
        before[automa] = Standing.decode(automa_now)
    for seed in (5, 6):
        match, progress = await play(core, store, options, seats, seed, players)
        outcome = progress.outcome
        if shape == "ffa":
            sides = [[p] for p in players]
            places = ffa_places(outcome, name == "isayholmes")
        elif shape == "automa":
            sides = [[players[0]], [automa]]
            places = [1, 2] if 0 in outcome.winners else [2, 1]
        else:
            holmes = options.play_as_holmes.seat
            sides = [[players[holmes]], [p for s, p in enumerate(players) if s != holmes]]
            places = [1, 2] if holmes in outcome.winners else [2, 1]
        want = expected([[before[p] for p in side] for side in sides], places)
        stored = await ratings.read(name, variant, [p for side in sides for p in side])
        assert all(stored), (stored, variant, progress.outcome)
        got = [Standing.decode(raw) for raw in stored]
        flat = [x for team in want for pair in team for x in pair]
        assert [x for g in got for x in (g.mu, g.sigma)] == pytest.approx(flat, rel=1e-12)
        assert await ratings.is_rated(name, variant, match)
        assert not await store.redis.zscore(keys.ratings_due(name), match)
        for p, g in zip([p for side in sides for p in side], got, strict=True):
            assert g.matches == before[p].matches + 1
            before[p] = g


async def test_rating_the_same_match_again_and_again_changes_nothing(store):
    """Issue 36 item 1, exactly once: ten replicas rating the same finished match at the
    same moment (the sweepers racing the finishing replica) apply it once."""
    game = get_game("tinycards")
    core = RulesCore(game, store)
    players = [record_key(f"again-{uuid.uuid4()}-{s}") for s in range(2)]
    match, _ = await play(core, store, game.default_options(2), 2, 9, players)
    ratings = RatingStore(store.redis)
    once = await ratings.read("tinycards", "standard", players)
    results = await asyncio.gather(*(core.ratings.settle(match, 0) for _ in range(10)))
    assert results == ["already"] * 10
    assert await ratings.read("tinycards", "standard", players) == once
    assert all(Standing.decode(raw).matches == 1 for raw in once)


async def test_matches_finishing_together_both_count(store):
    """Issue 36 item 1: two matches of the same player rated at the same moment: neither
    update is lost (the second is computed again from the first's result)."""
    game = get_game("tinycards")
    core = RulesCore(game, store)
    ada = record_key(f"ada-{uuid.uuid4()}")
    matches = []
    for seed in (1, 2, 3):
        others = [record_key(f"o-{uuid.uuid4()}")]
        match, _ = await play(core, store, game.default_options(2), 2, seed, [ada, *others])
        matches.append(match)
    await store.redis.delete(*(keys.rated("tinycards", "standard", m) for m in matches))
    await store.redis.hdel(keys.players("tinycards", "standard"), ada)
    results = await asyncio.gather(*(core.ratings.settle(m, 0) for m in matches))
    assert results == ["applied"] * 3
    (raw,) = await RatingStore(store.redis).read("tinycards", "standard", [ada])
    assert Standing.decode(raw).matches == 3


async def test_unrated_matches_and_test_only_options_do_not_count(store):
    """Issue 36 item 3: `rated: false` (meta unrated) and Murder Castle's test-only
    round_limit leave every record as it was."""
    tiny = RulesCore(get_game("tinycards"), store)
    players = [record_key(f"friendly-{uuid.uuid4()}-{s}") for s in range(2)]
    match, _ = await play(tiny, store, get_game("tinycards").default_options(2), 2, 4, players,
                          meta={"unrated": "1"})
    assert await tiny.ratings.settle(match, 0) == "unrated"
    assert await RatingStore(store.redis).read("tinycards", "standard", players) == ["", ""]
    assert get_game("murdercastle").rated_variant(mc.Options(round_limit=3)) is None


async def test_a_seat_that_counts_toward_nobody_plays_as_a_newcomer(store):
    """A guest (no record) is rated at the model's default each time and stored nowhere."""
    game = get_game("tinycards")
    core = RulesCore(game, store)
    ada = record_key(f"guest-{uuid.uuid4()}")
    for seed in (1, 2):
        await play(core, store, game.default_options(2), 2, seed, [ada, ""])
    raw = await store.redis.hgetall(keys.players("tinycards", "standard"))
    assert b"" not in raw
    assert Standing.decode(raw[ada.encode()]).matches == 2


async def test_two_seats_of_one_record_play_at_its_rating_and_count_once(store):
    """JoinMatchResponse.player: two bots of one strategy in a match are both rated at the
    strategy's rating (not as newcomers), and the record keeps its best-placed seat's
    result, once."""
    game = get_game("tinycards")
    core = RulesCore(game, store)
    ratings = RatingStore(store.redis)
    ada, bot = record_key(f"dup-{uuid.uuid4()}"), f"bot:dup-{uuid.uuid4().hex[:8]}"
    strong = Standing(31.0, 4.0, 12, 9, "dup bot")
    await store.redis.hset(keys.players("tinycards", "standard"), bot, strong.encode())
    _, progress = await play(core, store, game.default_options(3), 3, 8, [ada, bot, bot])
    places = ffa_places(progress.outcome)
    kept = min((1, 2), key=lambda s: places[s])
    want = expected([[Standing(25.0, 25 / 3, 0, 0, "")], [strong], [strong]], places)
    got = [Standing.decode(raw) for raw in await ratings.read("tinycards", "standard", [ada, bot])]
    assert [got[0].mu, got[0].sigma] == pytest.approx(list(want[0][0]), rel=1e-12)
    assert [got[1].mu, got[1].sigma] == pytest.approx(list(want[kept][0]), rel=1e-12)
    assert got[1].matches == 13
    found = await ratings.standing("tinycards", "standard", bot)
    assert found is not None and [m.seat for m in found[2]] == [kept]


async def test_a_bot_that_won_from_its_second_seat_counts_the_win(store):
    """Issue 43: after a bot won, its record said 0 wins: with two seats of one strategy the
    record kept the lower seat's loss. The winning seat's result is kept."""
    game = get_game("tinycards")
    core = RulesCore(game, store)
    ratings = RatingStore(store.redis)
    for seed in range(1, 40):
        ada, bot = record_key(f"win-{uuid.uuid4()}"), f"bot:win-{uuid.uuid4().hex[:8]}"
        _, progress = await play(core, store, game.default_options(3), 3, seed, [ada, bot, bot])
        if list(progress.outcome.winners) == [2]:
            break
    else:
        raise AssertionError("no seed in 1..39 where only the third seat wins")
    (raw,) = await ratings.read("tinycards", "standard", [bot])
    assert Standing.decode(raw).wins == 1
    found = await ratings.standing("tinycards", "standard", bot)
    assert found is not None and [m.seat for m in found[2]] == [2]
    assert found[2][0].place == 1


def test_lowest_score_wins_games_rate_the_others_by_order_of_finish():
    """Issue 43: in I Say, Holmes! (lowest score wins) the player with the second-lowest total
    comes second, not last; games where the highest wins still rank higher first."""
    outcome = Outcome((40, 10, 25), (1,))
    assert get_game("isayholmes").rating_sides(None, outcome).places == (3, 1, 2)
    assert get_game("houseofhorrors").rating_sides(None, outcome).places == (2, 1, 3)


def test_every_variant_is_rated_in_itself():
    """Game.rated_variant: a match created with a variant's Options counts in that variant
    (Play as Holmes whatever the Holmes seat)."""
    for name in ("clashofminds", "houseofhorrors", "isayholmes", "murdercastle", "tinycards"):
        game = get_game(name)
        for variant in game.variants():
            assert game.rated_variant(variant.options) == variant.name
    holmes = mc.Options(play_as_holmes=mc.PlayAsHolmes(seat=3), first_seat=2)
    assert get_game("murdercastle").rated_variant(holmes) == "play-as-holmes"
