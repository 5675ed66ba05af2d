-- Commit one action to one match, atomically.
-- KEYS: 1 state, 2 events, 3 requests, 4 request order, 5 meta
-- ARGV: 1 expected version, 2 new State bytes, 3 request id, 4 request record,
--       5 max request records, 6 max events kept (0 = all), 7 status ('' = unchanged),
--       8 event count, then per event: payload, visibility, actor; then the seconds a
--       finished match keeps its request records (0 = forever); last: progress bytes
-- Returns {1, new version, last sequence} | {0, earlier record} | {-1, current version} | {-2}
local rid = ARGV[3]
if rid ~= '' then
  local earlier = redis.call('HGET', KEYS[3], rid)
  if earlier then return {0, earlier} end
end
local current = redis.call('HMGET', KEYS[1], 'v', 'q')
if not current[1] then return {-2} end
local version = tonumber(current[1])
if version ~= tonumber(ARGV[1]) then return {-1, version} end
local seq = tonumber(current[2])
local new_version = version + 1
local maxlen = tonumber(ARGV[6])
for i = 0, tonumber(ARGV[8]) - 1 do
  seq = seq + 1
  local base = 9 + i * 3
  if maxlen > 0 then
    redis.call('XADD', KEYS[2], 'MAXLEN', maxlen, seq .. '-0', 'e', ARGV[base],
      'v', ARGV[base + 1], 'a', ARGV[base + 2], 'n', new_version, 'r', rid)
  else
    redis.call('XADD', KEYS[2], seq .. '-0', 'e', ARGV[base],
      'v', ARGV[base + 1], 'a', ARGV[base + 2], 'n', new_version, 'r', rid)
  end
end
redis.call('HSET', KEYS[1], 'v', new_version, 'q', seq, 's', ARGV[2], 'p', ARGV[#ARGV])
if ARGV[7] ~= '' then redis.call('HSET', KEYS[5], 'status', ARGV[7]) end
if rid ~= '' then
  redis.call('HSET', KEYS[3], rid, ARGV[4])
  if redis.call('RPUSH', KEYS[4], rid) > tonumber(ARGV[5]) then
    redis.call('HDEL', KEYS[3], redis.call('LPOP', KEYS[4]))
  end
end
if ARGV[7] == 'finished' and tonumber(ARGV[9 + tonumber(ARGV[8]) * 3]) > 0 then
  -- a finished match keeps its request records only long enough for late retries
  redis.call('EXPIRE', KEYS[3], ARGV[9 + tonumber(ARGV[8]) * 3])
  redis.call('EXPIRE', KEYS[4], ARGV[9 + tonumber(ARGV[8]) * 3])
end
return {1, new_version, seq}
