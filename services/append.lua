-- Append the events of one command, atomically and only at the expected version.
-- KEYS[1] the match's log stream; KEYS[2] the idempotency key (KEYS[1] again when there is none)
-- ARGV[1] expected version; ARGV[2] the answer to remember under the idempotency key;
-- ARGV[3] its time to live (s); ARGV[4..] pairs of (envelope body, its chained hash).
-- Returns {'ok', new version} | {'conflict', current version} | {'duplicate', remembered answer}.
local idem = KEYS[2] ~= KEYS[1]
if idem then
  local prior = redis.call('GET', KEYS[2])
  if prior then return {'duplicate', prior} end
end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local version = 0
if #last > 0 then version = tonumber(string.match(last[1][1], '^(%d+)')) end
if version ~= tonumber(ARGV[1]) then return {'conflict', version} end
for i = 4, #ARGV, 2 do
  version = version + 1
  redis.call('XADD', KEYS[1], version .. '-0', 'b', ARGV[i], 'h', ARGV[i + 1])
end
if idem then redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3]) end
return {'ok', version}
