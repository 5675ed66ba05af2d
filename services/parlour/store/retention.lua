-- Keep a match's keys for as long as its retention says.
-- KEYS: meta first, then the match's other keys. ARGV: 1 seconds an unfinished match lives
-- without activity (0 = forever), 2 seconds a finished match is kept (0 = forever), 3 '1' if
-- this call follows the commit that finished the match, 4 how many leading KEYS hold the
-- match itself (the rest, like request records, may be due sooner and keep that).
-- Activity on an unfinished match pushes every key's expiry `idle` seconds ahead, so a match
-- in play never expires. Returns the seconds applied (-1: no expiry).
local idle, kept, whole = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4])
if ARGV[3] == '1' then
  for i = 1, #KEYS do
    if kept == 0 then
      if i <= whole then redis.call('PERSIST', KEYS[i]) end
    elseif i <= whole then
      redis.call('EXPIRE', KEYS[i], kept)
    else
      local left = redis.call('TTL', KEYS[i])
      if left == -1 or left > kept then redis.call('EXPIRE', KEYS[i], kept) end
    end
  end
  return kept == 0 and -1 or kept
end
if idle == 0 or redis.call('HGET', KEYS[1], 'status') == 'finished' then return -1 end
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], idle) end
return idle
