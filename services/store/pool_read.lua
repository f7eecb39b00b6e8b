-- One ticket of a pool as it stands, its player heard now if it is waiting (a read keeps it alive).
-- KEYS: the pool's tickets, seen, state, found.
-- ARGV[1] the ticket; ARGV[2] now (unix s), or "" not to count the read as hearing its player.
-- Returns {ask, state, seen, found} (false for what it lacks), or {} for no such ticket.
local ask = redis.call('HGET', KEYS[1], ARGV[1])
if not ask then return {} end
local state = redis.call('HGET', KEYS[3], ARGV[1])
if state == 'waiting' and ARGV[2] ~= '' then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return {ask, state, redis.call('HGET', KEYS[2], ARGV[1]), redis.call('HGET', KEYS[4], ARGV[1])}
