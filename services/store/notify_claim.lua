-- A delivery's attempt, claimed by one sender at a time (services/store/notifications.py).
-- KEYS[1] the delivery's hash. ARGV[1] now (unix s); ARGV[2] the lease (s).
-- A delivery done (delivered, failed, skipped) is never claimed again; one being sent under a live lease
-- is left to its sender; else (new, to retry, or a sender's lapsed lease: it died) the attempt is
-- counted and leased here, before anything is sent.
-- Returns {"claimed", attempt} | {"leased", lease_until} | {state} | {"gone"}.
local now, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
local found = redis.call('HMGET', KEYS[1], 'state', 'lease_until')
local state = found[1]
if not state then return {'gone'} end
if state ~= 'pending' and state ~= 'retry' and state ~= 'sending' then return {state} end  -- delivered, failed, skipped
if state == 'sending' and tonumber(found[2]) > now then return {'leased', found[2]} end
local attempt = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('HSET', KEYS[1], 'state', 'sending', 'lease_until', tostring(now + lease))
return {'claimed', attempt}
