-- Token buckets shared by every gateway, taken from atomically: one token from each of KEYS, or
-- none if any is empty (KEYS share one hash tag: a Cluster runs this on one slot); after
-- bucket.lua's functions. ARGV[2i] is bucket i's rate (tokens a second), ARGV[2i+1] its burst.
-- ARGV[1] '1' to take, '0' only to look (services/store/rate_limits.py: buckets on several slots
-- are looked at first, then taken from).
-- Returns {1, 0} when taken (or takeable), {0, ms until every bucket holds a token} when refused.
local now = bucket_now()
local wait, held = 0, {}
for i, key in ipairs(KEYS) do
  local per_ms, burst = tonumber(ARGV[2 * i]) / 1000, tonumber(ARGV[2 * i + 1])
  held[i] = bucket_held(key, per_ms, burst, now)
  wait = math.max(wait, bucket_wait(held[i], per_ms))
end
if wait > 0 then
  return {0, wait}
end
if ARGV[1] ~= '1' then
  return {1, 0}
end
for i, key in ipairs(KEYS) do
  bucket_take(key, tonumber(ARGV[2 * i]) / 1000, tonumber(ARGV[2 * i + 1]), now, held[i])
end
return {1, 0}
