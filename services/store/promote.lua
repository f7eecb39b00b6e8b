-- Make a match's staged views its views, only forwards: the views and their checkpoint arrive
-- whole by a plain HSET into a staging hash, and this renames it over the views hash, unless the
-- views there are as new already (a stalled worker whose lease expired), when it is dropped.
-- Views ahead of the log itself are of a log Redis no longer holds (it came back older: a snapshot
-- restored, a lagging replica promoted): any views of the log as it is replace them.
-- The views never pass through Lua: a script's arguments cost Redis ~2 µs a kilobyte, a plain
-- HSET a tenth of that, and a rename moves the hash without copying it.
-- KEYS[1] the match's views hash; KEYS[2] the staging hash; KEYS[3] the match's log;
-- ARGV[1] the staged version. Returns 1 if promoted, 0 if dropped.
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current >= tonumber(ARGV[1]) then
  local last = redis.call('XREVRANGE', KEYS[3], '+', '-', 'COUNT', 1)[1]
  local head = last and tonumber(string.match(last[1], '^(%d+)')) or 0
  if head == 0 or head >= current then  -- no log (gone: nothing to show), or views of this log
    redis.call('DEL', KEYS[2])
    return 0
  end
end
redis.call('RENAME', KEYS[2], KEYS[1])
redis.call('PERSIST', KEYS[1])  -- the staging hash's time to live came along with it
return 1
