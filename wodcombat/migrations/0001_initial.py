from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True
    dependencies = []

    operations = [
        migrations.CreateModel(
            name="CombatRecord",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                        verbose_name="ID")),
                ("combat", models.CharField(db_index=True, max_length=80)),
                ("first_seq", models.PositiveIntegerField()),
                ("last_seq", models.PositiveIntegerField()),
                ("turn", models.IntegerField(default=0)),
                ("records", models.TextField()),
                ("undo", models.TextField(blank=True, default="")),
            ],
            options={"ordering": ("combat", "first_seq")},
        ),
        migrations.AddConstraint(
            model_name="combatrecord",
            constraint=models.UniqueConstraint(fields=("combat", "first_seq"),
                                               name="combat_record_seq"),
        ),
    ]
