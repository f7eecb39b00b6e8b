-- An attempt's outcome (services/store/notifications.py), kept only if that attempt still holds the
-- delivery (a sender whose lease lapsed and was taken over writes nothing).
-- KEYS[1] the delivery's hash. ARGV[1] the attempt; ARGV[2] the new state (delivered, retry,
-- failed); ARGV[3] the answer's status (0: none); ARGV[4] the error ("" none); ARGV[5] now.
-- Returns 1 if written, else 0.
local found = redis.call('HMGET', KEYS[1], 'state', 'attempts')
if found[1] ~= 'sending' or found[2] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'status', ARGV[3], 'error', ARGV[4], 'updated', ARGV[5],
  'lease_until', '0')
return 1
