-- A transaction with WATCH on a Redis Cluster (cluster_client.py's Pipeline): the queued commands
-- run, all or none, only if every watched key still holds what it held when it was watched.
-- KEYS: the watched keys, then each queued command's key (declared: all on one slot).
-- ARGV[1]: n, the number of watched keys; ARGV[2 .. n+1]: each one's DUMP when watched ("": none);
-- then each command as its number of words and the words.
-- Answers nil (as EXEC does after a WATCH that failed) or the commands' answers.
local watched = tonumber(ARGV[1])
for i = 1, watched do
  if (redis.call('DUMP', KEYS[i]) or '') ~= ARGV[i + 1] then
    return nil
  end
end
local answers = {}
local at = watched + 2
while at <= #ARGV do
  local count = tonumber(ARGV[at])
  answers[#answers + 1] = redis.call(unpack(ARGV, at + 1, at + count))
  at = at + count + 1
end
return answers
