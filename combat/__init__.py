"""Pure World of Darkness resolution engine.

Nothing in this package imports Evennia, Django or Twisted (a test enforces it): every
function takes plain values, an injected ``random.Random`` where dice are rolled, and
returns frozen results. Rendering and persistence live in ``commands/`` and
``typeclasses/``.
"""
