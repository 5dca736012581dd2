"""Give freed heap memory back to the system once a minute (issue 14: a long run's RSS).

The server frees what a command allocated (a fight's JSON text is tens of KB, a crowd's
rendering more), but glibc keeps freed blocks in its heaps and RSS only ever rises to the
busiest moment's high-water mark, staying there although the memory is unused: a 30-minute
soak (bench/soak.py) grew 12.7% while the Python objects alive grew by less than a third of
that. ``malloc_trim(0)`` returns the free pages of every heap; a minute apart it costs a
few milliseconds of the reactor thread. On a C library without it (musl, macOS) nothing is
done.
"""

from __future__ import annotations

import ctypes
import ctypes.util

INTERVAL = 60.0  # seconds between trims


def _malloc_trim():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def start():
    """Trim every ``INTERVAL`` seconds from now on (a Twisted LoopingCall); None without
    ``malloc_trim``."""
    trim = _malloc_trim()
    if trim is None:
        return None
    from twisted.internet import task

    loop = task.LoopingCall(trim, 0)
    loop.start(INTERVAL, now=False)
    return loop
