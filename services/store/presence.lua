-- One gateway's stream of one seat opened, is still open (a refresh), or closed.
-- KEYS[1] the match's presence hash: field "{seat}:{gateway}" -> until when (unix s).
-- ARGV[1] the seat; ARGV[2] the gateway; ARGV[3] now (unix s); ARGV[4] the time to live (s);
-- ARGV[5] 1 (here) or 0 (gone).
-- Fields past their time (a gateway that died) are dropped on the way; the key outlives its last
-- refresh by the time to live, so nothing stays behind once no gateway streams the match.
-- Returns {1 if the seat's being connected changed, else 0, the fields left...}.
local now, ttl = tonumber(ARGV[3]), tonumber(ARGV[4])
local prefix = ARGV[1] .. ':'
local mine = prefix .. ARGV[2]
local function seat_here(fields)
  for _, name in ipairs(fields) do
    if string.sub(name, 1, #prefix) == prefix then return true end
  end
  return false
end
local flat = redis.call('HGETALL', KEYS[1])
local before = {}
for i = 1, #flat, 2 do
  if tonumber(flat[i + 1]) < now then
    redis.call('HDEL', KEYS[1], flat[i])
  else
    table.insert(before, flat[i])
  end
end
if ARGV[5] == '1' then
  redis.call('HSET', KEYS[1], mine, now + ttl)
  redis.call('EXPIRE', KEYS[1], math.ceil(ttl))
else
  redis.call('HDEL', KEYS[1], mine)
end
local after = redis.call('HKEYS', KEYS[1])
local changed = 0
if seat_here(before) ~= seat_here(after) then changed = 1 end
local out = {changed}
for _, name in ipairs(after) do table.insert(out, name) end
return out
