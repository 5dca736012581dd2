"""The game's own first start: the starting room speaks to players, not to builders.

Evennia calls ``at_initial_setup`` once, on the very first start, after it made Limbo (#2)
with its stock text for developers; here Limbo gets this game's name and where to begin.
(Evennia's look squeezes runs of spaces, so the list is not laid out in columns.)
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


def at_initial_setup():
    from evennia.objects.models import ObjectDB

    limbo = ObjectDB.objects.filter(id=2).first()
    if limbo is None:
        return
    limbo.key = LIMBO_NAME
    limbo.db.desc = LIMBO_DESC
