-- Write a match's views together with their checkpoint, only forwards (the notice that announces
-- them is published by the caller, once for a whole batch of matches).
-- KEYS[1] the match's views hash; ARGV[1] the version they show; ARGV[2..] field, value pairs.
-- Returns 1 if written, 0 if already as new.
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], unpack(ARGV, 2))
return 1
