-- A player's inbox entry for one match (services/store/inbox.py): KEYS[1] the inbox hash, KEYS[2]
-- its revision counter; ARGV[1] the match id, ARGV[2] the version the entry was projected at,
-- ARGV[3] the entry's JSON, or "" to take the match out (it finished). An entry of a version
-- older than the one kept is ignored (two projections of one match racing). Returns 1 if changed.
local kept = redis.call('HGET', KEYS[1], ARGV[1])
if kept then
  local version = tonumber(string.match(kept, '^(%d+) '))
  if version and version > tonumber(ARGV[2]) then
    return 0
  end
end
if ARGV[3] == '' then
  if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then
    return 0
  end
else
  local entry = ARGV[2] .. ' ' .. ARGV[3]
  if entry == kept then
    return 0
  end
  redis.call('HSET', KEYS[1], ARGV[1], entry)
end
redis.call('INCR', KEYS[2])
return 1
