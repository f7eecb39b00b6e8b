-- One player's rating in one game moved by one rated match (ratings.py). KEYS[1] the player's
-- ratings (hash: game -> rating JSON), KEYS[2] the rated matches applied to them (a set).
-- ARGV: game, match id, how many matches the rating counted when the new one was computed, the
-- new rating's JSON, how many it counts. Returns 1 applied, 0 counted already (a redo), -1 the
-- rating moved meanwhile (another match counted first): computed again from the one now kept.
if redis.call('SISMEMBER', KEYS[2], ARGV[2]) == 1 then return 0 end
local known = redis.call('HGET', KEYS[1], ARGV[1])
local played = 0
if known then played = cjson.decode(known)['matches'] end
if played ~= tonumber(ARGV[3]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('SADD', KEYS[2], ARGV[2])
return 1
