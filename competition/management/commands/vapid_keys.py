"""``manage.py vapid_keys``: a new VAPID key pair for Web Push, as the lines for ``.env``.

The private key is the raw P-256 number (32 bytes), the public key the uncompressed point (65
bytes, what a browser's ``pushManager.subscribe`` takes), both base64url without padding, as
pywebpush and the browsers read them. Keep the private key secret; a new pair makes every
existing subscription useless (members subscribe again).
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand, CommandParser


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def vapid_key_pair() -> tuple[str, str]:
    """A new (private, public) VAPID key pair, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64url(private), _b64url(public)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push as VAPID_PUBLIC_KEY= and VAPID_PRIVATE_KEY=."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--subject",
            default="",
            help="Also print VAPID_SUBJECT= with this contact (mailto:td@example.nl).",
        )

    def handle(self, *args: object, **options: object) -> None:
        private, public = vapid_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        if options["subject"]:
            self.stdout.write(f"VAPID_SUBJECT={options['subject']}")
