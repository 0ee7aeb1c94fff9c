"""Ed25519 keys of an installation: make, read, sign and verify (docs/results-package.md).

Pure apart from the key file: the caller says where the key lives.
"""

from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)

ALGORITHM = "Ed25519"


def signing_key_get(path: Path) -> Ed25519PrivateKey:
    """The installation's key in `path`, made at first use (readable by its owner only)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # O_EXCL: two processes making the key together keep the first one's.
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(descriptor, "wb") as file:
                file.write(Ed25519PrivateKey.generate().private_bytes(
                    Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    key = load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path}: not an Ed25519 private key")
    return key


def public_key_text(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """The public key as base64 of its 32 raw bytes (how packages and pages show it)."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return base64.b64encode(public.public_bytes(Encoding.Raw, PublicFormat.Raw)).decode("ascii")


def fingerprint(public_key: str) -> str:
    """A short name of a public key anyone can compare by eye: the first 16 bytes of its
    SHA-256 in hexadecimal, in groups of four (e.g. `3f2a 9c1b ...`)."""
    digest = hashlib.sha256(public_key_bytes(public_key)).hexdigest()[:32]
    return " ".join(digest[i:i + 4] for i in range(0, 32, 4))


def public_key_bytes(public_key: str) -> bytes:
    """The raw key of its base64 text; ValueError when it is not 32 bytes of base64."""
    try:
        raw = base64.b64decode(public_key, validate=True)
    except ValueError:
        raise ValueError("not base64") from None
    if len(raw) != 32:
        raise ValueError(f"an Ed25519 public key has 32 bytes, not {len(raw)}")
    return raw


def sign(key: Ed25519PrivateKey, message: bytes) -> str:
    return base64.b64encode(key.sign(message)).decode("ascii")


def signature_valid(public_key: str, message: bytes, signature: str) -> bool:
    """Whether `signature` (base64) is the key's signature of `message`."""
    try:
        raw = base64.b64decode(signature, validate=True)
        Ed25519PublicKey.from_public_bytes(public_key_bytes(public_key)).verify(raw, message)
    except (ValueError, InvalidSignature):
        return False
    return True
