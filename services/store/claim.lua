-- Claim up to ARGV[3] dirty matches for projection, those dirty longest first, under the job's
-- lease: the claims hash keeps, per job, the matches it holds (this claim's replace its last
-- step's, which it has projected: no call of their own to let go of them), and the job's slot in
-- the active zset is the lease of them all. When ARGV[6] is '1' (the job's turn to renew, every
-- third of a lease: services/projector/projector.py), the job's slot is renewed and the matches
-- of jobs whose slot lapsed (a worker that died mid-projection) go back to the front of the dirty
-- zset, so nothing is lost. A step of a job costs three calls inside: ZPOPMIN, HSET and this.
-- Where the matches' logs live on this Redis too (ARGV[5] = '1'), each claimed match's tail
-- after its views' checkpoint comes back with it, so the projector does not ask for it in a
-- round trip of its own; the keys are built here as services/store/keys.py builds them (this
-- Redis is then not a Cluster: RQ needs one that is not).
-- KEYS[1] the dirty zset (match id -> when it turned dirty); KEYS[2] the claims hash (job token ->
-- match ids, comma-separated); KEYS[3] the active zset (job token -> lease deadline)
-- ARGV[1] now (unix s); ARGV[2] lease (s); ARGV[3] how many; ARGV[4] the job's token;
-- ARGV[5] '1' to read the tails; ARGV[6] '1' to renew; ARGV[7] '1' if the job holds claims now.
-- Returns {ids, tails}: tails (when read) holds {checkpoint, XRANGE entries} per claimed id.
local now = tonumber(ARGV[1])
if ARGV[6] == '1' then
  local lapsed = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
  for _, job in ipairs(lapsed) do
    local held = redis.call('HGET', KEYS[2], job)
    if held then
      local front = {}
      for id in string.gmatch(held, '[^,]+') do
        front[#front + 1] = 0
        front[#front + 1] = id
      end
      redis.call('ZADD', KEYS[1], unpack(front))
      redis.call('HDEL', KEYS[2], job)
    end
  end
  if #lapsed > 0 then redis.call('ZREM', KEYS[3], unpack(lapsed)) end
  redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[4])
end
local ids = {}
local popped = redis.call('ZPOPMIN', KEYS[1], tonumber(ARGV[3]))
for i = 1, #popped, 2 do ids[#ids + 1] = popped[i] end
if #ids > 0 then
  redis.call('HSET', KEYS[2], ARGV[4], table.concat(ids, ','))
elseif ARGV[7] == '1' then
  redis.call('HDEL', KEYS[2], ARGV[4])
end
local tails = {}
if ARGV[5] == '1' then
  for i, id in ipairs(ids) do
    local checkpoint = tonumber(redis.call('HGET', 'match:{' .. id .. '}:views', 'v') or '0')
    tails[i] = {checkpoint, redis.call('XRANGE', 'match:{' .. id .. '}:log', (checkpoint + 1) .. '-0', '+')}
  end
end
return {ids, tails}
