-- Mark matches dirty after appends: the start of append.lua (services/store/projector_queue.py's
-- mark_dirty does the same in two plain commands where the queue is apart from the logs).
-- A drain job waiting for work (BZPOPMIN on the wake zset) is woken when a match turned dirty;
-- the wake zset holds one member at most, so a mark costs two calls and leaves nothing growing.
-- A running job always exists (services/projector/upkeep.py keeps one per queue instance), so a
-- mark queues none.
-- dirty: the zset of dirty matches by when they turned dirty (a match already in keeps its time);
-- wake: the wake zset; now: unix seconds; ids: the match ids.
local function mark_dirty(dirty, wake, now, ids)
  local args = {}
  for _, id in ipairs(ids) do
    args[#args + 1] = now
    args[#args + 1] = id
  end
  if redis.call('ZADD', dirty, 'NX', unpack(args)) > 0 then redis.call('ZADD', wake, 0, 'w') end
end
