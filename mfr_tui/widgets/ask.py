"""The Q&A view: a question box with history, the values stated from the resolved cells, the streamed answer,
number checks and the evidence list."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Collapsible, DataTable, Markdown, Static
from textual.widgets.markdown import MarkdownStream

from engine.types import Answer, Evidence, Quote
from mfr_tui.evidence import evidence_markers, flagged, mark_flagged, resolved_first, searched_lines, split_stated
from mfr_tui.keys import bindings
from mfr_tui.plain import PlainInput, plain, shown

MODALITY_STYLE = {"text": "", "table": "cyan", "image": "magenta"}


class QuestionInput(PlainInput):
    """The question box; up and down walk through earlier questions."""

    BINDINGS = bindings("ask.previous", "ask.next")

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.history: list[str] = []
        """Earlier questions, oldest first."""
        self._position: int | None = None
        self._draft = ""

    def remember(self, question: str) -> None:
        if question and (not self.history or self.history[-1] != question):
            self.history.append(question)
        self._position = None

    def action_previous_question(self) -> None:
        if not self.history:
            return
        if self._position is None:
            self._draft = self.value
            self._position = len(self.history)
        self._position = max(0, self._position - 1)
        self.value = self.history[self._position]
        self.cursor_position = len(self.value)

    def action_next_question(self) -> None:
        if self._position is None:
            return
        self._position += 1
        if self._position >= len(self.history):
            self._position = None
            self.value = self._draft
        else:
            self.value = self.history[self._position]
        self.cursor_position = len(self.value)


def checks_text(answer: Answer) -> Text:
    """``Numbers ✓ $1,577 million ✓ 24.5%``, then one line per flagged number saying what it is instead
    (another period's or another row's value, or not found)."""
    text = Text("Numbers ", style="bold")
    if not answer.checks:
        text.append("no numbers to check", style="dim")
        return text
    found = list(dict.fromkeys(c.value for c in answer.checks if c.found))
    for value in found:
        text.append(shown(f"✓ {value}  "), style="green")
    bad = flagged(answer)
    if not found:
        text.append("none verified  ", style="bold yellow")
    if answer.computation:
        text.append(shown(f"· {answer.computation}"), style="dim")
    seen: set[tuple[str, str]] = set()
    for c in bad:
        if (c.value, c.note) in seen:
            continue
        seen.add((c.value, c.note))
        text.append("\n")
        text.append(shown(f"⚠ {c.value}"), style="bold black on yellow")
        text.append(shown(f" {c.note or 'unverified'}"), style="yellow")
    return text


def unsupported_text(answer: Answer) -> Text:
    """The model's words and numbers beside the quotes that the quotes do not contain, flagged ('' when none)."""
    if not answer.unsupported or not answer.quotes:
        return Text()
    out = Text("⚠ Not in the quoted sentences: ", style="bold black on yellow")
    out.append(plain(answer.unsupported_words()))
    out.append(f" ({answer.unsupported_note})", style="yellow")
    return out


def withheld_text(answer: Answer) -> Text:
    """The evidence's sentences addressed to an AI model, each with its document and page: withheld from the model,
    flagged here ('' when none)."""
    out = Text()
    for doc, page, sentence in answer.withheld():
        out.append("\n" if out.plain else "")
        out.append("⚠ Withheld from the model", style="bold black on yellow")
        out.append(f" (addressed to an AI model, not filing content), {plain(doc).plain} p.{page}: ", style="yellow")
        out.append(plain(f"\u201c{sentence}\u201d"))
    return out


def quotes_text(quotes: list[Quote]) -> Text:
    """The quoted sentences, each in quotation marks with its document, page and source number (as ``Text``: a
    filing's words are never markup)."""
    out = Text("Quoted from the filing\n", style="bold")
    for k, x in enumerate(quotes):
        out.append(("\n" if k else "") + "“")
        out.append(plain(x.text))
        out.append("”")
        out.append(plain(f"  {x.doc}, p. {x.page} [{x.source}]", style="dim"))
    return out


def stated_text(stated: str, cells: list[dict[str, Any]]) -> Text:
    """The values stated from the resolved cells before the model speaks, each value in bold."""
    out = plain(stated)
    for c in cells:
        shown = str(c.get("shown") or "")
        if shown:
            out.highlight_words([shown], style="bold")
    return out


class AskPane(Vertical):
    """Ask a question over the filings in scope and check the answer against its evidence."""

    BINDINGS = bindings("ask.evidence", "ask.export", "ask.copy", "ask.compare")

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.answer: Answer | None = None
        self.evidence: list[Evidence] = []
        """The evidence as listed: the resolved cells' sources first once cells are stated."""
        self.listed: Answer | None = None
        """The answer (or, while it is written, the draft) whose evidence is listed, with ``evidence`` in the
        list's order: what the evidence preview opens."""
        self.streamed = ""
        self._stream: MarkdownStream | None = None

    def compose(self) -> ComposeResult:
        yield QuestionInput(placeholder="Ask about the filings in scope (enter asks, ↑ ↓ history)", id="question",
                            select_on_focus=False)
        yield Static(id="ask-status")
        with VerticalScroll(id="answer-scroll"):
            yield Static(id="stated")
            yield Static(id="quotes")
            yield Markdown(id="answer")
            yield Static(id="unsupported")
            with Collapsible(title="The model also said (contradicts the code)", collapsed=True, id="contradicted"):
                yield Static(id="contradicted-text", markup=False)
            with Collapsible(title="The model's first summary (flagged, written again)", collapsed=True, id="draft"):
                yield Static(id="draft-text", markup=False)
        yield Static(id="checks")
        yield DataTable(id="evidence", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one("#evidence", DataTable)
        table.add_column("Cite", key="cite", width=6)
        table.add_column("Document", key="doc")
        table.add_column(Text("Page", justify="right"), key="page", width=4)
        table.add_column("Modality", key="modality", width=8)
        table.add_column(Text("Score", justify="right"), key="score", width=5)
        table.add_column("Tier", key="tier", width=4)
        table.add_column("Found by", key="channel", width=10)
        self.query_one("#answer-scroll").can_focus = True
        self.query_one("#contradicted", Collapsible).display = False
        self.query_one("#draft", Collapsible).display = False
        self.query_one("#answer", Markdown).update(
            "*Ask a question about the filings in scope. The answer streams here with `[n]` citations; "
            "the evidence list below opens each source (enter).*"
        )
        self.query_one("#checks", Static).display = False
        self.query_one("#stated", Static).display = False
        self.query_one("#quotes", Static).display = False
        self.query_one("#unsupported", Static).display = False

    def on_key(self, event: events.Key) -> None:
        """Typing anywhere in the Q&A view goes to the question box."""
        question = self.query_one("#question", QuestionInput)
        if event.is_printable and event.character and self.screen.focused is not question:
            question.focus()
            question.insert_text_at_cursor(event.character)
            event.stop()
            event.prevent_default()

    @property
    def markdown(self) -> Markdown:
        return self.query_one("#answer", Markdown)

    def set_status(self, text: Text | str) -> None:
        self.query_one("#ask-status", Static).update(text)

    async def start(self, question: str) -> None:
        """A new question: clear the previous answer and open a stream."""
        await self.stop_stream()
        self.answer = None
        self.streamed = ""
        self.set_evidence(None)
        self.show_stated("", [])
        self.show_quotes([])
        self.show_unsupported(None)
        self.show_contradicted([])
        self.show_draft(None)
        self.query_one("#answer-scroll").remove_class("-refused")
        self.query_one("#checks", Static).display = False
        await self.markdown.update("")

    async def stop_stream(self) -> None:
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()

    async def add_text(self, text: str) -> None:
        self.streamed += text
        if self._stream is None:
            # opened on the first piece: a stream stopped before its task ran would cancel the caller
            self._stream = Markdown.get_stream(self.markdown)
        await self._stream.write(shown(text))
        self.query_one("#answer-scroll", VerticalScroll).scroll_end(animate=False)

    def show_stated(self, stated: str, cells: list[dict[str, Any]]) -> None:
        """Show the values stated from the resolved cells above the answer ('' hides them)."""
        box = self.query_one("#stated", Static)
        box.update(stated_text(stated, cells) if stated else "")
        box.display = bool(stated)
        title = "stated from the filing's cells, then the model" if stated else ""
        self.query_one("#answer-scroll").border_title = title

    def show_quotes(self, quotes: list[Quote]) -> None:
        """Show a narrative answer's quoted sentences above the model's summary ([] hides them)."""
        box = self.query_one("#quotes", Static)
        box.update(quotes_text(quotes) if quotes else "")
        box.display = bool(quotes)

    def show_unsupported(self, answer: Answer | None) -> None:
        """Flag below the summary what it says that the quotes do not, and the evidence's sentences withheld from
        the model as addressed to it (hidden when there is neither)."""
        box = self.query_one("#unsupported", Static)
        flag = unsupported_text(answer) if answer is not None else Text()
        withheld = withheld_text(answer) if answer is not None else Text()
        if withheld.plain:
            flag = Text("\n").join([t for t in (flag, withheld) if t.plain])
        box.update(flag)
        box.display = bool(flag.plain)

    def on_resize(self, event: events.Resize) -> None:
        """A short terminal (80x24) lists fewer evidence rows at once, so the answer keeps its lines."""
        self.set_class(event.size.height < 22, "-short")

    def set_evidence(self, answer: Answer | None) -> None:
        """List the evidence of an answer or draft, each row with the markers citing it; the sources of stated
        cells come first. The cursor stays on its row when the same evidence is listed again."""
        ordered = resolved_first(answer.evidence, answer.cells if answer.extractive else []) if answer else []
        same = [e.chunk_id for e in ordered] == [e.chunk_id for e in self.evidence]
        self.evidence = ordered
        self.listed = replace(answer, evidence=ordered) if answer is not None else None
        table = self.query_one("#evidence", DataTable)
        row = table.cursor_row
        table.clear()
        for i, e in enumerate(ordered):
            markers = evidence_markers(self.listed, i) if self.listed is not None else []
            cite = Text("".join(f"[{m}]" for m in markers), style="bold") if markers else Text("·", style="dim")
            table.add_row(
                cite,
                plain(e.doc),
                Text(str(e.page), justify="right"),
                Text(e.modality, style=MODALITY_STYLE.get(e.modality, "")),
                Text(f"{e.score:.3f}", justify="right"),
                plain(e.tier),
                plain(e.channel),
                key=str(i),
            )
        if same and 0 < row < len(ordered):
            table.move_cursor(row=row, animate=False)

    async def show_answer(self, answer: Answer) -> None:
        """The finished answer: the stated cells above the model's text (once), flagged numbers marked in place,
        the checks panel, cited evidence marked."""
        await self.stop_stream()
        self.answer = answer
        stated, body = split_stated(answer) if not answer.refused else ("", answer.text)
        self.show_stated(stated, answer.cells)
        self.show_quotes(answer.quotes)
        self.show_unsupported(None if answer.refused else answer)
        if answer.refused:
            self.query_one("#answer-scroll").add_class("-refused")
            lines = searched_lines(answer.searched) or ["nothing was found above the thresholds"]
            body = (f"**Not answered.** {answer.text.strip()}\n\n**What was searched**\n\n"
                    + "\n".join(f"- {line}" for line in lines))
            await self.markdown.update(shown(body))
        else:
            await self.markdown.update(shown(mark_flagged(body, answer.checks)))
        self.show_contradicted(answer.contradicted if not answer.refused else [])
        self.show_draft(answer if not answer.refused else None)
        checks = self.query_one("#checks", Static)
        checks.update(checks_text(answer))
        checks.display = not answer.refused
        self.set_evidence(answer)
        self.query_one("#answer-scroll", VerticalScroll).scroll_home(animate=False)

    def show_contradicted(self, sentences: list[str]) -> None:
        """The model's sentences that contradict what the code decided: folded under the answer, marked, each with
        why; hidden when there are none."""
        fold = self.query_one("#contradicted", Collapsible)
        fold.display = bool(sentences)
        fold.title = f"⚠ The model also said {len(sentences)} thing(s) that contradict the code (not the answer)"
        fold.collapsed = True
        body = Text()
        for k, sentence in enumerate(sentences):
            body.append_text(plain(("\n" if k else "") + f"✗ {sentence}", style="yellow"))
        self.query_one("#contradicted-text", Static).update(body)

    def show_draft(self, answer: Answer | None) -> None:
        """The model's first summary where the summary check flagged it and the one asked again replaced it: folded
        under the answer with what was flagged in it; hidden when none was replaced."""
        fold = self.query_one("#draft", Collapsible)
        draft = answer.draft.strip() if answer is not None else ""
        fold.display = bool(draft)
        fold.collapsed = True
        body = plain(draft, style="dim")
        if draft and answer is not None and answer.draft_flags:
            body.append("\nflagged in it: ", style="yellow")
            body.append_text(plain(", ".join(answer.draft_flags), style="yellow"))
        self.query_one("#draft-text", Static).update(body)

    async def show_stopped(self, reason: str) -> None:
        await self.stop_stream()
        note = "*Cancelled.*" if reason == "cancelled" else f"*Stopped: {reason}.*"
        text = self.streamed.strip()
        await self.markdown.update(shown(f"{text}\n\n{note}" if text else note))

    def selected_index(self) -> int | None:
        table = self.query_one("#evidence", DataTable)
        if not table.row_count:
            return None
        return max(0, min(table.cursor_row, len(self.evidence) - 1))
