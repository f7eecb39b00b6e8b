-- Claim up to ARGV[3] dirty matches for projection, those dirty longest first, under the job's
-- lease (after held.lua): the claims hash keeps, per job, the matches it holds (this claim's
-- replace its last step's, which it has projected: no call of their own to let go of them), and
-- the job's slot in the active zset is the lease of them all. A match another live job holds
-- (marked dirty again while that job projects it) is not taken: it stays dirty, in its place, and
-- its holder's own wake-up is set (ARGV[8] .. its token), so that job takes it again at once.
-- When ARGV[6] is '1' (the job's turn to renew, every third of a lease:
-- services/projector/projector.py), or the job's own slot has lapsed (a worker stalled for a
-- lease: it takes a live slot again before it claims), the job's slot is renewed and the matches
-- of jobs whose slot lapsed (a worker that died mid-projection) go back to the front of the dirty
-- zset, so nothing is lost. A step of a job costs four calls inside: ZRANGE, ZPOPMIN, HSET and
-- this (and an HMGET where other jobs' slots are live).
-- Where the matches' logs live on this Redis too (ARGV[5] = '1'), each claimed match's tail
-- after its views' checkpoint comes back with it, so the projector does not ask for it in a
-- round trip of its own; the keys are built here as services/store/keys.py builds them (this
-- Redis is then not a Cluster: RQ needs one that is not), as are the jobs' own wake-ups.
-- KEYS[1] the dirty zset (match id -> when it turned dirty); KEYS[2] the claims hash (job token ->
-- match ids, comma-separated); KEYS[3] the active zset (job token -> lease deadline)
-- ARGV[1] now (unix s); ARGV[2] lease (s); ARGV[3] how many; ARGV[4] the job's token;
-- ARGV[5] '1' to read the tails; ARGV[6] '1' to renew; ARGV[7] '1' if the job holds claims now;
-- ARGV[8] the prefix of a job's own wake-up key (the job's token follows it).
-- Returns {ids, tails, since, others}: tails (when read) holds {checkpoint, XRANGE entries} per
-- claimed id; since, when each claimed id turned dirty (its score: the projector's queueing,
-- measured); others, how many other jobs hold a live slot.
local now = tonumber(ARGV[1])
local job = ARGV[4]
local slots, held, holding, others = held_by_others(KEYS[2], KEYS[3], job, now)
local live = false
local lapsed = {}
for i = 1, #slots, 2 do
  if tonumber(slots[i + 1]) > now then
    live = live or slots[i] == job
  else
    lapsed[#lapsed + 1] = slots[i]
  end
end
if ARGV[6] == '1' or not live then
  for _, gone in ipairs(lapsed) do
    local list = redis.call('HGET', KEYS[2], gone)
    -- this job's own (a stall lapsed its slot) are those it projected: this claim lets go of them
    if list and gone ~= job then
      local front = {}
      for id in string.gmatch(list, '[^,]+') do
        front[#front + 1] = 0
        front[#front + 1] = id
      end
      redis.call('ZADD', KEYS[1], unpack(front))
      redis.call('HDEL', KEYS[2], gone)
      redis.call('DEL', ARGV[8] .. gone)
    end
  end
  if #lapsed > 0 then redis.call('ZREM', KEYS[3], unpack(lapsed)) end
  redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), job)
end
-- as many more as the others hold: those are put back, the rest claimed up to the count
local count = tonumber(ARGV[3])
local popped = redis.call('ZPOPMIN', KEYS[1], count + holding)
local ids, since, back, woken = {}, {}, {}, {}
for i = 1, #popped, 2 do
  local id, holder = popped[i], held[popped[i]]
  if holder or #ids >= count then
    back[#back + 1] = popped[i + 1]
    back[#back + 1] = id
    if holder and not woken[holder] then
      woken[holder] = true
      redis.call('ZADD', ARGV[8] .. holder, 0, 'w')
    end
  else
    ids[#ids + 1] = id
    since[#since + 1] = popped[i + 1]
  end
end
if #back > 0 then redis.call('ZADD', KEYS[1], unpack(back)) end
if #ids > 0 then
  redis.call('HSET', KEYS[2], job, table.concat(ids, ','))
elseif ARGV[7] == '1' then
  redis.call('HDEL', KEYS[2], job)
end
local tails = {}
if ARGV[5] == '1' then
  for i, id in ipairs(ids) do
    local checkpoint = tonumber(redis.call('HGET', 'match:{' .. id .. '}:views', 'v') or '0')
    tails[i] = {checkpoint, redis.call('XRANGE', 'match:{' .. id .. '}:log', (checkpoint + 1) .. '-0', '+')}
  end
end
return {ids, tails, since, others}
