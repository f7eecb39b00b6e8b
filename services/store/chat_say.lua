-- A line at the end of one channel of a match's table chat, unless its chat is closed (the archiver
-- closes it before reading it for the archive: a line taken after that read would go with the
-- match's eviction, its sender told it was kept).
-- KEYS[1] the channel's stream; KEYS[2] the match's chat-closed mark.
-- ARGV[1] the lines kept (XADD MAXLEN ~); ARGV[2..] the line's fields and values.
-- Returns the line's entry id, or false if the chat is closed.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return false
end
return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', unpack(ARGV, 2))
