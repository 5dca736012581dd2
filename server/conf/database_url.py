"""``WOD_DATABASE_URL`` -> Django's ``DATABASES["default"]`` for PostgreSQL (issue 12).

Kept apart from settings.py so it can be tested without loading Evennia's settings.
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

SCHEMES = ("postgres", "postgresql", "pgsql")


class DatabaseUrlError(ValueError):
    pass


def postgres_settings(url: str) -> dict:
    """``postgres://user:password@host:port/name?host=/socket/dir`` as a Django database.

    Every part but the name may be left out (libpq's defaults then apply: the local socket,
    the login user)."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise DatabaseUrlError(
            f"WOD_DATABASE_URL must start with postgres:// (got {parts.scheme or url!r}); "
            "unset it to use the SQLite file.")
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise DatabaseUrlError("WOD_DATABASE_URL names no database: postgres://user@host/NAME")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": query.pop("host", None) or unquote(parts.hostname or ""),
        "PORT": str(parts.port or ""),
        "OPTIONS": query,  # e.g. sslmode=require
        # Keep the connection between requests/commands (Evennia's server runs commands on
        # one thread; reconnecting per command would cost a round trip each time).
        "CONN_MAX_AGE": None,
        "CONN_HEALTH_CHECKS": True,
        "TEST": {"NAME": f"test_{name}"},
    }
