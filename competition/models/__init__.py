"""The club's competitions as stored: the only source of truth.

Computed standings live in :class:`StandingsSnapshot`, a cache the service layer rebuilds after
every change; it is never edited by hand and can always be thrown away.

The models live in modules along the seams of the data (clubs, seasons, rounds, standings, club
life); Django and the code import every one of them from here, as ``competition.models.X``.
"""

from competition.models.check_in import CheckIn
from competition.models.club_life import (
    AbsenceReport,
    ClubEvening,
    ClubRatingChange,
    ClubRatingRules,
    GroupCompetition,
    Invitation,
)
from competition.models.clubs import (
    RESERVED_CLUB_SLUGS,
    Club,
    Member,
    NameDisplay,
    validate_club_slug,
    validate_exact_number,
)
from competition.models.push import PushSubscription
from competition.models.result_reports import OPEN_STATUSES, PLAYER_RESULTS, ResultReport
from competition.models.rounds import (
    ABSENCE_KINDS,
    ATTENDANCE_CHOICES,
    DRAFT_ENTRY_KINDS,
    PRESENT,
    ExternalResult,
    Game,
    RecordedByTD,
    Round,
    RoundEntry,
)
from competition.models.seasons import (
    Category,
    ForbiddenPair,
    Participant,
    ResultEntry,
    RuleChanges,
    Season,
    SeasonRules,
    UnplayedPolicy,
    taking_part_in,
)
from competition.models.standings import (
    ParticipantExplanation,
    SeasonChances,
    SeasonChancesJob,
    StandingsSnapshot,
)

__all__ = [
    "ABSENCE_KINDS",
    "ATTENDANCE_CHOICES",
    "DRAFT_ENTRY_KINDS",
    "OPEN_STATUSES",
    "PLAYER_RESULTS",
    "PRESENT",
    "RESERVED_CLUB_SLUGS",
    "AbsenceReport",
    "Category",
    "CheckIn",
    "Club",
    "ClubEvening",
    "ClubRatingChange",
    "ClubRatingRules",
    "ExternalResult",
    "ForbiddenPair",
    "Game",
    "GroupCompetition",
    "Invitation",
    "Member",
    "NameDisplay",
    "Participant",
    "ParticipantExplanation",
    "PushSubscription",
    "RecordedByTD",
    "ResultEntry",
    "ResultReport",
    "Round",
    "RoundEntry",
    "RuleChanges",
    "Season",
    "SeasonChances",
    "SeasonChancesJob",
    "SeasonRules",
    "StandingsSnapshot",
    "UnplayedPolicy",
    "taking_part_in",
    "validate_club_slug",
    "validate_exact_number",
]
