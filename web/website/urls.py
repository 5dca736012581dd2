"""
This reroutes from an URL to a python view-function/class.

The main web/urls.py includes these routes for all urls (the root of the url)
so it can reroute to all website pages. Ours come first, so "" is the game's own front
page (issue 12), not Evennia's stock one.

Issue 30: Evennia's character and channel pages are not this game's (its characters are
shown at /sheet/<id>/, its channels are played in the game), and their detail views answer
500 to a visitor for an id that is not there: they are not served. Kept of Evennia's: the
log in/out, registration and password pages (auth/), and help.
"""

from django.urls import path

from evennia.web.website.urls import urlpatterns as evennia_website_urlpatterns

from .views import game

urlpatterns = [
    path("", game.index, name="index"),
]

#: Evennia's pages this game does not serve
NOT_SERVED = frozenset({
    "to_be_implemented", "channels", "channel-detail", "characters", "character-create",
    "character-manage", "character-detail", "character-puppet", "character-update",
    "character-delete"})

# read by Django
urlpatterns = urlpatterns + [p for p in evennia_website_urlpatterns
                             if getattr(p, "name", None) not in NOT_SERVED]
