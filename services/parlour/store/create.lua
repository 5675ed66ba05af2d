-- Create a hash unless it exists. KEYS: 1 the hash; ARGV: field/value pairs.
-- Returns 1 if created, 0 if it already existed.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
