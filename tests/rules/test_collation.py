"""Names sorted as a reader of the language expects (issue 24: countries were sorted by their
IOC code, and a plain sort puts Åland first in Norwegian and Chile among the Č in Czech)."""

from __future__ import annotations

from puzzlecomp.rules.collation import collation_key


def ordered(names: list[str], language: str) -> list[str]:
    return sorted(names, key=lambda name: collation_key(name, language))


def test_norwegian_puts_ae_o_slash_and_a_ring_after_z() -> None:
    assert ordered(["Østerrike", "Åland", "Zambia", "Ærø", "Norge", "Albania"], "nb") == [
        "Albania", "Norge", "Zambia", "Ærø", "Østerrike", "Åland"]


def test_czech_puts_c_caron_after_c_and_ch_after_h() -> None:
    assert ordered(["Chile", "Česko", "Cyprus", "Hongkong", "Indie", "Čína", "Řecko", "Rusko",
                    "Španělsko", "Srbsko"], "cs") == [
        "Cyprus", "Česko", "Čína", "Hongkong", "Chile", "Indie", "Rusko", "Řecko", "Srbsko",
        "Španělsko"]


def test_other_accents_sort_with_their_letter() -> None:
    assert ordered(["Zimbabwe", "Écosse", "Estonia", "Dominica"], "en") == [
        "Dominica", "Écosse", "Estonia", "Zimbabwe"]
    assert ordered(["Noruega", "Ñandú", "Oman"], "es") == ["Noruega", "Ñandú", "Oman"]
