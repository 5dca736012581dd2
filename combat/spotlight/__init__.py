"""The spotlight engine (seed 004; SPOT-01..14): the same shape as ``combat.d10``.

``engine.ENGINE`` implements ``combat.core.engine.Engine``; ``turns`` holds the round and
its operations, ``state`` the fight's values, ``attack``/``dice``/``moves`` an attack's
readings, ``conditions``, ``rouse`` and ``impairment`` the V5 rules beside them.
"""
