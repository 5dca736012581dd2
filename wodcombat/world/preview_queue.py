"""One queue of slow, pure jobs served by one worker thread (issue 30: +combat/odds).

A thread per preview let twenty staff previews take every core's worth of the interpreter
at once: half of them answered after two minutes and everyone's ``look`` took seconds. Here
one worker runs them one after another (the reactor thread keeps answering meanwhile), at
most ``limit()`` are queued or running, and the rest are told at once that it is busy.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from wodcombat.combat.core.errors import WodError


class Busy(WodError):
    """The queue is full: nothing was queued; asking again later works."""


def _call_here(fn: Callable[[Any], Any], value: Any) -> None:
    fn(value)


class PreviewQueue:
    """``submit`` a job; ``done(result)`` or ``failed(exception)`` is handed to ``deliver``
    (on the live server: the reactor's ``callFromThread``; by default, called in the worker).
    A job's slot is freed when it ends, however it ends, before its answer is delivered."""

    def __init__(self, limit: Callable[[], int], what: str = "jobs",
                 deliver: Callable[[Callable[[Any], Any], Any], None] = _call_here):
        self._limit = limit
        self._what = what
        self._deliver = deliver
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._pending = 0
        self._worker: threading.Thread | None = None

    def pending(self) -> int:
        """Jobs queued or running now."""
        with self._lock:
            return self._pending

    def submit(self, work: Callable[[], Any], done: Callable[[Any], Any],
               failed: Callable[[BaseException], Any]) -> int:
        """Queue ``work``; returns how many jobs are ahead of it. Raises ``Busy``."""
        ahead = self._reserve()
        self._jobs.put((work, done, failed))
        with self._lock:
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._serve, name="wod-previews",
                                                daemon=True)
                self._worker.start()
        return ahead

    def run_here(self, work: Callable[[], Any]) -> Any:
        """Run ``work`` in this thread, holding a slot while it runs (no reactor to hand an
        answer back to: tests and scripts); full, it is refused as ``submit`` would be."""
        self._reserve()
        try:
            return work()
        finally:
            self._release()

    def _reserve(self) -> int:
        with self._lock:
            limit = self._limit()
            if self._pending >= limit:
                raise Busy(f"{self._what.capitalize()} are busy: {self._pending} {self._what} are "
                           f"running or waiting (at most {limit}); try again once one has "
                           f"answered.")
            self._pending += 1
            return self._pending - 1

    def _release(self) -> None:
        with self._lock:
            self._pending -= 1

    def _serve(self) -> None:
        while True:
            work, done, failed = self._jobs.get()
            try:
                answer, result = done, work()
            except Exception as err:  # the job's own failure: its caller is told
                answer, result = failed, err
            finally:
                self._release()
            try:
                self._deliver(answer, result)
            except Exception:  # a broken callback must not stop the worker for the others
                from evennia.utils import logger

                logger.log_trace("a queued preview's answer could not be delivered")
