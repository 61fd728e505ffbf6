"""Items outside the ordinary course of business, read off the income statement's own rows (the vocabulary's
``[unusual]``; ``verdicts.UnusualItemsVerdict``): which rows, which way each moved income, how much is material."""

from __future__ import annotations

from asking import decided, q

from engine.ask.cells import TableSource
from engine.ask.verdicts import UnusualItemsVerdict


def _income(rows: list[tuple[str, list[float]]], title: str = "Consolidated Statements of Operations"
            ) -> TableSource:
    table = {"title": title, "units": "(in millions)", "scale": 1e6,
             "columns": ["Year Ended December 31, 2024", "Year Ended December 31, 2023"],
             "rows": [{"label": label, "values": [f"({-v:,.0f})" if v < 0 else f"{v:,.0f}" for v in values],
                       "numbers": values} for label, values in rows]}
    return TableSource(1, table)


ACME = _income([
    ("Net sales", [40_000.0, 38_000.0]),
    ("Cost of sales", [24_000.0, 23_000.0]),
    ("Restructuring charges", [900.0, 150.0]),
    ("(Gain) on sale of the valves business", [-2_500.0, 0.0]),
    ("Other (income) expense, net", [-300.0, 200.0]),
    ("Income before income taxes", [12_000.0, 10_000.0]),
    ("Loss from discontinued operations, net of tax", [-400.0, 120.0]),
    ("Net income", [9_000.0, 7_500.0]),
])


def test_a_question_about_items_outside_the_ordinary_course_is_read_once() -> None:
    for text in ("Were there any events outside Acme's normal operations that raised its 2024 net income?",
                 "Did one-time items boost Acme's net income in 2024?",
                 "Were there non-recurring charges in 2024?",
                 "Did anything not in the company's ordinary course of business affect earnings in 2024?"):
        assert q(text).unusual, text
    assert not q("What was Acme's net income in 2024?").unusual
    assert not q("Were there any unusual sales trends?").yes_no or q("Were there any unusual sales trends?").unusual


def test_the_rows_of_such_items_in_the_direction_asked_answer_yes() -> None:
    said = decided(UnusualItemsVerdict(), "Were there any events outside Acme's normal operations that "
                   "substantially raised its net income in 2024?", [ACME])
    assert said.startswith("Yes. The income statement [1]"), said
    # a gain printed as a negative expense raised income; the charges and the other line are not in this direction
    assert "(Gain) on sale of the valves business -2,500 million as printed (raised income by 2,500, 28% of net " \
        "income)" in said
    assert "Restructuring" not in said and "Other" not in said and "net income 9,000 million" in said
    said = decided(UnusualItemsVerdict(), "Did one-off items hurt Acme's 2024 net income?", [ACME])
    assert "Restructuring charges 900 million as printed (lowered income by 900" in said
    assert "Loss from discontinued operations" in said and "valves" not in said
    # the year asked decides the column: nothing of the kind raised 2023's income
    assert decided(UnusualItemsVerdict(), "Did one-off items boost Acme's 2023 net income?", [ACME]) == ""


def test_small_items_are_left_out_where_substantial_ones_are_asked_and_other_statements_are_not_read() -> None:
    small = _income([("Net sales", [10_000.0, 9_000.0]), ("Impairment of goodwill", [200.0, 0.0]),
                     ("Net income", [5_000.0, 4_000.0])])
    assert decided(UnusualItemsVerdict(), "Did any non-recurring items significantly reduce net income in 2024?",
                   [small]) == ""  # 4% of net income
    assert "Impairment of goodwill" in decided(UnusualItemsVerdict(), "Did any non-recurring items reduce net "
                                               "income in 2024?", [small])
    oci = _income([("Net income", [5_000.0, 4_000.0]), ("Gain (loss) on pension plans, net of tax", [900.0, 0.0])],
                  title="Consolidated Statements of Comprehensive Income")
    assert decided(UnusualItemsVerdict(), "Did one-time items boost net income in 2024?", [oci]) == ""

