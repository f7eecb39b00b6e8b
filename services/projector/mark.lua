-- Mark matches dirty (after dirty.lua). KEYS[1] the dirty zset; KEYS[2] the active zset;
-- KEYS[3] the wake list; ARGV[1] now (unix s); ARGV[2..] the match ids.
return mark_dirty(KEYS[1], KEYS[2], KEYS[3], ARGV[1], {unpack(ARGV, 2)})
