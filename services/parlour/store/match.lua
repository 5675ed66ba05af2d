-- One matching pass over a pool (store/ticketstore.py). KEYS as tickets.lua.
-- ARGV: now (ms), window start, window growth per second, window limit, bots after (ms,
-- 0 never), longest wait (ms), grace (ms), keep (ms), anchors per pass, then pairs of
-- (match id, seed) for the matches this pass may make.
-- Oldest searching ticket first (the anchor), its window = min(start + growth * waited,
-- limit); tickets whose rating is within the window, nearest first, join its group while
-- the party sizes fit a seat count every member accepts. A group of at least the seat
-- count every member accepts becomes a match; one waiting the host's bot wait gets bots
-- for its missing seats. Tickets whose lease lapsed (no stream) are passed over, and
-- expire after the grace; so do tickets that waited the longest wait.
-- -> {searching left, match id, ticket ids..., '', match id, ...}
local now = tonumber(ARGV[1])
local start, growth, limit = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local bots_after, longest = tonumber(ARGV[5]), tonumber(ARGV[6])
local grace, keep, anchors = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local next_pair = 10

for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now - keep, 'LIMIT', 0, 256)) do
  redis.call('HDEL', KEYS[1], id)
  redis.call('ZREM', KEYS[4], id)
end

local function finish(id, ticket, state)
  ticket.s = state
  ticket.f = now
  redis.call('HSET', KEYS[1], id, cjson.encode(ticket))
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  redis.call('ZADD', KEYS[4], now, id)
end

local cache, taken = {}, {}
local function load(id)
  if cache[id] == nil then
    local raw = redis.call('HGET', KEYS[1], id)
    cache[id] = raw and cjson.decode(raw) or false
    if cache[id] and cache[id].s ~= 's' then
      redis.call('ZREM', KEYS[2], id)
      redis.call('ZREM', KEYS[3], id)
      cache[id] = false
    end
  end
  return cache[id]
end

local out = {0}
for _, anchor in ipairs(redis.call('ZRANGE', KEYS[3], 0, anchors - 1)) do
  local a = load(anchor)
  if not a then
    redis.call('ZREM', KEYS[2], anchor)
    redis.call('ZREM', KEYS[3], anchor)
  elseif not taken[anchor] then
    local waited = now - a.t
    if a.l + grace < now or waited > longest then
      finish(anchor, a, 'x')
      taken[anchor] = true
    elseif a.l >= now then
      local window = math.min(start + growth * waited / 1000, limit)
      -- the 32 nearest at or below the anchor's rating and the 32 nearest above it
      local below = redis.call('ZREVRANGEBYSCORE', KEYS[2], a.r, a.r - window,
        'WITHSCORES', 'LIMIT', 0, 32)
      local above = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. a.r, a.r + window,
        'WITHSCORES', 'LIMIT', 0, 32)
      local near = {}
      for _, found in ipairs({below, above}) do
        for i = 1, #found, 2 do
          local id = found[i]
          if id ~= anchor and not taken[id] then
            near[#near + 1] = {id, math.abs(tonumber(found[i + 1]) - a.r)}
          end
        end
      end
      table.sort(near, function(x, y) return x[2] < y[2] end)
      local group, total, lo, hi = {anchor}, a.n, a.lo, a.hi
      for _, pick in ipairs(near) do
        if total == hi then break end
        local c = load(pick[1])
        if c and c.l >= now then
          local clo, chi = math.max(lo, c.lo), math.min(hi, c.hi)
          if clo <= chi and total + c.n <= chi then
            group[#group + 1] = pick[1]
            total, lo, hi = total + c.n, clo, chi
          end
        end
      end
      local bots = 0
      if total < lo and bots_after > 0 and waited >= bots_after then bots = lo - total end
      if total + bots >= lo and ARGV[next_pair] then
        local match, seed = ARGV[next_pair], ARGV[next_pair + 1]
        next_pair = next_pair + 2
        local sizes = {}
        for _, id in ipairs(group) do sizes[#sizes + 1] = {id, cache[id].n, cache[id].ws or cache[id].w or ''} end
        out[#out + 1] = match
        for _, id in ipairs(group) do
          local t = cache[id]
          t.m, t.sd, t.g, t.N, t.b = match, seed, sizes, total + bots, bots
          finish(id, t, 'm')
          taken[id] = true
          out[#out + 1] = id
        end
        out[#out + 1] = ''
      end
    end
  end
end
out[1] = redis.call('ZCARD', KEYS[3])
return out
