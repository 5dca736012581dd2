"""``replace`` for the engine's frozen dataclasses, without ``dataclasses.replace``'s cost.

Why: every step of a fight copies values (a ``Combatant`` has 30 fields, the state 12), many
times per command. ``dataclasses.replace`` looks every field up by name in a loop, builds a
keyword dict and runs ``__init__``; that was 40% of an ``apply`` (bench/engine.py). Here
each class gets, once, a generated function with one keyword parameter per field that builds
the copy directly: a quarter of the time or less, same value.

Same meaning as ``dataclasses.replace``: the fields not named are shared with the old value,
an unknown name is a TypeError, a field left out of ``__init__`` gets its default again. A
class with ``__post_init__`` or an ``__init__`` of its own keeps ``dataclasses.replace``.

Why generated code (``exec``) and a draft twin (a ``__class__`` change before anyone sees
the value), both confined to this module: without them a copy sets each of a Combatant's 33
slots through a descriptor call in a Python loop. That version (``attrgetter`` to read, one
descriptor ``__set__`` per field, the dataclasses' own ``__init__``) was measured on
bench/engine.py at 1.2-1.5x the time of a whole attack through ``apply`` (issue 32), so the
generated copiers stay. Each is built once per class at import, from the class's own field
names, and never changes after.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Callable, TypeVar

from .errors import InputError

T = TypeVar("T")

_KEEP = object()  # "not given": the field keeps its old value
# fast_init: from this many fields, turning the value into its draft class and back (two
# class changes) costs less than setting each field through its descriptor (a call each).
_DRAFT_INIT_FIELDS = 4


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``, faster for the classes marked ``copyable``
    or ``fast_init``: their ``__replace__`` (the protocol of ``copy.replace``) is a copier
    built once, when the class is made. Any other dataclass keeps ``dataclasses.replace``."""
    cls = type(obj)
    if len(changes) == 1:  # most copies change one field: its own copier, positional
        ones = cls.__dict__.get("__replace_one__")
        if ones is not None:
            for name, value in changes.items():
                one = ones.get(name)
                if one is not None:
                    return one(obj, value)
    try:
        copier = cls.__replace__
    except AttributeError:  # not a dataclass: the TypeError dataclasses.replace raises
        return dataclasses.replace(obj, **changes)
    return copier(obj, **changes)


def copyable(cls: type[T]) -> type[T]:
    """Class decorator (above ``@dataclass(frozen=True, slots=True)``): ``replace`` for the
    class built now, once, as its ``__replace__`` (a class with ``__post_init__`` or an
    ``__init__`` of its own keeps dataclasses' own). For the values every step of a fight
    copies (a combatant, the state): a quarter of ``dataclasses.replace``'s time."""
    copier = _make_copier(cls)
    if copier is not dataclasses.replace:
        cls.__replace__ = copier
        ones = _one_field_copiers(cls)
        if ones:
            cls.__replace_one__ = MappingProxyType(ones)
    return cls


def _one_field_copiers(cls: type) -> dict[str, Callable[..., Any]]:
    """For a class with a draft twin (see ``_make_copier``): ``copier(cls, name)`` for each
    field. Read-only once made."""
    if _draft_of(cls) is None:
        return {}
    return {f.name: copier(cls, f.name) for f in dataclasses.fields(cls) if f.init}


def copier(cls: type, *changed: str) -> Callable[..., Any]:
    """``copy(old, *values)``: ``replace(old, **dict(zip(changed, values)))`` for a class
    with a draft twin, the values taken positionally: no keyword to match, no "was it
    given?" test per field (a third of a copy's cost). Made once, where the class or a hot
    call site is defined (a module constant), never on demand."""
    draft = _draft_of(cls)
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields if f.init]
    if draft is None or not set(changed) <= set(names) or len(set(changed)) < len(changed):
        raise TypeError(f"no positional copier of {cls.__name__} for {changed}")
    fresh = {f.name: f.default for f in fields if not f.init}
    params = [f"v{i}" for i in range(len(changed))]
    body = ""
    for n in names + list(fresh):
        value = (f"FRESH[{n!r}]" if n in fresh else
                 params[changed.index(n)] if n in changed else f"old.{n}")
        body += f"    new.{n} = {value}\n"
    src = (f"def copy(old, /, {', '.join(params)}):\n    new = NEW(DRAFT)\n{body}"
           f"    SET(new, '__class__', CLS)\n    return new\n")
    scope = {"NEW": object.__new__, "CLS": cls, "FRESH": fresh, "DRAFT": draft,
             "SET": object.__setattr__}
    exec(src, scope)  # noqa: S102 - source built above from the class's own field names
    copy = scope["copy"]
    copy.__qualname__ = f"replace[{cls.__qualname__}:{','.join(changed)}]"
    return copy


def _make_copier(cls: type) -> Callable[..., Any]:
    fields = dataclasses.fields(cls)  # raises TypeError for a non-dataclass, as replace does
    names = [f.name for f in fields if f.init]
    # A field left out of __init__ is not copied by ``replace`` but set to its default again
    # (the state's caches, combat/d10/state.py); one with a factory keeps dataclasses.replace.
    fresh = {f.name: f.default for f in fields if not f.init}
    # Only where ``replace`` would run the generated __init__ (not one written by hand).
    generated = cls.__dataclass_params__.init and cls.__init__.__code__.co_filename == "<string>"
    if (not generated or hasattr(cls, "__post_init__") or dataclasses.MISSING in fresh.values()
            or {"old", "new", "KEEP", "NEW", "SET", "CLS", "FRESH", "DRAFT"}
            & {f.name for f in fields}
            or any(f.name.startswith("SET_") for f in fields)):
        return dataclasses.replace
    # def copy(old, /, *, a=KEEP, b=KEEP):
    #     new = NEW(DRAFT)
    #     new.a = old.a if a is KEEP else a ...
    #     SET(new, "__class__", CLS)
    # A frozen class refuses ``new.a = ...`` (its __setattr__ raises), and setting a slot
    # through its descriptor (``SET_a(new, ...)``) is a call per field. ``DRAFT`` is a plain
    # class with the very same slots: its fields are set as fast as any attribute, then the
    # value becomes a ``cls`` (same layout, so Python allows it) before anyone sees it. A
    # third of the cost of a 33-field Combatant copy. Without such a twin (a class with a
    # __dict__, or slots from a base), the descriptors or object.__setattr__ do it.
    draft = _draft_of(cls)
    scope = {"KEEP": _KEEP, "NEW": object.__new__, "CLS": cls, "FRESH": fresh,
             "DRAFT": draft, "SET": object.__setattr__}
    body = ""
    for i, n in enumerate(names + list(fresh)):
        slot = getattr(cls, n, None)
        if draft is not None:
            setter = f"new.{n} = "
        elif type(slot).__name__ == "member_descriptor":
            scope[f"SET_{i}"] = slot.__set__
            setter = f"SET_{i}(new, "
        else:
            setter = f"SET(new, {n!r}, "
        value = f"FRESH[{n!r}]" if n in fresh else f"old.{n} if {n} is KEEP else {n}"
        body += f"    {setter}{value}{'' if draft is not None else ')'}\n"
    params = ", ".join(f"{n}=KEEP" for n in names)
    if draft is not None:
        src = (f"def copy(old, /, *, {params}):\n    new = NEW(DRAFT)\n{body}"
               f"    SET(new, '__class__', CLS)\n    return new\n")
    else:
        src = f"def copy(old, /, *, {params}):\n    new = NEW(CLS)\n{body}    return new\n"
    exec(src, scope)  # noqa: S102 - source built above from the class's own field names
    copier = scope["copy"]
    copier.__qualname__ = f"replace[{cls.__qualname__}]"
    return copier


def _draft_of(cls: type) -> type | None:
    """A plain class with ``cls``'s slots, whose instances may become ``cls`` instances
    (``__class__`` assignment), or None when ``cls`` is not a slotted class of its own
    (a base with slots or a __dict__ of its own, a __weakref__ ...)."""
    slots = cls.__dict__.get("__slots__")
    if (cls.__bases__ != (object,) or not isinstance(slots, tuple) or cls.__dictoffset__
            or cls.__weakrefoffset__):
        return None
    draft = type(f"{cls.__name__}Draft", (), {"__slots__": slots, "__module__": __name__})
    try:  # Python decides whether the two layouts match; ask it once, on a throwaway value
        object.__setattr__(object.__new__(draft), "__class__", cls)
    except TypeError:
        return None
    return draft


def fast_init(cls: type[T]) -> type[T]:
    """Class decorator (above ``@dataclass(frozen=True, slots=True)``): the same ``__init__``
    (parameters, defaults, factories), setting the slots through their descriptors instead
    of ``object.__setattr__`` by name, which is what a frozen dataclass's own does: half the
    time. For the values an attack builds a few dozen of per command (bench/engine.py).
    A class with ``__post_init__``, init-only variables or no slots is left as it is."""
    fields = dataclasses.fields(cls)
    pseudo = len(cls.__dataclass_fields__) != len(fields)  # InitVar / ClassVar entries
    slots = [getattr(cls, f.name, None) for f in fields]
    clash = {"self", "NO_ARG"} | {f"{w}_{i}" for w in ("SET", "DEFAULT", "FACTORY")
                                     for i in range(len(fields))}
    if (pseudo or hasattr(cls, "__post_init__") or clash & {f.name for f in fields}
            or any(type(s).__name__ != "member_descriptor" for s in slots)):
        return copyable(cls)
    # With a draft class (see _make_copier) and enough fields to pay for turning the value
    # into a draft and back, the fields are set as plain attributes of the draft.
    draft = _draft_of(cls) if len(fields) >= _DRAFT_INIT_FIELDS else None
    scope: dict[str, Any] = {"NO_ARG": _KEEP, "CLS": cls, "DRAFT": draft,
                             "SET": object.__setattr__}
    clash |= set(scope)
    if clash & {f.name for f in fields}:
        return copyable(cls)
    positional, keyword, body, plain = [], [], [], []
    for i, (f, slot) in enumerate(zip(fields, slots)):
        scope[f"SET_{i}"] = slot.__set__
        if f.default is not dataclasses.MISSING:
            scope[f"DEFAULT_{i}"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            scope[f"FACTORY_{i}"] = f.default_factory
        if not f.init:  # not a parameter: its default, or a new one from the factory
            value = f"DEFAULT_{i}" if f"DEFAULT_{i}" in scope else f"FACTORY_{i}()"
        elif f"FACTORY_{i}" in scope:  # the parameter's default is "make a new one"
            value = f"FACTORY_{i}() if {f.name} is NO_ARG else {f.name}"
        else:
            value = f.name
        if f.init:
            default = ("=NO_ARG" if f"FACTORY_{i}" in scope
                       else f"=DEFAULT_{i}" if f"DEFAULT_{i}" in scope else "")
            (keyword if f.kw_only else positional).append(f"{f.name}{default}")
        body.append(f"    SET_{i}(self, {value})\n")
        plain.append(f"        self.{f.name} = {value}\n")
    params = ", ".join(["self"] + positional + (["*"] + keyword if keyword else []))
    if draft is not None:  # a subclass's instance keeps its class: the descriptors
        body = ["    if type(self) is CLS:\n        SET(self, '__class__', DRAFT)\n", *plain,
                "        SET(self, '__class__', CLS)\n        return\n", *body]
    src = f"def __init__({params}):\n{''.join(body) or '    pass\n'}"
    exec(src, scope)  # noqa: S102 - source built above from the class's own fields
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init
    return copyable(cls)


# ---------------------------------------------------------------- plain data
# Shared by both engines' states (combat/d10/state.py, combat/spotlight/turns.py): what a combat's
# Attribute may hold.


def plain(value: Any, path: str = "action") -> Any:
    """A deep copy of JSON-safe data, or InputError naming the first value that is not.

    Declared actions are stored in the combat's Attribute, so anything the attack layer puts
    in them must survive JSON (and a reload) unchanged.
    """
    if type(value) is dict:  # a declared action: text keys and plain values, as a rule
        out = value.copy()
        for k, v in out.items():
            if type(v) not in _LEAVES or type(k) is not str:
                break  # nested, or a key to look at: the walk below (and its error text)
        else:
            return out
    return _plain(value, (path,))


_LEAVES = frozenset({str, int, bool, float, type(None)})


def _plain(value: Any, where: tuple) -> Any:
    # ``where``: the path as parts, joined only for the error (every declaration copies its
    # actions through here; building each value's path text up front was most of the cost)
    if type(value) in _LEAVES or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _LEAVES else _plain(v, (*where, f"[{i}]"))
                for i, v in enumerate(value)]
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise InputError(f"{''.join(where)}: keys must be text, got {k!r}")
            out[k] = v if type(v) in _LEAVES else _plain(v, (*where, f".{k}"))
        return out
    raise InputError(f"{''.join(where)}: {type(value).__name__} cannot be stored in a combat")
