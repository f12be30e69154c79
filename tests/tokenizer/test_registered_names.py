"""A registered tokenizer name counts with the file it is bound to now.

Every Hugging Face download is called tokenizer.json: the page loads one model's,
then another's under the same name, and a script registers a path again after
the file changed. Every cache on the way (a Document's token index, the
registry's built tokenizers, the page's session) must follow the content, not
the name, or the chunks carry the first file's counts and run over budget."""
from __future__ import annotations

import json

import pytest

import chunkwise
from chunkwise.tokenizer.hf.files import register_text
from chunkwise.bridge import Session
from chunkwise.tokenizer.registry import get_tokenizer
from conftest import assert_invariants
from hf_files import CORPUS, tokenizer_path

FIRST, SECOND = "all-MiniLM-L6-v2", "multilingual-e5-small"
TEXT = (CORPUS / "node-net.md").read_text(encoding="utf-8")[:12000]


@pytest.fixture(params=["pure", "tokenizers"])
def hf_backend(request, monkeypatch):
    monkeypatch.setenv("CHUNKWISE_BACKEND", "pure" if request.param == "pure" else "tiktoken")
    return request.param


def _file_text(file_id: str) -> str:
    return tokenizer_path(file_id).read_text(encoding="utf-8")


def _reference(file_id: str, **settings):
    return chunkwise.chunk(TEXT, encoding=file_id, **settings)


def test_registering_a_changed_file_again_counts_with_the_new_content(tmp_path, hf_backend):
    path = tmp_path / "model" / "tokenizer.json"
    path.parent.mkdir()
    path.write_text(_file_text(FIRST), encoding="utf-8")
    name = chunkwise.register_tokenizer(str(path))
    doc = chunkwise.Document(TEXT)
    assert [c.token_count for c in doc.chunk(max_tokens=100, encoding=name).chunks] == \
        [c.token_count for c in _reference(FIRST, max_tokens=100)]

    path.write_text(_file_text(SECOND), encoding="utf-8")
    assert chunkwise.register_tokenizer(str(path)) == name
    again = doc.chunk(max_tokens=100, encoding=name).chunks  # the same Document, its index built for the first file
    assert again == _reference(SECOND, max_tokens=100)
    assert_invariants(doc.text, again, 100, name, overlap=12)
    assert get_tokenizer(name).count(TEXT) == get_tokenizer(SECOND).count(TEXT)


def test_two_files_of_one_name_have_different_keys_and_one_content_one_key(hf_backend):
    name = register_text(_file_text(FIRST), "same-name.json")
    first = get_tokenizer(name)
    assert register_text(_file_text(SECOND), "same-name.json") == name
    second = get_tokenizer(name)
    assert first.key != second.key
    register_text(_file_text(FIRST), "same-name.json")
    assert get_tokenizer(name).key == first.key  # the content is the identity


def _run(session: Session, **settings) -> list[dict]:
    session.start(json.dumps(settings))
    out = json.loads(session.step(60))
    while not out["done"]:
        out = json.loads(session.step(60))
    return [session.record(c) for c in session.finished.chunks]


def test_the_page_loads_a_second_tokenizer_json_and_counts_with_it(hf_backend):
    """What the worker does when the user opens one model's tokenizer.json, chunks,
    then opens another model's (also tokenizer.json) and chunks again."""
    session = Session()
    session.set_text(TEXT)
    settings = dict(max_tokens=60, overlap=0, strategy="smart")
    first = json.loads(session.load_tokenizer("tokenizer.json", _file_text(FIRST)))["encoding"]
    got = _run(session, encoding=first, **settings)
    assert [c["token_count"] for c in got] == [c.token_count for c in _reference(FIRST, **settings)]

    second = json.loads(session.load_tokenizer("tokenizer.json", _file_text(SECOND)))["encoding"]
    got = _run(session, encoding=second, **settings)
    want = _reference(SECOND, **settings)
    assert [(c["start"], c["end"], c["token_count"]) for c in got] == [(c.start, c.end, c.token_count) for c in want]
    assert max(c["token_count"] for c in got) <= 60


@pytest.mark.parametrize("source", [{"model": {}}, 5, None, ["tokenizer.json"]])
def test_a_tokenizer_that_is_no_path_or_text_is_refused_clearly(source):
    with pytest.raises(TypeError, match="a tokenizer.json is a path, its text or its bytes, not"):
        chunkwise.register_tokenizer(source)
