"""Every Redis key, command and script, behind one door (pyproject.toml's import contracts: no
other package imports redis, fakeredis or rq). One repository per concern, each with its
conformance suite on fakeredis, a Redis and a Redis Cluster (tests/service/store/):

- the process's connections (``connections.py``), the handles the repositories take, as the
  commands they send (``clients.py``: the cluster client, ``cluster_client.py``, carries exactly
  those), what Redis raises when it is away (``outage.py``), the keys (``keys.py``);
- a match: its log (``event_store.py``, with ``append.lua``, ``dirty.lua``, ``bucket.lua``,
  ``promote.lua``), its meta (``match_meta.py``), its seats' entropy (``seat_entropy.py``), idempotency records
  (``idempotency.py``), the views' notices (``notices.py``), a projection step's write
  (``view_writes.py``), its eviction once archived (``evictions.py``) and the archive
  (``archive.py``);
- the sets every process polls, split into partitions of which each process sweeps its share
  (``partitions.py``: ``lease.lua``);
- online play: players (``players.py``), the lobby's lists (``lobby.py``), ratings per player
  (``ratings.py``: ``rating.lua``, ``leaderboard.lua``), the sweepers' deadlines
  (``deadlines.py``), the open-matches quota (``quota.py``: ``quota.lua``), presence
  (``presence.py``: ``presence.lua``), rate limits (``rate_limits.py``: ``rate_limit.lua``; a
  bucket, ``bucket.py``: ``bucket.lua``), the table chat (``chat.py``: ``chat_add.lua``) and the
  moderators' open list of its reports, across matches (``moderation.py``: ``report_add.lua``);
- the projector: its bookkeeping (``projector_queue.py``: ``claim.lua``, ``dirty.lua``,
  ``release.lua``), its RQ jobs and workers (``drain_jobs.py``, ``rq_workers.py``), the
  matches' lifecycle lists (``lifecycle.py``), the deferred marks (``unmarked.py``);
- start-up: reachability (``reach.py``) and the operator's mistakes (``preflight.py``);
- the wire: the pipelined connection (``wire.py``), RESP (``resp.py``), the cluster's
  (``cluster.py``), append batching (``batching.py``), the benchmark's floor (``bench_floor.py``).

May import ``ops`` only."""
