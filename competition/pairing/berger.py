"""Berger tables for round-robin groups (FIDE Handbook C.05, Annex 1).

Players carry start numbers 1..n. With an odd n a dummy number n + 1 is added and whoever meets
it has the bye; :func:`berger_round` leaves that dummy game out and :func:`berger_bye` names the
player.

How the published tables are built, for N = n (even) or n + 1 (odd), in round r (1..N-1):

- player N meets the player i with 2·i ≡ r + 1 (mod N - 1), on board 1, with white in even
  rounds and black in odd rounds;
- the other players meet in pairs i, j with i + j ≡ r + 1 (mod N - 1) (residues taken in
  1..N-1); white is the player w for whom (opponent - w) mod (N - 1) is odd, and boards follow
  in decreasing order of that difference.

Example, 6 players, round 3: 2·2 ≡ 4 (mod 5), so 2 meets 6 and, r being odd, 6 has black:
2-6. Then 3 + 1 = 4 and 4 + 5 = 9 ≡ 4; (1 - 3) mod 5 = 3 and (5 - 4) mod 5 = 1 are odd, so
3 and 4 have white: the round is 2-6, 3-1, 4-5, as in the published table.
"""

from __future__ import annotations


def _table_size(n: int) -> int:
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 players, got {n}")
    return n if n % 2 == 0 else n + 1


def _full_round(n: int, round_number: int) -> list[tuple[int, int]]:
    """The published round, dummy game included (white first, board order)."""
    size = _table_size(n)
    modulus = size - 1
    if not 1 <= round_number <= modulus:
        raise ValueError(f"round {round_number} is not in 1..{modulus} for {n} players")
    target = round_number + 1

    def residue(value: int) -> int:
        return (value - 1) % modulus + 1

    partner_of_last = next(i for i in range(1, size) if residue(2 * i) == residue(target))
    first_board = (size, partner_of_last) if round_number % 2 == 0 else (partner_of_last, size)
    others: list[tuple[int, int, int]] = []  # (difference, white, black)
    for i in range(1, size):
        j = residue(target - i)
        if i < j and i != partner_of_last:
            white, black = (i, j) if (j - i) % modulus % 2 == 1 else (j, i)
            others.append(((black - white) % modulus, white, black))
    others.sort(reverse=True)
    return [first_board] + [(white, black) for _, white, black in others]


def berger_round(n: int, round_number: int) -> list[tuple[int, int]]:
    """The games of one round for n players as (white, black) start numbers, board order.

    For odd n the game against the dummy (the bye) is left out; see :func:`berger_bye`.

    >>> berger_round(4, 2)
    [(4, 3), (1, 2)]
    >>> berger_round(5, 2)
    [(5, 3), (1, 2)]
    """
    return [game for game in _full_round(n, round_number) if max(game) <= n]


def berger_bye(n: int, round_number: int) -> int | None:
    """The player with the bye in this round (odd n), None for even n.

    >>> berger_bye(5, 1)
    1
    """
    if n % 2 == 0:
        _full_round(n, round_number)  # validates the round number
        return None
    white, black = _full_round(n, round_number)[0]
    return white if black == n + 1 else black


def berger_schedule(n: int) -> list[list[tuple[int, int]]]:
    """All rounds of a single round robin for n players (n - 1 rounds, or n for odd n)."""
    return [berger_round(n, r) for r in range(1, _table_size(n))]


def berger_cycle_round(n: int, round_number: int) -> tuple[list[tuple[int, int]], int | None]:
    """Round ``round_number`` of a (possibly repeated) round robin for n players: its games as
    (white, black) start numbers in board order, and the start number with the bye (odd n).

    A single cycle has n - 1 rounds (n for odd n); a double round robin plays the table again
    with colours reversed, a third cycle as the first, and so on.

    >>> berger_cycle_round(4, 1)
    ([(1, 4), (2, 3)], None)
    >>> berger_cycle_round(4, 4)
    ([(4, 1), (3, 2)], None)
    >>> berger_cycle_round(5, 7)
    ([(3, 5), (2, 1)], 4)
    """
    if round_number < 1:
        raise ValueError(f"round {round_number} is not a round number")
    cycle = _table_size(n) - 1
    table_round = (round_number - 1) % cycle + 1
    games = berger_round(n, table_round)
    if (round_number - 1) // cycle % 2 == 1:
        games = [(black, white) for white, black in games]
    return games, berger_bye(n, table_round)
