-- A drain job that found nothing to claim lets go of its slot (and its own wake-up), unless a
-- match it may claim turned dirty meanwhile (then it keeps the slot and goes on): one that no
-- other live job holds (after held.lua: those are left to their holders, which are woken to take
-- them). Atomic with the marks: no wake-up is lost.
-- KEYS[1] the dirty zset; KEYS[2] the active zset; KEYS[3] the claims hash; ARGV[1] the job's
-- token; ARGV[2] now (unix s); ARGV[3] the prefix of a job's own wake-up key.
-- Returns -1 if the job must go on, else how many other jobs hold a live slot.
local _, held, holding, others = held_by_others(KEYS[3], KEYS[2], ARGV[1], tonumber(ARGV[2]))
local dirty = redis.call('ZCARD', KEYS[1])
if dirty > holding then return -1 end
if dirty > 0 then  -- as few as the others hold: is any of them one they do not?
  for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    if not held[id] then return -1 end
  end
end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', ARGV[3] .. ARGV[1])
return others
