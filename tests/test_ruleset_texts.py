"""Every word of every bundled ruleset that people read (event, round and subcategory names,
conditions, prizes, states and settings) has a Czech, Norwegian and Spanish translation in the
catalogs, under the context "ruleset" (`championships/ruleset_texts.py` shows them)."""

from __future__ import annotations

import polib
import pytest
from django.utils import translation

from puzzlecomp.championships.messages import message_of
from puzzlecomp.championships.ruleset_texts import ruleset_text
from puzzlecomp.rules.loading import load_ruleset, ruleset_ids
from puzzlecomp.rules.texts import CONTEXT, shown_texts
from puzzlecomp.translations import LANGUAGES, catalog_path, compile_catalogs

TEXTS = {ruleset_id: shown_texts(load_ruleset(ruleset_id)) for ruleset_id in ruleset_ids()}


def test_the_walk_finds_the_words_of_every_part_of_a_ruleset():
    # Names, a condition, a prize, a state, a setting: if the walk broke, these go missing.
    assert {"Individual", "Qualification", "Final", "Registered address in the Czech Republic",
            "a puzzle and a small gift"} <= TEXTS["czech-championship"]
    assert {"Senior A", "Subcategory tiebreaker", "puzzles"} <= TEXTS["wjpc-2025"]
    assert {"New South Wales", "The ACT holds no state competition",
            "Whether the Australian Capital Territory holds a state competition of its own",
            } <= TEXTS["australia-state"]
    # Ids, codes and brands are no words to translate.
    assert not {"individual", "qualification", "Ravensburger", "NSW", "CZE"} & set().union(
        *TEXTS.values())


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset_id", sorted(TEXTS))
def test_every_shown_word_of_the_ruleset_is_translated(ruleset_id, language):
    entries = {e.msgid: e for e in polib.pofile(str(catalog_path(language)))
               if e.msgctxt == CONTEXT and not e.obsolete}
    missing = sorted(text for text in TEXTS[ruleset_id]
                     if text not in entries or not entries[text].msgstr
                     or entries[text].fuzzy)
    assert not missing, f"{ruleset_id}: words without a {language} translation: {missing}"


def test_a_ruleset_word_is_shown_in_the_visitors_language_and_anything_else_as_written():
    compile_catalogs()
    translation.trans_real._translations = {}  # reload the freshly compiled catalogs
    with translation.override("cs"):
        assert ruleset_text("Registered address in the Czech Republic") == (
            "Trvalý pobyt v České republice")
        assert ruleset_text("Final") == "Finále"
        # An organiser's own name is nobody's msgid; an interface word is not a ruleset word.
        assert ruleset_text("Finále Brno") == "Finále Brno"
        assert ruleset_text("Overall") == "Overall"
    with translation.override("en"):
        assert ruleset_text("Final") == "Final"


def test_a_refusal_names_the_event_in_the_readers_language():
    compile_catalogs()
    translation.trans_real._translations = {}
    with translation.override("nb"):
        text = message_of("relay.not_drawn", "Relay teams of four has no drawn teams",
                          {"event": "Relay teams of four"})
    assert text.startswith("Stafettlag på fire ")
