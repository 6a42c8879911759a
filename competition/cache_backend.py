"""The shared cache (Redis) as the site uses it: a help, never a part a page depends on.

Everything the site keeps in the cache can be rebuilt or done without: a page's rendered copy
(built anew), the count of failed logins per address (the per-account lockout lives in the
database and stays in force). So when Redis does not answer, :class:`ResilientRedisCache`
behaves as an empty cache that keeps nothing: a read finds nothing, a write is lost, ``incr``
says the key is missing (``ValueError``, as for any missing key), and every page is built
uncached, slower, instead of answering 500. ``/healthz`` still says ``failed: cache``: its
write cannot be read back.

After a failure the cache is left alone for ``RETRY_SECONDS`` (then tried again): a Redis that
is unreachable rather than refusing makes every attempt wait for the connection timeout
(``cache_from_env`` sets it to a second), and a page must not pay that for each of its keys.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

RETRY_SECONDS = 5.0

_Answer = TypeVar("_Answer")


class ResilientRedisCache(RedisCache):
    """Django's ``RedisCache`` that answers as an empty cache while Redis is away."""

    _down_until = 0.0  # time.monotonic() until which Redis is not asked (per process)

    def _call(self, call: Callable[[], _Answer], missing: _Answer) -> _Answer:
        """``call()``'s answer, or ``missing`` when Redis fails (or failed a moment ago)."""
        if self._down_until and time.monotonic() < self._down_until:
            return missing
        try:
            answer = call()
        except (RedisError, OSError) as error:
            if not self._down_until:
                logger.warning(
                    "The cache (Redis) does not answer (%s): pages are built without it; "
                    "asking again every %s s.",
                    error,
                    RETRY_SECONDS,
                )
            self._down_until = time.monotonic() + RETRY_SECONDS
            return missing
        if self._down_until:
            logger.warning("The cache (Redis) answers again.")
            self._down_until = 0.0
        return answer

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._call(lambda: RedisCache.add(self, key, value, timeout, version), False)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._call(lambda: RedisCache.get(self, key, default, version), default)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._call(lambda: RedisCache.set(self, key, value, timeout, version), None)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._call(lambda: RedisCache.touch(self, key, timeout, version), False)

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._call(lambda: RedisCache.delete(self, key, version), False)

    def get_many(self, keys: Iterable[Any], version: Any = None) -> dict[Any, Any]:
        return self._call(lambda: RedisCache.get_many(self, keys, version), {})

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._call(lambda: RedisCache.has_key(self, key, version), False)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        gone = -1 << 64  # no counter reaches it
        answer = self._call(lambda: RedisCache.incr(self, key, delta, version), gone)
        if answer == gone:  # as for any key the cache does not hold
            raise ValueError(f"Key '{key}' not found (the cache does not answer)")
        return answer

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> list[Any]:
        return self._call(lambda: RedisCache.set_many(self, data, timeout, version), list(data))

    def delete_many(self, keys: Iterable[Any], version: Any = None) -> None:
        self._call(lambda: RedisCache.delete_many(self, keys, version), None)

    def clear(self) -> None:
        self._call(lambda: RedisCache.clear(self), None)
