-- The quota of open matches, shared by every gateway: a slot for match ARGV[1] in each of KEYS
-- (one creator's open matches, a zset: match id -> ms when its slot was taken, Redis's clock), or
-- in none if any of them is full. A slot lapses ARGV[2] ms after it was taken (a match that old
-- has been ended as idle, or its release was lost): the lapsed ones are dropped first.
-- ARGV[2 + i] is KEYS[i]'s quota. Returns 0 when taken, else the index of the first full key.
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local hold = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - hold)
  if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then
    return i
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[1])
  redis.call('PEXPIRE', key, hold)
end
return 0
