r"""
Evennia settings for the World of Darkness combat game.

Only settings that differ from Evennia's defaults live here; see
https://www.evennia.com/docs/latest/Setup/Settings-Default.html

Environment overrides (used by the e2e tests to run a second, throw-away
server next to a developer's one; all optional):

    WOD_TELNET_PORT      telnet port                  (default 4000)
    WOD_WEB_PORT         public web/webclient port    (default 4001)
    WOD_WEBSOCKET_PORT   webclient websocket port     (default 4002)
    WOD_WEB_PROXY_PORT   internal web server port     (default 4005)
    WOD_AMP_PORT         portal<->server AMP port     (default 4006)
    WOD_INTERFACE        interface to listen on       (default 0.0.0.0)
    WOD_WEB_ENABLED      "0" turns off website/webclient
    WOD_DB_PATH          SQLite database file         (default server/evennia.db3)
    WOD_DATABASE_URL     PostgreSQL instead of SQLite: postgres://user:pass@host:port/name
                         (DATABASE_URL is read too; host may be a socket dir given as
                         ?host=/run/postgresql). Unset: the embedded SQLite file.
    WOD_SECRET_KEY       Django SECRET_KEY (else server/conf/secret_settings.py,
                         which bin/play generates on first run and git ignores)
    WOD_OVERRIDES        "off": every override of an Evennia internal off, as a host
                         game has them (the WODCOMBAT_* paragraph below; for bench/)
    WOD_E2E              "1": throw-away test server (no login/creation throttles,
                         no rate limits, fast password hashing). Set by
                         tests/e2e/harness.py only; bin/play drops it. Never in production.
"""

import os

# Use the defaults from Evennia unless explicitly overridden
from evennia.settings_default import *  # noqa: F401,F403

######################################################################
# Evennia base server config
######################################################################

SERVERNAME = "World of Darkness Combat"
GAME_SLOGAN = "Combat for World of Darkness MUSHes: five rulesets, one engine"


def _env_int(name, default):
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


_INTERFACE = os.environ.get("WOD_INTERFACE", "").strip()
if _INTERFACE:
    TELNET_INTERFACES = [_INTERFACE]
    WEBSERVER_INTERFACES = [_INTERFACE]
    WEBSOCKET_CLIENT_INTERFACE = _INTERFACE

TELNET_PORTS = [_env_int("WOD_TELNET_PORT", 4000)]
WEBSERVER_PORTS = [(_env_int("WOD_WEB_PORT", 4001), _env_int("WOD_WEB_PROXY_PORT", 4005))]
WEBSOCKET_CLIENT_PORT = _env_int("WOD_WEBSOCKET_PORT", 4002)
AMP_PORT = _env_int("WOD_AMP_PORT", 4006)

if os.environ.get("WOD_WEB_ENABLED", "1").strip() == "0":
    WEBSERVER_ENABLED = False
    WEBCLIENT_ENABLED = False
    WEBSOCKET_CLIENT_ENABLED = False

if os.environ.get("WOD_DB_PATH"):
    DATABASES["default"]["NAME"] = os.path.abspath(os.environ["WOD_DB_PATH"])  # noqa: F405

# Issue 12: PostgreSQL when a URL names it (what MUSHes that grow run Evennia on); the
# SQLite file stays the default, embedded, nothing to install. Driver: psycopg 3 (the
# `psycopg[binary]` wheel carries libpq, so no compiler or system library is needed, and it
# is the driver Django recommends for new projects).
_DB_URL = (os.environ.get("WOD_DATABASE_URL") or os.environ.get("DATABASE_URL") or "").strip()
if _DB_URL:
    from server.conf.database_url import postgres_settings

    DATABASES = {"default": postgres_settings(_DB_URL)}

# Issue 13: every SQLite connection in WAL mode with synchronous=NORMAL. A commit then
# appends to the write-ahead log instead of syncing a rollback journal: 0.04 ms instead of
# 2.7 ms per committed UPDATE, measured, on the single server thread that runs commands.
# A power loss can lose the last commits but never corrupts the database.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = (  # noqa: F405
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")

# Issue 12: one account may be connected from telnet and the web client at the same time;
# every session of the account drives the same character and sees the same output (mode 1:
# a web login no longer kicks the telnet session).
MULTISESSION_MODE = 1

# Issue 30: Evennia's throttles stay at its defaults in a game (bin/play drops WOD_E2E; a
# test reads these settings without it). The e2e harness is the one place that sets WOD_E2E:
# its tests create dozens of accounts and connections from 127.0.0.1 within seconds, which
# the creation, login and connection throttles would refuse or queue, and some type a whole
# fight's commands at once (test_ahead_fight, test_output_width: refused at 80 a second,
# tried). bench/flood.py measures a flood with a game's throttles instead.
if os.environ.get("WOD_E2E", "").strip() == "1":
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    CREATION_THROTTLE_LIMIT = None
    CREATION_THROTTLE_TIMEOUT = None
    LOGIN_THROTTLE_LIMIT = None
    LOGIN_THROTTLE_TIMEOUT = None
    MAX_CONNECTION_RATE = 100000
    MAX_COMMAND_RATE = 100000

######################################################################
# Combat system
######################################################################

# The combat system is a plugin (wodcombat/), added as any host game adds it: this app line
# (its log model, migrations, pages and `evennia wodcombat`), the cmdset in
# commands/default_cmdsets.py, the mixin in typeclasses/characters.py, the include in
# web/urls.py, and the two settings below (README, "Add it to your game").
INSTALLED_APPS += ["wodcombat"]  # noqa: F405
# The rules folder (one sub-folder per ruleset, rules/README.md) and the default ruleset.
WODCOMBAT_RULES_DIR = os.path.join(GAME_DIR, "rules")  # noqa: F405
WODCOMBAT_DEFAULT_RULESET = "numetal"

# Everything else has its default in wodcombat/conf.py; this game states the ones it relies
# on. The NPC +combat/npc makes: this game's own (typeclasses/characters.py).
WODCOMBAT_NPC_TYPECLASS = "typeclasses.characters.NPC"
# Issue 5: seconds the turn waits for an idle player before the ruleset's default (pass,
# or a full defense when declaring) is applied for them; 0 turns it off. Each fight's
# organizer changes it with +combat/timeout <seconds>.
WODCOMBAT_DEFAULT_TIMEOUT = 300
# Issue 30: limits no player can go past, so one command cannot stall the server for
# everyone (each refusal names the limit). NPCs one +combat/npc makes, in either form
# ("3 Rat" or "Rat1,Rat2,..."); NPCs in one fight; combatants of any kind in one fight
# (bench/scale.py plays fights of 100 NPCs, so keep these above that).
WODCOMBAT_MAX_NPCS_PER_COMMAND = 20
WODCOMBAT_MAX_NPCS_PER_FIGHT = 100
WODCOMBAT_MAX_COMBATANTS = 120
# +combat/odds previews queued or running at once, served one at a time by one worker
# thread; past it a preview is answered "busy" at once.
WODCOMBAT_ODDS_QUEUE = 20
# Characters of one command's reply to whoever typed it; past it the reply is cut at a line
# boundary with a line saying how many lines were left out and what shows the rest.
WODCOMBAT_MAX_OUTPUT = 16000

# Issue 27: the Evennia internals this game replaces, each behind one setting. Absent, each
# is off (wodcombat/world/overrides.py): a host game adding the combat system keeps Evennia's own
# classes. This game turns them on; WOD_OVERRIDES=off turns them all off (bench/README.md
# compares the two). tests/test_evennia_overrides.py pins each to Evennia 6.1.
_OVERRIDES = os.environ.get("WOD_OVERRIDES", "on").strip().lower() != "off"
# Rooms count their contents' changes (wodcombat/world/listeners.py keeps a room's readers until
# then) and answer the command handler without NPCs that carry no commands (issue 13).
WODCOMBAT_FAST_ROOM_CONTENTS = _OVERRIDES
# An NPC's call lock left at call:false() answers no without the lock handler.
WODCOMBAT_NPC_CALL_LOCK = _OVERRIDES
# The sheet's Attribute and the log's row as one plain SQL statement each, not the ORM.
WODCOMBAT_PLAIN_WRITES = _OVERRIDES
# The Server's messages of a reactor pass go to the Portal as one AMP command (its AMP
# classes also send without delay: wodcombat/server/amp_batch.py).
WODCOMBAT_BATCH_AMP = _OVERRIDES
# TCP_NODELAY on every socket of the portal (telnet, websocket, AMP) and on the server's
# end of AMP (wodcombat/server/nodelay.py says why).
WODCOMBAT_TCP_NODELAY = _OVERRIDES
if WODCOMBAT_TCP_NODELAY:
    TELNET_PROTOCOL_CLASS = "wodcombat.server.nodelay.NoDelayTelnet"
    WEBSOCKET_PROTOCOL_CLASS = "wodcombat.server.nodelay.NoDelayWebSocket"
    AMP_SERVER_PROTOCOL_CLASS = "wodcombat.server.nodelay.NoDelayAMPServer"
    AMP_CLIENT_PROTOCOL_CLASS = "wodcombat.server.nodelay.NoDelayAMPClient"
if WODCOMBAT_BATCH_AMP:
    AMP_SERVER_PROTOCOL_CLASS = "wodcombat.server.amp_batch.BatchingAMPServer"
    AMP_CLIENT_PROTOCOL_CLASS = "wodcombat.server.amp_batch.BatchingAMPClient"
# Issue 30: the telnet class paces each client's lines and stops reading one past
# MAX_COMMAND_RATE (wodcombat/server/flood_guard.py says why; it is a NoDelayTelnet, so it sends
# without delay too). It replaces Evennia's telnet class, so it is opt-in as the others.
WODCOMBAT_FLOOD_GUARD = _OVERRIDES
if WODCOMBAT_FLOOD_GUARD:
    TELNET_PROTOCOL_CLASS = "wodcombat.server.flood_guard.FloodGuardTelnet"

######################################################################
# Secrets: env var first, then the git-ignored secret_settings.py.
######################################################################

if os.environ.get("WOD_SECRET_KEY"):
    SECRET_KEY = os.environ["WOD_SECRET_KEY"]
else:
    try:
        from server.conf.secret_settings import *  # noqa: F401,F403
    except ImportError:
        # No secret file (fresh clone, tests): Evennia's built-in key is used.
        # bin/play creates server/conf/secret_settings.py before the first start.
        pass

######################################################################
# Issue 30: the Content-Security-Policy of every page Django serves
######################################################################

# No inline script, handler or javascript: URL runs on the game's pages, so text a player
# slipped into a page (defense in depth behind wodcombat/world/web_text.py) cannot act. Every script
# is a file from the game itself. Styles may be inline (the web client's panes and
# Evennia's pages set style attributes; a style cannot run script). The web client's
# websocket is on its own port (or WEBSOCKET_CLIENT_URL), so connect-src names it.
from django.utils.csp import CSP  # noqa: E402

MIDDLEWARE = ["django.middleware.csp.ContentSecurityPolicyMiddleware"] + MIDDLEWARE  # noqa: F405
_WEBSOCKETS = [f"ws://*:{WEBSOCKET_CLIENT_PORT}", f"wss://*:{WEBSOCKET_CLIENT_PORT}"]
if WEBSOCKET_CLIENT_URL:  # noqa: F405
    _WEBSOCKETS.append(WEBSOCKET_CLIENT_URL)  # noqa: F405
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF, *_WEBSOCKETS],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.SELF],
}
