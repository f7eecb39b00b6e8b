-- A player's place on a game's leaderboard partition (ratings.py): KEYS[1] the zset (player ->
-- minus its ordinal: ascending is best first, ties by id), KEYS[2] the hash of how many matches
-- each player's listed rating counts. ARGV: player, score, matches. Only a newer rating moves
-- it: two recorders' writes arriving out of order leave the newest.
local listed = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '-1')
if tonumber(ARGV[3]) <= listed then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
