-- Claim up to ARGV[3] dirty matches for projection, those dirty longest first, each under a lease;
-- expired leases (a worker that died mid-projection) go back to the front of the dirty zset
-- first, so nothing is lost. The job's own slot in the active zset is renewed. The matches the
-- job projected in its last step are let go first (in this call rather than a round trip of their
-- own). Where the matches' logs live on this Redis too (ARGV[5] = '1'), each claimed match's tail
-- after its views' checkpoint comes back with it, so the projector does not ask for it in a round
-- trip of its own; the keys are built here as services/keys.py builds them (this Redis is then
-- not a Cluster: RQ needs one that is not).
-- KEYS[1] the dirty zset (match id -> when it turned dirty); KEYS[2] the claimed zset (match id ->
-- lease deadline); KEYS[3] the active zset (job token -> lease deadline)
-- ARGV[1] now (unix s); ARGV[2] lease (s); ARGV[3] how many; ARGV[4] the job's token;
-- ARGV[5] '1' to read the tails; ARGV[6..] the match ids projected since the last claim.
-- Returns {ids, tails}: tails (when read) holds {checkpoint, XRANGE entries} per claimed id.
if #ARGV > 5 then redis.call('ZREM', KEYS[2], unpack(ARGV, 6)) end
local now = tonumber(ARGV[1])
local deadline = now + tonumber(ARGV[2])
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
  redis.call('ZADD', KEYS[1], 0, id)
  redis.call('ZREM', KEYS[2], id)
end
redis.call('ZADD', KEYS[3], deadline, ARGV[4])
local ids = {}
local popped = redis.call('ZPOPMIN', KEYS[1], tonumber(ARGV[3]))
for i = 1, #popped, 2 do ids[#ids + 1] = popped[i] end
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[2], deadline, id) end
local tails = {}
if ARGV[5] == '1' then
  for i, id in ipairs(ids) do
    local checkpoint = tonumber(redis.call('HGET', 'match:{' .. id .. '}:views', 'v') or '0')
    tails[i] = {checkpoint, redis.call('XRANGE', 'match:{' .. id .. '}:log', (checkpoint + 1) .. '-0', '+')}
  end
end
return {ids, tails}
