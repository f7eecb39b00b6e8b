-- A drain job that another live job makes surplus stands down, after held.lua
-- (services/projector/projector.py: two run at once where a sweeper queued one in the moment a job
-- handed over to the next, and both would go on sharing every step, each step paying for the
-- other's claims): it lets go of its claims, its slot and its own wake-up, and wakes the waiting
-- job if anything is dirty, the matches it held among them. Atomic: of two jobs standing down at
-- once, the second stays.
-- KEYS[1] the dirty zset; KEYS[2] the active zset; KEYS[3] the claims hash; KEYS[4] the wake-up;
-- ARGV[1] the job's token; ARGV[2] now (unix s); ARGV[3] the prefix of a job's own wake-up key.
-- Returns how many other jobs hold a live slot (0: none, and this one stays).
local job = ARGV[1]
local _, _, _, others = held_by_others(KEYS[3], KEYS[2], job, tonumber(ARGV[2]))
if others == 0 then return 0 end
redis.call('HDEL', KEYS[3], job)
redis.call('ZREM', KEYS[2], job)
redis.call('DEL', ARGV[3] .. job)
if redis.call('ZCARD', KEYS[1]) > 0 then redis.call('ZADD', KEYS[4], 0, 'w') end
return others
