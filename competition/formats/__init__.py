"""Pure-Python readers and writers for the files a club exchanges: FIDE TRF, rating lists
(KNSB, FIDE TXT/XML) and the season archive. No Django here; every reader raises
:class:`FormatError` and nothing else for bad input. See ``docs/formats.md``."""

from competition.formats.archive import SeasonArchive, dump_archive
from competition.formats.archive_reader import load_archive
from competition.formats.errors import FormatError
from competition.formats.ratings import (
    RatingFilter,
    RatingList,
    RatingRecord,
    list_date_from_filename,
    parse_fide_txt,
    parse_fide_xml,
    parse_knsb,
)
from competition.formats.trf import (
    RoundPairings,
    TrfTournament,
    apply_rounds,
    tournament_rounds,
    write_trf,
)
from competition.formats.trf_reader import parse_trf

__all__ = [
    "FormatError",
    "RatingFilter",
    "RatingList",
    "RatingRecord",
    "RoundPairings",
    "SeasonArchive",
    "TrfTournament",
    "apply_rounds",
    "dump_archive",
    "list_date_from_filename",
    "load_archive",
    "parse_fide_txt",
    "parse_fide_xml",
    "parse_knsb",
    "parse_trf",
    "tournament_rounds",
    "write_trf",
]
