-- Mark matches dirty after appends. Returns 1 when a drain job must be queued: a match was
-- clean and no drain job holds a live slot (a live one sees the match before it lets go).
-- A running job waiting for work is woken through the wake list (one token at most).
-- KEYS[1] the dirty set; KEYS[2] the active zset (job token -> lease deadline); KEYS[3] the wake list
-- ARGV[1] now (unix s); ARGV[2..] the match ids.
if redis.call('SADD', KEYS[1], unpack(ARGV, 2)) == 0 then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[2]) == 0 then return 1 end
if redis.call('LLEN', KEYS[3]) == 0 then redis.call('LPUSH', KEYS[3], 1) end
return 0
