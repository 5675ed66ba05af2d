-- Note a notice as written, once. KEYS: 1 the match's notified hash, 2 its meta.
-- ARGV: field (<kind>:<seat>[:<turn>]), idempotency key. -> 1 new (write the notice) | 0 seen.
-- The hash expires with the match's meta.
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
