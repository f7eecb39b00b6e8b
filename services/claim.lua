-- Claim up to ARGV[3] dirty matches for projection, each under a lease; expired leases (a worker
-- that died mid-projection) go back to the dirty set first, so nothing is lost.
-- KEYS[1] the dirty set; KEYS[2] the claimed zset (match id -> lease deadline)
-- ARGV[1] now (unix s); ARGV[2] lease (s); ARGV[3] how many.
local now = tonumber(ARGV[1])
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
  redis.call('SADD', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
end
local ids = redis.call('SPOP', KEYS[1], tonumber(ARGV[3]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), id) end
return ids
