"""Proves the test infrastructure works: Evennia TestCases under pytest, the real
command handler, and SQL-query counting of a single command."""

import pytest
from django.conf import settings
from evennia.commands.default.general import CmdLook
from evennia.utils.test_resources import EvenniaCommandTest

from tests.helpers import count_queries, run_command


class TestEvenniaUnderPytest(EvenniaCommandTest):
    def test_settings_are_the_games(self):
        assert settings.SERVERNAME == "World of Darkness Combat"
        assert settings.WODCOMBAT_DEFAULT_RULESET == "numetal"
        assert settings.TEST_ENVIRONMENT is True

    def test_look_via_call_helper(self):
        # Evennia's own helper: runs the Command object's hooks directly.
        self.call(CmdLook(), "", "Room(#")

    def test_look_through_real_cmdhandler(self):
        # The full path a player's input takes: cmdset merge, parse, locks, func.
        run = run_command(self.char1, "look", session=self.session)
        assert run.messages, "look sent nothing"
        assert "Room" in run.messages[0]
        assert "room_desc" in run.text
        assert "Obj" in run.text

    def test_unknown_command_goes_through_cmdhandler(self):
        run = run_command(self.char1, "xyzzy-not-a-command", session=self.session)
        assert "Command 'xyzzy-not-a-command' is not available" in run.text

    def test_query_count_of_warm_look(self):
        run_command(self.char1, "look", session=self.session)  # warm caches
        run = run_command(self.char1, "look", session=self.session)
        # Measured with Evennia 6.1: a warm `look` needs only a handful of queries.
        # The bound is loose on purpose; tighten it in combat-command tests.
        assert run.query_count <= 25, run.sql

    def test_count_queries_helper(self):
        n, result, _ = count_queries(lambda: list(self.room1.contents))
        assert n <= 1
        assert self.char1 in result


@pytest.mark.django_db
def test_plain_pytest_function_with_db(evennia_db):
    from evennia import create_object
    from evennia.objects.objects import DefaultRoom

    room = create_object(DefaultRoom, key="Plain Room", nohome=True)
    assert room.id is not None
    assert room.key == "Plain Room"


@pytest.mark.rule("INFRA-1")
def test_rule_marker_is_registered(request):
    marker = request.node.get_closest_marker("rule")
    assert marker is not None and marker.args == ("INFRA-1",)


def test_sqlite_connections_open_in_wal_with_synchronous_normal(db):
    """Issue 13: the settings give every SQLite connection these pragmas."""
    from django.db import connection

    with connection.cursor() as cur:
        assert cur.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        assert cur.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
