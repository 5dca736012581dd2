"""The d10 engine (seeds 000-003): the Storyteller turn, attacks, damage, health.

``engine.ENGINE`` implements ``combat.core.engine.Engine``; the modules beside it each hold
one part of what an intent does (declaring, acting, an attack's consequences, staff tools),
the d10 combatant (``state``) and the rule math they share (``scheduler``, ``attack``,
``damage``, ``healing``, ``field_healing``, ``powers``, ``kiss_rules``, ``idle``).
"""
