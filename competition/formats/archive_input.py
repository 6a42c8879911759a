"""A season archive as the scoring engine's input, for its standings fingerprint.

An archive (version 5 on) carries the fingerprint of the season it was written from
(:mod:`competition.scoring.fingerprint`). :func:`archive_fingerprint` computes it again from
the archive's own content, the way ``selectors.common.season_input`` reads the database: the
completed rounds, each participant with his member's name, start number, start points, event
rating and first round, the season's rules. An archive edited by hand so that its data no
longer match the fingerprint it carries is then told apart from an intact one
(``import_season`` refuses it).
"""

from __future__ import annotations

from competition.formats.archive import SeasonArchive, exact
from competition.scoring import model as scoring
from competition.scoring.fingerprint import season_fingerprint
from competition.scoring.parameters import parameters_from_json


def archive_season_input(archive: SeasonArchive) -> scoring.SeasonInput:
    """The engine's input for the archive's season (its completed rounds, in order)."""
    names = {m.id: m.name for m in archive.members}
    season = archive.season
    earlier = scoring.rule_sets_before(
        (
            scoring.EarlierRules(
                version=r.version,
                from_round=r.from_round,
                system=r.system,
                parameters=parameters_from_json(dict(r.parameters)),
                tiebreaks=tuple(r.tiebreaks),
                unplayed_policy=r.unplayed_policy,
                min_games=r.min_games,
            )
            for r in archive.rule_sets
        ),
        version=season.rules_version,
        from_round=season.rules_from_round,
    )
    return scoring.SeasonInput(
        participants=tuple(
            scoring.Participant(
                id=p.id,
                name=names[p.member],
                start_rank=p.start_rank,
                start_points=None if p.start_points is None else exact(p.start_points),
                rating=p.rating,
                joined_round=p.joined_round,
                withdrawn_round=p.withdrawn_from_round,
            )
            for p in archive.participants
        ),
        rounds=tuple(
            scoring.Round(
                number=r.number,
                games=tuple(
                    scoring.Game(
                        white=g.white, black=g.black, result=scoring.Result(g.result), board=g.board
                    )
                    for g in r.games
                ),
                entries=tuple(
                    scoring.Entry(
                        participant=e.participant,
                        kind=scoring.EntryKind(e.kind),
                        points=exact(e.points),
                        external_result=exact(e.external_result) if e.external_result else None,
                    )
                    for e in r.entries
                ),
            )
            for r in sorted(archive.rounds, key=lambda r: r.number)
            if r.status == "completed"
        ),
        system=season.system,
        parameters=parameters_from_json(dict(season.parameters)),
        tiebreaks=tuple(season.tiebreaks),
        unplayed_policy=season.unplayed_policy,
        min_games=season.min_games,
        round_robin=season.kind == "round_robin",
        rules_from_round=season.rules_from_round if earlier else 1,
        earlier_rules=earlier,
    )


def archive_fingerprint(archive: SeasonArchive) -> str:
    """The standings fingerprint of the archive's content (64 hex digits)."""
    return season_fingerprint(archive_season_input(archive))
