-- A drain job that found nothing to claim lets go of its slot, unless a match turned dirty
-- meanwhile (then it keeps the slot and goes on). Atomic with the marks: no wake-up is lost.
-- KEYS[1] the dirty zset; KEYS[2] the active zset; ARGV[1] the job's token; ARGV[2] now (unix s).
-- Returns -1 if the job must go on, else how many jobs still hold a live slot.
if redis.call('ZCARD', KEYS[1]) > 0 then return -1 end
redis.call('ZREM', KEYS[2], ARGV[1])
return redis.call('ZCOUNT', KEYS[2], ARGV[2], '+inf')
