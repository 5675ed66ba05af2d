-- Take or give up a seat. KEYS: 1 meta.
-- take:  ARGV: 'take', seat (-1 = lowest free), token hash, display name, request id
--        -> seat taken | -1 no such seat | -2 seat taken | -3 match full | -4 no match
--        A repeated request id re-issues the same seat with the new token (the old one is revoked).
-- leave: ARGV: 'leave', token hash -> seat freed | -1 unknown token
if redis.call('EXISTS', KEYS[1]) == 0 then return -4 end
local seats = tonumber(redis.call('HGET', KEYS[1], 'seats'))
if ARGV[1] == 'leave' then
  local seat = redis.call('HGET', KEYS[1], 't:' .. ARGV[2])
  if not seat then return -1 end
  redis.call('HDEL', KEYS[1], 't:' .. ARGV[2], 'token:' .. seat, 'name:' .. seat)
  return tonumber(seat)
end
local seat = tonumber(ARGV[2])
local rid = ARGV[5]
if rid ~= '' then
  local earlier = redis.call('HGET', KEYS[1], 'join:' .. rid)
  if earlier then
    seat = tonumber(earlier)
    local old = redis.call('HGET', KEYS[1], 'token:' .. seat)
    if old then redis.call('HDEL', KEYS[1], 't:' .. old) end
    redis.call('HSET', KEYS[1], 'token:' .. seat, ARGV[3], 't:' .. ARGV[3], seat, 'name:' .. seat, ARGV[4])
    return seat
  end
end
if seat < 0 then
  for s = 0, seats - 1 do
    if redis.call('HEXISTS', KEYS[1], 'token:' .. s) == 0 then seat = s; break end
  end
  if seat < 0 then return -3 end
elseif seat >= seats then
  return -1
elseif redis.call('HEXISTS', KEYS[1], 'token:' .. seat) == 1 then
  return -2
end
redis.call('HSET', KEYS[1], 'token:' .. seat, ARGV[3], 't:' .. ARGV[3], seat, 'name:' .. seat, ARGV[4])
if rid ~= '' then redis.call('HSET', KEYS[1], 'join:' .. rid, seat) end
return seat
