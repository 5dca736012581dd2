"""
Prototypes

A prototype is a simple way to create individualized instances of a
given typeclass. It is dictionary with specific key names.

For example, you might have a Sword typeclass that implements everything a
Sword would need to do. The only difference between different individual Swords
would be their key, description and some Attributes. The Prototype system
allows to create a range of such Swords with only minor variations. Prototypes
can also inherit and combine together to form entire hierarchies (such as
giving all Sabres and all Broadswords some common properties). Note that bigger
variations, such as custom commands or functionality belong in a hierarchy of
typeclasses instead.

A prototype can either be a dictionary placed into a global variable in a
python module (a 'module-prototype') or stored in the database as a dict on a
special Script (a db-prototype). The former can be created just by adding dicts
to modules Evennia looks at for prototypes, the latter is easiest created
in-game via the `olc` command/menu.

Prototypes are read and used to create new objects with the `spawn` command
or directly via `evennia.spawn` or the full path `evennia.prototypes.spawner.spawn`.

A prototype dictionary have the following keywords:

Possible keywords are:
- `prototype_key` - the name of the prototype. This is required for db-prototypes,
  for module-prototypes, the global variable name of the dict is used instead
- `prototype_parent` - string pointing to parent prototype if any. Prototype inherits
  in a similar way as classes, with children overriding values in their parents.
- `key` - string, the main object identifier.
- `typeclass` - string, if not set, will use `settings.BASE_OBJECT_TYPECLASS`.
- `location` - this should be a valid object or #dbref.
- `home` - valid object or #dbref.
- `destination` - only valid for exits (object or #dbref).
- `permissions` - string or list of permission strings.
- `locks` - a lock-string to use for the spawned object.
- `aliases` - string or list of strings.
- `attrs` - Attributes, expressed as a list of tuples on the form `(attrname, value)`,
  `(attrname, value, category)`, or `(attrname, value, category, locks)`. If using one
   of the shorter forms, defaults are used for the rest.
- `tags` - Tags, as a list of tuples `(tag,)`, `(tag, category)` or `(tag, category, data)`.
-  Any other keywords are interpreted as Attributes with no category or lock.
   These will internally be added to `attrs` (equivalent to `(attrname, value)`.

See the `spawn` command and `evennia.prototypes.spawner.spawn` for more info.

"""

# ---------------------------------------------------------------- ready NPCs for +combat/npc
#
# ``+combat/npc <name>=<template>`` copies one of these sheets
# (``wodcombat.combat.core.sheet.Sheet.from_dict`` form) onto a new NPC. They are plain data, not
# spawnable prototypes: the combat creates the NPC object itself. Values: V20 "Storyteller
# characters" stat blocks, rounded to typical numbers; edit freely (a sheet a staffer wants to
# tweak is +sheet/set <npc>/<trait>=<value>).

NPC_TEMPLATES: dict[str, dict] = {
    "thug": {
        "desc": "street thug with a knife (mortal)",
        "default": "attack {pc} with knife",
        "sheet": {
            "splat": "mortal",
            "traits": {"Strength": 3, "Dexterity": 2, "Stamina": 3, "Perception": 2, "Wits": 2,
                       "Brawl": 2, "Melee": 2, "Athletics": 1, "Dodge": 1, "Alertness": 1},
            "pools": {"Willpower": {"current": 3, "permanent": 3}},
            "weapons": ["Knife"],
        },
    },
    "gunman": {
        "desc": "gang gunman with a heavy pistol (mortal)",
        "default": "attack {pc} with pistol, heavy",
        "sheet": {
            "splat": "mortal",
            "traits": {"Strength": 2, "Dexterity": 3, "Stamina": 2, "Perception": 3, "Wits": 2,
                       "Brawl": 1, "Firearms": 3, "Athletics": 1, "Dodge": 2, "Alertness": 2},
            "pools": {"Willpower": {"current": 4, "permanent": 4}},
            "weapons": ["Pistol, heavy"],
            "armor": "Armor T-shirt",
        },
    },
    "ghoul": {
        "desc": "ghoul bodyguard with a club (Potence 1, Fortitude 1)",
        "default": "attack {pc} with club",
        "sheet": {
            "splat": "ghoul",
            "traits": {"Strength": 3, "Dexterity": 3, "Stamina": 3, "Perception": 2, "Wits": 3,
                       "Brawl": 3, "Melee": 2, "Athletics": 2, "Dodge": 2, "Alertness": 2,
                       "Potence": 1, "Fortitude": 1},
            "pools": {"Willpower": {"current": 5, "permanent": 5},
                      "Blood": {"current": 3, "permanent": 3}},
            "weapons": ["Club"],
        },
    },
    "vampire": {
        "desc": "neonate vampire, 12th generation (Celerity 1, Potence 1)",
        "default": "attack {pc} with knife",
        "sheet": {
            "splat": "vampire",
            "generation": 12,
            "traits": {"Strength": 3, "Dexterity": 3, "Stamina": 3, "Perception": 2, "Wits": 3,
                       "Brawl": 3, "Melee": 2, "Athletics": 2, "Dodge": 2, "Alertness": 2,
                       "Celerity": 1, "Potence": 1},
            "pools": {"Willpower": {"current": 5, "permanent": 5},
                      "Blood": {"current": 10, "permanent": 11}},
            "weapons": ["Knife"],
        },
    },
    "garou": {
        "desc": "Garou warrior in Crinos (claws and bite, Rage 5)",
        "default": "attack {pc} as claw",
        "sheet": {
            "splat": "shifter",
            "race": "Garou",
            "breed": "homid",
            "form": "Crinos",
            "traits": {"Strength": 7, "Dexterity": 4, "Stamina": 6, "Perception": 3, "Wits": 3,
                       "Brawl": 3, "Athletics": 2, "Dodge": 2, "Alertness": 2},
            "pools": {"Willpower": {"current": 5, "permanent": 5},
                      "Rage": {"current": 5, "permanent": 5},
                      "Gnosis": {"current": 3, "permanent": 3}},
        },
    },
}
# Other spellings players type for the same templates.
NPC_TEMPLATE_ALIASES: dict[str, str] = {
    "street thug": "thug", "street_thug": "thug", "garou in crinos": "garou",
    "crinos": "garou", "werewolf": "garou", "vampire neonate": "vampire", "neonate": "vampire",
}
