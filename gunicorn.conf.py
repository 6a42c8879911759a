"""gunicorn's settings for clubcomp: the Dockerfile's server, and the servers the tests and
bench/load.py start (``gunicorn -c gunicorn.conf.py clubcomp.wsgi --bind ...``).

The command line overrides any of these (the tests run one worker on a free loopback port).
"""

import os

from gunicorn.http import wsgi

# WEB_CONCURRENCY is gunicorn's own variable for the number of worker processes.
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
timeout = 30

# No ``Server: gunicorn`` on the answers: a visitor has no need to know the server, and a
# scanner looking for a version with a known weakness learns nothing. gunicorn has no setting
# for it (it writes the header itself, before the application's), so its response leaves the
# line out here, once, before the workers start.
_default_headers = wsgi.Response.default_headers


def _without_server(self: wsgi.Response) -> list[str]:
    return [line for line in _default_headers(self) if not line.startswith("Server:")]


wsgi.Response.default_headers = _without_server  # type: ignore[method-assign]
