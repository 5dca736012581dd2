from django.db import migrations, models


class Migration(migrations.Migration):
    """Issue 13: each row keeps the fight's state after its command (the newest row's is
    the fight's state), instead of an UPDATE of the Script's ``state`` Attribute per
    command and a copy of the state before it in ``undo``."""

    dependencies = [("wodcombat", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="combatrecord",
            name="state",
            field=models.TextField(blank=True, default=""),
        ),
    ]
