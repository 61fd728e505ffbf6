"""models.toml: profiles of roles, each role a backend and a local (or packaged) model path."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import ConfigError

ROLES: tuple[str, ...] = ("embedder", "llm", "vision", "detector", "ocr", "reranker")
OPTIONAL_ROLES: frozenset[str] = frozenset({"vision", "reranker"})

BACKENDS: dict[str, frozenset[str]] = {
    "embedder": frozenset({"sentence-transformers", "onnx-int8"}),
    "llm": frozenset({"llama-server", "openai", "llama-cpp"}),
    "vision": frozenset({"llama-server", "openai", "llama-cpp-mtmd", "none"}),
    "detector": frozenset({"ultralytics", "geometry", "none"}),
    "ocr": frozenset({"rapidocr", "none"}),
    "reranker": frozenset({"cross-encoder", "llm", "none"}),
}
"""The backends each role accepts.

``llama-server``: the GGUF runs in a ``llama_cpp.server`` child process this app starts (the default);
``openai``: a server already running (``url``); ``llama-cpp`` / ``llama-cpp-mtmd``: in the app's own process
(kept for unit tests; a native crash there takes the app down, and a CUDA build cannot share it with torch).
``onnx-int8`` (embedder): the sentence-transformers folder exported once to an int8 ONNX graph (cached under the
models dir) and run with onnxruntime on the CPU."""

_RESERVED = {"backend", "path", "packaged", "sha256", "mmproj", "mmproj_sha256"}


@dataclass(frozen=True)
class RoleConfig:
    """One role of one profile."""

    role: str
    backend: str
    path: str = ""
    packaged: str = ""
    sha256: str = ""
    mmproj: str = ""
    mmproj_sha256: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    """models.toml file and profile this came from (for error messages)."""

    @property
    def enabled(self) -> bool:
        return self.backend != "none"

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)


@dataclass(frozen=True)
class ModelsConfig:
    """A resolved profile: one RoleConfig per role."""

    file: Path
    profile: str
    description: str
    roles: dict[str, RoleConfig]
    profiles: tuple[str, ...]


def load_models_config(file: Path, profile: str | None = None) -> ModelsConfig:
    """Read models.toml and resolve one profile (following ``inherits``); ConfigError says what to fix."""
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        raise ConfigError(
            f"models.toml not found at {file}. Set MFR_MODELS_TOML to your file, or remove the override "
            "to use the one shipped with mfr-tui.",
            title="models.toml missing",
        ) from None
    except OSError as exc:
        raise ConfigError(f"Cannot read {file}: {exc.strerror}.", title="models.toml unreadable") from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"{file} is not valid TOML: {exc}. Fix that line (see the comments in the shipped models.toml).",
            title="models.toml malformed",
        ) from exc
    profiles = data.get("profiles")
    if not isinstance(profiles, dict) or not profiles:
        raise ConfigError(
            f"{file} has no [profiles.NAME] tables. Start from the shipped models.toml.",
            title="models.toml malformed",
        )
    name = profile or str(data.get("default_profile", "default"))
    if name not in profiles:
        raise ConfigError(
            f"Profile '{name}' is not in {file}. Profiles there: {', '.join(sorted(profiles))}.",
            title="Unknown profile",
        )
    merged: dict[str, Any] = {}
    chain: list[str] = []
    cur: str | None = name
    while cur is not None:
        if cur in chain:
            raise ConfigError(f"Profiles in {file} inherit in a loop: {' -> '.join(chain + [cur])}.")
        if cur not in profiles:
            raise ConfigError(f"Profile '{chain[-1]}' inherits '{cur}', which is not in {file}.")
        chain.append(cur)
        body = profiles[cur]
        if not isinstance(body, dict):
            raise ConfigError(f"[profiles.{cur}] in {file} must be a table.", title="models.toml malformed")
        inherits = body.get("inherits")
        cur = str(inherits) if inherits else None
    for pname in reversed(chain):
        for key, value in profiles[pname].items():
            merged[key] = value
    description = str(merged.get("description", ""))
    roles: dict[str, RoleConfig] = {}
    for role in ROLES:
        body = merged.get(role)
        if body is None:
            if role in OPTIONAL_ROLES:
                roles[role] = RoleConfig(role=role, backend="none", source=f"{file} [{name}]")
                continue
            raise ConfigError(
                f"Profile '{name}' in {file} has no [{role}] role. Add [profiles.{name}.{role}] with a backend "
                "and a path (see the shipped models.toml).",
                title="models.toml incomplete",
            )
        roles[role] = _role(role, body, file, name)
    return ModelsConfig(
        file=file, profile=name, description=description, roles=roles, profiles=tuple(sorted(profiles))
    )


def _role(role: str, body: Any, file: Path, profile: str) -> RoleConfig:
    where = f"[profiles.{profile}.{role}] in {file}"
    if not isinstance(body, dict):
        raise ConfigError(f"{where} must be a table.", title="models.toml malformed")
    backend = body.get("backend")
    if not isinstance(backend, str) or backend not in BACKENDS[role]:
        raise ConfigError(
            f"{where}: backend = {backend!r} is not one of {', '.join(sorted(BACKENDS[role]))}.",
            title="models.toml malformed",
        )
    for key in ("path", "packaged", "sha256", "mmproj", "mmproj_sha256"):
        if key in body and not isinstance(body[key], str):
            raise ConfigError(f"{where}: {key} must be a string.", title="models.toml malformed")
    path, packaged = body.get("path", ""), body.get("packaged", "")
    if path and packaged:
        raise ConfigError(f"{where}: give either path or packaged, not both.", title="models.toml malformed")
    if backend == "openai":
        url = body.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ConfigError(
                f"{where}: backend 'openai' needs `url`, the base URL of a running OpenAI-compatible server "
                "(e.g. url = \"http://127.0.0.1:8080\").",
                title="models.toml incomplete",
            )
        if path or packaged:
            raise ConfigError(f"{where}: backend 'openai' reaches its model by `url`; remove path/packaged.",
                              title="models.toml malformed")
    needs_file = backend not in {"none", "geometry", "rapidocr", "llm", "openai"}
    if needs_file and not (path or packaged):
        raise ConfigError(
            f"{where}: backend '{backend}' needs a `path` to a local model (or `packaged = \"...\"`).",
            title="models.toml incomplete",
        )
    if role == "vision" and backend in {"llama-cpp-mtmd", "llama-server"} and not body.get("mmproj"):
        raise ConfigError(
            f"{where}: the vision backend needs `mmproj`, the path of the model's multimodal projector GGUF.",
            title="models.toml incomplete",
        )
    return RoleConfig(
        role=role,
        backend=backend,
        path=str(path),
        packaged=str(packaged),
        sha256=str(body.get("sha256", "")).strip().lower(),
        mmproj=str(body.get("mmproj", "")),
        mmproj_sha256=str(body.get("mmproj_sha256", "")).strip().lower(),
        options={k: v for k, v in body.items() if k not in _RESERVED},
        source=where,
    )
