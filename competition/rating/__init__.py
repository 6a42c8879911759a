"""The club rating: FIDE's rating formula applied to a club's own games, evening by evening.

Pure Python (no Django). :mod:`competition.rating.fide` holds the arithmetic of the FIDE Rating
Regulations (the table of expected scores, the 400-point rule, the K factors, the rounding of
the change); :mod:`competition.rating.ledger` runs it over a club's evenings in date order.
docs/ratings.md explains both with a worked example.
"""
