-- Claim the bot leases of matchmade matches that lapsed (store/ticketstore.py claim_bots).
-- KEYS: 1 BOT_LEASES, 2 BOT_SEATS. ARGV: now, lease until, most (ms, ms, count).
-- -> {match, its bots JSON, ...}: each now held until ARGV[2] by the caller alone.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, match in ipairs(due) do
  redis.call('ZADD', KEYS[1], ARGV[2], match)
  out[#out + 1] = match
  out[#out + 1] = redis.call('HGET', KEYS[2], match) or ''
end
return out
