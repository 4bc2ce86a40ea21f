"""Which workers of a run are alive and which have requests in flight, kept in Redis.

scrapy-redis pops a request off the shared queue for good: while a worker downloads and
parses it, the queue can be empty although more requests are coming. So a worker with
nothing to do must not close while another worker is busy, and a worker that was killed
must stop counting as busy. Each worker writes a heartbeat (Redis server time, so machine
clocks do not matter); an entry older than the worker timeout is a dead worker and dropped.

Every operation is one Lua script, atomic in Redis: two workers joining or leaving at the
same moment cannot both decide they are alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from newscrawl.distributed.config import RunKeys

# KEYS: workers, busy, requests, seen. ARGV: worker id, timeout (s), busy flag (beat only).
_PRUNE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local stale = now - tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. stale)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. stale)
local function finished()
  local me = redis.call('ZSCORE', KEYS[1], ARGV[1]) and 1 or 0
  return redis.call('ZCARD', KEYS[1]) == me and redis.call('EXISTS', KEYS[3]) == 0
end
"""
_JOIN = (
    _PRUNE
    + """
local new_run = 0
if finished() then
  redis.call('DEL', KEYS[4])
  new_run = 1
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
return new_run
"""
)
_BEAT = (
    _PRUNE
    + """
redis.call('ZADD', KEYS[1], now, ARGV[1])
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[2], now, ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
end
return redis.call('ZCARD', KEYS[2]) - (redis.call('ZSCORE', KEYS[2], ARGV[1]) and 1 or 0)
"""
)
_LEAVE = (
    _PRUNE
    + """
redis.call('ZREM', KEYS[2], ARGV[1])
local last = 0
if finished() then
  redis.call('DEL', KEYS[4])
  last = 1
end
redis.call('ZREM', KEYS[1], ARGV[1])
return last
"""
)


class WorkerRegistry:
    """One worker's view of its run: join, heartbeat, leave.

    The seen-set belongs to one run. A worker that finds no other live worker and an empty
    queue (when joining, or as the last one leaving) deletes it, so the next run fetches
    its entry points and listings again; stored articles are then skipped by the
    incremental middleware, not by the seen-set. A non-empty queue is a run cut short
    (every worker killed): it is resumed, seen-set and all.
    """

    def __init__(self, server: Any, keys: RunKeys, worker: str, timeout: float) -> None:
        self.worker = worker
        self._keys = [keys.workers, keys.busy, keys.requests, keys.seen]
        self._timeout = timeout
        self._join = server.register_script(_JOIN)
        self._beat = server.register_script(_BEAT)
        self._leave = server.register_script(_LEAVE)

    def join(self) -> bool:
        """Register this worker; True when it starts a new run (any old seen-set deleted)."""
        return bool(self._join(keys=self._keys, args=[self.worker, self._timeout]))

    def beat(self, busy: bool) -> int:
        """Record that this worker is alive (and busy or not); how many others are busy."""
        return int(self._beat(keys=self._keys, args=[self.worker, self._timeout, int(busy)]))

    def leave(self) -> bool:
        """Unregister; True when this worker was the last and the run's seen-set was cleared."""
        return bool(self._leave(keys=self._keys, args=[self.worker, self._timeout]))
