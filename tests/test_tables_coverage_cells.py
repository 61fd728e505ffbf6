"""Table cells the text layer or OCR breaks into pieces: signs set apart, split digits, units, marks, plus signs.

Each case is a row shape seen in real filings where a value used to be lost: the cell was read as part of the
row label, merged into a neighbouring column, or dropped. The last test reads a generated PDF end to end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pdfgen import write_pdf

from engine.ingest import layout
from engine.ingest import tables as tab
from engine.ingest.pdftext import extract_pages
from engine.numbers import parse_cell


def _words(y: float, *parts: tuple[float, float, str]) -> list[tab.Word]:
    return [(x0, y, x1, y + 9.0, text) for x0, x1, text in parts]


def _label(y: float, text: str, x: float = 40.0) -> list[tab.Word]:
    out: list[tab.Word] = []
    for part in text.split():
        out.append((x, y, x + 5.0 * len(part), y + 9.0, part))
        x += 5.0 * len(part) + 2.8
    return out


def _rows(table: dict[str, Any] | None) -> dict[str, list[float | None]]:
    assert table is not None
    return {r["label"]: r["numbers"] for r in table["rows"]}


@pytest.mark.parametrize(
    ("token", "value"),
    [
        ("+211", 211.0),
        ("+31.6", 31.6),
        ("0.7pp", 0.7),
        ("(4.7pp)", -4.7),
        ("0.9pts", 0.9),
        ("(19.6)pts", -19.6),
        ("6.25#", 6.25),
        ("12,235¹⁰", 12235.0),
    ],
)
def test_parse_cell_reads_plus_signs_units_and_marks(token: str, value: float) -> None:
    assert parse_cell(token) == pytest.approx(value)


@pytest.mark.parametrize("token", ["n.a.", "na", "#", "#%"])
def test_not_available_marks_are_empty_cells(token: str) -> None:
    assert tab.is_empty_cell(token)


def _kpi_table(last_row: list[tab.Word]) -> dict[str, Any] | None:
    words = _words(80, (300, 318, "2023"), (360, 378, "2022"), (410, 440, "Change"))
    words += _label(95, "Revenue") + _words(95, (296, 318, "1,234"), (356, 378, "1,100"), (420, 440, "12%"))
    words += _label(110, "Cost of sales") + _words(110, (300, 318, "(456)"), (360, 378, "(400)"), (424, 440, "14%"))
    return tab.parse_words(words + last_row)


def test_a_unit_word_after_the_change_does_not_swallow_the_row() -> None:
    # "Combined ratio   101.3   100.4   0.9 pts": "pts" is the line's last word
    row = _label(125, "Combined ratio") + _words(
        125, (298, 318, "101.3"), (358, 378, "100.4"), (424, 436, "0.9"), (438, 450, "pts")
    )
    assert _rows(_kpi_table(row))["Combined ratio"] == [101.3, 100.4, 0.9]
    row = _label(125, "Equity ratio") + _words(125, (296, 318, "34.0%"), (356, 378, "30.7%"), (424, 446, "3.3pp"))
    assert _rows(_kpi_table(row))["Equity ratio"] == [34.0, 30.7, 3.3]


def test_a_mark_or_ocr_noise_at_the_end_of_the_line_does_not_swallow_the_row() -> None:
    # a "not meaningful" mark in the change column
    row = _label(125, "Net income") + _words(125, (296, 318, "7,514"), (356, 378, "8,060"), (430, 440, "#"))
    assert _rows(_kpi_table(row))["Net income"] == [7514, 8060, None]
    # a garbled OCR number in the last column keeps the others
    row = _label(125, "Total revenue") + _words(125, (296, 318, "7,748"), (356, 378, "6,125"), (420, 440, "1'124"))
    table = _kpi_table(row)
    assert table is not None
    total = next(r for r in table["rows"] if r["label"].startswith("Total revenue"))
    assert total["numbers"][:2] == [7748, 6125]
    # "n.a." in a column
    row = _label(125, "Cash capex") + _words(125, (290, 318, "(12,272)"), (356, 378, "(3,570)"), (426, 440, "n.a."))
    assert _rows(_kpi_table(row))["Cash capex"] == [-12272, -3570, None]


def test_numbers_inside_the_label_stay_in_the_label() -> None:
    rows = _label(125, "Other — net") + _words(125, (300, 318, "12"), (360, 378, "10"))
    rows += _label(140, "2.50% Notes due 2026 (2)") + _words(140, (296, 318, "1,000"), (356, 378, "1,000"))
    rows += _label(155, "Balances as of December 31, 2015") + _words(155, (296, 318, "(722)"), (360, 378, "(1)"))
    table = _rows(_kpi_table(rows))
    assert table["Other — net"] == [12, 10, None]
    assert table["2.50% Notes due 2026 (2)"] == [1000, 1000, None]
    assert table["Balances as of December 31, 2015"] == [-722, -1, None]


def test_values_between_text_columns_are_cells() -> None:
    # derivative tables: a notional amount, then the balance sheet line and its fair value, twice
    words = _words(
        80,
        (180, 210, "Notional"),
        (230, 260, "Assets"),
        (350, 370, "Fair"),
        (390, 440, "Liabilities"),
        (500, 520, "Fair"),
    )
    for y, (n, a, b) in zip(
        (95, 110, 125), (("2,277", "74", "12"), ("1,099", "39", "4"), ("1,000", "—", "14")), strict=True
    ):
        words += _label(y, "Foreign currency contracts")
        words += [(170, y, 175, y + 9, "$"), (210 - 5 * len(n), y, 210, y + 9, n)]
        words += _label(y, "Other current assets", x=230)
        words += [(370 - 5 * len(a), y, 370, y + 9, a)]
        words += _label(y, "Other liabilities", x=390)
        words += [(520 - 5 * len(b), y, 520, y + 9, b)]
    table = tab.parse_words(words)
    assert table is not None
    assert [r["numbers"] for r in table["rows"]] == [[2277, 74, 12], [1099, 39, 4], [1000, None, 14]]


def test_digits_split_into_abutting_runs_are_one_number() -> None:
    # the text layer cut "24,020", "7,919" and "26.1" into runs with no gap between them
    words = _words(80, (405, 430, "2023"), (485, 503, "%"), (555, 582, "2022"), (640, 656, "%"))
    words += _label(95, "Sales") + _words(
        95, (403, 430, "25,530"), (481, 503, "100.0"), (555, 560, "2"), (560, 582, "4,020"), (634, 656, "100.0")
    )
    words += _label(110, "Cost of products sold") + _words(
        110,
        (408, 430, "8,212"),
        (486, 491, "3"),
        (491, 503, "2.2"),
        (560, 565, "7"),
        (565, 582, ",919"),
        (639, 644, "3"),
        (644, 656, "3.0"),
    )
    words += _label(125, "Provision for taxes") + _words(
        125,
        (408, 430, "1,618"),
        (491, 496, "6"),
        (496, 503, ".4"),
        (560, 565, "1"),
        (565, 582, ",026"),
        (644, 649, "4"),
        (649, 656, ".3"),
    )
    rows = _rows(tab.parse_words(words))
    assert rows["Sales"] == [25530, 100.0, 24020, 100.0]
    assert rows["Cost of products sold"] == [8212, 32.2, 7919, 33.0]
    assert rows["Provision for taxes"] == [1618, 6.4, 1026, 4.3]


def test_currency_signs_set_apart_do_not_merge_neighbouring_columns() -> None:
    # "$" signs sit far left of right-aligned digits; one OCR'd cell ("478") lies between two columns
    words = _words(80, (344, 360, "2023"), (396, 411, "2022"), (447, 464, "2021"))
    words += _label(95, "Sales") + _words(
        95,
        (325, 333, "$"),
        (358, 372, "2,950"),
        (380, 383, "$"),
        (409, 424, "2,819"),
        (432, 434, "$"),
        (462, 478, "2,378"),
    )
    for k, (a, b, c) in enumerate(
        (("2,903", "2,661", "2,443"), ("1,169", "1,025", "918"), ("7,022", "6,505", "5,739"), ("(265)", "(117)", "110"))
    ):
        y = 110 + 15 * k
        words += _label(y, f"Line {'abcd'[k]}") + _words(y, (358, 374, a), (409, 428, b), (462, 479, c))
    words += _label(170, "Net income attributable") + _words(
        170, (326, 372, "$1,715"), (424, 439, "478"), (460, 479, "1,249")
    )
    table = tab.parse_words(words)
    assert table is not None
    assert table["columns"] == ["2023", "2022", "2021"]
    rows = _rows(table)
    assert rows["Sales"] == [2950, 2819, 2378]
    assert rows["Line d"] == [-265, -117, 110]


def test_a_row_with_negative_values_after_a_date_is_data_not_a_heading() -> None:
    words = _words(80, (340, 370, "Foreign"), (420, 460, "Unrealized"), (560, 590, "Total"))
    words += _label(95, "Balances as of January 1, 2015") + _words(
        95, (274, 278, "$"), (351, 370, "(512)"), (383, 388, "$"), (477, 481, "1"), (502, 507, "$"), (572, 591, "(511)")
    )
    words += _label(110, "Other comprehensive loss") + _words(
        110, (351, 370, "(210)"), (474, 484, "(2)"), (572, 591, "(212)")
    )
    words += _label(125, "Balances as of December 31, 2015") + _words(
        125, (351, 370, "(722)"), (474, 484, "(1)"), (572, 591, "(723)")
    )
    rows = _rows(tab.parse_words(words))
    assert rows["Balances as of January 1, 2015"] == [-512, 1, -511]
    assert rows["Balances as of December 31, 2015"] == [-722, -1, -723]


def test_a_comparison_heading_names_the_columns() -> None:
    words = _words(80, (373, 461, "Year ended December 31,"), (531, 564, "% change"))
    words += _words(92, (364, 381, "2022"), (452, 469, "2021"), (532, 540, "22"), (542, 552, "vs."), (554, 563, "21"))
    words += _label(105, "Net sales") + _words(
        105, (364, 369, "$"), (386, 410, "14,189"), (452, 457, "$"), (474, 498, "14,082"), (580, 591, "1%")
    )
    words += _label(120, "Gross margin") + _words(120, (390, 410, "4,506"), (479, 498, "5,063"), (573, 594, "(11%)"))
    table = tab.parse_words(words)
    assert table is not None
    assert table["columns"][:2] == ["Year ended December 31, 2022", "Year ended December 31, 2021"]
    assert _rows(table)["Net sales"] == [14189, 14082, 1]


def test_plus_signs_set_as_their_own_glyph() -> None:
    words = _words(80, (263, 290, "Q2 2022"), (312, 340, "Q2 2023"), (380, 400, "Change %"))
    words += _label(95, "Sales") + _words(
        95, (263, 285, "9,481"), (312, 338, "11,485"), (380, 385, "+"), (386, 400, "21.1")
    )
    words += _label(110, "Latin America") + _words(110, (272, 285, "878"), (318, 338, "1,209"), (380, 402, "+37.7"))
    words += _label(125, "Capital expenditures") + _words(125, (272, 285, "459"), (326, 338, "458"), (384, 402, "-0.2"))
    rows = _rows(tab.parse_words(words))
    assert rows["Sales"] == [9481, 11485, 21.1]
    assert rows["Latin America"] == [878, 1209, 37.7]
    assert rows["Capital expenditures"] == [459, 458, -0.2]


def _at(x_right: float, y: float, text: str, size: float = 10.0) -> tuple[float, float, str]:
    """Helvetica text placed to end at ``x_right`` (glyph widths, enough for right-aligned numbers)."""
    widths = {",": 0.278, ".": 0.278, "(": 0.333, ")": 0.333, "%": 0.889, "+": 0.584, "$": 0.556, " ": 0.278}
    width = sum(widths.get(ch, 0.556 if ch.isdigit() else 0.5) for ch in text) * size
    return x_right - width, y, text


def test_a_generated_kpi_table_is_read_end_to_end(tmp_path: Path) -> None:
    """Signs set apart, a unit after the change, "n.a." and a trailing mark, through the text layer."""
    lines: list[tuple[float, float, str]] = [
        (72, 100, "Key figures (in millions)"),
        _at(330, 120, "2023"),
        _at(410, 120, "2022"),
        _at(490, 120, "Change"),
    ]

    def row(y: float, label: str, cells: tuple[str, str, str], sign: bool = False, tail: str = "") -> None:
        lines.append((72, y, label))
        for x_right, value in zip((330, 410, 490), cells, strict=True):
            lines.append(_at(x_right, y, value))
            if sign and x_right < 490:
                lines.append((x_right - 62, y, "$"))
        if tail:
            lines.append((493, y, tail))

    row(136, "Revenue", ("1,715", "1,482", "+15.7%"), sign=True)
    row(152, "Operating profit", ("702", "835", "(15.9)%"))
    row(168, "Combined ratio", ("101.3", "100.4", "0.9"), tail="pts")
    row(184, "Free cash flow", ("2,585", "1,287", "n.a."))
    row(200, "Net income", ("7,514", "8,060", "(7)"), tail="#")
    pdf = write_pdf(tmp_path / "kpi.pdf", [lines])
    [page] = extract_pages(pdf, [1])
    regions = layout.geometry_regions(1, page.words, page.width, page.height)
    tables = [r for r in regions if r.kind == "table"]
    assert len(tables) == 1
    rows = _rows(tab.parse_words(page.words, tables[0].bbox))
    assert rows["Revenue"] == [1715, 1482, 15.7]
    assert rows["Operating profit"] == [702, 835, -15.9]
    assert rows["Combined ratio"] == [101.3, 100.4, 0.9]
    assert rows["Free cash flow"] == [2585, 1287, None]
    assert rows["Net income"] == [7514, 8060, -7]


def test_numeric_grid_blocks_leave_out_a_running_head_far_above_the_table() -> None:
    # a running head ending in a page number ("Annual Report 2023   5") sits two inches above the table
    words = _label(20, "Annual Report") + _words(20, (580, 586, "5"))
    words += _label(40, "Key figures")
    words += _words(150, (300, 318, "2023"), (360, 378, "2022"))
    for k, label in enumerate(("Revenue", "Gross margin", "Operating margin", "Equity ratio")):
        y = 165 + 15 * k
        words += _label(y, label) + _words(
            y, (296, 318, f"{10 + k}.5%"), (356, 378, f"{20 + k}.0%"), (425, 440, f"{k}.1")
        )
    blocks = tab.numeric_grid_blocks(words, 612)
    assert len(blocks) == 1
    x0, top, x1, bottom = blocks[0]
    assert 140 <= top <= 150 and bottom >= 219 and x1 == 440


def _store_counts() -> list[tab.Word]:
    """A count table laid out as 10-Qs print it: a year over each group of four columns, each column's heading
    wrapped over three lines and wider than its right-aligned numbers (the first starts left of them), and a
    dash for "none" set right of where the digits end."""
    words = _words(60, (232, 253, "Fiscal"), (255, 271, "2024"), (463, 483, "Fiscal"), (485, 501, "2023"))
    words += _words(72, (145, 194, "Units at"), (307, 356, "Units at"), (378, 427, "Units at"), (537, 586, "Units at"))
    words += _words(84, (148, 192, "Start of"), (217, 239, "Units"), (262, 284, "Units"), (306, 356, "End of"),
                    (381, 424, "Start of"), (450, 472, "Units"), (495, 517, "Units"), (537, 587, "End of"))
    words += _words(96, (144, 197, "Quarter"), (216, 242, "Added"), (262, 286, "Removed"), (320, 345, "Quarter"),
                    (377, 430, "Quarter"), (448, 475, "Added"), (495, 519, "Removed"), (550, 575, "Quarter"))
    rows = [("Kiosks", ["512", "-", "(3)", "509", "498", "9", "(2)", "505"]),
            ("Depots", ["40", "2", "(1)", "41", "36", "-", "-", "36"]),
            ("Total", ["552", "2", "(4)", "550", "534", "9", "(2)", "541"])]
    right = [194, 239, 287, 356, 427, 472, 519, 589]
    for k, (label, values) in enumerate(rows):
        y = 110 + 12 * k
        words += _label(y, label, x=18)
        for v, x1 in zip(values, right, strict=True):
            x1 = x1 + 2 if v == "-" else x1  # the dash stands past the digits' right edge
            words += _words(y, (x1 - 4.5 * len(v), x1, v))
    return words


def test_a_year_over_a_group_of_columns_heads_each_of_them() -> None:
    table = tab.parse_words(_store_counts())
    assert table is not None
    assert table["columns"] == [
        "Fiscal 2024 Units at Start of Quarter", "Fiscal 2024 Units Added", "Fiscal 2024 Units Removed",
        "Fiscal 2024 Units at End of Quarter", "Fiscal 2023 Units at Start of Quarter", "Fiscal 2023 Units Added",
        "Fiscal 2023 Units Removed", "Fiscal 2023 Units at End of Quarter"]
    # a dash past the digits is the column's "none", not a column of its own
    assert _rows(table)["Kiosks"] == [512, None, -3, 509, 498, 9, -2, 505]
    assert _rows(table)["Total"] == [552, 2, -4, 550, 534, 9, -2, 541]


def test_a_heading_wrapped_over_lines_stays_over_its_own_column() -> None:
    # "% change / excluding / currency" is one column's heading; it does not spread to the fiscal-year columns
    words = _words(60, (382, 423, "% change"))
    words += _words(72, (379, 423, "excluding"))
    words += _words(84, (225, 271, "Fiscal 2019"), (276, 321, "Fiscal 2018"), (328, 369, "% change"),
                    (386, 423, "currency"))
    for k, (label, values) in enumerate([("Footwear", ["10,045", "9,322", "8%", "11%"]),
                                         ("Apparel", ["4,938", "4,745", "4%", "6%"]),
                                         ("Equipment", ["1,213", "1,190", "2%", "5%"])]):
        y = 100 + 12 * k
        words += _label(y, label, x=19)
        for v, x1 in zip(values, [268, 319, 376, 437], strict=True):
            words += _words(y, (x1 - 4.5 * len(v), x1, v))
    table = tab.parse_words(words)
    assert table is not None
    assert table["columns"] == ["Fiscal 2019", "Fiscal 2018", "% change", "% change excluding currency"]
