"""The card data (components spec §11): 108 cards with unique ids and provenance, the counts of
§3 and §7-§9, every god two different powers (never two constant), every power on some god."""

from collections import Counter

from domain.pantheon_cards.components import EDITIONS, load_components, raw_data, validate


def test_the_house_edition_loads_and_passes_every_check():
    assert EDITIONS == ("house-1",)
    comps = load_components("house-1")
    assert validate(raw_data("house-1"), comps) == []


def test_108_cards_with_unique_ids_and_the_type_counts_of_section_3():
    comps = load_components()
    assert len(comps.cards) == 108
    assert Counter(c.type for c in comps.cards.values()) == {
        "god": 24,
        "temple": 16,
        "worshiper": 50,
        "civilization": 18,
    }
    assert Counter(c.kind for c in comps.cards.values() if c.type == "temple") == {"wooden": 10, "stone": 6}
    assert Counter(c.level for c in comps.cards.values() if c.type == "worshiper") == {
        10: 12,
        50: 12,
        100: 12,
        500: 8,
        1000: 6,
    }
    assert sum(c.level for c in comps.cards.values()) == 11920
    civs = Counter(c.name for c in comps.cards.values() if c.type == "civilization")
    assert len(civs) == 12 and sum(civs.values()) == 18


def test_every_record_names_its_provenance_and_the_rulebook_facts_say_rulebook():
    raw = raw_data("house-1")
    assert all(c["provenance"] in ("rulebook", "house") for c in raw["cards"]["cards"])
    constants = {c["key"]: c for c in raw["edition"]["constants"]}
    assert constants["total_cards"]["provenance"] == "rulebook" and constants["turn_limit"]["provenance"] == "house"
    assert all(d["edition"] == "house-1" for d in raw.values())


def test_gods_carry_two_different_powers_and_every_power_appears():
    comps = load_components()
    gods = [c for c in comps.cards.values() if c.type == "god"]
    assert len({g.pantheon for g in gods}) == 4 and all(g.minor != g.major for g in gods)
    assert not any(comps.powers[g.minor].constant and comps.powers[g.major].constant for g in gods)
    assert {p for g in gods for p in (g.minor, g.major)} == set(comps.powers) and len(comps.powers) == 19
    assert comps.cards["god.poseidon"].minor == "earthquakes" and comps.cards["god.poseidon"].major == "sea"


def test_a_broken_data_set_is_refused_with_the_rule_it_breaks():
    raw = raw_data("house-1")
    comps = load_components()
    broken = {**raw, "cards": {**raw["cards"], "cards": raw["cards"]["cards"][:-1]}}
    assert "108 cards, every id unique" in validate(broken, comps)
