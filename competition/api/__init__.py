"""The public read-only JSON API (``/api/v1/``): :mod:`competition.api.v1`; docs/api.md."""
