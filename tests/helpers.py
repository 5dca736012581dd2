"""Helpers shared by the test suite.

`run_command` pushes a raw command line through Evennia's real command handler
(cmdset merging, parsing, locks, at_pre_cmd/func/at_post_cmd) exactly as a
connected player's input would, and records what was sent back and which SQL
queries ran:

    from tests.helpers import run_command

    class TestAttack(EvenniaCommandTest):
        def test_attack_is_cheap(self):
            run = run_command(self.char1, "attack Char2", session=self.session)
            assert "You attack" in run.text
            assert run.query_count <= 40, run.sql

Use it from any Django/Evennia TestCase (EvenniaTest, EvenniaCommandTest, ...) or from a
pytest test that has DB access (`@pytest.mark.django_db`).
"""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager

from django.db import connection
from django.test.utils import CaptureQueriesContext

UNTRAPPED_ERROR_MARKER = "(Traceback was logged"


@dataclasses.dataclass
class CommandRun:
    """What one command line did."""

    raw_string: str
    messages: list[str]  # plain text of every caller.msg(...) during the run (ANSI stripped)
    queries: list[dict]  # Django's captured queries: [{"sql": ..., "time": ...}, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.messages)

    @property
    def query_count(self) -> int:
        return len(self.queries)

    @property
    def sql(self) -> str:
        """All captured SQL, one statement a line (handy as an assertion message)."""
        return "\n".join(q["sql"] for q in self.queries)


def _text_of(args, kwargs) -> str:
    from evennia.utils import ansi

    text = args[0] if args else kwargs.get("text")
    if isinstance(text, (tuple, list)):
        text = text[0] if text else ""
    if text is None:
        return ""
    return ansi.parse_ansi(str(text), strip_ansi=True)


@contextmanager
def capture_msgs(*receivers):
    """Record the text sent to each receiver's `.msg` (the real .msg still runs).

    Yields a dict {receiver: [text, ...]}.
    """
    captured = {receiver: [] for receiver in receivers}
    saved = {}  # receiver -> instance-level msg it had before (None: used the class method)
    for receiver in receivers:
        saved[receiver] = receiver.__dict__.get("msg")
        original = receiver.msg

        def recording_msg(*args, _original=original, _store=captured[receiver], **kwargs):
            _store.append(_text_of(args, kwargs))
            return _original(*args, **kwargs)

        receiver.msg = recording_msg
    try:
        yield captured
    finally:
        for receiver, previous in saved.items():
            if previous is None:
                receiver.__dict__.pop("msg", None)
            else:
                receiver.msg = previous


def run_command(caller, raw_string: str, session=None, raise_errors: bool = True) -> CommandRun:
    """Run `raw_string` as `caller` through the real command handler.

    Args:
        caller: the Object/Character (or Account) typing the command.
        raw_string: the full input line, e.g. "look" or "attack Bob".
        session: the caller's session (EvenniaTest provides `self.session`).
        raise_errors: raise AssertionError if the command hit an untrapped exception
            (Evennia would otherwise only message the traceback to the caller).
    """
    with capture_msgs(caller) as captured, CaptureQueriesContext(connection) as ctx:
        caller.execute_cmd(raw_string, session=session)
    run = CommandRun(raw_string, list(captured[caller]), list(ctx.captured_queries))
    if raise_errors and UNTRAPPED_ERROR_MARKER in run.text:
        raise AssertionError(f"command {raw_string!r} raised an error:\n{run.text}")
    return run


def count_queries(func, *args, **kwargs) -> tuple[int, object, list[dict]]:
    """Call func(*args, **kwargs); return (number of SQL queries, result, queries)."""
    with CaptureQueriesContext(connection) as ctx:
        result = func(*args, **kwargs)
    return len(ctx.captured_queries), result, list(ctx.captured_queries)
