"""The formats package is pure Python: importing it must not import Django."""

import subprocess
import sys


def test_formats_import_no_django() -> None:
    code = (
        "import sys\n"
        "import competition.formats.archive, competition.formats.ratings, "
        "competition.formats.trf, competition.formats.errors, competition.formats.rating_report, "
        "competition.formats.archive_input, competition.scoring.fingerprint\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
