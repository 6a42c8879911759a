"""Import and export: the database on one side, the pure readers and writers of
:mod:`competition.formats` on the other. One module per format and direction:

- :mod:`.common`: exact numbers, file bytes as text, the club an import goes to, matching
  players to members, and the dry-run machinery every import shares;
- :mod:`.exports`: the standings (:func:`standings_document`, the JSON contract, and
  :func:`standings_dataset`, the one table every CSV, XLSX and terminal table is written from);
- :mod:`.trf`: :func:`season_trf` (TRF16 plus TRF-2026 national rating lines) and
  :func:`trf_import`;
- :mod:`.archive_export`: :func:`season_archive_text` (the canonical season archive), and
  :mod:`.archive`: :func:`archive_import`, with :mod:`.archive_tables`, where each part of the
  archive is stored;
- :mod:`.ratings`: :func:`ratings_import` (KNSB and FIDE rating lists);
- :mod:`.backup`: every season's archive in one directory with a manifest, and back
  (``export_season --all``, ``import_season --all``).

Every importer reads and validates the whole file first and only then writes, in one
transaction; a dry run performs the same writes and rolls them back. docs/commands.md describes
the commands.
"""

from competition.formats.errors import FormatError
from competition.services.transfer.archive import archive_import
from competition.services.transfer.archive_export import season_archive, season_archive_text
from competition.services.transfer.common import (
    ImportReport,
    club_for_import,
    decode_text,
    parse_parameters,
)
from competition.services.transfer.exports import (
    EXPORT_FORMATS,
    standings_csv,
    standings_dataset,
    standings_document,
    standings_export,
    standings_text_table,
)
from competition.services.transfer.ratings import (
    RATING_FORMATS,
    RatingsReport,
    guess_rating_format,
    parse_ids,
    ratings_import,
)
from competition.services.transfer.trf import season_trf, trf_import

__all__ = [
    "EXPORT_FORMATS",
    "RATING_FORMATS",
    "FormatError",
    "ImportReport",
    "RatingsReport",
    "archive_import",
    "club_for_import",
    "decode_text",
    "guess_rating_format",
    "parse_ids",
    "parse_parameters",
    "ratings_import",
    "season_archive",
    "season_archive_text",
    "season_trf",
    "standings_csv",
    "standings_dataset",
    "standings_document",
    "standings_export",
    "standings_text_table",
    "trf_import",
]
