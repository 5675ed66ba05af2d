-- Each pending seat's turn: the version since which it has been pending. KEYS: 1 the match's
-- notified hash, 2 its meta. ARGV: version, seat count, the pending seats.
-- -> {seat, turn, ...} for the pending seats (unchanged when the hash saw a newer version).
-- The hash expires with the match's meta.
local h, version, seats = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
local seen = tonumber(redis.call('HGET', h, 'v') or '0')
local pending = {}
for i = 3, #ARGV do pending[tonumber(ARGV[i])] = true end
if version >= seen then
  redis.call('HSET', h, 'v', version)
  for s = 0, seats - 1 do
    if pending[s] then redis.call('HSETNX', h, 'turn:' .. s, version)
    else redis.call('HDEL', h, 'turn:' .. s) end
  end
end
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then redis.call('PEXPIRE', h, ttl) end
local out = {}
for i = 3, #ARGV do
  local turn = redis.call('HGET', h, 'turn:' .. ARGV[i])
  if turn then table.insert(out, ARGV[i]); table.insert(out, turn) end
end
return out
