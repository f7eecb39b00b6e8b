-- Append the events of one command, atomically and only onto the entry they were decided after
-- (after dirty.lua).
-- KEYS[1] the match's log stream; KEYS[2] its meta hash; KEYS[3] the idempotency key (KEYS[1] again
-- when there is none); KEYS[4..5], when the projector's keys live on this Redis: its dirty zset
-- and wake zset, and the match is marked dirty in the same call.
-- ARGV[1] expected version; ARGV[2] the hash of the entry at that version (unchecked at 0, or
-- with nothing to append); ARGV[3] the answer to remember under the idempotency key; ARGV[4] its
-- time to live (s); ARGV[5] now (unix s); ARGV[6] the match id; ARGV[7..] pairs of (envelope
-- body, its chained hash).
-- The hash as well as the version: a gateway may decide a command after one of its own still in
-- flight; if that one fails and another gateway's entry takes its version, this must fail too.
-- A match whose meta is gone (archived: services/projector/archiver.py) or marked ended (abandoned)
-- takes nothing more: a gateway that still caches it must not start a new log under its id.
-- Returns {'ok', new version} | {'conflict', current version} |
-- {'duplicate', remembered answer} | {'ended', 0}.
local idem = KEYS[3] ~= KEYS[1]
if idem then
  local prior = redis.call('GET', KEYS[3])
  if prior then return {'duplicate', prior} end
end
local meta = redis.call('HMGET', KEYS[2], 'game', 'ended')
if not meta[1] or meta[2] then return {'ended', 0} end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local version = 0
if #last > 0 then version = tonumber(string.match(last[1][1], '^(%d+)')) end
if version ~= tonumber(ARGV[1]) then return {'conflict', version} end
if version > 0 and #ARGV > 6 then
  local fields = last[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 'h' and fields[i + 1] ~= ARGV[2] then return {'conflict', version} end
  end
end
for i = 7, #ARGV, 2 do
  version = version + 1
  redis.call('XADD', KEYS[1], version .. '-0', 'b', ARGV[i], 'h', ARGV[i + 1])
end
if idem then redis.call('SET', KEYS[3], ARGV[3], 'EX', ARGV[4]) end
if #KEYS > 3 then mark_dirty(KEYS[4], KEYS[5], ARGV[5], {ARGV[6]}) end
return {'ok', version}
