"""Variants: a file that says `extends: BASE` and overrides, adds or removes without copying the base.

Mappings merge key by key (a card entry merges into the base card), everything else replaces;
phases merge by name; `remove:` takes entries out first.  Problems in the variant's own entries
point at the variant's lines; problems in what it inherits point at the base's files.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import rulecore
from rulecore.cardset.loader import load_cardset_text
from rulecore._resources import builtin_path

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO / "docs" / "examples").glob("*.yaml"))
WH = builtin_path("witching-hour")


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def load(folder: Path, text: str, name: str = "variant.yaml") -> rulecore.Cardset:
    return rulecore.load_cardset(str(write(folder, name, text)))


def problems(folder: Path, text: str, name: str = "variant.yaml") -> list[rulecore.Problem]:
    with pytest.raises(rulecore.CardsetError) as info:
        load(folder, text, name)
    return info.value.problems


def play_to_the_end(cs: rulecore.Cardset, players: int, seed: int = 3, limit: int = 20_000, **options) -> rulecore.State:
    import random

    state = rulecore.Game(cs, players, options).new_game(seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


# --------------------------------------------------------------------------- overriding and adding


def test_override_counts_and_ladders_keeps_the_rest(tmp_path: Path) -> None:
    base = rulecore.load_cardset("witching-hour")
    cs = load(tmp_path, """
        extends: witching-hour
        cards:
          bell: {count: 9}
          toadstool: {scoring: [1, 2, 3]}
        """)
    assert cs.cards["bell"].count == 9
    assert cs.cards["bell"].scoring == base.cards["bell"].scoring  # merged, not replaced
    assert cs.cards["bell"].tags == base.cards["bell"].tags
    assert cs.cards["toadstool"].scoring == (1, 2, 3)  # a list replaces
    assert cs.cards["toadstool"].count == base.cards["toadstool"].count
    assert set(cs.cards) == set(base.cards)
    assert cs.program == base.program and cs.procedures == base.procedures
    assert cs.name == "witching-hour"  # inherited unless the variant names itself
    assert cs.file == str(tmp_path / "variant.yaml")


def test_a_card_entry_merges_into_the_base_card_at_any_depth(tmp_path: Path) -> None:
    """Changing only the 'when' of an ability keeps its 'do', and the card's other abilities."""
    cs = load(tmp_path, """
        extends: witching-hour
        cards:
          book:
            abilities:
              play:
                when: count(hand of you) > 3
        """)
    base = rulecore.load_cardset("witching-hour")
    book, old = cs.cards["book"], base.cards["book"]
    assert book.abilities["play"].body == old.abilities["play"].body
    assert book.abilities["play"].when != old.abilities["play"].when
    assert book.include_if == old.include_if and book.text == old.text


def test_new_card_with_a_new_ability_plays(tmp_path: Path) -> None:
    cs = load(tmp_path, """
        extends: witching-hour
        name: wh-plus
        cards:
          broom:
            count: 4
            scoring: [1, 2, 4, 7]
            abilities:
              play:
                when: count(hand of you) > 1
                do: |
                  move this to hex of you
                  rotate hand
                  take another turn
        """)
    assert cs.name == "wh-plus"
    assert "broom" in cs.cards and cs.warnings == ()
    state = play_to_the_end(cs, 3)
    assert state.is_terminal()


def test_remove_cards_and_keys(tmp_path: Path) -> None:
    cs = load(tmp_path, """
        extends: witching-hour
        remove:
          cards: [hourglass, book.include_if]
          keys: [heuristic]
        """)
    assert "hourglass" not in cs.cards
    assert cs.cards["book"].include_if is None
    assert cs.heuristic is None


def test_remove_then_add_replaces_an_entry_whole(tmp_path: Path) -> None:
    """To replace a card's ability outright (not merge into it), remove it and write it again."""
    cs = load(tmp_path, """
        extends: witching-hour
        remove:
          cards: [book.abilities.play]
        cards:
          book:
            abilities:
              play: |
                move this to hex of you
        """)
    assert cs.cards["book"].abilities["play"].when is None


def test_options_and_the_flow(tmp_path: Path) -> None:
    """A new option, read by a new 'until' of the base's rounds (the phases are kept)."""
    cs = load(tmp_path, """
        extends: witching-hour
        options:
          rounds: {default: 1, choices: [1, 2, 3]}
        flow:
          rounds:
            until: round >= option("rounds")
        """)
    assert cs.options["rounds"].default == 1
    state = play_to_the_end(cs, 2)
    assert state.is_terminal() and len(state.result()["round_scores"]) == 1


def test_phases_merge_by_name(tmp_path: Path) -> None:
    """A phase of the base's name merges in place; a new name comes after the base's phases."""
    from rulecore.cardset.explain import _phases

    cs = load(tmp_path, """
        extends: witching-hour
        flow:
          rounds:
            phases:
              - name: deal
                description: changed in the variant
              - name: tea
                do: say "tea time"
        """)
    assert [p for p in _phases(cs) if p != "setup"] == ["deal", "play", "score", "tea"]
    assert play_to_the_end(cs, 2).is_terminal()


def test_remove_a_phase(tmp_path: Path) -> None:
    from rulecore.cardset.explain import _phases

    cs = load(tmp_path, """
        extends: witching-hour
        remove:
          phases: [score]
        flow:
          rounds:
            until: round >= 1
        """)
    assert [p for p in _phases(cs) if p != "setup"] == ["deal", "play"]


def test_extends_a_path_and_a_chain_of_variants(tmp_path: Path) -> None:
    write(tmp_path, "base/cardset.yaml", """
        extends: witching-hour
        name: middle
        cards:
          bell: {count: 2}
        """)
    top = write(tmp_path, "top.yaml", """
        extends: base/cardset.yaml
        name: top
        cards:
          candle: {count: 3}
        """)
    cs = rulecore.load_cardset(str(top))
    assert (cs.name, cs.cards["bell"].count, cs.cards["candle"].count) == ("top", 2, 3)
    folder = write(tmp_path, "deeper/v.yaml", "extends: ../base\ncards:\n  skull: {count: 1}\n")
    cs = rulecore.load_cardset(str(folder), roots=[tmp_path])  # '../base' is outside deeper/: allowed by roots
    assert (cs.name, cs.cards["bell"].count, cs.cards["skull"].count) == ("middle", 2, 1)


def test_a_variant_may_include_files(tmp_path: Path) -> None:
    write(tmp_path, "more.yaml", """
        cards:
          broom: {count: 2, scoring: [1, 2]}
        procedures:
          sweep: say "sweep"
        """)
    cs = load(tmp_path, """
        extends: witching-hour
        include: [more.yaml]
        procedures:
          play_turn: |
            call sweep
            choose by you "Your turn" {
              option "Attack" when count(opponents where count(hand of it) > 0) > 0 {
                call attack
              }
            }
        """)
    assert cs.cards["broom"].count == 2 and "sweep" in cs.procedures


def test_load_cardset_text_extends_a_builtin() -> None:
    cs = load_cardset_text("extends: witching-hour\ncards:\n  bell: {count: 1}\n", "inline.yaml")
    assert cs.cards["bell"].count == 1


# --------------------------------------------------------------------------- problems point at the right file


def test_problems_in_the_variant_point_at_its_lines(tmp_path: Path) -> None:
    found = problems(tmp_path, """
        extends: witching-hour
        cards:
          bell: {count: nine}
          skull:
            abilities:
              play: |
                move this to discrad
        """)
    assert [(p.span.file, p.span.line, p.span.column, p.message) for p in found] == [
        (str(tmp_path / "variant.yaml"), 3, 17, "'count' must be an integer (got 'nine')"),
        (str(tmp_path / "variant.yaml"), 7, 22, "unknown name 'discrad' in Skull's 'play'"),
    ]


def test_problems_in_inherited_text_point_at_the_base(tmp_path: Path) -> None:
    """Removing a tag the base's text tests: the problem is in the base file, at the base's line."""
    found = problems(tmp_path, """
        extends: witching-hour
        remove:
          cards: [toadstool]
        """)
    assert found
    for p in found:
        assert p.span.file == str(WH)
        assert "unblockable" in p.span.source_line
        assert p.message == "unknown tag 'unblockable'"


def test_an_inherited_phase_keeps_its_place_after_another_is_removed(tmp_path: Path) -> None:
    """After 'deal' is removed, a mistake found in the base's 'score' phase still points at its base line."""
    base_text = WH.read_text(encoding="utf-8")
    base = write(tmp_path, "base.yaml", base_text.replace("add points to total of p", "add points to totl of p"))
    found = problems(tmp_path, """
        extends: base.yaml
        remove:
          phases: [deal]
        """)
    (p,) = found
    assert p.span.file == str(base) and "totl of p" in p.span.source_line
    assert p.span.line == [line.strip() for line in base_text.splitlines()].index("add points to total of p") + 1


def test_merged_phase_points_at_variant_for_its_keys_and_base_for_the_rest(tmp_path: Path) -> None:
    found = problems(tmp_path, """
        extends: witching-hour
        flow:
          rounds:
            phases:
              - name: score
                do: |
                  say scroe
        """)
    (p,) = found
    assert (p.span.file, p.span.line, p.span.column) == (str(tmp_path / "variant.yaml"), 7, 15)


@pytest.mark.parametrize("text, message", [
    ("extends: witchin-hour\n", "'extends' names an unknown cardset 'witchin-hour'"),
    ("extends: nowhere.yaml\n", "'extends' names a file that does not exist: 'nowhere.yaml'"),
    ("extends: variant.yaml\n", "'extends' makes a loop: variant.yaml -> variant.yaml"),
    ("extends: 3\n", "'extends' must name a cardset, got 3"),
    ("extends: witching-hour\nremove: [book]\n", "'remove' must be a mapping of sections to lists of names, e.g. {cards: [book]}"),
    ("extends: witching-hour\nremove: {cards: book}\n", "'remove: cards' must be a list of names, e.g. [book]"),
    ("extends: witching-hour\nremove: {cards: [book.colour]}\n", "cannot remove 'book.colour': book has no key 'colour'"),
    ("extends: witching-hour\nremove: {phases: [scroe]}\n", "cannot remove phase 'scroe': 'witching-hour' has no such phase"),
])
def test_extends_and_remove_problems(tmp_path: Path, text: str, message: str) -> None:
    (p,) = problems(tmp_path, text)
    assert p.message == message
    assert p.span.file == str(tmp_path / "variant.yaml") and p.span.line >= 1


def test_a_loop_through_two_files(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    with pytest.raises(rulecore.CardsetError) as info:
        rulecore.load_cardset(str(tmp_path / "a.yaml"))
    (p,) = info.value.problems
    assert p.message == "'extends' makes a loop: a.yaml -> b.yaml -> a.yaml"
    assert p.span.file == str(tmp_path / "b.yaml") and p.code == "extends-loop"


# --------------------------------------------------------------------------- the shipped examples


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_docs_examples_load_and_play(path: Path) -> None:
    cs = rulecore.load_cardset(str(path))
    errors = [w for w in cs.warnings if str(path) == w.span.file]
    assert errors == [], [w.render() for w in errors]
    long_game = "approaching-dawn" in path.name
    state = play_to_the_end(cs, cs.min_players, limit=400 if long_game else 20_000)
    assert state.is_terminal() or long_game
    if not long_game:
        assert state.returns()


def test_printed_values_example_changes_only_numbers() -> None:
    base = rulecore.load_cardset("witching-hour")
    cs = rulecore.load_cardset(str(REPO / "docs" / "examples" / "witching-hour-printed.yaml"))
    assert set(cs.cards) == set(base.cards)
    for cid, card in cs.cards.items():
        assert card.abilities == base.cards[cid].abilities
        assert card.scoring[:1] == base.cards[cid].scoring[:1]
    assert cs.cards["bell"].scoring[3] == 5 and cs.cards["chalice"].scoring[0] == -3


def test_broom_example_adds_a_card_and_an_option() -> None:
    cs = rulecore.load_cardset(str(REPO / "docs" / "examples" / "witching-hour-broom.yaml"))
    assert "broom" in cs.cards and "hourglass" not in cs.cards
    assert cs.options["rounds"].default == 3
    state = play_to_the_end(cs, 3, rounds=1)
    assert len(state.result()["round_scores"]) >= 1


def test_scene_example_changes_a_scene() -> None:
    cs = rulecore.load_cardset(str(REPO / "docs" / "examples" / "approaching-dawn-short-night.yaml"))
    assert cs.cards["scene_training_day"].props["hours"] == 4
    assert cs.options["scene"].default == "training-day"
