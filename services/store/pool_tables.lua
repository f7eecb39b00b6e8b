-- The tables a pool made, each kept until its players are due to have joined it
-- (services/store/matchmaking.py): added when made, taken once when due, by one process only.
-- KEYS: the pool's tables (hash match -> its tickets, JSON), due (zset match -> when made).
-- ARGV: 'add', the match, its tickets (JSON), now; or 'due', made before (unix s), how many.
-- Returns 1 ('add'), or {match, tickets, ...} of the due tables, now dropped ('due').
if ARGV[1] == 'add' then
  redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
  return 1
end
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, match in ipairs(due) do
  table.insert(out, match)
  table.insert(out, redis.call('HGET', KEYS[1], match) or '')
  redis.call('HDEL', KEYS[1], match)
  redis.call('ZREM', KEYS[2], match)
end
return out
