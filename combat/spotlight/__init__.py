"""The spotlight engine (seed 004; SPOT-01..14): the same shape as ``combat.d10``.

``engine.ENGINE`` implements ``combat.core.engine.Engine``; ``actions/`` holds one class per
intent, ``flow``/``initiative``/``passing``/``turn``/``ranges``/``harm``/``roster`` the pure
operations of a fight, ``state`` its values, ``schema``/``tables`` the YAML it reads, and
``attack``, ``dice``, ``moves``, ``conditions``, ``rouse``, ``impairment`` the V5 readings
beside the seed. README.md says where each rule lives.
"""
