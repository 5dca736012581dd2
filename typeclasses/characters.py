"""Characters and NPCs of this game: the combat system mixed into its own Character, the
way any host game adds it (README, "Add it to your game")."""

from evennia.objects.objects import DefaultCharacter

from wodcombat.typeclasses.characters import CombatCharacterMixin, CombatNPCMixin

from .objects import ObjectParent


class Character(CombatCharacterMixin, ObjectParent, DefaultCharacter):
    """A player character with a World of Darkness sheet."""


class NPC(CombatNPCMixin, Character):
    """A staff-run character (``WODCOMBAT_NPC_TYPECLASS`` names this class)."""
