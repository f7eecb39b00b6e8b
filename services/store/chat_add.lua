-- An entry at the end of one of a match's chat streams (a channel's line, or a report), unless its
-- chat is closed (the archiver closes it before reading it for the archive: an entry taken after
-- that read would go with the match's eviction, its sender told it was kept).
-- KEYS[1] the stream; KEYS[2] the match's chat-closed mark.
-- ARGV[1] the entries kept (XADD MAXLEN ~); ARGV[2..] the entry's fields and values.
-- Returns the entry's id, or false if the chat is closed.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return false
end
return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', unpack(ARGV, 2))
