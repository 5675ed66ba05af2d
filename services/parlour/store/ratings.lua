-- Put one finished match into a game and variant's ratings, exactly once.
-- KEYS: 1 the match's `rated` marker, 2 players hash, 3 board, 4.. each player's recent list
-- ARGV: marker ttl (s), recent list length, then per player (in KEYS order from 4):
--       player key, its value read before (''= none), new value, new display, RecordedMatch
-- -> 1 applied | 0 already applied (nothing changes) | -1 a player's rating moved since it
--    was read (nothing changes; read again and retry)
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local count = #KEYS - 3
for i = 1, count do
  local at = 2 + (i - 1) * 5
  if (redis.call('HGET', KEYS[2], ARGV[at + 1]) or '') ~= ARGV[at + 2] then return -1 end
end
for i = 1, count do
  local at = 2 + (i - 1) * 5
  redis.call('HSET', KEYS[2], ARGV[at + 1], ARGV[at + 3])
  redis.call('ZADD', KEYS[3], ARGV[at + 4], ARGV[at + 1])
  redis.call('LPUSH', KEYS[3 + i], ARGV[at + 5])
  redis.call('LTRIM', KEYS[3 + i], 0, tonumber(ARGV[2]) - 1)
end
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1])
return 1
