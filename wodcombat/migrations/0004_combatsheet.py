import json

from django.db import migrations, models
import django.db.models.deletion

# where the sheet lived before (wodcombat.typeclasses.sheets.AttributeSheet)
SHEET_KEY, SHEET_CATEGORY = "sheet", "wod"


def _text(value) -> str:
    # JSON text since issue 13; a dict before it
    return value if isinstance(value, str) else json.dumps(value)


def attributes_to_rows(apps, schema_editor):
    """Every sheet Attribute becomes a row, and the Attribute goes: one home for a sheet."""
    ObjectDB = apps.get_model("objects", "ObjectDB")
    CombatSheet = apps.get_model("wodcombat", "CombatSheet")
    for obj in ObjectDB.objects.filter(db_attributes__db_key=SHEET_KEY,
                                       db_attributes__db_category=SHEET_CATEGORY).distinct():
        attrs = obj.db_attributes.filter(db_key=SHEET_KEY, db_category=SHEET_CATEGORY)
        attr = attrs.first()
        CombatSheet.objects.update_or_create(obj_id=obj.id,
                                             defaults={"text": _text(attr.db_value)})
        attrs.delete()


def rows_to_attributes(apps, schema_editor):
    ObjectDB = apps.get_model("objects", "ObjectDB")
    Attribute = apps.get_model("typeclasses", "Attribute")
    CombatSheet = apps.get_model("wodcombat", "CombatSheet")
    for row in CombatSheet.objects.all():
        # db_model: the handler of an object's Attributes asks for "objectdb" ones
        attr = Attribute.objects.create(db_key=SHEET_KEY, db_category=SHEET_CATEGORY,
                                        db_model="objectdb", db_value=row.text)
        ObjectDB.objects.get(id=row.obj_id).db_attributes.add(attr)


class Migration(migrations.Migration):
    """Issue 32: the sheet in the plugin's own table (wodcombat.models.CombatSheet)."""

    dependencies = [
        ("wodcombat", "0003_combatrecord_combat_index"),
        ("objects", "0013_defaultobject_alter_objectdb_id_defaultcharacter_and_more"),
        ("typeclasses", "0017_use_index_instead_of_index_together_in_tags"),
    ]

    operations = [
        migrations.CreateModel(
            name="CombatSheet",
            fields=[
                ("obj", models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                    related_name="+", serialize=False, to="objects.objectdb")),
                ("text", models.TextField()),
            ],
        ),
        migrations.RunPython(attributes_to_rows, rows_to_attributes),
    ]
