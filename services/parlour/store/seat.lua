-- Take or give up a seat. KEYS: 1 meta.
-- take:  ARGV: 'take', seat (-1 = lowest free), token hash, display name, request id,
--        request fingerprint (the wanted seat and the name), proof ('' or the hash of
--        the caller's join secret 's…' or subject 'p…'), revocation channel, record key
--        ('' = none: rk:<seat>, the record the seat's results count toward)
--        -> {seat} taken | {seat, 1, old token hash} re-opened | {-1} no such seat
--           | {-2} seat taken | {-3} match full | {-4} no match
--           | {-5} request id reused with another payload
--           | {-6, seat} this request id already took that seat (nothing changes)
--           | {-7, seat} the proof already holds that other seat
--        A repeated request id never mints a token and never revokes one: the seat it
--        took is reported (-6) and the caller answers ALREADY_EXISTS without a token.
--        Only a proof does: a seat taken with one (proof:<proof> -> seat,
--        proofof:<seat> -> proof) is re-opened by the same proof, with the new token, the
--        old one revoked as by 'leave' (published, seat version up).
-- leave: ARGV: 'leave', token hash, revocation channel -> {seat} freed | {-1} unknown token
--        The token hash is published on the revocation channel so every gateway ends the
--        streams it authenticated; the join record of that seat is dropped; the seat
--        version 'sv' goes up, and every event committed from now on carries it, so a
--        gateway that has not heard of the revocation yet re-checks before delivering.
if redis.call('EXISTS', KEYS[1]) == 0 then return {-4} end
local seats = tonumber(redis.call('HGET', KEYS[1], 'seats'))
if ARGV[1] == 'leave' then
  local seat = redis.call('HGET', KEYS[1], 't:' .. ARGV[2])
  if not seat then return {-1} end
  local rid = redis.call('HGET', KEYS[1], 'joinrid:' .. seat)
  if rid then redis.call('HDEL', KEYS[1], 'join:' .. rid) end
  local proof = redis.call('HGET', KEYS[1], 'proofof:' .. seat)
  if proof then redis.call('HDEL', KEYS[1], 'proof:' .. proof, 'proofof:' .. seat) end
  redis.call('HDEL', KEYS[1], 't:' .. ARGV[2], 'token:' .. seat, 'name:' .. seat, 'joinrid:' .. seat)
  redis.call('HINCRBY', KEYS[1], 'sv', 1)
  redis.call('PUBLISH', ARGV[3], ARGV[2])
  return {tonumber(seat)}
end
local seat = tonumber(ARGV[2])
local rid = ARGV[5]
local proof = ARGV[7]
local held = proof ~= '' and redis.call('HGET', KEYS[1], 'proof:' .. proof)

local function reopen(s)
  local old = redis.call('HGET', KEYS[1], 'token:' .. s)
  redis.call('HDEL', KEYS[1], 't:' .. old)
  redis.call('HSET', KEYS[1], 'token:' .. s, ARGV[3], 't:' .. ARGV[3], s)
  redis.call('HINCRBY', KEYS[1], 'sv', 1)
  redis.call('PUBLISH', ARGV[8], old)
  return {tonumber(s), 1, old}
end

if rid ~= '' then
  local earlier = redis.call('HGET', KEYS[1], 'join:' .. rid)
  if earlier then
    local taken, fingerprint = string.match(earlier, '^(%d+)|(.*)$')
    if fingerprint ~= ARGV[6] then return {-5} end
    if held == taken then return reopen(held) end
    return {-6, tonumber(taken)}
  end
end
if held then
  if seat >= 0 and seat ~= tonumber(held) then return {-7, tonumber(held)} end
  return reopen(held)
end
if seat < 0 then
  for s = 0, seats - 1 do
    if redis.call('HEXISTS', KEYS[1], 'token:' .. s) == 0 then seat = s; break end
  end
  if seat < 0 then return {-3} end
elseif seat >= seats then
  return {-1}
elseif redis.call('HEXISTS', KEYS[1], 'token:' .. seat) == 1 then
  return {-2}
end
redis.call('HSET', KEYS[1], 'token:' .. seat, ARGV[3], 't:' .. ARGV[3], seat, 'name:' .. seat, ARGV[4])
redis.call('HSET', KEYS[1], 'rk:' .. seat, ARGV[9] or '')
if rid ~= '' then
  redis.call('HSET', KEYS[1], 'join:' .. rid, seat .. '|' .. ARGV[6], 'joinrid:' .. seat, rid)
end
if proof ~= '' then
  redis.call('HSET', KEYS[1], 'proof:' .. proof, seat, 'proofof:' .. seat, proof)
end
return {seat}
