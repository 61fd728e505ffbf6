"""Table cells from words with positions: numbers, columns, headers, units, descriptions, checks."""

from __future__ import annotations

import pytest

from engine.ingest import tables as tab
from engine.numbers import parse_cell


def _row(y: float, label: str, values: list[str], cols: tuple[float, ...] = (400.0, 480.0)) -> list[tab.Word]:
    words: list[tab.Word] = []
    x = 60.0
    for part in label.split():
        words.append((x, y, x + 6 * len(part), y + 9, part))
        x += 6 * len(part) + 3
    for right, value in zip(cols, values, strict=False):
        if value.startswith("$"):
            words.append((right - 60, y, right - 54, y + 9, "$"))
            value = value[1:]
        words.append((right - 6 * len(value), y, right, y + 9, value))
    return words


def statement() -> list[tab.Word]:
    words: list[tab.Word] = [
        (200, 40, 420, 50, "Consolidated"), (200, 52, 300, 62, "(In"), (230, 52, 280, 62, "millions,"),
        (282, 52, 320, 62, "except"), (322, 52, 340, 62, "per"), (342, 52, 370, 62, "share"),
        (372, 52, 410, 62, "amounts)"),
        (340, 70, 470, 80, "Years"), (372, 70, 400, 80, "ended"), (402, 70, 450, 80, "December"),
        (452, 70, 466, 80, "31,"),
        (376, 84, 400, 94, "2023"), (456, 84, 480, 94, "2022"),
    ]
    words += _row(100, "Revenue", ["$1,234", "$1,100"])
    words += _row(114, "Cost of sales", ["(456)", "(400)"])
    words += _row(128, "Other — net", ["—", "12"])
    words += _row(142, "Adjustments to reconcile net income", [])[:5]
    words += _row(156, "to cash from operations", ["7.5%", "(0.3)%"])
    words += _row(170, "Gross profit", ["$778", "$700"])
    return words


def test_parse_cell_signs_currency_percent_and_marks() -> None:
    assert parse_cell("(1,234)") == -1234
    assert parse_cell("$5.2") == 5.2
    assert parse_cell("12.5%") == 12.5
    assert parse_cell("($12)") == -12
    assert parse_cell("-3") == -3
    assert parse_cell("1,577*") == 1577
    assert parse_cell("—") is None
    assert parse_cell("Revenue") is None
    assert tab.is_empty_cell("—") and tab.is_empty_cell("n/a")


def test_parse_words_reads_an_unruled_statement() -> None:
    table = tab.parse_words(statement(), title="Income")
    assert table is not None
    assert table["columns"] == ["Years ended December 31, 2023", "Years ended December 31, 2022"]
    assert table["scale"] == 1e6 and "millions" in table["units"]
    rows = {r["label"]: r for r in table["rows"]}
    assert rows["Revenue"]["numbers"] == [1234, 1100]
    assert rows["Revenue"]["values"] == ["$1,234", "$1,100"]
    assert rows["Cost of sales"]["numbers"] == [-456, -400]
    assert rows["Other — net"]["values"] == ["—", "12"]
    assert rows["Other — net"]["numbers"] == [None, 12]
    wrapped = [r for r in table["rows"] if r["label"].startswith("Adjustments")]
    assert wrapped and wrapped[0]["numbers"] == [7.5, -0.3]
    assert rows["Gross profit"]["numbers"] == [778, 700]
    assert 1234 in tab.table_numbers(table)


def test_parse_words_inside_a_box_only() -> None:
    words = statement() + _row(400, "Outside", ["999", "998"])
    table = tab.parse_words(words, box=(0, 0, 612, 200))
    assert table is not None
    assert 999 not in tab.table_numbers(table)


def test_a_box_that_starts_at_the_first_row_takes_the_headings_printed_just_above_it() -> None:
    words = [(200, 40, 420, 50, "Consolidated"), (230, 52, 300, 62, "Balance"), (302, 52, 340, 62, "Sheets"),
             (352, 70, 398, 80, "December"), (400, 70, 406, 80, "2,"), (432, 70, 478, 80, "December"),
             (480, 70, 486, 80, "3,"), (376, 84, 400, 94, "2022"), (456, 84, 480, 94, "2021")]
    words += _row(100, "Cash and cash equivalents", ["$4,236", "$3,844"])
    words += _row(114, "Total assets", ["$27,165", "$27,241"])
    table = tab.parse_words(words, box=(50, 98, 500, 130))
    assert table is not None and table["columns"] == ["December 2, 2022", "December 3, 2021"]
    # a lead-in sentence that names a year is no heading; nor are a contents page's numbers
    lead = [(300, 84, 340, 94, "stores"), (342, 84, 360, 94, "at"), (362, 84, 380, 94, "the"),
            (382, 84, 400, 94, "end"), (402, 84, 414, 94, "of"), (416, 84, 440, 94, "fiscal"),
            (456, 84, 480, 94, "2017:")]
    rows = _row(100, "Alberta", ["20", "21"]) + _row(114, "Ontario", ["60", "61"])
    assert tab.parse_words(lead + rows, box=(50, 98, 500, 130))["columns"] == ["", ""]  # type: ignore[index]
    pages = [(394, 84, 400, 94, "11"), (474, 84, 480, 94, "24")]
    assert tab.parse_words(pages + rows, box=(50, 98, 500, 130))["columns"] == ["", ""]  # type: ignore[index]


def test_a_footnote_mark_on_a_year_heading_keeps_the_line_a_heading() -> None:
    # "2019   2018 (1)": the mark is the heading's, not a value of -1 in a row with no label
    words = [(340, 70, 470, 80, "Years"), (376, 84, 400, 94, "2019"), (456, 84, 480, 94, "2018"),
             (482, 84, 491, 94, "(1)")]
    words += _row(100, "Total net revenues", ["$6,489", "$7,500"])
    words += _row(114, "Operating income", ["1,607", "1,988"])
    table = tab.parse_words(words)
    assert table is not None
    assert [r["label"] for r in table["rows"]] == ["Total net revenues", "Operating income"]
    assert table["columns"][0].endswith("2019") and "2018" in table["columns"][1]
    # a value of (1) set apart from the number before it is still a value
    far = _row(100, "Segment", ["2019", "(1)"], cols=(400.0, 480.0)) + _row(114, "Other", ["5", "6"])
    rows = tab.parse_words(far)["rows"]  # type: ignore[index]
    assert rows[0]["numbers"][1] == -1


def test_no_numeric_column_is_no_table() -> None:
    words = [(60, 100, 90, 110, "Just"), (95, 100, 130, 110, "prose"), (135, 100, 160, 110, "here")]
    assert tab.parse_words(words) is None


@pytest.mark.parametrize(
    ("text", "expected", "scale"),
    [
        ("(In millions, except per share amounts)", "(In millions, except per share amounts)", 1e6),
        ("(Millions)", "(Millions)", 1e6),
        ("in thousands, except per share data Revenue 2019", "in thousands, except per share data", 1e3),
        ("($ in billions)", "($ in billions)", 1e9),
        ("Revenue grew in 2018", "", 1.0),
    ],
)
def test_units(text: str, expected: str, scale: float) -> None:
    assert tab.find_units(text) == expected
    assert tab.scale_of(expected) == scale


def test_numeric_grid_blocks_find_the_table_not_the_prose() -> None:
    prose = [(60, 300, 100, 310, "In"), (102, 300, 130, 310, "2018"), (132, 300, 150, 310, "we"),
             (152, 300, 190, 310, "spent"), (192, 300, 230, 310, "$1,577"), (232, 300, 280, 310, "million"),
             (282, 300, 300, 310, "and"), (302, 300, 340, 310, "$1,373"), (342, 300, 380, 310, "million.")]
    blocks = tab.numeric_grid_blocks(statement() + prose, 612)
    assert len(blocks) == 1
    x0, top, x1, bottom = blocks[0]
    assert top <= 100 and bottom >= 179 and bottom < 300


def test_describe_table_names_title_units_periods_and_rows() -> None:
    table = tab.parse_words(statement())
    assert table is not None
    text = tab.describe_table(table, title="Consolidated Statements of Operations")
    assert "Consolidated Statements of Operations" in text
    assert "millions" in text and "2023" in text and "Revenue" in text and "$1,234" in text
    assert "| Revenue | $1,234 | $1,100 |" in tab.table_markdown(table)


def test_check_numbers_flags_what_the_text_layer_does_not_show() -> None:
    model = tab.normalise_model_table(
        {"title": "T", "units": "millions", "columns": ["2023"],
         "rows": [{"label": "Revenue", "values": ["1,234"]}, {"label": "Cost", "values": ["(457)"]}]}
    )
    assert model is not None and model["scale"] == 1e6
    checks = tab.check_table_numbers(model, [1234.0, -456.0])
    assert [c["label"] for c in checks] == ["Cost"]
    assert tab.normalise_model_table({"rows": "nope"}) is None
    listed = tab.normalise_model_table({"rows": [["Revenue", 5, "6"]]})
    assert listed is not None and listed["rows"][0]["numbers"] == [5.0, 6.0]


def _in_blocks(heads: list[tab.Word], headings: list[str], lines: list[tuple[str, list[str]]]) -> list[tab.Word]:
    """A table's words: the column ``heads``, then under each heading (a line without figures in the labels'
    column) the same ``lines``, 14 points apart from y = 90."""
    words = [*heads]
    y = 90.0
    for heading in headings:
        words += _row(y, heading, [])
        for k, (label, values) in enumerate(lines, 1):
            words += _row(y + 14 * k, label, values)
        y += 14 * (len(lines) + 1)
    return words


def test_the_first_block_heading_under_the_column_headings_is_a_row_not_a_heading() -> None:
    """A segment table in blocks ("Americas:" over its "Net sales" and "Operating income", under the dates): the
    line just above the first figures, in the labels' column, heads the first block as the later ones do; a units
    line or the statement's period line there stays out of the rows."""
    heads: list[tab.Word] = [(376, 70, 400, 80, "2023"), (456, 70, 480, 80, "2022")]
    words = _in_blocks(heads, ["Americas:", "Europe:"],
                       [("Net sales", ["$49,278", "$51,496"]), ("Operating income", ["17,864", "19,585"])])
    table = tab.parse_words(words, title="Segment Information")
    assert table is not None
    assert [r["label"] for r in table["rows"]] == ["Americas:", "Net sales", "Operating income", "Europe:",
                                                   "Net sales", "Operating income"]
    assert table["columns"] == ["2023", "2022"]
    plain = [*heads, *_row(84, "(in millions)", []), *_row(100, "Revenue", ["$1,234", "$1,100"]),
             *_row(114, "Cost of sales", ["(456)", "(400)"])]
    table = tab.parse_words(plain, title="Income")
    assert table is not None and [r["label"] for r in table["rows"]] == ["Revenue", "Cost of sales"]


def test_the_first_period_heading_of_a_table_whose_periods_head_its_blocks_is_a_row() -> None:
    """A segment note with the segments as columns and the periods over blocks of rows ("Three Months Ended March
    31, 2024" over "Revenue" and "Operating income", then the year before's): the first period line, just above the
    first figures, heads its block as the later ones do. A period line there with no later one like it is the
    columns' heading, not a row."""
    heads: list[tab.Word] = [(360, 70, 400, 80, "Devices"), (446, 70, 480, 80, "Cloud")]
    words = _in_blocks(heads, ["Three Months Ended March 31, 2024", "Three Months Ended March 31, 2023"],
                       [("Revenue", ["$700", "$410"]), ("Operating income", ["90", "60"])])
    table = tab.parse_words(words, title="Segment information")
    assert table is not None
    assert [r["label"] for r in table["rows"]] == [
        "Three Months Ended March 31, 2024", "Revenue", "Operating income", "Three Months Ended March 31, 2023",
        "Revenue", "Operating income"]
    assert table["columns"] == ["Devices", "Cloud"]
    once = [*heads, *_row(90, "Three Months Ended March 31, 2024", []), *_row(104, "Revenue", ["$700", "$410"]),
            *_row(118, "Operating income", ["90", "60"])]
    table = tab.parse_words(once, title="Segment information")
    assert table is not None and [r["label"] for r in table["rows"]] == ["Revenue", "Operating income"]


def test_a_heading_that_ends_in_a_colon_is_not_wrapped_onto_a_lowercase_first_row() -> None:
    """"Net sales by category:" over "iPhone", "Mac": the colon ends the heading; a row label that starts in lower
    case ("iPhone") is a row of its own, not the heading's second line. A label wrapped with no colon still joins."""
    words: list[tab.Word] = [(376, 70, 400, 80, "2023"), (456, 70, 480, 80, "2022")]
    words += _row(90, "Revenue:", [])
    words += _row(104, "Net sales by category:", [])
    words += _row(118, "iPhone", ["$156,778", "$162,863"])
    words += _row(132, "Mac", ["21,743", "31,161"])
    words += _row(146, "Depreciation of property and", [])
    words += _row(160, "equipment", ["1,000", "900"])
    table = tab.parse_words(words, title="Net sales")
    assert table is not None
    labels = [r["label"] for r in table["rows"]]
    assert labels[-4:] == ["Net sales by category:", "iPhone", "Mac", "Depreciation of property and equipment"], labels
