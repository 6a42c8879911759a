"""Monte Carlo simulation of a season's remaining rounds ("can I still win?").

Pure Python: no Django. :mod:`competition.simulation.keepers` scores a round incrementally
under the season's system; :mod:`competition.simulation.chances` plays the remaining rounds
many times through the real pairing engine and counts who finishes where.
"""
