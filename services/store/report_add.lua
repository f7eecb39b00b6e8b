-- A chat report on the moderators' open list (moderation.py): KEYS[1] the partition's zset
-- (member -> the report's ms), KEYS[2] its hash (member -> the report, JSON); ARGV[1] the member,
-- ARGV[2] its ms, ARGV[3] the report, ARGV[4] the most a partition keeps open: past it the oldest
-- leave the list (each still in its match's reports). Returns how many left.
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if over <= 0 then return 0 end
local oldest = redis.call('ZPOPMIN', KEYS[1], over)
for i = 1, #oldest, 2 do redis.call('HDEL', KEYS[2], oldest[i]) end
return over
