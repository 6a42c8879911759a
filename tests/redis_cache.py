"""The tests' Redis cache: ``clear()`` removes only this run's keys.

The suite clears the cache often; Django's ``RedisCache.clear()`` empties the whole Redis
database, which would disturb another run (CI, a colleague) sharing it. The test settings give
each run its own key prefix, so clearing that prefix is clearing everything this run wrote.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache


class RunScopedRedisCache(RedisCache):
    def clear(self) -> bool:
        client = self._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
        return True
