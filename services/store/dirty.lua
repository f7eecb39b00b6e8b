-- Mark matches dirty after appends: the start of dirty-marking scripts (mark.lua, append.lua).
-- Returns 1 when a drain job must be queued: a match was clean and no drain job holds a live slot
-- (a live one sees the match before it lets go). A running job waiting for work is woken through
-- the wake list (one token at most).
-- dirty: the zset of dirty matches by when they turned dirty (a match already in keeps its time);
-- active: the zset of job tokens by lease deadline; wake: the wake list; now: unix seconds; ids:
-- the match ids.
local function mark_dirty(dirty, active, wake, now, ids)
  local added = 0
  for _, id in ipairs(ids) do added = added + redis.call('ZADD', dirty, 'NX', now, id) end
  if added == 0 then return 0 end
  redis.call('ZREMRANGEBYSCORE', active, '-inf', now)
  if redis.call('ZCARD', active) == 0 then return 1 end
  if redis.call('LLEN', wake) == 0 then redis.call('LPUSH', wake, 1) end
  return 0
end
