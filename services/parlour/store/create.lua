-- Create a match in one atomic step: its metadata and its initial state together.
-- KEYS: 1 meta, 2 state. ARGV: number of meta fields n, then n field/value pairs of meta,
-- then field/value pairs of state. Returns 1 if created, 0 if the match already existed.
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local n = tonumber(ARGV[1])
local meta, state = {}, {}
for i = 2, 1 + 2 * n do meta[#meta + 1] = ARGV[i] end
for i = 2 + 2 * n, #ARGV do state[#state + 1] = ARGV[i] end
if n > 0 then redis.call('HSET', KEYS[1], unpack(meta)) end
redis.call('HSET', KEYS[2], unpack(state))
return 1
