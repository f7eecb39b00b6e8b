-- What the other live drain jobs hold (the start of claim.lua and release.lua): a match is claimed
-- by one live job at a time, so a job leaves alone a dirty match that another job, its slot live,
-- holds (that one is projecting it, or did in its last step, and is woken to take it again).
-- claims: the claims hash; active: the active zset; job: this job's token; now: unix seconds.
-- Returns the active zset as ZRANGE WITHSCORES gives it (every job's slot, lapsed ones too), a
-- table match id -> the live job holding it, how many it holds, and how many other live jobs there
-- are. One call, and one more (HMGET) only where another job's slot is live.
local function held_by_others(claims, active, job, now)
  local slots = redis.call('ZRANGE', active, 0, -1, 'WITHSCORES')
  local others = {}
  for i = 1, #slots, 2 do
    if slots[i] ~= job and tonumber(slots[i + 1]) > now then others[#others + 1] = slots[i] end
  end
  local held, holding = {}, 0
  if #others > 0 then
    for i, list in ipairs(redis.call('HMGET', claims, unpack(others))) do
      if list then
        for id in string.gmatch(list, '[^,]+') do
          held[id] = others[i]
          holding = holding + 1
        end
      end
    end
  end
  return slots, held, holding, #others
end
