-- Put a match to sleep once its snapshot is whole in the archive (services/store/hibernation.py):
-- its keys deleted and its one index key set, all at once, only if nothing moved since the snapshot.
-- KEYS[1] its log; KEYS[2] its meta; KEYS[3] its views; KEYS[4] its seats' entropy; KEYS[5] the
-- index key (keys.hibernated); KEYS[6..] the idempotency records the snapshot holds.
-- ARGV[1] the version snapshotted; ARGV[2] the snapshot's token.
-- Returns 'ok' | 'moved' (an entry appended since, or views not at that version: it stays awake)
-- | 'gone' (no meta: asleep already, archived or lost).
if redis.call('EXISTS', KEYS[2]) == 0 then return 'gone' end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 or last[1][1] ~= ARGV[1] .. '-0' then return 'moved' end
if redis.call('HGET', KEYS[3], 'v') ~= ARGV[1] then return 'moved' end
for i = 1, #KEYS do
  if i ~= 5 then redis.call('DEL', KEYS[i]) end
end
redis.call('SET', KEYS[5], ARGV[2])
return 'ok'
