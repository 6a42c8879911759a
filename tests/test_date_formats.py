"""One date and time style in both languages: day first and a 24-hour clock (clubcomp/formats)."""

import datetime

import pytest
from django.utils import translation
from django.utils.formats import date_format, time_format

MOMENT = datetime.datetime(2026, 12, 3, 21, 32)


@pytest.mark.parametrize(
    ("language", "fmt", "expected"),
    [
        ("en", "DATETIME_FORMAT", "3 December 2026 21:32"),
        ("nl", "DATETIME_FORMAT", "3 december 2026 21:32"),
        ("en", "DATE_FORMAT", "3 December 2026"),
        ("nl", "DATE_FORMAT", "3 december 2026"),
        ("en", "SHORT_DATETIME_FORMAT", "3 Dec 2026 21:32"),
    ],
)
def test_dates_read_alike_in_both_languages(language: str, fmt: str, expected: str) -> None:
    with translation.override(language):
        assert date_format(MOMENT, fmt) == expected


def test_an_english_time_has_no_am_pm() -> None:
    with translation.override("en"):
        assert time_format(MOMENT.time()) == "21:32"
