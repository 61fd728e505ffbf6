"""Answers from evidence (DESIGN.md, "Retrieval, per question", step 5): the orchestration.

The question is parsed once (``question.parse``); the evidence is retrieved for it; refusals read from the
evidence (``kinds.EVIDENCE_GUARDS``); the cells it asks for are resolved (``cells``), its metric computed
(``kinds.COMPUTATIONS``), the period checked (``kinds.CELL_GUARDS``) and a verdict reached where the cells decide
one (``kinds.VERDICTS``); what the code found is stated first; then the model writes from the prompt
(``prompt``), in parts and fused when the evidence is long; its sentences that contradict the code are folded
away (``compose.one_voice``) and every number left is checked against the cells (``checks``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import replace
from typing import Any, Protocol

from engine.ask.across import answer_across, stream_header, within_one
from engine.ask.calendars import Calendars
from engine.ask.cells import Resolution, TableSource, resolve
from engine.ask.checks import (
    check_numbers,
    cited_markers,
    code_figures,
    counts_what_is_asked,
    definition_flag,
    disagreement,
    inferred_citations,
    refuses,
    stated_checks,
)
from engine.ask.compose import (
    LEADING_VERDICT,
    REVISED,
    CellWork,
    Voiced,
    Written,
    extractive_text,
    joined,
    naming_note,
    one_voice,
    refusal_text,
    searched_summary,
    stated_once,
    with_stated,
)
from engine.ask.computations import compute
from engine.ask.decisions import Computation, Work, first_decision
from engine.ask.faithful import check_summary, preceding
from engine.ask.kinds import CELL_GUARDS, EVIDENCE_GUARDS, VERDICTS
from engine.ask.narrative import (
    ABSENCE,
    absence,
    every_part,
    listed,
    quote_citations,
    revise,
    shown_quotes,
    summarise,
    summary_asked,
    why_found,
    why_unquoted,
)
from engine.ask.prompt import build_messages, evidence_block, fuse_messages, pack
from engine.ask.question import Intent, Question, parse
from engine.ask.scope import Scope, filing_scope
from engine.ask.streaming import stream_chat
from engine.errors import Cancelled
from engine.library.store import Store
from engine.models.protocols import LLM
from engine.models.provider import ModelProvider
from engine.periods import Calendar
from engine.settings import Settings
from engine.types import (
    Answer,
    AnswerEvent,
    AnswerFinished,
    CancelCheck,
    CellsResolved,
    Document,
    Evidence,
    Quote,
    QuotesFound,
    Region,
    Retrieval,
    RetrievalDone,
    TokenStreamed,
    never_cancelled,
)
from engine.vocabulary import vocabulary


class Searcher(Protocol):
    """What an answer needs of retrieval (``Retriever`` is one): evidence for a question, the catalogue it came
    from, and the documents it can search (to tell a question about another company)."""

    @property
    def store(self) -> Store | None: ...

    def retrieve(self, question: str | Question, scope: Sequence[str] | None = None,
                 k: int | None = None) -> Retrieval: ...

    def ready_documents(self) -> list[Document]: ...


class Answerer:
    """Turns a question and a retriever into a stream of answer events."""

    def __init__(self, settings: Settings, models: ModelProvider) -> None:
        self.settings = settings
        self.models = models
        self.calendars = Calendars()

    def calendar(self, store: Any, doc_id: str) -> Calendar | None:
        """The fiscal calendar of a document (read once, kept in the catalogue); None without a catalogue."""
        return None if store is None or not hasattr(store, "calendar_inputs") else self.calendars.get(store, doc_id)

    @staticmethod
    def regions_of(store: Any, evidence: Sequence[Evidence]) -> dict[int, Region]:
        """The parsed regions of the evidence that has one (tables and figures), by region id."""
        regions: dict[int, Region] = {}
        for e in evidence:
            if e.region_id and e.region_id not in regions and (r := store.region(e.region_id)) is not None:
                regions[e.region_id] = r
        return regions

    def cells(self, question: str | Question, store: Any, used: Sequence[Evidence],
              regions: dict[int, Region]) -> CellWork:
        """What the code finds before the model runs: the resolved cells, a computed metric, a period the filings
        do not cover, a verdict. Numbering of sources is the evidence order ([1] is ``used[0]``). A question of
        several parts is worked part by part when more than one part is decided that way."""
        q = question if isinstance(question, Question) else parse(question)
        calendars = {d: self.calendar(store, d) for d in dict.fromkeys(e.doc_id for e in used)}
        calendar = calendars.get(used[0].doc_id) if used else None
        sources = [TableSource.of(i + 1, e, regions[e.region_id], calendars.get(e.doc_id))
                   for i, e in enumerate(used) if e.region_id in regions and regions[e.region_id].table]
        known = [c for c in calendars.values() if c is not None]
        whole = self._work(q, sources, calendar, known, store, list(calendars), used=used)
        if len(q.parts) > 1:
            scale = whole.resolution.scale  # every part states its cells in the same scale
            parts = [self._work(p, sources, calendar, known, store, list(calendars), scale, used) for p in q.parts]
            parts = stated_once(parts)
            if (said := sum(1 for p in parts if p.extractive)) > 1 or said and not whole.extractive:
                return joined(q, parts)  # several parts stated, or one asking a figure beside one asking why
        return whole

    @staticmethod
    def _work(q: Question, sources: Sequence[TableSource], calendar: Calendar | None, calendars: list[Calendar],
              store: Any, doc_ids: list[str], scale: float | None = None, used: Sequence[Evidence] = ()) -> CellWork:
        """The cells, computation, refusal and verdict of one question (or one part of one, its cells stated in
        the whole question's ``scale``)."""
        res = resolve(q, sources, calendar)
        res.scale = scale or res.scale
        computation = compute(q, sources, calendar, res)
        work = Work(q, sources, calendar, res, calendars, computation, store, doc_ids, evidence=used)
        gap = first_decision(CELL_GUARDS, work)
        verdict = first_decision(VERDICTS, work)
        said = extractive_text(res, computation, calendar)
        if said and computation is None and not counts_what_is_asked(q, res):
            said = ""  # "how many vendors ...": a cell whose row counts no vendors is not the answer
        if said and (note := naming_note(q, sources, calendar, res, computation)):
            said = f"{said}\n{note}"
        stated = f"{verdict.text}\n{said}".strip() if verdict is not None else said
        return CellWork(res, computation, calendar, gap.text if gap else "", stated, verdict)

    def refusal(self, q: Question, retriever: Searcher, retrieval: Retrieval) -> str:
        """The reason the evidence cannot answer the question ('' when it may): none found, or a refusal of
        ``kinds.EVIDENCE_GUARDS``."""
        if not retrieval.evidence:
            return "Insufficient information: no evidence was found."
        work = Work(q, [], None, Resolution(asked=q.asked), store=retriever.store,
                    doc_ids=list(dict.fromkeys(e.doc_id for e in retrieval.evidence)), retrieval=retrieval,
                    documents=retriever.ready_documents())
        decision = first_decision(EVIDENCE_GUARDS, work)
        return decision.text if decision is not None else ""

    def answer(
        self,
        question: str | Question,
        retriever: Searcher,
        scope: Sequence[str] | None = None,
        cancelled: CancelCheck | None = None,
    ) -> Iterator[AnswerEvent]:
        """``RetrievalDone``, then ``CellsResolved`` when the asked cells are found, then ``TokenStreamed``
        pieces, then ``AnswerFinished``; ``cancelled`` stops it."""
        cancelled = cancelled or never_cancelled
        t0 = time.perf_counter()
        q = question if isinstance(question, Question) else parse(question, retriever.ready_documents())
        plan = self.scope_of(q, retriever, scope)
        one = within_one(q, plan) if plan is not None else None  # a metric of the one filing picked
        if plan is not None and one is None and (plan.across or q.measures):  # a figure: its filing's period
            yield from answer_across(self, q, retriever, plan, cancelled, t0)
        elif plan is not None:
            yield from stream_header(self._answer(one or q, retriever, plan.doc_ids, cancelled, t0), plan.header())
        else:
            yield from self._answer(q, retriever, scope, cancelled, t0)

    def scope_of(self, q: Question, retriever: Searcher, scope: Sequence[str] | None) -> Scope | None:
        """The filings a question across filings is about (``scope.filing_scope``), among ``scope`` when given."""
        docs = retriever.ready_documents()
        if scope:
            docs = [d for d in docs if d.id in scope or d.name in scope]
        return filing_scope(q, docs, lambda d: self.calendar(retriever.store, d))

    def _answer(self, q: Question, retriever: Searcher, scope: Sequence[str] | None, cancelled: CancelCheck,
                t0: float) -> Iterator[AnswerEvent]:
        """The answer from the filings retrieval finds (in ``scope``, else routed or the library)."""
        retrieval: Retrieval = retriever.retrieve(q, scope=scope)
        yield RetrievalDone(retrieval)
        t_ret = time.perf_counter()
        if cancelled():
            raise Cancelled("Answer cancelled.")
        store = retriever.store
        regions = self.regions_of(store, retrieval.evidence)
        if reason := self.refusal(q, retriever, retrieval):
            text = refusal_text(retrieval, reason)
            yield TokenStreamed(text)
            yield AnswerFinished(self.finish(q, text, retrieval, [], regions, None, t0, t_ret, 0))
            return
        used = list(retrieval.evidence)
        cells = self.cells(q, store, used, regions)
        res, computation, calendar = cells.resolution, cells.computation, cells.calendar
        if cells.gap:
            text = refusal_text(retrieval, cells.gap)
            yield TokenStreamed(text)
            yield AnswerFinished(self.finish(q, text, retrieval, used, regions, None, t0, t_ret, 0,
                                             resolution=res, calendar=calendar))
            return
        extractive = cells.extractive
        if extractive:
            yield CellsResolved([c.to_json() for c in res.cells], extractive)
        t_quotes = time.perf_counter()
        d = cells.decision  # a refusal (a metric that does not suit) leaves no part to quote
        quotes = shown_quotes(q, used, regions, self.models.embedder(), decided=d is not None, stated=bool(extractive),
                              refused=bool(d and (d.refusal or d.lead)), about=d.choice if d else "")
        if d is not None and (again := why_unquoted(q, d.choice, quotes)) is not None:  # why of its pick, pages away
            found = retriever.retrieve(again, scope=list(dict.fromkeys(e.doc_id for e in used))).evidence
            regions.update(self.regions_of(store, found))
            quotes = why_found(q, d.choice, used, found, regions, self.models.embedder()) or quotes
        if quotes:
            retrieval.timings["quotes"] = time.perf_counter() - t_quotes
            yield QuotesFound(quotes)
            if q.narrative and (said_no := absence(q, quotes)) is not None:  # a quote says nothing of it happened
                cells = replace(cells, decision=said_no)
        if cancelled():
            raise Cancelled("Answer cancelled.")
        llm = self.models.llm()
        # the quotes the model writes from: a part told in words, or why of the pick a ranking made; else all evidence
        quoted = quotes if (q.told or q.why and d and d.choice) and q.intent is not Intent.JUDGEMENT else []
        said, before = extractive or cells.verdict, preceding(store, quoted)  # a quote's No is stated like a verdict

        def voice(text: str) -> Voiced:  # the model's text as shown: its sentences against the code folded away
            text = text if q.yes_no else LEADING_VERDICT.sub("", text, count=1)
            return one_voice(text, q, cells.decision, computation, res, calendar, bool(extractive), quotes)

        def check(text: str) -> list[str]:  # the summary check of it, beside the quotes
            return check_summary(voice(text).text, said, quoted, q, used, before)

        w = yield from self.generate(q, llm, used, regions, cells, cancelled, quoted, check)
        if cancelled():
            raise Cancelled("Answer cancelled.")
        voiced = voice(w.text)
        text, extractive = voiced.text, said
        if note := disagreement(text, res, calendar, computation, q.given):
            yield TokenStreamed(note)
            text += note
        text = with_stated(text, extractive, cells.decision is not None, q.yes_no, bool(voiced.folded))
        flags = list(w.flags) if w.flags is not None else check(w.text)  # read once
        yield AnswerFinished(replace(self.finish(
            q, text, retrieval, used, regions, computation, t0, t_ret, w.tokens, parts=w.asked, resolution=res,
            calendar=calendar, extractive=extractive, folded=voiced.folded, quotes=quotes, unsupported=flags,
            summarised=w.summarised), draft=w.draft, draft_flags=list(w.draft_flags)))

    def generate(self, q: Question, llm: LLM, used: Sequence[Evidence], regions: dict[int, Region],
                 cells: CellWork, cancelled: Callable[[], bool], quotes: Sequence[Quote] = (),
                 check: Callable[[str], list[str]] | None = None) -> Generator[AnswerEvent, None, Written]:
        """The model's answer: a summary of the ``quotes`` alone when there are any and it finds an answer in them
        (asked once more where ``check``, the summary check, flags it: kept if flagged less), else streamed from the
        evidence, which beyond one context is answered in parts and fused."""
        res, mt = cells.resolution, self.settings.max_answer_tokens
        comp_text = cells.computation.text if cells.computation else ""
        tried = 0  # the quotes' summary, asked and found wanting
        if quotes and (said := listed(q, quotes)):  # the filing lists its drivers: the list, as it parts them
            yield TokenStreamed(said)
            return Written(said, 0, 0, True)
        if quotes:
            decided = cells.decision if cells.decision and cells.decision.kind == ABSENCE else None
            whole = every_part(q, decided=cells.decision is not None, stated=bool(cells.extractive))
            ask, stated = summary_asked(q, cells.decision, comp_text)  # a ranking asked why: why of its pick
            summary = summarise(llm, ask, quotes, stated, mt, cancelled, decided=decided, whole=whole)
            if summary is not None:
                text, tokens = summary.text.strip(), summary.completion_tokens
                yield TokenStreamed(text)
                if check is None or not self.settings.revise_summaries or not (flags := check(text)):
                    return Written(text, tokens, 1, True)
                yield TokenStreamed(REVISED)
                again = revise(llm, ask, quotes, stated, text, flags, mt, cancelled, decided, whole)
                tokens += again.completion_tokens if again is not None else 0
                if again is None or len(still := check(again.text)) >= len(flags):
                    return Written(text, tokens, 2, True, flags=tuple(flags))
                yield TokenStreamed(again.text)
                return Written(again.text, tokens, 2, True, text, tuple(flags), tuple(still))
            tried = 1
        cell_lines = res.lines(cells.calendar)
        # a period resolved to cells: the tables speak through them; with no period asked the model also sees
        # the tables, every period of them
        by_cells = any(c.period_fit >= 0.99 and vocabulary().items.get(c.item) is not None for c in res.cells)
        resolved_tables = frozenset(i for i, e in enumerate(used) if by_cells and e.region_id in regions
                                    and regions[e.region_id].table)
        lines_tokens = llm.count_tokens("\n".join(cell_lines)) if cell_lines else 0
        parts = pack(llm, used, regions, self.settings.context_tokens, lines_tokens, skip=resolved_tables)
        if len(parts) == 1:
            blocks = [evidence_block(i + 1, used[i], regions.get(used[i].region_id or -1)) for i in parts[0]]
            gen = yield from stream_chat(llm, mt, build_messages(q, blocks, comp_text, cell_lines), cancelled)
            return Written(gen.text.strip(), gen.completion_tokens, 1 + tried, False)
        partials: list[str] = []
        tokens, asked = 0, 0
        for k, part in enumerate(parts):
            if cancelled():
                raise Cancelled("Answer cancelled.")
            blocks = [evidence_block(i + 1, used[i], regions.get(used[i].region_id or -1)) for i in part]
            g = llm.chat(build_messages(q, blocks, comp_text, cell_lines if k == 0 else ()),
                         max_tokens=self.settings.max_answer_tokens, temperature=0.0, cancelled=cancelled)
            tokens += g.completion_tokens
            asked += 1
            if not refuses(g.text):
                partials.append(g.text.strip())
                if not self.settings.fuse_parts:
                    break
        if cancelled():
            raise Cancelled("Answer cancelled.")
        if len(partials) <= 1:
            text = partials[0] if partials else "Insufficient information: none of the sources answers the question."
            yield TokenStreamed(text)
            return Written(text, tokens, asked + tried, False)
        gen = yield from stream_chat(llm, mt, fuse_messages(q, partials, comp_text), cancelled)
        return Written(gen.text.strip(), tokens + gen.completion_tokens, asked + 1 + tried, False)

    def finish(
        self,
        q: Question,
        text: str,
        retrieval: Retrieval,
        used: Sequence[Evidence],
        regions: dict[int, Region],
        computation: Computation | None,
        t0: float,
        t_ret: float,
        tokens: int,
        parts: int = 1,
        resolution: Resolution | None = None,
        calendar: Calendar | None = None,
        extractive: str = "",
        folded: Sequence[str] = (),
        quotes: Sequence[Quote] = (),
        unsupported: Sequence[str] = (),
        summarised: bool = False,
    ) -> Answer:
        """The Answer: citations resolved, refusal detected (and explained), numbers checked against the cells
        the question asked for."""
        citations = cited_markers(text, used)
        refused = refuses(text) or not used
        if not citations and not refused and not summarised:  # an answer made from the whole evidence cites its own
            citations = inferred_citations(text, used, regions)
        citations += quote_citations(quotes, used, citations) if q.told is not None else []  # not nearest sentences
        if refused and "Searched:" not in text:
            text = refusal_text(retrieval, text if text.lower().startswith("insufficient") else "")
        cited = [used[c.marker - 1] for c in citations] or list(used)
        computed = code_figures(computation, extractive)
        # what the code stated (cells, a computation, a verdict) is read from cells, not checked: the model's is
        said = text.replace(extractive, " ") if extractive else text
        checks = [] if refused else stated_checks(extractive, resolution, computation, calendar) + check_numbers(
            said, cited, regions, computed, resolution, calendar, q, [x.text for x in quotes] if summarised else ())
        if computation is not None and computation.definition_note:
            checks = [definition_flag(c, computation) for c in checks]
        timings = {**retrieval.timings, "retrieve": t_ret - t0, "generate": time.perf_counter() - t_ret}
        if parts > 1:
            timings["parts"] = float(parts)
        return Answer(
            question=q.text,
            text=text,
            evidence=list(retrieval.evidence),
            tier=retrieval.tier,
            citations=citations,
            checks=checks,
            refused=refused,
            searched=searched_summary(retrieval) if refused else {},
            computation=computation.text if computation else "",
            timings=timings,
            tokens=tokens,
            cells=[c.to_json() for c in resolution.cells] if resolution else [],
            extractive=extractive,
            contradicted=list(folded),
            quotes=list(quotes),
            unsupported=[] if refused else list(unsupported),
            summarised=summarised and not refused,
            reading=q.reading(),
        )
