"""Derive olmOCR-Bench unit tests from a LaTeX source: ``python -m benchmarks.fulltext.derive``.

Writes ``<paper>.tests.json`` next to each ``papers/<paper>.tex``: tests in olmOCR-Bench's shape,
judged by its own classes (``benchmarks/fulltext_real/olmocr_judge.py``) on the whole document, plus
``heading`` tests, a type olmocr does not have (``harness.heading_ok`` checks them). Test kinds:

* ``present``: a sentence of a plain paragraph (no markup in it), every second one; and each
  footnote's text, in one piece (ids ``footnote-...``);
* ``order``: the first sentence of a paragraph comes before the first sentence of the next one;
* ``heading``: each \\section / \\subsection title is in a markdown heading line;
* ``absent``: text the source marks ``%bench-absent:`` (running headers, footers, stamps);
* ``table``: ``%bench-table: CELL left=.. right=.. up=.. down=..`` (neighbouring cells);
* ``math``: each ``equation``'s LaTeX (its ``\\label`` and closing punctuation left out), compared
  by olmocr's ``MathTest`` with the output's formulas as KaTeX renders both.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

PAPERS = Path(__file__).with_name("papers")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_PLAIN = re.compile(r"^[A-Za-z0-9 ,.;:?!()'\-]+$")


def _paragraphs(body: str) -> list[str]:
    paras = []
    for block in re.split(r"\n\s*\n", body):
        lines = [ln for ln in block.strip().splitlines() if not ln.lstrip().startswith("%")]
        text = " ".join(ln.strip() for ln in lines)
        if text and not text.startswith("\\"):
            paras.append(text)
    return paras


def _sentences(paragraph: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(paragraph) if s.strip()]


def _plain(sentence: str) -> bool:
    return bool(_PLAIN.match(sentence)) and len(sentence.split()) >= 6


def derive(tex: str) -> list[dict]:
    tests: list[dict] = []
    body = tex.split("\\begin{document}", 1)[1].split("\\begin{thebibliography}", 1)[0]
    abstract = re.search(r"\\begin\{abstract\}(.*?)\\end\{abstract\}", body, re.S)
    prose = (abstract.group(1) if abstract else "") + "\n\n" + re.sub(
        r"\\begin\{(table\*?|equation|abstract)\}.*?\\end\{\1\}", "\n\n", body, flags=re.S)
    prose = re.sub(r"\\footnote\{([^{}]*)\}", "", prose)
    paragraphs = _paragraphs(prose)
    plain = [s for p in paragraphs for s in _sentences(p) if _plain(s)]
    tests += [{"type": "present", "text": s} for s in plain[::2]]
    firsts = [_sentences(p)[0] for p in paragraphs if _sentences(p) and _plain(_sentences(p)[0])]
    tests += [{"type": "order", "before": a, "after": b} for a, b in zip(firsts, firsts[1:], strict=False)]
    for _level, title in re.findall(r"\\(section|subsection)\{([^{}]*)\}", body):
        tests.append({"type": "heading", "text": title})
    for note in re.findall(r"\\footnote\{([^{}]*)\}", body):
        tests.append({"type": "present", "text": note, "kind": "footnote"})
    for text in re.findall(r"^%bench-absent: (.+)$", tex, re.M):
        tests.append({"type": "absent", "text": text.strip()})
    for spec in re.findall(r"^%bench-table: (.+)$", tex, re.M):
        head, *relations = re.split(r"\s+(?=(?:left|right|up|down)=)", spec.strip())
        test = {"type": "table", "cell": head.strip()}
        for relation in relations:
            key, value = relation.split("=", 1)
            test[key] = value.strip()
        tests.append(test)
    for formula in re.findall(r"\\begin\{equation\}(.*?)\\end\{equation\}", body, re.S):
        formula = re.sub(r"\\label\{[^}]*\}", "", formula)
        tests.append({"type": "math", "math": re.sub(r"\s*[,.]\s*$", "", formula.strip())})
    for i, test in enumerate(tests):
        test["id"] = f"{test.pop('kind', test['type'])}-{i:03d}"
    return tests


def main() -> None:
    for tex in sorted(PAPERS.glob("*.tex")):
        tests = derive(tex.read_text())
        tex.with_suffix(".tests.json").write_text(json.dumps(tests, indent=1, ensure_ascii=False) + "\n")
        print(tex.name, len(tests), "tests")


if __name__ == "__main__":
    main()
