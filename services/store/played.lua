-- One finished match on a player's list of recent matches (services/store/played.py): KEYS[1] the
-- zset match id -> when it finished, KEYS[2] the hash match id -> its entry (JSON); ARGV[1] the
-- match id, ARGV[2] when it finished, ARGV[3] the entry, ARGV[4] how many are kept. A redo writes
-- the same; past the limit the oldest leave both keys. Returns 1 if the match was new to the list.
local added = redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if over > 0 then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, over - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1)
  redis.call('HDEL', KEYS[2], unpack(oldest))
end
return added
