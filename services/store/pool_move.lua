-- Tickets of one pool moved from one state to another, all or none: a table taken from the pool
-- (waiting -> "matched <table>"), a ticket cancelled or lapsed (waiting -> cancelled, lapsed), a
-- table whose match could not be made put back (its "matched <table>" -> waiting). Two workers
-- forming tables at once: whichever moves a ticket first has it, the other's move of it fails whole.
-- KEYS: the pool's waiting, players, seen, state, ended.
-- ARGV[1] the state each ticket must be in; ARGV[2] the state it moves to; ARGV[3] now (unix s);
-- ARGV[4] a time its player must not have been heard since ("" none: a lapse checks it);
-- then per ticket: its id, its player, when it was made.
-- Returns 1 if they moved, 0 if any was not in ARGV[1] (or was heard since ARGV[4]).
local from, to, now = ARGV[1], ARGV[2], ARGV[3]
for i = 5, #ARGV, 3 do
  if redis.call('HGET', KEYS[4], ARGV[i]) ~= from then return 0 end
  if ARGV[4] ~= '' and tonumber(redis.call('HGET', KEYS[3], ARGV[i]) or '0') >= tonumber(ARGV[4]) then
    return 0
  end
end
for i = 5, #ARGV, 3 do
  local id, player, made = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  redis.call('HSET', KEYS[4], id, to)
  if to == 'waiting' then
    redis.call('ZREM', KEYS[5], id)
    if redis.call('HSETNX', KEYS[2], player, id) == 1 then
      redis.call('ZADD', KEYS[1], made, id)
      redis.call('HSET', KEYS[3], id, now)
    else -- its player seeks again already: this one ends
      redis.call('HSET', KEYS[4], id, 'lapsed')
      redis.call('ZADD', KEYS[5], now, id)
    end
  else
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[3], id)
    if redis.call('HGET', KEYS[2], player) == id then redis.call('HDEL', KEYS[2], player) end
    redis.call('ZADD', KEYS[5], now, id)
  end
end
return 1
