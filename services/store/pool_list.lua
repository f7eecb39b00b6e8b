-- A pool's oldest waiting tickets, and the ended ones past their keeping dropped on the way.
-- KEYS: the pool's waiting, tickets, seen, state, found, ended.
-- ARGV[1] how many at most; ARGV[2] drop what ended before this (unix s).
-- Returns {id, ask, seen, ...} oldest first.
local gone = redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', '(' .. ARGV[2], 'LIMIT', 0, 100)
for _, id in ipairs(gone) do
  redis.call('HDEL', KEYS[2], id)
  redis.call('HDEL', KEYS[4], id)
  redis.call('HDEL', KEYS[5], id)
  redis.call('ZREM', KEYS[6], id)
end
local ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local out = {}
for _, id in ipairs(ids) do
  table.insert(out, id)
  table.insert(out, redis.call('HGET', KEYS[2], id) or '')
  table.insert(out, redis.call('HGET', KEYS[3], id) or '0')
end
return out
