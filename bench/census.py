"""What is alive inside the server, for finding a soak's memory growth (issue 14; not a test).

``bench/soak.py --census DIR`` has the staff client run this file in the server once a
minute (``py``, through ``runpy``, so nothing is imported into a normal server) and
``dump`` writes one JSON file per minute: RSS, the allocator's view (Python's allocated
blocks, pymalloc arenas), live objects by type, the idmapper's cached instances by class
and the sizes of the game's own bounded caches. ``bench/census.py A.json B.json`` prints
what grew between two of them.
"""

from __future__ import annotations

import gc
import json
import sys


def _rss_kb() -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _arenas() -> dict:
    """pymalloc's own figures: ``sys._debugmallocstats`` writes them to C stderr, so the
    fd is pointed at a temporary file for the call."""
    import os
    import tempfile

    out = {}
    with tempfile.TemporaryFile(mode="w+") as tmp:
        getattr(sys.stderr, "flush", lambda: None)()
        saved = os.dup(2)
        try:
            os.dup2(tmp.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        for line in tmp:
            if "=" in line and line[:1] == "#":
                name, _, value = line[1:].partition("=")
                value = value.strip().replace(",", "")
                if value.isdigit():
                    out[name.strip()] = int(value)
    return out


def _mallinfo() -> dict:
    """glibc's view (``mallinfo2``): bytes the C heap holds in use, free inside its heaps
    (not returned to the system) and in mmapped blocks; empty on another C library."""
    import ctypes
    import ctypes.util

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
            "uordblks", "fordblks", "keepcost")]

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        fn = libc.mallinfo2
    except (OSError, AttributeError):
        return {}
    fn.restype = MallInfo2
    info = fn()
    return {"heap_kb": info.arena // 1024, "in_use_kb": info.uordblks // 1024,
            "free_kb": info.fordblks // 1024, "mmapped_kb": info.hblkhd // 1024,
            "mmapped_blocks": info.hblks, "free_chunks": info.ordblks}


def _threads() -> int:
    import threading

    return threading.active_count()


#: the service's one Memo (combat/core/memo.py): what the engine reuses between commands
_MEMO_FIELDS = ("plans", "tokens", "token_of", "values", "sheets", "rulesets")


def _service_memo():
    service = sys.modules.get("wodcombat.world.combat_service")
    return getattr(service, "ENGINE_MEMO", None)


def _module_caches() -> dict:
    """Lengths of the game's bounded caches (those a soak could fill): the combat service's
    engine Memo (the engine keeps no module-level cache, issue 32) and text_width's."""
    sizes = {}
    memo = _service_memo()
    for name in _MEMO_FIELDS if memo is not None else ():
        sizes[f"ENGINE_MEMO.{name}"] = len(getattr(memo, name))
    tw = sys.modules.get("wodcombat.world.text_width")
    if tw is not None:
        for name in dir(tw):
            info = getattr(getattr(tw, name), "cache_info", None)
            if info is not None:
                sizes[f"wodcombat.world.text_width.{name}"] = info().currsize
    return sizes


def _idmapper() -> dict:
    from evennia.utils.idmapper.models import SharedMemoryModel

    counts = {}
    stack = [SharedMemoryModel]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        cache = getattr(cls, "__dbclass__", cls).__dict__.get("__instance_cache__")
        if cache is None:
            cache = cls.__dict__.get("__instance_cache__")
        if cache:
            counts[f"{cls.__module__}.{cls.__name__}"] = len(cache)
    return counts


def _describe(obj) -> str:
    t = type(obj)
    name = f"{t.__module__}.{t.__qualname__}"
    if isinstance(obj, dict):
        keys = list(obj)[:6]
        return f"{name} keys={keys!r}"[:200]
    return name


def deleted_scripts(limit: int = 3) -> dict:
    """Combat scripts alive in memory that are not the idmapper's instance of a live row
    (deleted, or a second copy): how many, whether their timer still runs, and who holds
    the first few (two levels of referrers), to find what keeps them."""
    import types

    from evennia.scripts.models import ScriptDB

    live = set(ScriptDB.objects.filter(db_key="wod_combat").values_list("id", flat=True))
    cache = ScriptDB.__dbclass__.__dict__.get("__instance_cache__") or {}
    scripts = [o for o in gc.get_objects() if type(o).__name__ == "CombatScript"]
    stale = [o for o in scripts if o.pk is None or o.pk not in live or cache.get(o.pk) is not o]
    out = {"count": len(scripts), "rows": len(live), "stale": len(stale),
           "stale_pk_none": sum(1 for o in stale if o.pk is None),
           "stale_row_gone": sum(1 for o in stale if o.pk is not None and o.pk not in live),
           "stale_task_running": sum(
               1 for o in stale
               if getattr(getattr(o.ndb, "_task", None), "running", False)),
           "holders": []}
    del scripts
    skip = (types.FrameType,)
    for script in stale[:limit]:
        chain = []
        for ref in gc.get_referrers(script):
            if isinstance(ref, skip) or ref is stale:
                continue
            owners = [_describe(r2) for r2 in gc.get_referrers(ref)
                      if not isinstance(r2, skip) and r2 is not stale][:4]
            chain.append({"ref": _describe(ref), "held by": owners})
        out["holders"].append(chain)
    del stale
    return out


def census() -> dict:
    gc.collect()
    objs = gc.get_objects()
    by_type: dict[str, int] = {}
    for o in objs:
        t = type(o)
        key = f"{t.__module__}.{t.__qualname__}"
        by_type[key] = by_type.get(key, 0) + 1
    del objs
    from django.db import connection

    out = {
        "rss_kb": _rss_kb(),
        "allocated_blocks": sys.getallocatedblocks(),
        "gc_objects": sum(by_type.values()),
        "arenas": _arenas(),
        "malloc": _mallinfo(),
        "threads": _threads(),
        "caches": _module_caches(),
        "idmapper": _idmapper(),
        "django_queries_logged": len(connection.queries_log),
        "deleted_scripts": deleted_scripts(),
        "types": dict(sorted(by_type.items(), key=lambda kv: -kv[1])[:400]),
    }
    try:
        from evennia.server.sessionhandler import SESSIONS

        out["sessions"] = len(SESSIONS)
    except Exception:  # noqa: BLE001 - a census never breaks the server
        pass
    import tracemalloc

    if tracemalloc.is_tracing():
        out["traced_kb"] = tracemalloc.get_traced_memory()[0] // 1024
    return out


def _live_bytes() -> int:
    gc.collect()
    return _arenas().get("bytes in allocated blocks", 0) + _mallinfo().get("in_use_kb", 0) * 1024


def cache_costs() -> dict:
    """What each bounded cache holds, in bytes: emptied one at a time, the drop in live
    memory (pymalloc's blocks and the C heap in use). Destructive (the caches refill as the
    game plays on, as after their own clearing), so only at the end of a run."""

    out = {}
    memo = _service_memo()
    for name in _MEMO_FIELDS if memo is not None else ():
        cache = getattr(memo, name)
        n = len(cache)
        before = _live_bytes()
        cache.clear()
        out[f"ENGINE_MEMO.{name}"] = {"entries": n, "bytes": before - _live_bytes()}
    return out


def dump(path: str, cost: bool = False) -> None:
    try:
        data = census()
        if cost:
            data["cache_costs"] = cache_costs()
    except Exception:  # noqa: BLE001 - written down instead, so the bench reads why
        import traceback

        data = {"error": traceback.format_exc()}
    with open(path, "w") as fh:
        json.dump(data, fh, indent=1)


def compare(a_path: str, b_path: str, top: int = 40) -> None:
    with open(a_path) as fh:
        a = json.load(fh)
    with open(b_path) as fh:
        b = json.load(fh)
    for key in ("rss_kb", "allocated_blocks", "gc_objects", "traced_kb", "sessions", "threads",
                "django_queries_logged"):
        if key in a or key in b:
            print(f"{key:28} {a.get(key)!s:>12} -> {b.get(key)!s:>12}")
    for section in ("arenas", "malloc", "caches", "idmapper"):
        print(f"-- {section}")
        for k in sorted(set(a.get(section, {})) | set(b.get(section, {}))):
            va, vb = a.get(section, {}).get(k, 0), b.get(section, {}).get(k, 0)
            if va != vb or section == "caches":
                print(f"  {k:60} {va:>10} -> {vb:>10} ({vb - va:+})")
    print(f"-- types, top {top} by growth")
    keys = set(a["types"]) | set(b["types"])
    diffs = sorted(((b["types"].get(k, 0) - a["types"].get(k, 0), k) for k in keys),
                   reverse=True)
    for d, k in diffs[:top]:
        print(f"  {k:70} {a['types'].get(k, 0):>8} -> {b['types'].get(k, 0):>8} ({d:+})")


if __name__ == "__main__":
    compare(*sys.argv[1:3])
