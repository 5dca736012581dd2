"""The rules the running server uses: loaded once, replaced only by a valid reload.

The pure loader (wodcombat.combat.rules.ruleset) never raises on bad data; this module
decides what the server does with the result. At start a broken ruleset is refused and
reported in the server log, the others are used. ``+rules/reload`` applies new files only
when every ruleset in them is valid, so a typo never takes a running game's rules away.
"""

from __future__ import annotations

from wodcombat import conf

from wodcombat.combat.core.errors import RuleIssue
from wodcombat.combat.rules.ruleset import Library, Ruleset, load_library

_library: Library | None = None


def rules_dir() -> str:
    return conf.rules_dir()


def default_name() -> str:
    return conf.get("WODCOMBAT_DEFAULT_RULESET")


def _log_bug(message: str) -> None:
    from evennia.utils import logger

    logger.log_trace(message)


def _load() -> Library:
    """The rules files read afresh; a bug in the loader is one issue and a logged trace, so
    +rules/check and +rules/reload always answer with a list and the running rules stay.
    A WODCOMBAT_RULES_DIR naming no folder is refused the same way, naming the setting."""
    try:
        root = rules_dir()
    except conf.SettingError as err:
        root = str(conf.get("WODCOMBAT_RULES_DIR"))
        return Library(root, {}, {"(all)": (RuleIssue("settings", "", str(err)),)})
    try:
        return load_library(root, on_bug=_log_bug)
    except Exception as err:
        _log_bug(f"rules: reading {root} failed")
        issue = RuleIssue(root, "", f"could not read the rules: {type(err).__name__}: {err}")
        return Library(root, {}, {"(all)": (issue,)})


def library() -> Library:
    global _library
    if _library is None:
        _library = _load()
        _log(_library)
    return _library


def startup_report(lib: Library, default: str) -> list[str]:
    """What the server log says about the rules it loaded: [] when every ruleset is valid.

    A broken default ruleset is said loudly first (players' +roll and +sheet refuse until
    it is fixed), then every refused ruleset with each problem by file, line and key path.
    """
    lines: list[str] = []
    if default in lib.refused:
        causes = lib.causes(default)  # a broken parent's errors, when that is why
        files = sorted({i.file for i in causes})
        lines += [
            "!" * 78,
            f"rules: THE DEFAULT RULESET '{default}' IS BROKEN and was not loaded: +roll, "
            f"+sheet and +combat refuse until it is fixed.",
            f"rules: fix the {len(causes)} error(s) below in "
            f"{', '.join(files)}, then +rules/reload as an admin (or restart the server).",
            "!" * 78,
        ]
    elif default not in lib.rulesets:
        known = ", ".join(sorted(lib.rulesets)) or "none"
        lines += [
            "!" * 78,
            f"rules: THE DEFAULT RULESET '{default}' DOES NOT EXIST: no folder {lib.root}/"
            f"{default}/ with .yaml files. Known rulesets: {known}.",
            "rules: set WODCOMBAT_DEFAULT_RULESET in server/conf/settings.py to one of them, "
            "or add the folder; until then +roll, +sheet and +combat refuse.",
            "!" * 78,
        ]
    # Rulesets refused for errors in their own files first (the default's cause leading);
    # then each child refused only because its parent is broken, in one line.
    cause = next((n for n, i in lib.refused.items() if i == lib.causes(default)), None)
    own = sorted((n for n in lib.refused if n not in lib.broken_parent),
                 key=lambda n: (n != cause, n != default, n))
    for name in own:
        issues = lib.refused[name]
        head = f"rules: ruleset '{name}' refused with {len(issues)} error(s)" + (
            "" if name == default else "; the other rulesets are in use"
        )
        lines.append(head + ":")
        lines += [f"rules:   {issue}" for issue in issues]
    for name in sorted(lib.broken_parent, key=lambda n: (n != default, n)):
        lines.append(
            f"rules: ruleset '{name}' refused: it extends '{lib.broken_parent[name]}', which "
            f"has errors (listed above)"
            + ("." if name == default else "; the other rulesets are in use.")
        )
    return lines


def _log(lib: Library) -> None:
    from evennia.utils import logger

    for line in startup_report(lib, default_name()):
        logger.log_err(line)


def log_startup() -> None:
    """Read the rules afresh at server start and log every problem (at_server_start).

    Without this the files were first read at the first +roll, and a broken file showed up
    only then, in the middle of play. Never raises: a bug in loading is logged, not fatal.
    """
    global _library
    from evennia.utils import logger

    _library = None
    try:
        lib = library()
    except Exception:  # the loader never raises for bad data; this is a bug in it
        logger.log_trace(f"rules: reading {rules_dir()} failed")
        return
    if default_name() in lib.rulesets and not lib.refused:
        logger.log_info(
            f"rules: loaded {', '.join(sorted(lib.rulesets))} from {lib.root} "
            f"(default {default_name()})"
        )


def get(name: str | None = None) -> Ruleset:
    """The named ruleset (default: the server's), or InputError naming the known ones."""
    return library().get(name or default_name())


def check() -> Library:
    """Read the files again without applying them."""
    return _load()


def reload() -> tuple[Library, bool]:
    """Read the files again; apply them only if every ruleset is valid."""
    global _library
    fresh = _load()
    if fresh.refused or default_name() not in fresh.rulesets:
        return fresh, False
    _library = fresh
    return fresh, True


# ---------------------------------------------------------------- rules a combat started with
#
# Issue 4 (per-scene rules): a running combat keeps the rules it started with when an admin
# reloads the YAML, and across ``evennia reload`` / a restart. Why a snapshot of the
# validated data rather than only a content hash: after a restart the old files may be gone
# (the admin edited them), so the combat's Script stores the YAML text of its ruleset's
# checked data (~40 KB, once, at +combat/start) plus its sha256 digest. While the running
# library still holds a ruleset with that digest, the combat simply uses it (no copy); once
# the files changed, the snapshot is rebuilt once per server process (re-checked through the
# same schemas, so tuples and defaults come back exactly) and kept in ``_retained``.

_digests: dict[int, tuple[Ruleset, str, str]] = {}  # id(ruleset) -> (ruleset, digest, text)
_retained: dict[str, Ruleset] = {}  # digest -> a rebuilt ruleset some combat started with


def _dump(value) -> str:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(value, Dumper=dumper, sort_keys=True, allow_unicode=True)


def snapshot(ruleset: Ruleset) -> tuple[str, str]:
    """(digest, text) of one loaded ruleset: what a new combat stores (computed once)."""
    import hashlib

    hit = _digests.get(id(ruleset))
    if hit is not None and hit[0] is ruleset:
        return hit[1], hit[2]
    text = _dump(
        {
            "name": ruleset.name,
            "parent": ruleset.parent,
            "description": ruleset.description,
            "files": list(ruleset.files),
            "data": ruleset.data,
        }
    )
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    _digests[id(ruleset)] = (ruleset, digest, text)
    return digest, text


def restore(text: str) -> Ruleset:
    """A ruleset back from ``snapshot`` text, validated again by the same schemas."""
    import yaml

    from wodcombat.combat.core.errors import RulesError
    from wodcombat.combat.rules.ruleset import META
    from wodcombat.combat.rules.schema import Struct
    from wodcombat.combat.rules.sections import SECTIONS

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    raw = yaml.load(text, Loader=loader)
    problems: list = []
    data = Struct(optional={"ruleset": META, **SECTIONS}).check(raw["data"], "", problems)
    if problems:
        from wodcombat.combat.core.errors import RuleIssue

        raise RulesError([RuleIssue("snapshot", p, m) for p, m in problems])
    return Ruleset(
        name=str(raw["name"]),
        parent=raw.get("parent"),
        description=str(raw.get("description") or ""),
        files=tuple(raw.get("files") or ()),
        data=data,
    )


def pinned(name: str, digest: str | None, load_text) -> Ruleset:
    """The ruleset a combat started with. ``digest``: what it stored at the start (None for
    a combat older than snapshots: the running rules); ``load_text()``: its snapshot text,
    read only when the running library no longer has those rules."""
    if not digest:
        return get(name)
    current = library().rulesets.get(str(name).strip().lower())
    if current is not None and snapshot(current)[0] == digest:
        return current
    kept = _retained.get(digest)
    if kept is not None:
        return kept
    text = load_text()
    if not text:
        return get(name)
    try:
        kept = restore(text)
    except Exception:  # a snapshot a newer schema refuses: fall back, say so in the log
        from evennia.utils import logger

        logger.log_trace(f"rules: combat snapshot of '{name}' no longer loads; using current")
        return get(name)
    _retained[digest] = kept
    return kept
