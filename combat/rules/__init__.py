"""The rules loader apart from the rule math: ``ruleset`` loads and validates the YAML of
``rules/``, ``schema`` is the small schema language its tables are checked with,
``sections`` the table of top-level sections a ruleset may hold, ``catalog`` the
``catalog:`` table. The schemas of single tables stand beside the code that reads them.
"""
