"""Engine settings: one dataclass, a docstring per field, and the one place that decides where data lives."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

APP_NAME = "mfr-tui"
DATA_DIR_ENV = "MFR_DATA_DIR"
MODELS_TOML_ENV = "MFR_MODELS_TOML"
PROFILE_ENV = "MFR_PROFILE"

OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "YOLO_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "YOLO_VERBOSE": "False",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "TOKENIZERS_PARALLELISM": "false",
}


def force_offline() -> None:
    """Set the offline switches of every hub-aware library before any of them is imported."""
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    # Ultralytics writes a settings file into the user's config dir and would try to sync; keep it local.
    if "YOLO_CONFIG_DIR" not in os.environ:
        os.environ["YOLO_CONFIG_DIR"] = str(default_data_dir() / "ultralytics")


def default_data_dir() -> Path:
    """The data dir: ``$MFR_DATA_DIR`` if set, else ``platformdirs.user_data_dir("mfr-tui")``."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME))


MODELS_DIR_ENV = "MFR_MODELS_DIR"


def default_models_dir() -> Path:
    """Where split packaged models are assembled: ``$MFR_MODELS_DIR``, else the user cache dir.

    Kept apart from the data dir so several libraries (and every test's temporary one) share one copy.
    """
    env = os.environ.get(MODELS_DIR_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME)) / "models"


def repo_models_toml() -> Path:
    """The models.toml shipped at the top of the project."""
    return Path(__file__).resolve().parent.parent / "models.toml"


def default_models_toml() -> Path:
    """models.toml to use: ``$MFR_MODELS_TOML``, else ``<data dir>/models.toml``, else the shipped one."""
    env = os.environ.get(MODELS_TOML_ENV)
    if env:
        return Path(env).expanduser()
    user = default_data_dir() / "models.toml"
    if user.exists():
        return user
    return repo_models_toml()


@dataclass(frozen=True)
class Settings:
    """Everything the engine can be tuned with. Defaults follow DESIGN.md."""

    data_dir: Path = field(default_factory=default_data_dir)
    """Where the catalogue, indexes, crops and assembled models live."""

    models_toml: Path = field(default_factory=default_models_toml)
    """The models.toml file naming a model file per role."""

    models_dir: Path = field(default_factory=default_models_dir)
    """Where split packaged models are assembled and model checksums are remembered."""

    profile: str = field(default_factory=lambda: os.environ.get(PROFILE_ENV, ""))
    """Which profile of models.toml to use; empty means its ``default_profile`` (CPU, packaged models)."""

    n_threads: int = 0
    """CPU threads for llama.cpp and torch; 0 (the default): from the cores this process may use
    (``engine.models.budget.ThreadBudget``, shown by ``mfr-tui models --json``). A number caps every role."""

    answers_first: bool = True
    """Answering has priority: while a question is answered (in this process or another on the same data dir),
    ingestion finishes the page in hand and waits until the answer is done, so the model gets every core."""

    # --- text chunking (DESIGN.md, ingestion step 1) ---
    chunk_window: int = 3
    """Sentences per window when measuring semantic distance between neighbours (w)."""

    chunk_overlap: int = 1
    """Sentences shared by consecutive windows (o)."""

    breakpoint_percentile: float = 95.0
    """A chunk boundary is placed where the cosine distance between windows exceeds this percentile."""

    merge_similarity: float = 0.85
    """Consecutive chunks whose embeddings are more similar than this are merged."""

    max_chunk_chars: int = 1800
    """Chunks are split further at sentence boundaries above this size (keeps the embedder's window)."""

    min_chunk_chars: int = 40
    """Fragments shorter than this are folded into a neighbour instead of standing alone."""

    chunker: str = "semantic"
    """Text chunking: ``semantic`` (DESIGN.md step 1) or ``fixed`` (fixed-size chunks of ``fixed_chunk_chars``
    over all page text, the papers' baseline; used by the ``baseline`` ablation in its own data dir)."""

    fixed_chunk_chars: int = 800
    """Characters per chunk with ``chunker = "fixed"`` (cut at sentence ends and page changes)."""

    regions: bool = True
    """Run the region stages at ingestion (OCR of scanned pages, layout detection, tables, figures). Off gives
    a text-layer-only library, as the ``baseline`` ablation needs."""

    embed_batch: int = 64
    """Texts handed to the embedder per call (progress and cancel checks fall between calls), and its forward
    pass batch on a GPU."""

    embed_batch_cpu: int = 16
    """Texts per forward pass of the sentence-transformers embedder on the CPU (unless models.toml gives the
    role a ``batch_size``). Smaller batches pad less and stay in cache: all-MiniLM-L6-v2 in bf16 on two EPYC
    cores embedded filing sentences 11% and chunks 15% faster in batches of 16 than of 64 (8 and 32 within
    5% of 16; 256 took 1.6x as long), cosine 0.99998 to the vectors of batches of 64."""

    extract_workers: int = 0
    """Processes used to read words with positions from PDF pages; 0 (the default): from the thread budget."""

    overlap_stages: str = "auto"
    """Embed one file on a thread of its own while the next file is read and detected: ``auto`` (the default)
    when the thread budget has cores for two streams (``ThreadBudget.overlap``), ``on`` or ``off``."""

    max_pages: int = 2000
    """Documents with more pages than this are refused (a guard against hostile files)."""

    # --- multimodal ingestion ---
    render_dpi: int = 110
    """Resolution pages are rendered at for layout detection and crops."""

    detect_all_pages: bool = False
    """Run the layout detector on every page. By default it runs only where a page can hold a region its text
    layer cannot give: scanned pages, pages with a table grid or ruled lines, images or drawings (``layout.
    needs_detector``); a page of prose is left to the text layer. On the 139 dev filings that skips 52% of the
    pages and loses 2.6% of the tables and 0.5% of the figures, none on an evidence page of a dev question."""

    vision_batch: int = 4
    """Images per vision-model prompt (B)."""

    crop_padding: int = 8
    """Pixels of padding around a cropped table or figure."""

    figure_llm: bool = False
    """Without a vision model, let the text LLM rephrase each figure's words (about 120 tokens each).

    Off by default: on a CPU the packaged 1.5B model takes minutes per figure and misstates values, while
    the deterministic summary (title, axes, legend, values from the text layer or OCR) keeps every number."""

    figure_llm_max: int = 40
    """At most this many figures per document are summarised by the text LLM (the rest deterministically)."""

    table_llm: bool = False
    """Without a vision model, also let the text LLM describe each table (slow on CPU; off by default)."""

    # --- retrieval (DESIGN.md, retrieval) ---
    theta_text: float = 0.554
    """Cosine threshold for text chunks. The shipped theta_* are ``mfr-tui calibrate`` on the dev set with the
    packaged all-MiniLM-L6-v2 (126 questions, 12 filings); thresholds calibrated for the embedder in use win."""

    theta_table: float = 0.343
    """Cosine threshold for tables (calibrated with theta_text)."""

    theta_image: float = 0.415
    """Cosine threshold for figures (calibrated with theta_text)."""

    calibrated: bool = True
    """Use the thresholds ``mfr-tui calibrate`` stored for the embedder in use (else the three above)."""

    min_text_hits: int = 6
    """n: text chunks above theta_text needed to answer from text alone."""

    top_tables: int = 10
    """m: tables added when text is thin. The paper's 4 starved statement questions of their tables: on 45
    long-10-K dev questions recall@10 went 0.64 (m=4), 0.70 (6), 0.71 (8), 0.72 (10)."""

    top_images: int = 10
    """p: figures added when text is thin. The paper's 3 left chart-deck questions short (several charts per
    deck answer one question): whole dev set recall@10 0.918 (p=3) -> 0.921 (10), chart decks 0.765 -> 0.790."""

    top_k: int = 10
    """Evidence items returned by retrieval."""

    hybrid: bool = True
    """Fuse a BM25 lexical channel with dense retrieval."""

    routing: bool = True
    """Route questions to filings by company, year and form named in the question."""

    drop_scope_company: bool = True
    """Search one company's filings without that company's name in the query: within them the name is on every
    page and only pulls statement headers and exhibit lists ahead of the passage that answers."""

    tiers: bool = True
    """Use the tiered text-first retrieval; off means all modalities are searched at once."""

    tier_escalation: str = "margin"
    """When tables and figures join the text tier. ``count`` (the paper): only when fewer than n text chunks
    reach theta_text. ``margin``: also when a table or figure clears its threshold by more than the n-th text
    chunk clears theta_text, so plentiful but weaker text never hides the statement that holds the number."""

    use_tables: bool = True
    """Search the table index."""

    statement_channel: bool = True
    """Questions that name a primary statement ("using the cash flow statement") or ask for a line item one
    reports ("capex", "net PP&E") also get that statement's tables as a ranking of their own in the fusion."""

    statement_docs: int = 3
    """With more documents in scope, statement tables come from the documents of the best dense hits only."""

    use_images: bool = True
    """Search the figure index."""

    rerank: bool = False
    """Reorder candidates with the configured reranker role."""

    rerank_candidates: int = 20
    """How many fused candidates the reranker reorders (the rest keep their order behind them)."""

    expansion: bool = True
    """Expand questions with financial synonyms and fiscal-year spellings (``capex`` -> capital expenditures)."""

    lexical_weight: float = 1.0
    """Weight of the BM25 ranking in reciprocal-rank fusion (the dense ranking weighs 1)."""

    lexical_split: bool = True
    """Rank BM25 hits of passages and of tables/figures separately before fusion (tables get their own ranks)."""

    max_per_page: int = 2
    """At most this many evidence items of one page keep their rank (0: no limit); the rest move behind."""

    min_passages: int = 3
    """At least this many of the ``top_k`` are passages (text chunks) when the candidates hold them: tables and
    figures rank by their margin over a lower threshold and with two channels of their own, and could otherwise
    fill every place while the passage a narrative question needs waits just behind (0: no quota)."""

    narrative_passages: int = 7
    """For a question whose answer is the filing's own sentences (``Question.told_in_words``: what drove a change,
    which companies were acquired, what a proceeding is about), this many passages lead, with the tables and figures
    of their own pages, right behind the fused first (``retrieve.passages_lead``); the other places keep the best
    tables and figures and the statement the question may need. Ranked as any other question, a table's margin over
    its lower threshold puts tables first and the answering passage 7th-17th, behind the ``min_passages`` quota
    (0: no such lead)."""

    continued_passages: int = 2
    """For a question whose answer is the filing's own sentences, this many of the ranked passages that hold most of
    the cues searched for it (``Question.searched_cues``: "we acquired", "acquired") bring the text chunk that
    follows each in the filing, after the ranked evidence (``retrieve.continued``): a chunk ends where its size says,
    not where the section does, and a note listing the companies acquired under "A. Acquisitions" goes on past the
    cut with the next one (0: none)."""
    sentence_passages: int = 3
    """For a question whose answer is the filing's own sentences, the passages holding the best sentences by BM25 over
    the sentences of the scope (``LexicalIndex.sentences``), this many not ranked already, follow the ranked
    evidence (``retrieve.by_sentence``), and their sentences are quoted if they answer best: a passage that tells
    the answer in one sentence among others on another subject ("In 2022, 73% of our $66.0 billion in net sales
    were from the U.S. Government, ..." before a page of strategy) ranks low by its chunk's embedding and its
    chunk's BM25 alike (0: none)."""
    earlier_passages: bool = True
    """The best-ranked of the ranked passages holding a cue and a word of the item asked brings the text chunk before
    it on its page too (``retrieve.continued``'s ``before``): a passage that opens inside a section
    ("Income tax expense was relatively unchanged in the first six months ...") leaves the section's first sentences
    ("Our effective tax rate increased to 26.1% in the second quarter ...") to the chunk before it."""

    candidate_factor: int = 3
    """Each channel returns ``max(top_k, min_text_hits) * candidate_factor`` candidates before fusion."""

    # --- answering ---
    context_tokens: int = 1500
    """Token budget for evidence in the answer prompt; more is answered in parts (``fuse_parts``)."""

    fuse_parts: bool = False
    """With evidence beyond one prompt: False answers the parts best evidence first and keeps the first part
    that answers (a part that finds nothing passes to the next), so most answers cost one prompt (on two CPU
    cores a 3,000-token prompt takes about 40 s); True answers every part and fuses the partial answers with
    one more prompt (the full method, for a GPU)."""

    revise_summaries: bool = False
    """A narrative answer's summary that the summary check flags (``faithful.check_summary``) is asked once more, the
    model reading its draft and the flags (``narrative.revise``); the new one replaces it only where it is flagged
    less, and the draft stays on the answer (``Answer.draft``). One more prompt for each flagged summary. Off by
    default: on summary set 1519-1548 the packaged 1.5B model's second summary was flagged less for 2 of the 19
    flagged (both still partly wrong), for one more prompt (about 8 s on two cores) on every one of them; for a
    larger model configured in models.toml (``--set revise_summaries=true``)."""

    max_answer_tokens: int = 320
    """Tokens the model may generate for one answer."""

    llm_context: int = 4096
    """Context window the text LLM is loaded with."""

    def with_(self, **changes: object) -> Settings:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def catalogue_path(self) -> Path:
        return self.data_dir / "catalogue.sqlite3"

    @property
    def index_dir(self) -> Path:
        return self.data_dir / "index"

    @property
    def crops_dir(self) -> Path:
        return self.data_dir / "crops"


def settings_fields() -> list[str]:
    """Names of all settings (used by the CLI to accept overrides)."""
    return [f.name for f in fields(Settings)]


_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def with_overrides(settings: Settings, items: list[str]) -> Settings:
    """``settings`` with ``NAME=VALUE`` overrides (``mfr-tui --set fuse_parts=true``), each value read as its
    field's type. An unknown name or a value of the wrong type is a ``ConfigError`` naming the field."""
    from engine.errors import ConfigError

    changes: dict[str, object] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or name not in settings_fields():
            close = [f for f in settings_fields() if name and (name in f or f in name)]
            raise ConfigError(
                f"`{item}` is not NAME=VALUE with a known setting name"
                + (f"; did you mean {', '.join(close[:3])}?" if close else "")
                + " The settings are the fields of engine/settings.py (Settings).",
                title="Unknown setting",
            )
        current = getattr(settings, name)
        try:
            if isinstance(current, bool):
                if raw.lower() not in _TRUE | _FALSE:
                    raise ValueError(raw)
                value: object = raw.lower() in _TRUE
            elif isinstance(current, int):
                value = int(raw)
            elif isinstance(current, float):
                value = float(raw)
            elif isinstance(current, Path):
                value = Path(raw).expanduser()
            elif isinstance(current, str):
                value = raw
            else:
                raise ConfigError(f"`{name}` cannot be set from the command line.", title="Unsupported setting")
        except ValueError:
            raise ConfigError(
                f"`{name}` takes a {type(current).__name__} (now {current!r}); `{raw}` is not one.",
                title="Bad setting value",
            ) from None
        changes[name] = value
    return replace(settings, **changes) if changes else settings  # type: ignore[arg-type]
