-- A partition's lease (partitions.py): KEYS[1] held by ARGV[1] for ARGV[2] ms more. Taken when
-- free or already this holder's (renewed); ARGV[2] = 0 gives it back if this holder has it.
-- Returns 1 when the holder has it now, else 0.
local holder = redis.call('GET', KEYS[1])
if ARGV[2] == '0' then
  if holder == ARGV[1] then redis.call('DEL', KEYS[1]) end
  return 0
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
