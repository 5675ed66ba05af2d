-- Commit one action to one match, atomically.
-- KEYS: 1 state, 2 events, 3 requests, 4 meta, 5 action log
-- ARGV: 1 expected version, 2 new State bytes, 3 request id (stamped on events),
--       4 request record key ('' = no record), 5 request record,
--       6 max events kept (0 = all), 7 status ('' = unchanged),
--       8 event count, then per event: payload, visibility, actor; then the seconds a
--       finished match keeps its request records (0 = forever); then the action's log
--       record ('' = none); last: progress bytes
-- Request records are kept for every action of the match (no count window): the key is
-- a 12-byte digest of the request id and the record a 16-byte fingerprint plus the
-- ActResult, so a match costs about 100 bytes of Redis per action.
-- When the status becomes 'finished', the commit's last event is marked 'f' = 1 (the match's
-- last event), so event readers know a viewer who has passed it has everything.
-- Returns {1, new version, last sequence} | {0, earlier record} | {-1, current version} | {-2}
--   (no match) | {-3} (the match is over: nothing commits after its end)
local record_key = ARGV[4]
if record_key ~= '' then
  local earlier = redis.call('HGET', KEYS[3], record_key)
  if earlier then return {0, earlier} end
end
local current = redis.call('HMGET', KEYS[1], 'v', 'q')
if not current[1] then return {-2} end
local version = tonumber(current[1])
-- the version first: a racer that lost to the match's final action is stale (ABORTED)
if version ~= tonumber(ARGV[1]) then return {-1, version} end
if redis.call('HGET', KEYS[4], 'status') == 'finished' then return {-3} end
local seq = tonumber(current[2])
local new_version = version + 1
local maxlen = tonumber(ARGV[6])
local rid = ARGV[3]
local count = tonumber(ARGV[8])
for i = 0, count - 1 do
  seq = seq + 1
  local base = 9 + i * 3
  local fields = {'e', ARGV[base], 'v', ARGV[base + 1], 'a', ARGV[base + 2], 'n', new_version,
    'r', rid}
  if ARGV[7] == 'finished' and i == count - 1 then
    fields[#fields + 1] = 'f'
    fields[#fields + 1] = 1
  end
  if maxlen > 0 then
    redis.call('XADD', KEYS[2], 'MAXLEN', maxlen, seq .. '-0', unpack(fields))
  else
    redis.call('XADD', KEYS[2], seq .. '-0', unpack(fields))
  end
end
redis.call('HSET', KEYS[1], 'v', new_version, 'q', seq, 's', ARGV[2], 'p', ARGV[#ARGV])
if ARGV[7] ~= '' then redis.call('HSET', KEYS[4], 'status', ARGV[7]) end
if record_key ~= '' then redis.call('HSET', KEYS[3], record_key, ARGV[5]) end
if ARGV[#ARGV - 1] ~= '' then redis.call('RPUSH', KEYS[5], ARGV[#ARGV - 1]) end
local ttl = tonumber(ARGV[9 + tonumber(ARGV[8]) * 3])
if ARGV[7] == 'finished' and ttl > 0 then
  -- a finished match keeps its request records only long enough for late retries
  redis.call('EXPIRE', KEYS[3], ttl)
end
return {1, new_version, seq}
