"""Which device a torch-backed role (embedder, reranker, detector) runs on."""

from __future__ import annotations


def torch_device(option: object, onnx: bool = False) -> str:
    """Resolve a role's ``device`` option. ``auto`` (the default) picks ``cuda`` when torch sees a GPU, and for
    an ONNX model only when onnxruntime also has its CUDA provider; anything else is passed through."""
    value = str(option or "auto").strip().lower()
    if value != "auto":
        return value
    import torch

    if not torch.cuda.is_available():
        return "cpu"
    if onnx:
        import onnxruntime

        if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():
            return "cpu"
    return "cuda"
