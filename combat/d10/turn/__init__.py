"""The d10 turn scheduler's parts; ``combat/d10/scheduler.py`` is their one door."""
