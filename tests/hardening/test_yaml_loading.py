"""Hostile case files and baselines: each ends in one clear error naming the file, never a hang,
a traceback or gigabytes of memory (issue 12, point 3)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.core.baseline import Baseline, BaselineError
from conformance.core.corpus import CORPUS_ROOT, CorpusError, load_corpus
from conformance.core.safe_yaml import YamlError, YamlLimits, parse

ROOT = Path(__file__).resolve().parents[2]

GOOD_CASE = """\
  - id: 3.4-a-step
    description: a white man steps
    source: constructed
    position: "W:W28:B1"
    expect:
      legal_moves: ["28-22", "28-23"]
"""

BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def corpus_with(tmp_path: Path, name: str, text: str | None) -> Path:
    root = tmp_path / "cases"
    root.mkdir()
    shutil.copy(CORPUS_ROOT / "schema.json", root / "schema.json")
    shutil.copy(CORPUS_ROOT / "articles.yaml", root / "articles.yaml")
    (root / "retired.yaml").write_text(json.dumps({"retired": []}))
    if text is not None:
        (root / name).write_text(text, encoding="utf-8")
    return root


def problem(root: Path) -> str:
    with pytest.raises(CorpusError) as caught:
        load_corpus(root)
    return "\n".join(caught.value.problems)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (BILLION_LAUGHS, "YAML anchors and aliases are not allowed"),
        ("a: " + "[" * 20_000 + "]" * 20_000 + "\n", "nest"),
        ("? [1, 2]\n: x\n", "a mapping key must be a plain value"),
        ("a: " + "9" * 5000 + "\n", "an integer of 5000 digits"),
        ("a: 1\na: 2\n", "the key 'a' appears twice"),
        ("a: !!python/object:os.system x\n", "YAML error"),
        ("a: [unclosed\n", "bad.yaml:2: YAML error"),
        (b"\xff\xfe".decode("latin-1") + "x", "bad.yaml"),
    ],
)
def test_a_hostile_case_file_is_one_clear_problem(tmp_path: Path, text: str, expected: str) -> None:
    message = problem(corpus_with(tmp_path, "bad.yaml", text))
    assert expected in message
    assert len(message) < 2000  # the error names the problem, it does not echo the input


def test_an_invalid_date_is_just_text_and_the_schema_says_what_is_wrong(tmp_path: Path) -> None:
    text = 'topic: Test\narticle: "3.4"\ndate: 2020-13-45\ncases:\n' + GOOD_CASE
    message = problem(corpus_with(tmp_path, "dated.yaml", text))
    assert "'date' was unexpected" in message


def test_a_fifo_named_yaml_is_refused_without_being_opened(tmp_path: Path) -> None:
    root = corpus_with(tmp_path, "x", None)
    os.mkfifo(root / "pipe.yaml")
    script = f"from conformance.core.corpus import load_corpus\nload_corpus({str(root)!r})"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode != 0
    assert "pipe.yaml: not a regular file" in done.stderr


def test_a_link_to_a_device_or_out_of_the_corpus_is_refused_and_not_printed(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("password=hunter2\n", encoding="utf-8")
    root = corpus_with(tmp_path, "x", None)
    (root / "outside.yaml").symlink_to(secret)
    (root / "zero.yaml").symlink_to("/dev/zero")
    message = problem(root)
    assert "outside.yaml: is a link to a file outside the corpus" in message
    assert "hunter2" not in message
    assert "zero.yaml" in message


def test_a_file_past_the_size_limit_is_refused_before_parsing() -> None:
    from conformance.core.safe_yaml import read_text

    with pytest.raises(YamlError, match="bytes, more than the 10 allowed"):
        read_text(ROOT / "pyproject.toml", "pyproject.toml", max_bytes=10)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("schema.json", "{not json", "schema.json:1: not valid JSON"),
        ("schema.json", '{"type": 12}', "not a valid JSON Schema"),
        ("articles.yaml", "articles: [1, 2]\n", "expected a mapping with 'articles'"),
        ("articles.yaml", "articles: {'2': x}\nreadings: [a]\n", "'readings' must be a mapping"),
        ("articles.yaml", "articles: {'2': x}\nreadings: {r: {text: t, articles: 3}}\n", "needs 'articles'"),
    ],
)
def test_a_broken_registry_or_schema_is_a_clear_error(
    tmp_path: Path, name: str, text: str, expected: str
) -> None:
    root = corpus_with(tmp_path, "good.yaml", 'topic: Test\narticle: "3.4"\ncases:\n' + GOOD_CASE)
    (root / name).write_text(text, encoding="utf-8")
    assert expected in problem(root)


def test_a_baseline_with_known_twice_is_refused_not_half_read(tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    path.write_text("known:\n  - case: a\nknown:\n  - case: b\n", encoding="utf-8")
    with pytest.raises(BaselineError, match="the key 'known' appears twice"):
        Baseline.load(path)


def test_a_baseline_of_aliases_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "known.yaml"
    path.write_text(BILLION_LAUGHS + "known: []\n", encoding="utf-8")
    with pytest.raises(BaselineError, match="aliases are not allowed"):
        Baseline.load(path)


def parse_problem(text: str, limits: YamlLimits | None = None) -> str:
    """The error's message, or the empty string when the text parses (anything else propagates)."""
    try:
        parse(text, "fuzz.yaml", limits or YamlLimits())
    except YamlError as error:
        return str(error)
    return ""


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_parses_or_is_a_yaml_error(text: str) -> None:
    message = parse_problem(text, YamlLimits(max_depth=20, max_nodes=2000))
    assert not message or message.startswith("fuzz.yaml")


@pytest.mark.slow
@settings(max_examples=20_000, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("[]{}:,-&*!? \n'\"ab19#|>")), max_size=400))
def test_yaml_shaped_text_parses_or_is_a_yaml_error(text: str) -> None:
    message = parse_problem(text)
    assert not message or message.startswith("fuzz.yaml")
