"""haunted_kit.haunted.analysis: the tables the notebooks show must agree with the engine."""

from __future__ import annotations

import pytest

import haunted_kit as hk
from haunted_kit.haunted import scenario as sc
from haunted_kit.haunted.agents import GreedyAgent
from haunted_kit.haunted.analysis import (VALOR_SOURCES, AnalysisError, at_terrain_die, attempts, events_frame,
                                          play_until, players_frame, supply_frame, valor_events, valor_reason,
                                          valor_sources, valor_sources_many)
from haunted_kit.haunted.flow import TerrainDie
from haunted_kit.haunted.draw import board
from haunted_kit.haunted.sim import play_game, play_many
from haunted_kit.render.style import name_cells


def test_valor_sources_add_up_to_final_valor():
    for seed in range(6):
        res = play_game(players=4, seed=seed, agents=["greedy", "random"], log=True)
        table = valor_sources(res.state)
        assert list(table.columns[:5]) == list(VALOR_SOURCES)
        assert "other" not in table.columns
        assert table["total"].tolist() == res.valor
        if not res.lost:
            assert table["quests"].tolist() == res.quest_valor


def test_valor_sources_many_matches_play_many():
    many = valor_sources_many(5, players=3, agents=["greedy"], first_seed=10)
    plain = play_many(5, players=3, agents=["greedy"], first_seed=10)
    merged = many.merge(plain[["seed", "player", "valor", "won"]], on=["seed", "player"], suffixes=("", "_plain"))
    assert len(merged) == 15
    assert (merged.total == merged.valor).all()
    assert (merged.won == merged.won_plain).all()


def test_valor_reason_categories():
    assert valor_reason("P1 gains 3 valor for building a mine, now at 3.") == ("buildings", "building a mine")
    assert valor_reason("P1 gains 1 valor for skill 11, now at 4.")[0] == "buildings"
    assert valor_reason("P1 gains 2 valor for marker slot 2 of skill 1, now at 6.") == ("skills", "marker slot 2")
    assert valor_reason("P1 gains 2 valor for filling the extraction track, now at 2.")[0] == "tracks"
    assert valor_reason("P1 gains 1 valor for skill 1, now at 1.")[0] == "contact"
    assert valor_reason("P1 gains 2 valor for bonus reward 6, now at 2.")[0] == "contact"
    assert valor_reason("P4 gains 4 valor for quest 3, now at 15.") == ("quests", "quest 3")


def test_play_until_with_manual_chance_is_the_same_game():
    seed = 4
    s = hk.new_game(players=4, seed=seed, auto_chance=False)
    bots = [GreedyAgent(seed * 100 + p) for p in range(4)]
    play_until(s, bots, at_terrain_die(2, 1))
    assert s.chance == TerrainDie() and (s.season, s.round) == (2, 1)
    play_until(s, bots)
    ref = play_game(players=4, seed=seed, agents=["greedy"], log=True).state
    assert s.valor == ref.valor and s.winner == ref.winner and s.lost == ref.lost
    assert [e.text for e in s.log] == [e.text for e in ref.log]


def test_attempts_leave_the_state_unchanged():
    s = hk.new_game(players=2, seed=3)
    before = s.to_json()
    table = attempts(s, s.legal_actions()[:2] + [hk.EndTurn(), hk.Explore((9, 9))])
    assert s.to_json() == before
    assert table.legal.tolist()[:2] == [True, True]
    assert not table.legal.iloc[-1] and table["rulebook section"].iloc[-1]


def test_frames_and_board_are_deterministic():
    s = hk.new_game(players=3, seed=2)
    assert players_frame(s).index.tolist() == ["P1", "P2", "P3"]
    assert events_frame(s).index.tolist() == list(range(len(s.log)))
    pic = board(s, highlight=[(0, 0)])
    assert pic._repr_html_() == board(s, highlight=[(0, 0)])._repr_html_()
    assert "0x" not in repr(pic) and repr(pic).startswith("<Haunted Lands:")


# ---------------------------------------------------------------- never silently wrong

def test_valor_tables_refuse_a_game_played_without_its_log():
    res = play_game(players=3, seed=1)               # play_game's default: no event log
    assert res.state.log is None and sum(res.valor) > 0
    for helper in (valor_sources, valor_events, events_frame):
        with pytest.raises(AnalysisError, match="needs the event log.*log=True"):
            helper(res.state)


def test_valor_sources_refuses_valor_the_log_does_not_explain():
    s = sc.scenario(players=2)
    sc.set_valor(s, 1, 7)                            # an edit, not a valor event
    with pytest.raises(AnalysisError, match="P2 holds 7 but the log explains 0"):
        valor_sources(s)


def test_valor_sources_against_the_valor_events_summed_by_hand():
    s = play_game(players=3, seed=5, agents=["greedy"], log=True).state
    by_hand = {}
    for e in s.log:
        if e.kind == "valor":
            key = (f"P{e.player + 1}", e.data["source"])
            by_hand[key] = by_hand.get(key, 0) + e.data["amount"]
    table = valor_sources(s)
    for (player, source), amount in by_hand.items():
        assert table.loc[player, source] == amount
    assert table.drop(columns="total").to_numpy().sum() == sum(s.valor)


def test_supply_and_player_frames_conserve_the_box():
    """Whatever happens, every resource, building and ghost is in the supply or in play."""
    box = hk.default_box()
    s = hk.new_game(players=4, seed=8)
    bots = [GreedyAgent(p) for p in range(4)]
    for season in (1, 2, 3):
        play_until(s, bots, lambda st, k=season: st.season > k or st.is_terminal())
        sup = supply_frame(s)
        total = sup["in supply"] + sup["on the field / with players"]
        assert total["ghost"] == box.supply_ghosts
        for name, n in box.supply_buildings.items():
            assert total[name] == n
        for name, n in box.supply_resources.items():
            assert total[name] == n
            assert players_frame(s)[name].sum() == sup.loc[name, "on the field / with players"]
        assert players_frame(s)["valor"].tolist() == list(s.valor)


def test_attempts_agree_with_applying_on_a_copy():
    s = hk.new_game(players=3, seed=2)
    bots = [GreedyAgent(p) for p in range(3)]
    play_until(s, bots, lambda st: st.phase == "turns")
    tries = s.legal_actions()[:6] + [hk.Explore((9, 9)), hk.Build("mill"), hk.Contact(), hk.Sell(1, ("food",))]
    table = attempts(s, tries)
    for a, legal in zip(tries, table.legal):
        c = s.copy()
        try:
            c.apply_action(a)
            applied = True
        except hk.IllegalAction:
            applied = False
        assert applied == legal, a


def test_events_frame_against_the_log_filtered_by_hand():
    s = play_game(players=2, seed=3, agents=["greedy"], log=True).state
    frame = events_frame(s, since=40, kinds=["explored", "built"])
    by_hand = [e for e in s.log if e.seq >= 40 and e.kind in ("explored", "built")]
    assert frame.index.tolist() == [e.seq for e in by_hand]
    # the frame writes cells as the boards do (render.style.name_cells), the log keeps the engine's words
    assert frame.text.tolist() == [name_cells(e.text) for e in by_hand]
    assert any("cell " in t for t in frame.text)


def test_batch_frames_name_what_they_count_as_datasets_do():
    """``ghost_cards`` held a count that read like card numbers (notebook 06): the frames
    now name the cards beyond the mode's as ``simulate`` datasets write them and say
    what they count (``ghost_card_count``, ``buildings_owned``, ``skills_learned``,
    ``game_decisions``, every player's decisions as in the dataset)."""
    t = play_many(2, players=2, extra_ghost_cards=(3,), first_seed=5)
    assert "ghost_cards" not in t.columns and "buildings" not in t.columns and "decisions" not in t.columns
    assert set(t.extra_ghost_cards) == {"3"} and set(t.ghost_card_count) == {2}  # wanderer's card 1, then 3
    for seed, rows in t.groupby("seed"):
        res = play_game(hk.GameConfig(players=2, extra_ghost_cards=(3,), seed=seed), ["greedy"])
        assert list(rows.game_decisions) == [res.decisions] * 2
        assert list(rows.skills_learned) == [len(res.state.skills_known(p)) for p in range(2)]
    v = valor_sources_many(1, players=2, first_seed=5)
    assert list(v.columns[:5]) == ["seed", "mode", "players", "extra_ghost_cards", "ghost_card_count"]
    assert v.extra_ghost_cards.iloc[0] == "" and v.ghost_card_count.iloc[0] == 1
