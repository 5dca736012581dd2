"""The game's own pages (issue 12): the front page, the running fights, a fight's live page
and a character's sheet.

Views only gather and show: what a fight or a sheet holds comes from ``world/fight_view.py``
and the renderers the commands use (``+combat``'s engine view, ``+sheet``'s text), so the web
shows what a player reads in the game. The combat page polls ``/combat/<id>.json`` every
1.5 s (JS in ``web/static/wod/combat.js``) and redraws when the log moved on: no reload, no
extra connection held open on the server.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, JsonResponse
from django.shortcuts import render

from world import fight_view, rulebook


def _online() -> list[str]:
    """Who is connected now: the character each account plays (else the account)."""
    import evennia

    names = set()
    for session in evennia.SESSION_HANDLER.get_sessions():
        account = session.get_account()
        if account is not None:
            puppet = session.get_puppet()
            names.add(puppet.key if puppet else account.key)
    return sorted(names, key=str.lower)


def index(request):
    account = request.user
    every = fight_view.fights()
    shown = [fight_view.summary(s) for s in every if fight_view.may_see(account, s)]
    chars = [{"id": c.id, "name": c.key} for c in fight_view.characters(account)]
    return render(request, "wod/index.html", {
        "page_title": "Front Page", "game_name": settings.SERVERNAME,
        "ruleset": rulebook.default_name(), "online": _online(), "fights": shown,
        "fights_total": len(every), "characters": chars})


def fights(request):
    account = request.user
    shown = [fight_view.summary(s) for s in fight_view.visible(account)]
    return render(request, "wod/fights.html", {"page_title": "Fights", "fights": shown,
                                               "staff": fight_view.is_staff(account)})


def _fight_or_404(request, combat_id):
    script = fight_view.find(combat_id)
    if script is None or not fight_view.may_see(request.user, script):
        # the same answer for "no such fight" and "not yours": ids are not secrets, but a
        # private fight's existence is nobody else's business
        raise Http404("No such fight, or not one you may see.")
    return script


def fight(request, combat_id):
    script = _fight_or_404(request, combat_id)
    return render(request, "wod/fight.html", {"page_title": "Fight",
                                              "fight": fight_view.snapshot(script)})


def fight_json(request, combat_id):
    script = fight_view.find(combat_id)
    if script is None:
        return JsonResponse({"ended": True}, status=404)
    if not fight_view.may_see(request.user, script):
        raise Http404("No such fight, or not one you may see.")
    return JsonResponse(fight_view.snapshot(script))


def sheet(request, char_id: int):
    """The sheet exactly as ``+sheet`` shows it, to its owner and staff."""
    from evennia.objects.models import ObjectDB
    from evennia.utils.text2html import parse_html

    from commands.render import sheet_text

    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    char = ObjectDB.objects.filter(id=char_id).first()
    if char is None or not hasattr(char, "sheet"):
        raise Http404("No such character.")
    mine = char.id in {c.id for c in fight_view.characters(request.user)}
    if not (mine or fight_view.is_staff(request.user)):
        raise Http404("No such character, or not yours.")
    text = sheet_text(char.key, char.sheet.get(), rulebook.get())
    return render(request, "wod/sheet.html", {"page_title": f"Sheet: {char.key}",
                                              "name": char.key, "html": parse_html(text)})
