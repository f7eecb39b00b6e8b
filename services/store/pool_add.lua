-- A new ticket in a game's pool (services/store/matchmaking.py), unless its player has one waiting.
-- KEYS: the pool's waiting, players, tickets, seen, state (keys.pool: one hash tag).
-- ARGV[1] the ticket; ARGV[2] its player; ARGV[3] its ask (JSON); ARGV[4] now (unix s).
-- Returns "" (added) or the id of the player's ticket already waiting.
local held = redis.call('HGET', KEYS[2], ARGV[2])
if held then return held end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[5], ARGV[1], 'waiting')
return ''
