"""The combat system's pages, for the host's web/urls.py:
``path("", include("wodcombat.urls"))`` (README, "Add it to your game")."""

from django.urls import path

from wodcombat.web import views

urlpatterns = [
    path("combat/", views.fights, name="wod-fights"),
    path("combat/<str:combat_id>/", views.fight, name="wod-fight"),
    path("combat/<str:combat_id>.json", views.fight_json, name="wod-fight-json"),
    path("combat/<str:combat_id>/do", views.fight_do, name="wod-fight-do"),
    path("combat/<str:combat_id>/log.<str:fmt>", views.fight_log, name="wod-fight-log"),
    path("sheet/<int:char_id>/", views.sheet, name="wod-sheet"),
]
