-- Commit one action to one match, atomically, keep the match's retention, and tell the
-- other gateways with subscribers of the match (every commit: its version moved).
-- KEYS: 1 state, 2 events, 3 requests, 4 meta, 5 action log, 6 gateways (set of the ids of
--       gateways with subscribers of the match)
-- ARGV: 1 expected version, 2 new State bytes, 3 request record key ('' = no record),
--       4 request record, 5 max events kept (0 = all), 6 status ('' = unchanged),
--       7 the retry window: seconds the request records live past the match's last action,
--         finished or not (0 = as long as the match's other keys),
--       8 the action's log record ('' = none), 9 progress bytes,
--       10 acting seat, 11 seat token hash ('' = not checked), 12 origin gateway id,
--       13 seconds an unfinished match lives without activity (0 = forever),
--       14 seconds a finished match is kept (0 = forever), 15 gateway channel prefix,
--       16 match id, 17 event count, 18 '1' when the commit counts as confirmed at once
--       (no replica to wait for), '0' when the caller confirms it after WAIT (confirm.lua),
--       then per event: payload, visibility, actor,
--       then (a migration only) the rules version the match is played under from now on
-- Request records are kept for every action of the match (no count window) for as long as
-- the match acts, and the retry window past its last action (issue 31 item 4): a retry
-- arriving within the window of its action's commit gets the first answer. The key is a
-- 12-byte digest of the request id and the record a 16-byte fingerprint plus the ActResult.
-- The commit that finishes the match drops the seats' join records (join:<request id>,
-- joinrid:<seat>): no join can be retried once the match is over.
-- Event entries: e payload, v visibility, a actor, n version; f = 1 on the match's last
-- event (status becomes 'finished'), so readers know a viewer past it has everything;
-- s = the meta's seat version (tokens revoked so far), only once one was revoked. The
-- finishing commit rewrites the stream (DUMP, RESTORE: the same entries and ids) so that a
-- finished match keeps no preallocated node bytes.
-- Retention (store/retention.lua, inline): activity pushes every key out by ARGV[13];
-- finishing sets ARGV[14] on the match's keys (request records keep a shorter time).
-- Confirmation (issue 40): fields c and cq of the state are the last version and event
-- sequence confirmed replicated; readers hand out nothing newer. Confirmed at once, the commit sets c and tells the other
-- gateways itself; else it leaves both to confirm.lua, run once WAIT said the replicas have
-- it, and a repeated request id rewrites its record so that a WAIT after it covers it.
-- Returns {1, new version, last sequence, seat version}
--   | {0, earlier record, version, last sequence}
--   | {-1, current version} | {-2} (no match) | {-3} (the match is over)
--   | {-4} (the seat token no longer holds the seat)
local record_key = ARGV[3]
if record_key ~= '' then
  local earlier = redis.call('HGET', KEYS[3], record_key)
  if earlier then
    if ARGV[18] ~= '1' then redis.call('HSET', KEYS[3], record_key, earlier) end
    local now = redis.call('HMGET', KEYS[1], 'v', 'q')
    return {0, earlier, tonumber(now[1] or 0), tonumber(now[2] or 0)}
  end
end
local at_once = ARGV[18] == '1'
local meta = redis.call('HMGET', KEYS[4], 'status', 'sv')
if ARGV[11] ~= '' and redis.call('HGET', KEYS[4], 't:' .. ARGV[11]) ~= ARGV[10] then
  return {-4}
end
local current = redis.call('HMGET', KEYS[1], 'v', 'q')
if not current[1] then return {-2} end
local version = tonumber(current[1])
-- the version first: a racer that lost to the match's final action is stale (ABORTED)
if version ~= tonumber(ARGV[1]) then return {-1, version} end
if meta[1] == 'finished' then return {-3} end
local seq = tonumber(current[2])
local new_version = version + 1
local maxlen = tonumber(ARGV[5])
local finishing = ARGV[6] == 'finished'
local count = tonumber(ARGV[17])
for i = 0, count - 1 do
  seq = seq + 1
  local base = 19 + i * 3
  local fields = {'e', ARGV[base], 'v', ARGV[base + 1], 'a', ARGV[base + 2], 'n', new_version}
  if finishing and i == count - 1 then
    fields[#fields + 1] = 'f'
    fields[#fields + 1] = 1
  end
  if meta[2] then
    fields[#fields + 1] = 's'
    fields[#fields + 1] = meta[2]
  end
  if maxlen > 0 then
    redis.call('XADD', KEYS[2], 'MAXLEN', maxlen, seq .. '-0', unpack(fields))
  else
    redis.call('XADD', KEYS[2], seq .. '-0', unpack(fields))
  end
end
redis.call('HSET', KEYS[1], 'v', new_version, 'q', seq, 's', ARGV[2], 'p', ARGV[9])
if at_once then
  redis.call('HSET', KEYS[1], 'c', new_version, 'cq', seq)
elseif not redis.call('HGET', KEYS[1], 'c') then  -- a match from before confirmation existed
  redis.call('HSET', KEYS[1], 'c', version, 'cq', current[2])
end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[4], 'status', ARGV[6]) end
local rules = ARGV[19 + count * 3]
if rules then
  redis.call('HSET', KEYS[1], 'r', rules)
  redis.call('HSET', KEYS[4], 'rules', rules)
end
if record_key ~= '' then redis.call('HSET', KEYS[3], record_key, ARGV[4]) end
if ARGV[8] ~= '' then redis.call('RPUSH', KEYS[5], ARGV[8]) end
if finishing then
  -- nothing is appended to a finished match's stream: rewrite it at its exact size (Redis
  -- keeps the last listpack node's preallocation, up to stream-node-max-bytes, otherwise)
  local events = redis.call('DUMP', KEYS[2])
  if events then
    redis.call('DEL', KEYS[2])
    redis.call('RESTORE', KEYS[2], 0, events)
  end
  for s = 0, tonumber(redis.call('HGET', KEYS[4], 'seats') or 0) - 1 do
    local rid = redis.call('HGET', KEYS[4], 'joinrid:' .. s)
    if rid then redis.call('HDEL', KEYS[4], 'join:' .. rid, 'joinrid:' .. s) end
  end
end
-- retention: the match itself (meta, state, events, action log), then the rest
local idle, kept = tonumber(ARGV[13]), tonumber(ARGV[14])
local window = tonumber(ARGV[7])
if window > 0 and idle > 0 and not finishing then window = math.min(window, idle) end
-- the request records: the retry window from now (the finished retention caps it below)
if window > 0 then redis.call('EXPIRE', KEYS[3], window) end
local retained = {KEYS[4], KEYS[1], KEYS[2], KEYS[5], KEYS[3], KEYS[6]}
if finishing then
  for i, key in ipairs(retained) do
    if i <= 4 then
      if kept == 0 then redis.call('PERSIST', key) else redis.call('EXPIRE', key, kept) end
    elseif kept > 0 then
      local left = redis.call('TTL', key)
      if left == -1 or left > kept then redis.call('EXPIRE', key, kept) end
    end
  end
elseif idle > 0 then
  for _, key in ipairs(retained) do
    if key ~= KEYS[3] or window == 0 then redis.call('EXPIRE', key, idle) end
  end
end
-- every commit moves the version, with or without events: the other gateways' streams
-- send the match's progress
if not at_once then return {1, new_version, seq, tonumber(meta[2] or 0)} end
for _, gateway in ipairs(redis.call('SMEMBERS', KEYS[6])) do
  if gateway ~= ARGV[12] then redis.call('PUBLISH', ARGV[15] .. gateway, ARGV[16]) end
end
return {1, new_version, seq, tonumber(meta[2] or 0)}
