"""Paragraphs that run across a page break are joined on the page where they start.

Markdown keeps one part per page (the corpus counts pages by its separator), but a sentence cut by
the page break, with the separator in the middle of it, is a sentence lost to every reader and
every search. The continuation (the next page's first paragraph when it clearly continues: it
starts in lower case, or the previous one stops after a comma, a hyphen or "et al.") moves
up to the end of the paragraph it completes. Floats at the top of the next page (a figure or table
caption, a table, an equation) may stand between the two; footnotes at the bottom of the page stay
after the joined paragraph.
"""
from __future__ import annotations

import re

from ocr_ray.layout.blocks import join_lines

_NOT_PROSE = ("#", "|", "<", "$$", "[^", "![", "```")
_CAPTION = re.compile(r"^(\*\*)?(fig(ure)?|table|algorithm|listing)\.?\s*[A-Z]?\d", re.I)
_ENDS_SENTENCE = re.compile(r"[.!?:;)\]\"'”’]\s*$")
_STOPS_MID_SENTENCE = re.compile(r"[\w,-]$")
_OPEN_ENDED = re.compile(r"([,-]|\bet al\.)$")  # cut after a comma, a hyphen or "et al.": never a paragraph's end
_ET_AL = re.compile(r"\bet al\.$")


def _prose(block: str) -> bool:
    return bool(block) and not block.startswith(_NOT_PROSE) and not _CAPTION.match(block)


def join_across_pages(pages: list[list[str]], known: set[str] | frozenset = frozenset()) -> None:
    """``pages``: each page's markdown blocks, changed in place."""
    for n in range(len(pages) - 1):
        here, following = pages[n], pages[n + 1]
        last = max((i for i, b in enumerate(here) if not b.startswith("[^")), default=None)
        if last is None or not _prose(here[last]) or (_ENDS_SENTENCE.search(here[last]) and not _ET_AL.search(here[last])):
            continue
        for j, block in enumerate(following):
            if _prose(block):
                first = block[:1]
                rest = [b for k, b in enumerate(following) if k != j and _prose(b)]
                if not rest:
                    break  # the page would be left without text: the break is kept where it is
                # upper case after a word ("... we use the" / "Adam optimizer") may as well be a new
                # paragraph after a line without a full stop (synthetic pages, lists): not joined
                if first.islower() or (j == 0 and _STOPS_MID_SENTENCE.search(here[last]) and first.isdigit()) \
                        or (_OPEN_ENDED.search(here[last]) and not block.startswith("- ")):
                    here[last] = join_lines([here[last], block], known)
                    del following[j]
                break
            if not (block.startswith(("|", "<", "$$", "![")) or _CAPTION.match(block)):
                break  # a heading or footnote: the paragraph ended
