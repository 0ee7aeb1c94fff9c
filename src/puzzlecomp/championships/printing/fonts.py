"""The font the PDFs print names in: a Unicode TrueType font when one is found, else a fallback.

fpdf2 bundles no TrueType font. DejaVu Sans covers Czech, Norwegian and Spanish names; it comes
with Debian's fonts-dejavu-core (and with matplotlib). PUZZLECOMP_PDF_FONT may name another
regular-weight .ttf (its bold sibling is looked up as "<name>-Bold.ttf"). Without any, the PDFs
use the built-in Helvetica, which prints Latin-1 letters (å, ø, ñ, é) as they are and the rest
(č, ř, ů, ł) without their accents, so "Dvořák" prints as "Dvorak".
"""

from __future__ import annotations

import functools
import importlib.util
import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",  # Debian, Ubuntu
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",  # Fedora
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",  # Arch
    "/Library/Fonts/DejaVuSans.ttf",
)
# Letters that do not decompose into a base letter and an accent.
UNDECOMPOSABLE = str.maketrans({"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "\u0131": "i", "œ": "oe",
                                "Œ": "OE", "ŋ": "n", "ħ": "h"})


@dataclass(frozen=True)
class PdfFont:
    """A TrueType font (regular and bold files), or None for the built-in Helvetica."""

    regular: Path | None
    bold: Path | None

    @property
    def unicode(self) -> bool:
        return self.regular is not None


@functools.cache
def pdf_font() -> PdfFont:
    """The first Unicode font found: PUZZLECOMP_PDF_FONT, the system's DejaVu, matplotlib's."""
    paths = [os.environ.get("PUZZLECOMP_PDF_FONT", ""), *CANDIDATES]
    spec = importlib.util.find_spec("matplotlib")
    if spec and spec.origin:
        paths.append(str(Path(spec.origin).parent / "mpl-data/fonts/ttf/DejaVuSans.ttf"))
    for name in paths:
        path = Path(name) if name else None
        if path and path.is_file():
            bold = path.with_name(f"{path.stem}-Bold{path.suffix}")
            return PdfFont(path, bold if bold.is_file() else path)
    return PdfFont(None, None)


def printable(text: str, font: PdfFont) -> str:
    """The text as the font prints it: as is in Unicode, else Latin-1 without other accents."""
    if font.unicode:
        return text
    return "".join(ch if _latin1(ch) else _unaccented(ch) for ch in text)


def _latin1(ch: str) -> bool:
    try:
        ch.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def _unaccented(ch: str) -> str:
    base = unicodedata.normalize("NFKD", ch.translate(UNDECOMPOSABLE))
    return "".join(c for c in base if not unicodedata.combining(c) and _latin1(c)) or "?"
