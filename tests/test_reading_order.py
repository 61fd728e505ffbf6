"""A page's text in reading order: columns of running text read down, not across (engine/pagetext.py)."""

from __future__ import annotations

from engine.pagetext import Word, line_groups, text_lines

LEFT = ("Provision for credit losses was $1.14 billion for 2023, compared with $1.73 billion for 2022. The net "
        "provision for 2023 reflected net provisions related to the credit card portfolio, partially offset by a "
        "net release related to the installment loan portfolio. Provisions for 2022 primarily reflected growth in "
        "the credit card portfolio and net charge-offs during the year.")
RIGHT = ("Balance Sheet Planning. We prepare a balance sheet plan that combines our projected total assets and "
         "composition of assets with our expected funding sources over a three-year time horizon. This plan is "
         "reviewed quarterly and may be adjusted in response to changing business needs or market conditions.")


def _set(text: str, x0: float, x1: float, top: float, leading: float = 12.0) -> list[Word]:
    """Words of ``text`` set in a column from ``x0`` to ``x1`` (5 points a letter, 3 between words)."""
    out: list[Word] = []
    x, y = x0, top
    for word in text.split():
        w = 5.0 * len(word)
        if x + w > x1:
            x, y = x0, y + leading
        out.append((x, y, x + w, y + 9.0, word))
        x += w + 3.0
    return out


def _text(words: list[Word], lines: list[list[int]]) -> str:
    return " ".join(words[i][4] for line in lines for i in line)


def test_two_columns_of_running_text_are_read_down_each_column() -> None:
    heading = _set("Management's Discussion and Analysis", 40, 560, 20)
    words = heading + _set(LEFT, 40, 290, 50) + _set(RIGHT, 310, 560, 50)
    text = _text(words, text_lines(words))
    assert text == " ".join(["Management's Discussion and Analysis", LEFT, RIGHT])
    # grouped into visual lines only, the columns interleave
    assert _text(words, line_groups(words)) != text


def test_a_paragraph_across_the_page_and_a_table_of_text_keep_their_lines() -> None:
    paragraph = _set(LEFT + " " + RIGHT, 40, 560, 50)
    assert text_lines(paragraph) == line_groups(paragraph)
    # a list of properties: short cells with wide spaces between them are rows, not columns
    rows: list[Word] = []
    for k, (kind, place) in enumerate([("Research facility", "Plano, Texas Owned"), ("Food plant", "Cedar Rapids, "
                                       "Iowa Owned"), ("Concentrate plant", "Cork, Ireland Owned"), ("Bottling "
                                       "plant", "Lima, Peru Leased"), ("Snack plant", "Monterrey, Mexico Owned"),
                                      ("Juice plant", "Bradenton, Florida Owned")]):
        rows += _set(kind, 40, 200, 50 + 14 * k) + _set(place, 320, 560, 50 + 14 * k)
    assert text_lines(rows) == line_groups(rows)


def test_a_column_interrupted_by_a_line_across_the_gutter_is_read_block_by_block() -> None:
    top = _set(LEFT, 40, 290, 50) + _set(RIGHT, 310, 560, 50)
    below = max(w[3] for w in top) + 20
    across = _set("Table 1: Net revenues by segment across the whole width of the page", 40, 560, below)
    bottom = _set(RIGHT, 40, 290, below + 30) + _set(LEFT, 310, 560, below + 30)
    words = top + across + bottom
    text = _text(words, text_lines(words))
    assert text == " ".join([LEFT, RIGHT, "Table 1: Net revenues by segment across the whole width of the page",
                             RIGHT, LEFT])
