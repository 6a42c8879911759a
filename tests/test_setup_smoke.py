from django.conf import settings


def test_settings_load_with_dutch_default() -> None:
    assert settings.LANGUAGE_CODE == "nl"
    assert settings.TIME_ZONE == "Europe/Amsterdam"
