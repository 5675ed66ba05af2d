-- A commit was confirmed replicated (WAIT after it counted enough replicas): let readers
-- hand out its events and tell the other gateways with subscribers of the match.
-- KEYS: 1 state, 2 gateways. ARGV: 1 the version confirmed, 2 origin gateway id ('' = none:
-- tell every gateway), 3 gateway channel prefix, 4 match id, 5 the last event sequence of
-- that version.
-- Fields c (version) and cq (sequence) of the state only grow. Returns 1, or 0 if the match
-- is gone.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if tonumber(ARGV[1]) > tonumber(redis.call('HGET', KEYS[1], 'c') or 0) then
  redis.call('HSET', KEYS[1], 'c', ARGV[1], 'cq', ARGV[5])
end
for _, gateway in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if gateway ~= ARGV[2] then redis.call('PUBLISH', ARGV[3] .. gateway, ARGV[4]) end
end
return 1
