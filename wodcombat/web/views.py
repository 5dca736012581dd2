"""The combat system's pages (issue 12): the running fights, a fight's live page and a
character's sheet (``wodcombat/urls.py``).

Views only gather and show: what a fight or a sheet holds comes from
``wodcombat/world/fight_view.py`` and the renderers the commands use (``+combat``'s engine
view, ``+sheet``'s text), so the web shows what a player reads in the game. The combat page
polls ``/combat/<id>.json`` every 1.5 s (JS in ``wodcombat/static/wod/combat.js``) and
redraws when the log moved on: no reload, no extra connection held open on the server.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, HttpResponseNotFound, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from wodcombat.world import fight_control, fight_view, rulebook
from wodcombat.world.web_text import to_html, to_plain

#: the one answer for a fight that is not there and a fight one may not see (issue 30)
NO_FIGHT = "No such fight, or not one you may see."


def fights(request):
    account = request.user
    shown = [fight_view.summary(s) for s in fight_view.visible(account)]
    return render(request, "wod/fights.html", {"page_title": "Fights", "fights": shown,
                                               "staff": fight_view.is_staff(account)})


def _seen_fight(request, combat_id):
    """The fight, if it runs and the visitor may watch it; else None."""
    script = fight_view.find(combat_id)
    if script is None or not fight_view.may_see(request.user, script):
        return None
    return script


def _no_fight_page() -> HttpResponseNotFound:
    # Drawn without the request (no menu state, no CSRF token, no path): the same bytes
    # for every fight id one may not see, so a private fight's existence does not show.
    return HttpResponseNotFound(render_to_string("wod/no_fight.html", {
        "game_name": settings.SERVERNAME, "message": NO_FIGHT}))


def fight(request, combat_id):
    script = _seen_fight(request, combat_id)
    if script is None:
        return _no_fight_page()
    snap = {**fight_view.snapshot(script), "me": fight_view.visitor(request.user, script)}
    return render(request, "wod/fight.html", {"page_title": "Fight", "fight": snap})


def fight_json(request, combat_id):
    """The page's poll; ``{"gone": true}`` with a 404 once the fight ended or the visitor
    may no longer watch it (one answer for both: combat.js tells the viewer so)."""
    script = _seen_fight(request, combat_id)
    if script is None:
        return JsonResponse({"gone": True, "message": NO_FIGHT}, status=404)
    return JsonResponse({**fight_view.snapshot(script),
                         "me": fight_view.visitor(request.user, script)})


@require_POST  # Django's CSRF middleware checks the token before this runs (403 without)
def fight_do(request, combat_id):
    """Issue 29: the page's controls. ``line`` is one ``+combat`` command, run as the
    visitor's character through the command handler (``world/fight_control.py``); the
    answer is what the character was told, ``{"lines": [...]}``. Refused, nothing run: a
    logged-out visitor (403), a fight one may not see (404, as one that is not there), a
    line that is not +combat (400), an account with no character in the fight (403)."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Log in to run a fight from its page."}, status=403)
    script = _seen_fight(request, combat_id)
    if script is None:
        return JsonResponse({"gone": True, "message": NO_FIGHT}, status=404)
    try:
        lines = fight_control.run(request.user, script, request.POST.get("line"))
    except fight_control.Refused as refused:
        return JsonResponse({"error": refused.message}, status=refused.status)
    return JsonResponse({"lines": lines})


def fight_log(request, combat_id, fmt: str):
    """Issue 29: the fight's text as its room read it, to keep with a scene: plain text or a
    page of its own (``fmt``: "txt" or "html"), downloaded."""
    script = _seen_fight(request, combat_id)
    if script is None or fmt not in ("txt", "html"):
        return _no_fight_page()
    title, texts = fight_view.log_texts(script)
    if fmt == "txt":
        body = "\n\n".join([title, *(to_plain(t) for t in texts)]) + "\n"
        reply = HttpResponse(body, content_type="text/plain; charset=utf-8")
    else:
        reply = render(request, "wod/fight_log.html", {
            "title": title, "entries": [to_html(t) for t in texts]})
    reply["Content-Disposition"] = f'attachment; filename="fight-{script.combat_id}.{fmt}"'
    return reply


def sheet(request, char_id: int):
    """The sheet exactly as ``+sheet`` shows it, to its owner and staff."""
    from evennia.objects.models import ObjectDB

    from wodcombat.commands.render import sheet_text

    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    char = ObjectDB.objects.filter(id=char_id).first()
    mine = char is not None and char.id in {c.id for c in fight_view.characters(request.user)}
    if char is None or not hasattr(char, "sheet") or not (
            mine or fight_view.is_staff(request.user)):
        raise Http404("No such character, or not yours.")  # one answer: ids are no secret
    text = sheet_text(char.key, char.sheet.get(), rulebook.get())
    name = to_plain(char.key)
    return render(request, "wod/sheet.html", {"page_title": f"Sheet: {name}",
                                              "name": name, "html": to_html(text)})
