"""pytest plugin for ``bench/trace.py --tests``: every engine ``apply`` a test makes,
recorded and digested per test into ``$WOD_TRACE_OUT`` (one JSON line a test)."""

from __future__ import annotations

import json
import os

import pytest

_records: list[str] = []
_restore = None
_out = None


def pytest_configure(config):
    global _restore, _out
    import importlib.util
    import pathlib

    spec = importlib.util.spec_from_file_location(
        "wod_trace", pathlib.Path(__file__).with_name("trace.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    config._wod_trace = mod
    _restore = mod.wrap_engines(_records.append)
    _out = open(os.environ["WOD_TRACE_OUT"], "w", encoding="utf-8")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    _records.clear()
    yield
    mod = item.config._wod_trace
    line = {"case": item.nodeid, "n": len(_records), "digest": mod.digest(_records)}
    if os.environ.get("WOD_TRACE_FULL"):
        line["records"] = list(_records)
    if _records:
        _out.write(json.dumps(line, sort_keys=True) + "\n")


def pytest_unconfigure(config):
    if _restore:
        _restore()
    if _out:
        _out.close()
