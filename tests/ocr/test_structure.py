"""Headings from structure, not type size (issue 27): typeset with pdflatex, read by the text layer.

A heading is a short line (or two) set apart; a paragraph set in a larger type (an abstract in
``\\large``) is a paragraph, and a formula in a larger type ("a² + b² = c²") is a formula.
"""
from __future__ import annotations

import pytest

from ocr_ray.layout import compose_pages
from tests.ocr.conftest import typeset_layouts

ABSTRACT = ("We study how things behave when they are put together in many ways. Our method reads every page "
            "of a paper and writes it out again, keeping its words in order and its equations as maths. On a set "
            "of real papers it is better than the methods we compare it with, and it is fast enough to run on "
            "every paper of a venue in an afternoon on one machine.")
BODY = ("Body text of the section goes here and runs on for a while so that it makes a paragraph of several "
        "lines, which is what a body looks like in a paper of this kind, with no surprises at all.")
DOCUMENT = rf"""\title{{A Study of Things}}\author{{Ann Author}}\date{{}}\maketitle
\begin{{abstract}}\large
{ABSTRACT}
\end{{abstract}}
\section{{Introduction}}
{BODY}

{{\Large $a^2+b^2=c^2$\par}}

{BODY}
\subsection{{Setting}}
{BODY}
\section*{{Acknowledgements}}
We thank everyone who helped.
\paragraph{{Run-in.}} A paragraph with a run-in heading in bold that continues on the same line.
"""


def _markdown(tmp_path, packages: str) -> str:
    layouts = typeset_layouts(tmp_path, packages, DOCUMENT)
    return "\n\n".join(compose_pages([p.to_json() for p in layouts]))


@pytest.fixture(scope="module", params=["amsmath", "amsmath,mathptmx"])
def markdown(request, tmp_path_factory):
    return _markdown(tmp_path_factory.mktemp("structure"), request.param)


def test_an_abstract_in_a_larger_type_is_one_paragraph(markdown):
    blocks = markdown.split("\n\n")
    assert ABSTRACT in blocks, blocks  # its lines joined into one paragraph, no "#" on any of them
    assert not [b for b in blocks if b.startswith("#") and ("study" in b or "papers" in b)]


def test_a_formula_in_a_larger_type_is_a_formula_not_a_heading(markdown):
    assert "$$\na^{2}+b^{2}=c^{2}\n$$" in markdown, markdown
    assert not [b for b in markdown.split("\n\n") if b.startswith("#") and "=" in b]


def test_sections_subsections_and_run_in_headings_stay_headings(markdown):
    blocks = markdown.split("\n\n")
    assert blocks[0] == "# A Study of Things"
    for heading in ("## 1 Introduction", "### 1.1 Setting", "## Acknowledgements"):
        assert heading in blocks, (heading, blocks)
    # a run-in \paragraph{} opens its paragraph, which runs on: no heading of its own
    assert any(b.startswith("Run-in. A paragraph with a run-in heading") for b in blocks), blocks
    assert BODY in blocks
