"""The tests' Redis cache: ``clear()`` removes only this run's keys.

The suite clears the cache often; Django's ``RedisCache.clear()`` empties the whole Redis
database, which would disturb another run (CI, a colleague) sharing it. The test settings give
each run its own key prefix, so clearing that prefix is clearing everything this run wrote.
Like the site's cache, it answers as an empty cache while Redis is away.
"""

from __future__ import annotations

from competition.cache_backend import ResilientRedisCache


class RunScopedRedisCache(ResilientRedisCache):
    def clear(self) -> None:
        self._call(self._clear_this_run, None)

    def _clear_this_run(self) -> None:
        client = self._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
