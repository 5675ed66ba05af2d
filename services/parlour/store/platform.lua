-- Mark a seat as played by the platform (it abandoned the match). KEYS: 1 meta.
-- ARGV: the seat's field (bot:<seat>). -> 1 marked | 0 no match (nothing is created, so a
-- match deleted meanwhile does not come back as a meta without its expiry)
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], '1')
return 1
