-- Append the events of one command, atomically and only onto the entry they were decided after
-- (after dirty.lua).
-- KEYS[1] the match's log stream; KEYS[2] its meta hash; KEYS[3] the idempotency key (KEYS[1] again
-- when there is none); KEYS[4] the sending seat token's command bucket (bucket.lua's, on the
-- match's hash tag; KEYS[1] again when there is none); KEYS[5..6], when the projector's keys live
-- on this Redis: its dirty zset and wake zset, and the match is marked dirty in the same call.
-- ARGV[1] expected version; ARGV[2] the hash of the entry at that version (unchecked at 0, or
-- with nothing to append); ARGV[3] the answer to remember under the idempotency key; ARGV[4] its
-- time to live (s); ARGV[5] now (unix s); ARGV[6] the match id; ARGV[7], ARGV[8] the bucket's
-- rate (tokens a second) and burst; ARGV[9..] pairs of (envelope body, its chained hash).
-- The bucket's token is the append's, all or none: an empty bucket appends nothing (whatever the
-- version), and only an append takes one (a conflict is decided again, a duplicate answered).
-- The hash as well as the version: a gateway may decide a command after one of its own still in
-- flight; if that one fails and another gateway's entry takes its version, this must fail too.
-- A match whose meta is gone (archived: services/projector/archiver.py) or marked ended (abandoned)
-- takes nothing more: a gateway that still caches it must not start a new log under its id.
-- Returns {'ok', new version} | {'conflict', current version} |
-- {'duplicate', remembered answer} | {'ended', 0} | {'limited', ms until the bucket holds a token}.
local idem = KEYS[3] ~= KEYS[1]
if idem then
  local prior = redis.call('GET', KEYS[3])
  if prior then return {'duplicate', prior} end
end
local meta = redis.call('HMGET', KEYS[2], 'game', 'ended')
if not meta[1] or meta[2] then return {'ended', 0} end
local limited, now, per_ms, burst, tokens = KEYS[4] ~= KEYS[1]
if limited then
  now, per_ms, burst = bucket_now(), tonumber(ARGV[7]) / 1000, tonumber(ARGV[8])
  tokens = bucket_held(KEYS[4], per_ms, burst, now)
  local wait = bucket_wait(tokens, per_ms)
  if wait > 0 then return {'limited', wait} end
end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local version = 0
if #last > 0 then version = tonumber(string.match(last[1][1], '^(%d+)')) end
if version ~= tonumber(ARGV[1]) then return {'conflict', version} end
if version > 0 and #ARGV > 8 then
  local fields = last[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 'h' and fields[i + 1] ~= ARGV[2] then return {'conflict', version} end
  end
end
for i = 9, #ARGV, 2 do
  version = version + 1
  redis.call('XADD', KEYS[1], version .. '-0', 'b', ARGV[i], 'h', ARGV[i + 1])
end
if limited then bucket_take(KEYS[4], per_ms, burst, now, tokens) end
if idem then redis.call('SET', KEYS[3], ARGV[3], 'EX', ARGV[4]) end
if #KEYS > 4 then mark_dirty(KEYS[5], KEYS[6], ARGV[5], {ARGV[6]}) end
return {'ok', version}
