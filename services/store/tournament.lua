-- Append ARGV[2..] to a tournament's log (KEYS[1], a list) if it still holds ARGV[1] entries:
-- two processes advancing one tournament, one of them appends its round. Returns the new length,
-- or -1 (nothing appended) if the log had moved.
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then
  return -1
end
for i = 2, #ARGV do
  redis.call('RPUSH', KEYS[1], ARGV[i])
end
return redis.call('LLEN', KEYS[1])
