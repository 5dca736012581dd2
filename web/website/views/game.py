"""This game's front page (issue 12): what the game is, who is online, the fights running now
(those the visitor may watch) and, logged in, links to the visitor's characters' sheets."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render
from wodcombat.world import fight_view, rulebook
from wodcombat.world.web_text import to_plain


def _online() -> list[str]:
    """Who is connected now: the character each account plays (else the account)."""
    import evennia

    names = set()
    for session in evennia.SESSION_HANDLER.get_sessions():
        account = session.get_account()
        if account is not None:
            puppet = session.get_puppet()
            names.add(to_plain(puppet.key if puppet else account.key))
    return sorted(names, key=str.lower)


def index(request):
    account = request.user
    every = fight_view.fights()
    shown = [fight_view.summary(s) for s in every if fight_view.may_see(account, s)]
    chars = [{"id": c.id, "name": to_plain(c.key)} for c in fight_view.characters(account)]
    return render(request, "website/index.html", {
        "page_title": "Front Page", "game_name": settings.SERVERNAME,
        "ruleset": rulebook.default_name(), "online": _online(), "fights": shown,
        "fights_total": len(every), "characters": chars})
