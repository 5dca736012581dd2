"""The spotlight engine's actions (issue 32): one small class per kind of intent, and per
kind of act (``+combat/act attack|bite|grapple|power|<move>|<words>``).

Each class says what it ``reads`` besides the fight's state, ``check``s what the engine
refuses before anything is rolled (saying what to type instead), and ``resolve``s: it calls
the pure operations (``flow``, ``turn``, ``harm`` ...), which refuse the rest, and returns
the ``Outcome``. ``combat/spotlight/engine.py`` holds the table from intent to action.
"""
