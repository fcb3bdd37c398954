"""Reading order inside a formula: a matrix's column gaps are no column gutter (``order._inner``)."""
from __future__ import annotations

# A matrix's column gaps (amsmath: 2 x 5 pt) are as wide as a narrow column gutter: a gap between
# a pair of tall delimiters (``bmatrix``'s brackets, TeX's pieces stacked) with the cells on both
# sides of it is a gap inside one formula, no gutter (a 3x3 bmatrix was read column by column,
# "B=[4712", "5 8", "369]"). A delimiter: boxes much narrower than tall, stacked touching, at least
# ``TALL_DELIMITER`` times the boxes' median height.
TALL_DELIMITER = 1.8


def delimiter_stacks(boxes: list) -> list[tuple[float, float, float, float]]:
    thin = sorted((b for b in boxes if b.x1 - b.x0 < 0.4 * (b.y1 - b.y0)), key=lambda b: b.y0)
    if len(thin) < 2:
        return []
    stacks: list[list[float]] = []
    for b in thin:
        stack = next((s for s in stacks if min(s[2], b.x1) - max(s[0], b.x0) > 0 and b.y0 <= s[3] + 1.0), None)
        if stack is None:
            stacks.append([b.x0, b.y0, b.x1, b.y1])
        else:
            stack[0], stack[2], stack[3] = min(stack[0], b.x0), max(stack[2], b.x1), max(stack[3], b.y1)
    heights = sorted(b.y1 - b.y0 for b in boxes)
    tall = TALL_DELIMITER * heights[len(heights) // 2]
    return [(x0, y0, x1, y1) for x0, y0, x1, y1 in stacks if y1 - y0 >= tall]


def inside_delimiters(gap: tuple[float, float], stacks, boxes: list) -> bool:
    """A tall delimiter left of ``gap`` and one right of it, level with each other, with boxes
    between them on both sides of the gap: the gap is inside a matrix."""
    lo, hi = gap
    for _lx0, ly0, lx1, ly1 in stacks:
        if lx1 > lo + 0.5:
            continue
        for rx0, ry0, _rx1, ry1 in stacks:
            if rx0 < hi - 0.5 or min(ly1, ry1) - max(ly0, ry0) < 0.7 * min(ly1 - ly0, ry1 - ry0):
                continue
            held = [b for b in boxes if b.x0 >= lx1 - 0.5 and b.x1 <= rx0 + 0.5
                    and b.y0 >= min(ly0, ry0) - 1.0 and b.y1 <= max(ly1, ry1) + 1.0]
            if any(b.x1 <= lo for b in held) and any(b.x0 >= hi for b in held):
                return True
    return False
