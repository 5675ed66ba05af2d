-- A matchmaking ticket's own changes (store/ticketstore.py). KEYS: 1 tickets hash,
-- 2 ratings zset, 3 waiting zset, 4 done zset (one pool, one hash tag).
-- A ticket (JSON): r rating, t asked at (ms), n party size, lo..hi seat counts, l lease
-- (ms: a stream follows it until then), s state (s searching, m matched, c cancelled,
-- x expired), o the options (base64), p members' display names and record keys; once
-- matched: m match id, sd seed, g the group [[ticket id, size, ws or w], ...], N seats, b bots;
-- w: the asker's subject key (identity on; else ''). A party with identity on: ws the
-- members' subject keys (the asker's first), q those not yet confirmed; the ticket waits
-- outside the pool (no rating, no wait) until q is empty.
-- put:    ARGV 'put', id, ticket JSON, rating, asked at, pool lifetime (ms) -> 1 (0: the
--         id exists); every key of the pool lives that long after its newest ticket
-- touch:  ARGV 'touch', id, lease until, now, grace, longest (ms) -> the ticket JSON | false
--         (a searching ticket whose lease lapsed more than the grace ago expires now, and
--         so does a party still gathering (q) the longest wait after it was asked)
-- cancel: ARGV 'cancel', id, now                              -> the ticket JSON | false
-- confirm: ARGV 'confirm', id, subject key, display name, now -> the ticket JSON | false
--         (a party member named in q confirms: its name is set, it leaves q; the last
--         one's confirmation puts the ticket in the pool, its wait starting now)
--         (only a searching ticket is cancelled; any other is returned unchanged)
local function finish(id, ticket, state, now)
  ticket.s = state
  ticket.f = now
  redis.call('HSET', KEYS[1], id, cjson.encode(ticket))
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  redis.call('ZADD', KEYS[4], now, id)
end

local op, id = ARGV[1], ARGV[2]
if op == 'put' then
  if redis.call('HSETNX', KEYS[1], id, ARGV[3]) == 0 then return 0 end
  local pending = cjson.decode(ARGV[3]).q
  if not pending or #pending == 0 then
    redis.call('ZADD', KEYS[2], ARGV[4], id)
    redis.call('ZADD', KEYS[3], ARGV[5], id)
  end
  for i = 1, 4 do
    if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[6]) then redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
  end
  return 1
end
local raw = redis.call('HGET', KEYS[1], id)
if not raw then return false end
local ticket = cjson.decode(raw)
if ticket.s ~= 's' then return raw end
if op == 'touch' then
  local now = tonumber(ARGV[4])
  local gathering = ticket.q and #ticket.q > 0
  if ticket.l + tonumber(ARGV[5]) < now or (gathering and ticket.t + tonumber(ARGV[6]) < now) then
    finish(id, ticket, 'x', now)
  else
    ticket.l = tonumber(ARGV[3])
    redis.call('HSET', KEYS[1], id, cjson.encode(ticket))
  end
  return cjson.encode(ticket)
end
if op == 'confirm' then
  local pending, left = ticket.q or {}, {}
  for _, subject in ipairs(pending) do
    if subject ~= ARGV[3] then left[#left + 1] = subject end
  end
  if #left == #pending then return raw end
  for k, subject in ipairs(ticket.ws) do
    if subject == ARGV[3] then ticket.p[k][1] = ARGV[4] end
  end
  if #left == 0 then
    ticket.q = nil
    ticket.t = tonumber(ARGV[5])
    redis.call('ZADD', KEYS[2], ticket.r, id)
    redis.call('ZADD', KEYS[3], ticket.t, id)
  else
    ticket.q = left
  end
  redis.call('HSET', KEYS[1], id, cjson.encode(ticket))
  return cjson.encode(ticket)
end
finish(id, ticket, 'c', tonumber(ARGV[3]))
return cjson.encode(ticket)
