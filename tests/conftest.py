"""Test-suite bootstrap: make Evennia usable under pytest + pytest-django.

pytest-django configures Django from DJANGO_SETTINGS_MODULE (server.conf.test_settings,
set in pyproject.toml) and runs django.setup() before this file is imported. What
Evennia's own test runner (evennia.server.tests.testrunner) adds on top is:

  * evennia._init(): fills in the flat API (evennia.create_object, evennia.SESSION_HANDLER,
    evennia.search_object, ...). Without it those names are None and EvenniaTest's
    setUp crashes on `evennia.SESSION_HANDLER`.
  * settings.TEST_ENVIRONMENT = True.

Both happen in this conftest's pytest_configure, i.e. before any test module is
imported, so test modules may use `from evennia import create_object` at the top.

Quirk: evennia._init() imports evennia.utils.gametime, which reads the
"gametime_offset" ServerConfig row at import time, before the test DB exists; we answer
that one lookup with its default (0, what a fresh test DB returns anyway) instead of
letting it fail noisily on the empty default DB.

Evennia's TestCase classes (evennia.utils.test_resources.EvenniaTest, EvenniaCommandTest,
BaseEvenniaTest, BaseEvenniaCommandTest) are django.test.TestCase subclasses, so
pytest-django gives them the test database automatically. Plain pytest functions that
touch the DB need `@pytest.mark.django_db` (or the `db` fixture); use the `evennia_db`
fixture below to also get Evennia's object cache flushed afterwards.
"""

import django
import pytest
from django.apps import apps

if not apps.ready:  # pragma: no cover - pytest-django normally did this already
    django.setup()

from unittest import mock  # noqa: E402

from hypothesis import settings as hypothesis_settings  # noqa: E402

# The fuzz tests run the same examples on every run, so a landing is never refused by a
# draw nobody saw before; `pytest --hypothesis-profile=explore` draws fresh ones to hunt.
hypothesis_settings.register_profile("default", derandomize=True, database=None)
hypothesis_settings.register_profile("explore", derandomize=False)
hypothesis_settings.load_profile("default")

import evennia  # noqa: E402
from evennia.server.manager import ServerConfigManager  # noqa: E402


def _no_db_conf(self, key=None, value=None, delete=False, default=None):
    return default() if callable(default) else default


def _db_blocker(config):
    try:  # pytest-django >= 4.6
        from pytest_django.plugin import blocking_manager_key

        return config.stash[blocking_manager_key]
    except (ImportError, KeyError):  # pragma: no cover - older pytest-django
        from pytest_django.plugin import _blocking_manager

        return _blocking_manager


def pytest_configure(config):
    """Initialise Evennia before test modules are collected (as Evennia's runner does)."""
    # _init() builds the server service, whose constructor opens a DB connection to
    # apply SQLite PRAGMAs; pytest-django blocks DB access outside tests, so lift that
    # for the duration (this touches the not-yet-created default DB, as Evennia's
    # own runner does; the test DB is created afterwards).
    with _db_blocker(config).unblock(), mock.patch.object(ServerConfigManager, "conf", _no_db_conf):
        evennia._init()
    from django.conf import settings
    from django.db import connections

    connections.close_all()
    settings.TEST_ENVIRONMENT = True


@pytest.fixture
def evennia_db(db):
    """DB access for plain pytest tests, flushing Evennia's idmapper cache afterwards
    (like Evennia's TestCase classes do in tearDown)."""
    yield
    from evennia.utils.idmapper.models import flush_cache

    flush_cache()


@pytest.fixture(autouse=True)
def _fresh_cmdset_merge_cache():
    """Each test starts with Evennia's cache of merged cmdsets empty.

    The cache (evennia.commands.cmdhandler._CMDSET_MERGE_CACHE, 1000 entries) is keyed by
    the cmdsets' fingerprints, which hold the game objects themselves. Objects a test
    made are deleted when it ends, and once a whole suite's merges pass 1000, evicting an
    entry that holds one raises KeyError inside cmdhandler: every later command that
    misses the cache then fails as "An untrapped error occurred". It showed only in a full
    run big enough to fill the cache (web pages, infrastructure and override tests, which
    run late), never in a file run alone.
    """
    from evennia.commands import cmdhandler

    cmdhandler._CMDSET_MERGE_CACHE.clear()
    yield
    cmdhandler._CMDSET_MERGE_CACHE.clear()


@pytest.fixture(autouse=True)
def _fresh_sheet_rows():
    """Each test reads the sheet rows afresh (wodcombat/typeclasses/sheets.py TableSheet):
    an object the idmapper kept past the last test's rolled-back database must not answer
    with the sheet that test wrote."""
    from wodcombat.typeclasses.sheets import rows_changed

    rows_changed()
    yield
    rows_changed()
