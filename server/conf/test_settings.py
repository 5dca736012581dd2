"""
Settings for the test suite (pytest-django: DJANGO_SETTINGS_MODULE=server.conf.test_settings).

The game's own settings, plus what makes Evennia tests fast and quiet.
"""

import os

from server.conf.settings import *  # noqa: F401,F403

# Fast password hashing (account creation in every EvenniaTest setUp).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# File-backed SQLite test DB, kept out of the real server/evennia.db3. pytest-django
# creates/destroys it (and suffixes it per xdist worker). Override with WOD_TEST_DB_DIR.
_TEST_DB_DIR = os.environ.get("WOD_TEST_DB_DIR") or os.path.join(GAME_DIR, ".pytest_db")
os.makedirs(_TEST_DB_DIR, exist_ok=True)
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES = {
        "default": {
            **DATABASES["default"],
            "NAME": os.path.join(_TEST_DB_DIR, "evennia.db3"),
            "TEST": {"NAME": os.path.join(_TEST_DB_DIR, "test_evennia.db3")},
        }
    }
# else (issue 12): WOD_DATABASE_URL names a PostgreSQL database; pytest-django creates and
# drops test_<name> next to it (the role needs CREATEDB).

# Evennia checks this flag in a few places (e.g. to avoid real delays/tickers).
TEST_ENVIRONMENT = True

# Keep the combat logs of the tests out of server/logs.
WODCOMBAT_LOG_DIR = os.path.join(_TEST_DB_DIR, "combat-logs")

# Quiet: no lock-warning log file, no web debug.
LOCKWARNING_LOG_FILE = ""
DEBUG = False
SECRET_KEY = "test-secret-key-not-for-production"
