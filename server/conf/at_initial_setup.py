"""The game's own first start: the starting room speaks to players, not to builders.

Evennia calls ``at_initial_setup`` once, on the very first start, after it made Limbo (#2)
with its stock text for developers; here Limbo gets this game's name and where to begin.
(Evennia's look squeezes runs of spaces, so the list is not laid out in columns.)

Evennia's ``create_objects`` also puts the superuser's character (#1) in Limbo, where every
look lists it ("Characters: admin") though nobody has played it yet (issue 28). Everywhere
else a character whose player is away is kept nowhere: ``DefaultCharacter.at_post_unpuppet``
sets its location to None and keeps the room in ``prelogout_location``, and
``at_pre_puppet`` puts it back there when its player comes. #1 is stowed the same way here,
so the admin's first login brings it to Limbo as any later login would.
"""

LIMBO_NAME = "Limbo"

LIMBO_DESC = """\
A quiet room between scenes, lit by one streetlamp that never goes out. From
here the night's stories begin: make your character, roll dice the whole room
can see, and fight World of Darkness battles where every die is shown.

 |whelp|n - every command, with Usage and Examples
 |w+sheet|n - your sheet: |w+sheet/set splat=vampire|n, |w+sheet/set dex=3|n
 |w+roll dex+brawl|n - roll your traits (|whelp +roll|n)
 |w+combat/start|n - open a fight here; others |w+combat/join|n (|whelp +combat|n)
 |w+rules|n - the rules in force: |w+rules/weapons|n, |w+rules/armor|n"""


def stow_unplayed(character) -> bool:
    """``character`` out of its room until its player comes, as Evennia stows one whose
    player left (``at_post_unpuppet``); False (left alone) if someone plays it now."""
    if character.location is None or character.sessions.count():
        return False
    character.db.prelogout_location = character.location
    character.location = None
    return True


def at_initial_setup():
    from evennia.objects.models import ObjectDB
    from evennia.utils.utils import inherits_from

    limbo = ObjectDB.objects.filter(id=2).first()
    if limbo is not None:
        limbo.key = LIMBO_NAME
        limbo.db.desc = LIMBO_DESC
    superuser_character = ObjectDB.objects.filter(id=1).first()  # as create_objects finds it
    if inherits_from(superuser_character, "evennia.objects.objects.DefaultCharacter"):
        stow_unplayed(superuser_character)
