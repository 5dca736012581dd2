"""
This reroutes from an URL to a python view-function/class.

The main web/urls.py includes these routes for all urls (the root of the url)
so it can reroute to all website pages. Ours come first, so "" is the game's own front
page (issue 12), not Evennia's stock one.
"""

from django.urls import path

from evennia.web.website.urls import urlpatterns as evennia_website_urlpatterns

from .views import game

urlpatterns = [
    path("", game.index, name="index"),
    path("combat/", game.fights, name="wod-fights"),
    path("combat/<str:combat_id>/", game.fight, name="wod-fight"),
    path("combat/<str:combat_id>.json", game.fight_json, name="wod-fight-json"),
    path("sheet/<int:char_id>/", game.sheet, name="wod-sheet"),
]

# read by Django
urlpatterns = urlpatterns + evennia_website_urlpatterns
