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


def _small(text: str, x0: float, x1: float, top: float) -> list[Word]:
    """Words set in smaller type (7 points high, 8 points leading, 4 points a letter), as a margin note is."""
    out: list[Word] = []
    x, y = x0, top
    for word in text.split():
        w = 4.0 * len(word)
        if x + w > x1:
            x, y = x0, y + 8.0
        out.append((x, y, x + w, y + 7.0, word))
        x += w + 2.0
    return out


NOTE = ("Audi understands the name Audi e-tron GT to mean the models Audi e-tron GT quattro and RS e-tron GT, whose "
        "power consumption and emissions are given in the ranges stated for the vehicle's selected equipment.")


def test_margin_notes_beside_two_columns_are_read_after_them() -> None:
    """An annual report's page: two columns of running text and, at the outer edge, notes in smaller type whose
    lines keep baselines of their own. The notes cannot balance the columns, so the page is split at their gutter
    first, and the main text in its two columns."""
    words = _set(LEFT, 40, 250, 50) + _set(RIGHT, 262, 472, 50) + _small(NOTE, 486, 580, 50)
    assert _text(words, text_lines(words)) == " ".join([LEFT, RIGHT, NOTE])


def test_a_table_of_text_in_one_size_is_no_margin_note() -> None:
    """Names beside positions, or places beside their use, set in one size: read by rows."""
    rows: list[Word] = []
    for k, (name, role) in enumerate([("Ann Lewnes", "Executive Vice President and Chief Marketing Officer of the "
                                       "company since 2006"),
                                      ("Donna Morris", "Executive Vice President, Customer and Employee Experience "
                                       "since 2014"),
                                      ("Abhay Parasnis", "Executive Vice President and Chief Technology Officer of "
                                       "the company"),
                                      ("Bryan Lamkin", "Executive Vice President and General Manager, Digital Media"),
                                      ("Mark Garrett", "Executive Vice President and Chief Financial Officer since "
                                       "2008"),
                                      ("Bradley Rencher", "Executive Vice President and General Manager, Digital "
                                       "Experience")]):
        rows += _set(name, 40, 130, 50 + 30 * k) + _set(role, 150, 560, 50 + 30 * k)
    assert text_lines(rows) == line_groups(rows)


def test_a_drop_cap_begins_its_line_and_joins_no_others() -> None:
    """A paragraph's enlarged first letter spans three lines: grouped by overlap it would make them one."""
    body = _set("he Audi Group generated revenue of EUR 61,753 million in the 2022 fiscal year, an increase of 16.4 "
                "percent compared with the previous year despite an almost constant number of vehicles sold.", 72,
                300, 50)
    cap: Word = (40.0, 48.0, 68.0, 84.0, "T")
    words = [cap, *body]
    lines = text_lines(words)
    assert _text(words, lines).startswith("T he Audi Group generated")
    assert len(lines) == len(line_groups(body))
    assert len(line_groups(words)) < len(lines)
