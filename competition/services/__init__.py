"""Writes: every user action is one service call in one transaction (see the modules here).

Modules: ``errors`` (the one error services raise), ``rounds`` (rounds, games, entries and
their invariants), ``standings`` (turning rows into the engine's input and caching the output).
"""
