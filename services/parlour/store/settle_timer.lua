-- Move or drop one match's turn-timer entry, only if its score is still the one seen.
-- KEYS: 1 the game's timer set. ARGV: 1 match, 2 score seen, 3 new score ('' = drop).
-- Returns 1 if changed, 0 if another writer re-armed it first.
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
