"""Pairing a club evening (the standings ladder) and Berger tables for round-robin groups.

Pure Python: no Django. Call :func:`pair_round` with a :class:`PairingRequest`; it returns a
:class:`PairingProposal` whose reasons the web layer translates. :func:`pair_boards` gives the
same boards without reasons from a :class:`PairingHistory` the caller keeps (simulations).
"""

from competition.pairing import model
from competition.pairing.berger import berger_bye, berger_round, berger_schedule
from competition.pairing.history import PairingHistory
from competition.pairing.ladder import pair_boards, pair_round
from competition.pairing.model import *  # noqa: F403  (the request and proposal types)

__all__ = [
    *model.__all__,
    "PairingHistory",
    "berger_bye",
    "berger_round",
    "berger_schedule",
    "pair_boards",
    "pair_round",
]
