"""The Django app: the combat log's model and migrations, templates, static files and the
``evennia wodcombat`` management command. Added by one line, ``INSTALLED_APPS += ["wodcombat"]``."""

from django.apps import AppConfig
from django.conf import settings

STARTSTOP = "wodcombat.startstop"
INPUTFUNCS = "wodcombat.inputfuncs"


class WodCombatConfig(AppConfig):
    name = "wodcombat"
    label = "wodcombat"
    verbose_name = "World of Darkness combat"
    default_auto_field = "django.db.models.BigAutoField"  # what its migrations made

    def ready(self):
        """The server's start and stop hooks (``wodcombat/startstop.py``) join the host's:
        Evennia calls every module listed in ``AT_SERVER_STARTSTOP_MODULE``, a string or a
        list (evennia/server/service.py). The host's own module stays first and untouched."""
        hooks = settings.AT_SERVER_STARTSTOP_MODULE
        hooks = [hooks] if isinstance(hooks, str) else list(hooks or [])
        if STARTSTOP not in hooks:
            settings.AT_SERVER_STARTSTOP_MODULE = [*hooks, STARTSTOP]
        # The web client's "I draw the gauges" (wodcombat/inputfuncs.py), read by Evennia's
        # session handler when it is first imported, after the apps are ready.
        funcs = list(settings.INPUT_FUNC_MODULES)
        if INPUTFUNCS not in funcs:
            settings.INPUT_FUNC_MODULES = [*funcs, INPUTFUNCS]
