from django.db import migrations, models


class Migration(migrations.Migration):
    """Issue 13: the unique (combat, first_seq) constraint's index already serves every
    lookup by fight; a second index on ``combat`` alone was one more b-tree page written on
    every command's INSERT."""

    dependencies = [("wodcombat", "0002_combatrecord_state")]

    operations = [
        migrations.AlterField(
            model_name="combatrecord",
            name="combat",
            field=models.CharField(max_length=80),
        ),
    ]
