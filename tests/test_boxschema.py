"""The kit's schema machinery for boxes (haunted_kit.boxschema), on a toy box: every kind
of problem becomes one BoxError naming the file, the key path, what was expected, what was
found and the rule section; provenance rows and the reference come from the same schema."""

from typing import ClassVar, Literal

import pytest
from pydantic import model_validator

from haunted_kit.boxfile import BoxError
from haunted_kit.boxschema import (BoxEntries, BoxModel, BoxSchema, BoxTable, Invalid, Name, Whole, box_field,
                                   box_reference, key_matches, provenance_rows, reference_markdown, validate)


class Players(BoxTable):
    section: ClassVar[str] = "Toy: Setup"
    min: Whole = box_field(low=2, high=8, doc="fewest players")
    max: Whole = box_field(low=2, high=8, doc="most players")
    pace: Literal["slow", "fast"] = box_field("slow")
    colours: list[Name] = box_field(min_items=1, section="Toy: Components")

    @model_validator(mode="after")
    def _order(self):
        if self.max < self.min:
            raise Invalid(f"field 'max' ({self.max}) must be at least 'min' ({self.min})")
        return self


class Card(BoxTable):
    section: ClassVar[str] = "Toy: Cards"
    copies: Whole = box_field(low=1)
    wild: bool = box_field(False)


class GameFile(BoxModel):
    players: Players
    cards: dict[str, Card]


class Extras(BoxEntries):
    root: dict[str, Card]


GOOD = {"players": {"min": 2, "max": 4, "colours": ["red"], "provenance": "rulebook"},
        "cards": {"ace": {"copies": 3, "provenance": "kit default"}}}


def edited(table, key, value):
    data = {k: dict(v) for k, v in GOOD.items()}
    data[table][key] = value
    return data


def error(data, model=GameFile) -> BoxError:
    with pytest.raises(BoxError) as exc:
        validate(model, data, "toy/game.toml")
    return exc.value


def test_a_good_file_gives_its_values_and_provenance_rows():
    box = validate(GameFile, GOOD, "toy/game.toml")
    assert (box.players.min, box.players.max, box.players.pace, box.cards["ace"].copies) == (2, 4, "slow", 3)
    assert provenance_rows(box, "toy/game.toml") == [
        ("toy/game.toml", "players", "min", "rulebook", 2), ("toy/game.toml", "players", "max", "rulebook", 4),
        ("toy/game.toml", "players", "colours", "rulebook", ["red"]),
        ("toy/game.toml", "cards.ace", "copies", "kit default", 3)]  # 'pace' and 'wild' left out: no row


@pytest.mark.parametrize("table, key, value, entry, problem, section", [
    ("players", "min", True, "players", "field 'min' must be int, got True", "Toy: Setup"),  # no bool as a number
    ("players", "min", 2.0, "players", "field 'min' must be int, got 2.0", "Toy: Setup"),
    ("players", "min", "2", "players", "field 'min' must be int, got '2'", "Toy: Setup"),
    ("players", "min", 9, "players", "field 'min' must be at most 8, got 9", "Toy: Setup"),
    ("players", "min", 1, "players", "field 'min' must be at least 2, got 1", "Toy: Setup"),
    ("players", "max", 1, "players", "field 'max' must be at least 2, got 1", "Toy: Setup"),
    ("players", "pace", "warp", "players", "field 'pace' has unknown value 'warp' (known: 'slow' or 'fast')", "Toy: Setup"),
    ("players", "colours", [], "players", "field 'colours' must not be empty", "Toy: Components"),
    ("players", "colours", ["red", " "], "players", "field 'colours[2]' must not be empty or blank", "Toy: Components"),
    ("players", "colours", "red", "players", "field 'colours' must be a list, got 'red'", "Toy: Components"),
    ("players", "speed", 3, "players", "unknown field 'speed' (known: min, max, pace, colours)", "Toy: Setup"),
    ("players", "provenance", "folklore", "players",
     "provenance of 'min' must be \"rulebook\" or \"kit default\", got 'folklore'", "Toy: Setup"),
    ("cards", "ace", {"copies": 0, "provenance": "kit default"}, "cards.ace", "field 'copies' must be at least 1, got 0",
     "Toy: Cards"),
    ("cards", "ace", {"copies": 1, "wild": 1, "provenance": "kit default"}, "cards.ace",
     "field 'wild' must be true or false, got 1", "Toy: Cards"),
    ("cards", "ace", {"copies": 1}, "cards.ace", "missing field 'provenance' (\"rulebook\" or \"kit default\")", "Toy: Cards"),
    ("cards", "ace", 5, "cards.ace", "must be a table", "Toy: Cards"),
])
def test_every_kind_of_problem_names_file_key_path_expected_found_and_section(table, key, value, entry, problem, section):
    err = error(edited(table, key, value))
    assert (err.file, err.entry, err.problem, err.section) == ("toy/game.toml", entry, problem, section)
    assert str(err) == f"toy/game.toml, entry {entry}: {problem} (rule section: {section})"


def test_cross_field_checks_missing_and_unknown_tables():
    err = error(edited("players", "min", 5) | {"players": {**GOOD["players"], "min": 5, "max": 3}})
    assert (err.entry, err.problem) == ("players", "field 'max' (3) must be at least 'min' (5)")
    err = error({"cards": {}})
    assert (err.entry, err.problem) == ("players", "missing table")
    err = error({**GOOD, "player": {}})
    assert (err.entry, err.problem, str(err)) == ("player", "unknown table (known: players, cards)",
                                                  "toy/game.toml, entry player: unknown table (known: players, cards)")
    data = edited("players", "provenance", {"min": "rulebook", "max": "rulebook", "colours": "kit default"})
    del data["players"]["min"]
    assert error(data).problem == "missing field 'min'"
    err = error({"ace": {"copies": -1, "provenance": "rulebook"}}, Extras)
    assert (err.entry, err.problem) == ("ace", "field 'copies' must be at least 1, got -1")
    assert error([1, 2], Extras).entry == "-"


def test_whole_numbers_are_bounded_by_default():
    class Loose(BoxModel):
        n: Whole
    assert validate(Loose, {"n": 999}, "x").n == 999
    assert error({"n": 1000}, Loose).problem == "field 'n' must be at most 999, got 1000"
    assert error({"n": -1}, Loose).problem == "field 'n' must not be negative, got -1"


def test_reference_has_one_row_per_key_with_type_range_default_provenance_section(tmp_path):
    shipped = validate(GameFile, GOOD, "game.toml")
    rows = {r["key"]: r for r in box_reference(GameFile, file="game.toml", shipped=shipped)}
    assert list(rows) == ["players.min", "players.max", "players.pace", "players.colours", "cards.<name>.copies",
                          "cards.<name>.wild"]
    assert rows["players.min"] == {"file": "game.toml", "key": "players.min", "type": "whole number", "range": "2..8",
                                   "default": "2", "provenance": "rulebook", "section": "Toy: Setup",
                                   "meaning": "fewest players"}
    assert rows["players.pace"]["type"] == "one of 'slow', 'fast'"
    assert rows["players.pace"]["default"] == "optional, else 'slow'"
    assert (rows["players.colours"]["type"], rows["players.colours"]["range"]) == ("list of text", "1.. items")
    assert (rows["cards.<name>.copies"]["range"], rows["cards.<name>.copies"]["default"]) == ("1..999", "3 in each of 1")
    (tmp_path / "game.toml").write_text('[players]\nmin = 2\nmax = 4\ncolours = ["red"]\nprovenance = "rulebook"\n'
                                        '[cards.ace]\ncopies = 3\nprovenance = "kit default"\n')
    text = reference_markdown(BoxSchema({"game.toml": GameFile}, label="toy/"), "Toy", tmp_path)
    assert "### `toy/game.toml`" in text
    assert "| `players.max` | whole number | 2..8 | 4 | rulebook | Toy: Setup | most players |" in text


class Row(BoxModel):
    name: Name
    count: Whole = box_field(low=1, section="Toy: Tiles")


class RowsFile(BoxModel):
    rows: list[Row] = box_field(min_items=1)


def _csv(text: str, label: str) -> dict:
    lines = [line.split(",") for line in text.strip().splitlines()]
    return {"rows": [{"name": n, "count": int(c)} for n, c in lines[1:]]}


def test_a_schema_reads_its_files_in_order_and_a_file_of_another_format_with_its_parser(tmp_path):
    (tmp_path / "game.toml").write_text('[players]\nmin = 2\nmax = 4\ncolours = ["red"]\nprovenance = "rulebook"\n'
                                        '[cards.ace]\ncopies = 3\nprovenance = "kit default"\n')
    (tmp_path / "tiles.csv").write_text("name,count\nforest,2\nlake,0\n")
    schema = BoxSchema({"game.toml": GameFile, "tiles.csv": RowsFile}, label="toy/", parsers={"tiles.csv": _csv})
    with pytest.raises(BoxError) as exc:
        schema.read(tmp_path)
    assert str(exc.value) == "toy/tiles.csv, entry rows[2]: field 'count' must be at least 1, got 0 (rule section: Toy: Tiles)"
    (tmp_path / "tiles.csv").write_text("name,count\nforest,2\nlake,1\n")
    files = schema.read(tmp_path)
    assert list(files) == ["game.toml", "tiles.csv"] and files["tiles.csv"].rows[1].count == 1
    assert schema.rows(files)[0] == ("toy/game.toml", "players", "min", "rulebook", 2)


class Option(BoxTable):
    section: ClassVar[str] = "Toy: Market"
    count: Whole = box_field(low=1, doc="resources paid")


class Offer(BoxModel):
    section: ClassVar[str] = "Toy: Market"
    options: list[Option] = box_field(min_items=1)


class MarketFile(BoxModel):
    offers: dict[str, Offer]

    @model_validator(mode="after")
    def _named(self):
        if "gold" in self.offers:
            raise Invalid("offer 'gold' is named in game.toml's cards, not here", entry="cards.gold",
                          file="toy/game.toml", section="Toy: Cards")
        return self


MARKET = {"offers": {"a": {"options": [{"count": 1, "provenance": "rulebook"}, {"count": 2, "provenance": "kit default"}]}}}


def test_a_list_of_tables_counts_from_one_in_errors_rows_and_reference():
    """The third ``[[offers.a.options]]`` is ``options[3]`` in an error, as in its provenance
    rows and in the reference (``options[<n>]``), as a TOML file's ``[[...]]`` headers count."""
    bad = {"offers": {"a": {"options": [*MARKET["offers"]["a"]["options"], {"count": 0, "provenance": "rulebook"}]}}}
    err = error(bad, MarketFile)
    assert (err.entry, err.problem, err.section) == ("offers.a.options[3]", "field 'count' must be at least 1, got 0",
                                                     "Toy: Market")
    rows = provenance_rows(validate(MarketFile, MARKET, "toy/market.toml"), "toy/market.toml")
    assert rows == [("toy/market.toml", "offers.a.options[1]", "count", "rulebook", 1),
                    ("toy/market.toml", "offers.a.options[2]", "count", "kit default", 2)]
    ref = {r["key"]: r for r in box_reference(MarketFile, file="market.toml", shipped=validate(MarketFile, MARKET, "m"))}
    assert ref["offers.<name>.options"]["type"] == "list of tables (count)"
    assert (ref["offers.<name>.options[<n>].count"]["range"], ref["offers.<name>.options[<n>].count"]["provenance"]) == (
        "1..999", "kit default / rulebook")
    assert key_matches("offers.<name>.options[<n>].count", "offers.a.options[12].count")
    assert not key_matches("offers.<name>.options[<n>].count", "offers.a.options.count")


def test_a_check_may_name_the_earlier_file_that_holds_the_fault():
    err = error({"offers": {"gold": {"options": [{"count": 1, "provenance": "rulebook"}]}}}, MarketFile)
    assert str(err) == ("toy/game.toml, entry cards.gold: offer 'gold' is named in game.toml's cards, not here "
                        "(rule section: Toy: Cards)")


def test_values_are_rows_as_written_and_an_optional_key_named_only_by_provenance_is_refused():
    """A default left out of the file is no value of its row (as written); a provenance table
    naming an optional key the table leaves out is refused, naming the key."""
    shipped = validate(GameFile, GOOD, "toy/game.toml")
    assert [r for r in provenance_rows(shipped, "g") if r[2] == "pace"] == []
    data = edited("players", "provenance", {"min": "rulebook", "max": "rulebook", "colours": "rulebook", "pace": "rulebook"})
    err = error(data)
    assert (err.entry, err.problem) == ("players", "provenance names field 'pace', which the table does not give")


def test_box_parts_give_a_box_its_provenance_values_and_fingerprint(tmp_path):
    """What a game's load_box would otherwise assemble by hand: provenance rows of four
    values, values keyed (file, entry, key) holding exactly the rows' values, house rules
    marked against the shipped box's values, the fingerprint of the box's fields."""
    from haunted_kit.provenance import HOUSE_RULE, value_fingerprint

    schema = BoxSchema({"game.toml": GameFile}, label="toy/")
    text = ('[players]\nmin = 2\nmax = 4\ncolours = ["red"]\nprovenance = "rulebook"\n'
            '[cards.ace]\ncopies = 3\nprovenance = "kit default"\n')
    (tmp_path / "game.toml").write_text(text)
    files = schema.read(tmp_path)
    fields = {"min_players": 2, "max_players": 4, "path": "ignored: not a value"}
    shipped = schema.box_parts(files, fields)
    assert shipped["provenance"] == (("toy/game.toml", "players", "min", "rulebook"),
                                     ("toy/game.toml", "players", "max", "rulebook"),
                                     ("toy/game.toml", "players", "colours", "rulebook"),
                                     ("toy/game.toml", "cards.ace", "copies", "kit default"))
    assert shipped["values"] == {("toy/game.toml", "players", "min"): 2, ("toy/game.toml", "players", "max"): 4,
                                 ("toy/game.toml", "players", "colours"): ["red"],
                                 ("toy/game.toml", "cards.ace", "copies"): 3}
    assert shipped["fingerprint"] == value_fingerprint({"min_players": 2, "max_players": 4}) != value_fingerprint(
        {"min_players": 2, "max_players": 5})
    (tmp_path / "game.toml").write_text(text.replace("max = 4", "max = 5"))  # a house rule
    house = schema.box_parts(schema.read(tmp_path), {**fields, "max_players": 5}, shipped["values"])
    assert [r[3] for r in house["provenance"]] == ["rulebook", HOUSE_RULE, "rulebook", "kit default"]
    assert house["values"][("toy/game.toml", "players", "max")] == 5 and house["fingerprint"] != shipped["fingerprint"]
