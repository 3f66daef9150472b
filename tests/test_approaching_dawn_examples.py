"""The Approaching Dawn rulebook's worked examples, replayed as scripted scenarios.

The rulebook does not print its cards, so the examples are played with the
project's own cards (cardsets/approaching-dawn), whose numbers were chosen to
fit them: Kyil (cost 6), Browncoat (cost 3, blue and violet Sigils) and E'Faz
(cost 1, yellow Sigil); G'Wind (a Dark Fey, bind 2 grey, banish 3 grey), Sludga
(bind 2 black) and Fi (consumes 1 spell, gives 3 Corruption); Lily's Blood
Letting, Gaia's Cheer and Flicker, Dianne's Southern Kindness, Wil Trickster
and Mr. Patterson.

The Insight, Corruption and Battle examples are one Hour of one table, as in the
rulebook ("continuing the hand example"): Dianne (seat 0, the Coven Leader, so
her Insight part comes first), Nancy (seat 1) and Lily (seat 2).  Lily's left
is Dianne (seat 0) and her right is Nancy.
"""

from __future__ import annotations

from ad_helpers import (
    ready_while_nothing_left,
    ADD_WHITE,
    BATTLE,
    END_BATTLE,
    INSIGHT,
    POOL,
    READY,
    TIE,
    WAIT,
    arrange,
    counter_changes,
    corruption,
    finish_acquire,
    marks_of,
    new_game,
    open_of,
    open_sigils,
    options,
    ordered,
    prompt,
    quiet_table,
    to_insight,
    zone,
)

# --------------------------------------------------------------------------- Summon Demons

NANCY = 0


def test_summon_demons_example_nancy_kyil_browncoat_efaz() -> None:
    """Summon Demons example: with 4 Corruption Nancy resists Kyil (cost) and Browncoat (a closed Sigil); E'Faz manifests for 1."""
    _, state = new_game(3, witches="nancy,lily,dianne")
    zones = quiet_table(state)
    # the next revealed Demon, Crimson Tithe, costs 6 like Kyil and has as many Sigils: the next witch
    # must choose which of them attacks her first, so the table can be looked at there
    zones["demon_deck"] = ["kyil", "browncoat", "efaz", "crimson_tithe", "plague_rats"]
    arrange(state, zones, counters={"corruption": [4, 2, 0]})
    # "Nancy has 4 Corruption and the Sigils shown open": yellow and blue, not violet
    open_sigils(state, NANCY, ["yellow", "blue"])
    open_sigils(state, 1, [])
    open_sigils(state, 2, [])
    finish_acquire(state)

    # (A) Kyil (6) cannot: Nancy has only 4 Corruption.  (B) Browncoat (3): her violet Sigil is
    # closed.  (C) E'Faz (1, yellow) succeeds.  (D) he consumes 1 of her 4 Corruption and faces her.
    assert zone(state, "facing/0") == ["efaz"]
    assert corruption(state)[NANCY] == 3
    # Kyil, Browncoat and a newly revealed Demon remain to attack the next witch
    assert state.decision.player == 1 and prompt(state) == TIE
    assert zone(state, "lurking") == ["browncoat", "crimson_tithe", "kyil"]
    assert options(state) == {"Kyil", "Crimson Tithe"}
    state.apply("Kyil")
    # the third witch faces the same three (and chooses too); nobody else has the Corruption
    assert state.decision.player == 2 and prompt(state) == TIE
    state.apply("Crimson Tithe")
    # after every witch, the Lurking Demons go to the Void
    assert state.phase == "insight"
    assert zone(state, "void") == ["browncoat", "crimson_tithe", "kyil"]
    assert zone(state, "lurking") == []
    assert ordered(state, "demon_deck") == ["plague_rats"]
    assert zone(state, "facing/1") == [] and zone(state, "facing/2") == []
    assert all(open_of(state, p) == set() for p in range(3))  # everyone closes her Sigils
    assert not state.vars["lost"]


# --------------------------------------------------------------------------- Insight, Corruption, Battle

DIANNE, LILY = 0, 2


def lily_hour_table():
    """Dianne, Nancy and Lily at the first Insight decision of the examples' Hour."""
    game, state = new_game(3, witches="dianne,nancy,lily")
    to_insight(
        state,
        zones={
            # top first: each witch draws exactly these five cards
            "deck/0": ["dianne_southern_kindness", "dianne_rush_hour", "dianne_rush_hour",
                       "dianne_sweet_tea", "dianne_sweet_tea"],
            "deck/1": ["nancy_devour_darkness", "nancy_devour_darkness", "nancy_scalpel",
                       "nancy_transfusion", "nancy_transfusion"],
            # Mr. Patterson and the Artifact were acquired this Hour: they are in Lily's hand
            "deck/2": ["blood_letting", "lily_gaias_cheer", "obsidian_mirror", "mr_patterson", "lily_flicker"],
            # Wil Trickster has been in play in front of Lily since an earlier Hour
            "play/2": ["wil_trickster"],
            "facing/2": ["fi", "sludga", "gwind"],
        },
        counters={"corruption": [10, 10, 0]},
    )
    return game, state


def insight_example(state) -> None:
    """Play the Insight example's choices (Dianne, then Nancy, then Lily)."""
    # Dianne reveals Southern Kindness: its Insight effect binds G'Wind, who faces Lily
    assert state.decision.player == DIANNE and prompt(state) == INSIGHT
    state.apply("Reveal the Insight card Southern Kindness")
    assert options(state) == {"G'Wind", "Sludga"}
    state.apply("G'Wind")
    # Dianne has nothing left to choose, nor has Nancy: each is asked for her Ready anyway
    # ('always', so that nobody learns what their hands hold); Lily decides
    ready_while_nothing_left(state)
    assert state.decision.player == LILY and prompt(state) == INSIGHT
    state.apply("Move the Familiar Wil Trickster")
    state.apply("Player 0")
    state.apply("Play Blood Letting as Black Magic (2)")
    state.apply("Play Gaia's Cheer as White Magic (1)")
    ready_while_nothing_left(state)  # nothing is left to choose: Ready, asked anyway ('always')


def test_insight_example_lily_orients_passes_wil_trickster() -> None:
    """Insight example: Blood Letting as Black, Gaia's Cheer as White (G'Wind bound by Southern Kindness), Wil Trickster passed to Dianne, Mr. Patterson not passable."""
    _, state = lily_hour_table()
    assert "dianne_southern_kindness" in zone(state, "hand/0")
    assert state.decision.player == DIANNE
    state.apply("Reveal the Insight card Southern Kindness")
    state.apply("G'Wind")
    # (D) the Insight effect took place at once: G'Wind is bound; Southern Kindness lies in front of Dianne
    assert "bound" in marks_of(state, "facing/2", "gwind")
    assert zone(state, "insight/0") == ["dianne_southern_kindness"]
    assert marks_of(state, "insight/0", "dianne_southern_kindness") == {"white"}
    # with nothing left to choose, Dianne and Nancy (no two-sided spell, no Insight card, no
    # Familiar) answer their Ready, asked anyway ('always')
    ready_while_nothing_left(state)

    assert state.decision.player == LILY and prompt(state) == INSIGHT
    acts = options(state)
    # G'Wind is bound, so Lily may play Gaia's Magic as White
    assert "Play Gaia's Cheer as White Magic (1)" in acts
    # (C) Mr. Patterson is in her hand, not yet in play: he cannot be passed this Hour
    assert "Move the Familiar Wil Trickster" in acts
    assert not any("Mr. Patterson" in a for a in acts)
    # she cannot be Ready before every two-sided spell is oriented
    assert READY not in acts
    state.apply("Move the Familiar Wil Trickster")  # (E)
    assert options(state) == {"Player 0", "Player 1"}
    state.apply("Player 0")
    assert zone(state, "play/0") == ["wil_trickster"]
    state.apply("Play Blood Letting as Black Magic (2)")  # (A)
    assert options(state) == {"Play Gaia's Cheer as Black Magic (1)", "Play Gaia's Cheer as White Magic (1)"}
    state.apply("Play Gaia's Cheer as White Magic (1)")  # (B): nothing is left to choose
    ready_while_nothing_left(state)  # Ready, asked anyway ('always'), and the others' too

    assert state.phase == "battle"
    assert marks_of(state, "revealed/2", "blood_letting") == {"black"}
    assert marks_of(state, "revealed/2", "lily_gaias_cheer") == {"white"}
    # (C) the Artifact and the Familiar stay in play in front of Lily
    assert zone(state, "play/2") == ["mr_patterson", "obsidian_mirror"]
    # "The total value of this hand is 5 Black Magic and 1 White Magic"
    assert state.counters["black_made"][LILY] == 5
    assert state.counters["white_made"][LILY] == 1
    # (E) Dianne gains Wil Trickster's White Magic this Hour: Southern Kindness 1 + Sweet Tea 2 + 2 + Wil 1
    assert state.counters["white_made"][DIANNE] == 6


def test_insight_in_any_order_lily_waits_for_diannes_southern_kindness() -> None:
    """Insight "in any order": Lily, first in seat order, waits; Dianne's Southern Kindness binds G'Wind; Lily comes back and plays Gaia's Cheer as White Magic."""
    _, state = new_game(3, witches="lily,dianne,nancy")
    to_insight(
        state,
        zones={
            "deck/0": ["blood_letting", "lily_gaias_cheer", "obsidian_mirror", "mr_patterson", "lily_flicker"],
            "deck/1": ["dianne_southern_kindness", "dianne_rush_hour", "dianne_rush_hour",
                       "dianne_sweet_tea", "dianne_sweet_tea"],
            "deck/2": ["nancy_devour_darkness", "nancy_devour_darkness", "nancy_scalpel",
                       "nancy_transfusion", "nancy_transfusion"],
            "facing/0": ["fi", "sludga", "gwind"],
        },
        counters={"corruption": [0, 10, 10]},
    )
    assert state.decision.player == 0 and prompt(state) == INSIGHT
    # G'Wind, an unbound Dark Fey, faces Lily: Gaia's Cheer could only be Black now
    assert "Play Gaia's Cheer as White Magic (1)" not in options(state)
    state.apply(WAIT)
    assert state.decision.player == 1
    state.apply("Reveal the Insight card Southern Kindness")
    state.apply("G'Wind")
    assert "bound" in marks_of(state, "facing/0", "gwind")
    # Dianne and Nancy have nothing left to choose (they answer their Ready); Lily comes back
    ready_while_nothing_left(state)
    assert state.decision.player == 0 and prompt(state) == INSIGHT
    assert WAIT not in options(state)  # nobody else is left to act first
    state.apply("Play Blood Letting as Black Magic (2)")
    state.apply("Play Gaia's Cheer as White Magic (1)")
    ready_while_nothing_left(state)
    assert state.phase == "battle"
    assert marks_of(state, "revealed/0", "lily_gaias_cheer") == {"white"}


def test_corruption_example_lily_burdens_dianne_and_heals_after_receiving() -> None:
    """Corruption example: Lily's 5 Black Magic go to Dianne on her left and open Dianne's Sigils; Lily's 1 White heals her after she receives."""
    _, state = lily_hour_table()
    start = len(state.events(None))
    insight_example(state)
    assert state.phase == "battle"
    # (A) Dianne adds Lily's 5 Corruption first (10 -> 15), then heals her own 6 White Magic
    assert counter_changes(state, "corruption", DIANNE, start) == [15, 9]
    # (B) Lily opens Dianne's Sigils: Blood Letting red, Gaia's Cheer green, Obsidian Mirror violet,
    # Mr. Patterson and Flicker yellow
    assert open_of(state, DIANNE) == {"red", "green", "violet", "yellow"}
    # (C) Lily receives Nancy's 4 Black Magic (0 -> 4) before removing her 1 White (-> 3)
    assert counter_changes(state, "corruption", LILY, start) == [4, 3]
    assert corruption(state) == [9, 10, 3]
    # the hands were revealed together, Insight cards with them, marks and all
    for viewer in range(3):
        seen = state.view(viewer)["zones"]["revealed/2"]
        assert sorted(seen["cards"]) == ["blood_letting", "lily_flicker", "lily_gaias_cheer"]


def test_battle_example_lily_binds_sludga_banishes_gwind_and_fi_strikes() -> None:
    """Battle example: Gaia's Cheer powered by Flicker, Sludga bound with 2, G'Wind banished with 3, 2 White to the Pool, Fi consumes 1 spell and gives 3 Corruption."""
    _, state = lily_hour_table()
    insight_example(state)
    # the Coven Leader (Dianne) and Nancy take their Battle turns first
    for seat in (DIANNE, 1):
        assert state.decision.player == seat and prompt(state) == BATTLE
        state.apply(END_BATTLE)
    assert state.decision.player == LILY and prompt(state) == BATTLE
    # (A) the hand is worth 5 Black and 1 White Magic
    assert (state.counters["black_left"][LILY], state.counters["white_left"][LILY]) == (5, 1)
    acts = options(state)
    assert "Use Blood Letting" in acts  # she may, but chooses not to
    assert "Use Gaia's Cheer" in acts

    # (B) Gaia's Cheer's Imbued ability, powered by Flicker's Potential (the only one: asked anyway)
    state.apply("Use Gaia's Cheer")
    assert prompt(state) == "Expend which Potential card?" and options(state) == {"Flicker"}
    state.apply("Flicker")
    assert marks_of(state, "revealed/2", "lily_flicker") == {"black", "expended"}
    assert (state.counters["black_left"][LILY], state.counters["white_left"][LILY]) == (5, 2)

    # (C) 2 Black Magic bind Sludga; 3 Black Magic banish G'Wind to the Void
    state.apply("Bind Sludga (2 Black Magic)")
    assert "bound" in marks_of(state, "facing/2", "sludga")
    state.apply("Banish G'Wind (3 Black Magic)")
    assert zone(state, "void").count("gwind") == 1
    assert zone(state, "facing/2") == ["fi", "sludga"]
    assert state.counters["black_left"][LILY] == 0

    # (D) 2 White Magic to the Pool; she helps nobody else with it
    state.apply(ADD_WHITE)
    assert state.counters["white_pool"] == [2]
    assert state.counters["white_left"][LILY] == 0

    # (E) Fi, unbound and unbanished, deals damage: 1 spell from the lowest Locus to the Æther, 3 Corruption
    locus1 = ordered(state, "locus/1")
    aether = len(state.zones["aether"])
    lily_before = corruption(state)[LILY]
    state.apply(END_BATTLE)
    assert ordered(state, "locus/1") == locus1[1:]
    assert len(state.zones["aether"]) == aether + 1 and ordered(state, "aether")[0] == locus1[0]
    assert corruption(state)[LILY] == lily_before + 3
    # Sludga, bound, dealt nothing (only one spell left the Pentagram)

    # End of the Hour: the Leader keeps the Pool; Flicker, expended, goes to the Æther
    assert state.decision.player == DIANNE and prompt(state) == POOL
    state.apply("Keep it")
    assert "lily_flicker" in zone(state, "aether")
    assert zone(state, "discard/2") == ["blood_letting", "lily_gaias_cheer"]
    assert zone(state, "play/2") == ["mr_patterson", "obsidian_mirror"]
    assert state.counters["white_pool"] == [2]
