"""Assemble the real-paper development set: ``python -m benchmarks.fulltext_real.build [--fetch] [ID..]``.

For each paper of ``papers.yaml`` (status ``ok``) under ``$REVIEWBENCH_REALSET_DIR`` (default
``var/realset``, never committed: the sources and PDFs are the authors', not ours):

* ``--fetch``: ``git clone`` the repository into ``src/<id>`` and check out the recorded commit
  (needs access to github.com);
* ``--from DIR``: no network: take the source from a folder of fetched sources instead, either
  ``DIR/<id>/`` (the paper's files) or a git directory of the repository as the search tool's
  ``fetch`` leaves it (``DIR/<owner>+<name>/repo`` or ``DIR/<owner>+<name>``), from which the recorded
  commit is extracted (``git archive <commit> | tar -x``);
* typeset ``src/<id>/<main>`` with pdflatex (+ bibtex when the source has a bibliography) into
  ``pdfs/<id>.pdf``; figures the source names but its repository lacks (listed in ``src/<id>/.missing``)
  become grey placeholders, since the tests are about text;
* derive the tests (``derive.py``) and place them on their pages (``pages.py``) into
  ``pdfs/<id>.tests.json``; the ``absent`` tests are what TeX set in each page's head and foot box
  (``furniture_truth.py``), kept where the page prints them;
* compare each built PDF's sha256 with the committed ``built.sha256.json`` and report ``same``,
  ``DIFFERS`` or ``new`` (``--record-sha256`` writes the new digests there). pdfTeX is run with
  ``SOURCE_DATE_EPOCH``/``FORCE_SOURCE_DATE`` so that its dates and trailer /ID do not change the bytes.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import yaml

from benchmarks.fulltext_real import derive, furniture_truth, handmade, latex, pages  # noqa: F401 - derive: tests patch it

MANIFEST = Path(__file__).with_name("papers.yaml")
SHA256_FILE = Path(__file__).with_name("built.sha256.json")
# More development papers with results tables (issue 36 items 3, 6), built apart from the real set
# (``--manifest``, another $REVIEWBENCH_REALSET_DIR): the frozen part and its figures stay as they are.
DEV2 = Path(__file__).with_name("papers_dev2.yaml")
DEV3 = Path(__file__).with_name("papers_dev3.yaml")  # a third such list, other classes and fields
DEV4 = Path(__file__).with_name("papers_dev4.yaml")  # a fourth: ML conference styles, like the frozen part
DEV5 = Path(__file__).with_name("papers_dev5.yaml")  # a fifth: more ML/NLP papers, chosen for their table idioms
DEV6 = Path(__file__).with_name("papers_dev6.yaml")  # a sixth: more ML/NLP/CV papers, for their table idioms
DEV7 = Path(__file__).with_name("papers_dev7.yaml")  # a seventh: NLP (ACL styles) and journal classes
# pdfTeX writes the time of the run into /CreationDate, /ModDate and the trailer /ID: with these set
# (TeX Live honours them since 2016) the same source gives the same bytes, so a sha256 can be compared.
REPRODUCIBLE_ENV = {"SOURCE_DATE_EPOCH": "1700000000", "FORCE_SOURCE_DATE": "1"}


def realset_dir() -> Path:
    return Path(os.environ.get("REVIEWBENCH_REALSET_DIR", "var/realset"))


def papers(only: list[str] | None = None, manifest: Path | None = None) -> list[dict]:
    entries = yaml.safe_load((manifest or MANIFEST).read_text())["papers"]
    return [p for p in entries if p.get("status", "ok") == "ok" and (not only or p["id"] in only)]


def fetch(paper: dict, src: Path) -> None:
    if src.exists():
        return
    subprocess.run(["git", "clone", "--quiet", f"https://github.com/{paper['repo']}.git", str(src)], check=True)
    subprocess.run(["git", "-C", str(src), "checkout", "--quiet", paper["commit"]], check=True)


def fetched_source(paper: dict, from_dir: Path) -> Path | tuple[Path, str]:
    """Where ``from_dir`` holds the paper: its own folder ``<id>/``, or the repository's git directory
    (``<owner>+<name>/repo`` or ``<owner>+<name>``, as the search tool's ``fetch`` leaves it) with the
    recorded commit to extract."""
    own = from_dir / paper["id"]
    if own.is_dir() and not (own / "HEAD").exists() and not (own / "repo" / "HEAD").exists():
        return own
    mirror = from_dir / paper["repo"].replace("/", "+")
    # the search tool's fetch leaves a bare repository at .../repo, or a clone's .git inside it
    for git_dir in (mirror / "repo", mirror / "repo" / ".git", mirror, own / "repo", own):
        if (git_dir / "HEAD").exists() and (git_dir / "objects").is_dir():
            return git_dir, paper["commit"]
    raise FileNotFoundError(f"no source for {paper['id']} in {from_dir}: neither {own}/ nor a git directory "
                            f"{mirror}[/repo]")


def copy_source(paper: dict, from_dir: Path, src: Path) -> None:
    """Fill ``src`` (the build's ``src/<id>``) from ``from_dir`` without the network; kept if present."""
    if src.exists():
        return
    found = fetched_source(paper, from_dir)
    if isinstance(found, Path):
        shutil.copytree(found, src, symlinks=True)
        return
    git_dir, commit = found
    archive = subprocess.run(["git", f"--git-dir={git_dir}", "archive", "--format=tar", commit],
                             capture_output=True, timeout=600)
    if archive.returncode != 0 and b"invalid object" in archive.stderr:
        extract_partial(git_dir, commit, src)  # a snapshot without some large blobs
        return
    if archive.returncode != 0:
        raise RuntimeError(f"{git_dir} lacks commit {commit}: {archive.stderr.decode(errors='replace')[-300:]}")
    src.mkdir(parents=True)
    import io

    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(src, filter="data")


def extract_partial(git_dir: Path, commit: str, src: Path) -> None:
    """The tree at ``commit`` blob by blob, when the snapshot lacks some blobs (the search tool's
    ``fetch`` leaves out its largest files): the missing paths go to ``src/.missing`` (figures among
    them become grey placeholders at typesetting)."""
    tree = subprocess.run(["git", f"--git-dir={git_dir}", "ls-tree", "-r", "-z", commit], capture_output=True,
                          check=True, timeout=600).stdout.decode().split("\0")
    missing = []
    for row in filter(None, tree):
        meta, path = row.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind != "blob":
            continue
        blob = subprocess.run(["git", f"--git-dir={git_dir}", "cat-file", "blob", sha], capture_output=True, timeout=600)
        if blob.returncode != 0:
            missing.append(path)
            continue
        target = src / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            target.symlink_to(blob.stdout.decode())
        else:
            target.write_bytes(blob.stdout)
    (src / ".missing").write_text("".join(f"{m}\n" for m in missing))


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check_sha256(built: dict[str, str], recorded: dict[str, str]) -> dict[str, str]:
    """id -> ``same`` | ``DIFFERS (recorded <sha>)`` | ``new``: does this build hold the documents the
    committed digests name?"""
    return {i: ("new" if i not in recorded else "same" if recorded[i] == sha else f"DIFFERS (recorded {recorded[i]})")
            for i, sha in built.items()}


def report_sha256(root: Path, ids: list[str], record: bool) -> int:
    """Print each built PDF's digest check; with ``record``, write the digests into SHA256_FILE.
    Returns how many differ from what was recorded."""
    recorded = json.loads(SHA256_FILE.read_text()) if SHA256_FILE.exists() else {}
    built = {i: sha256_of(root / "pdfs" / f"{i}.pdf") for i in ids if (root / "pdfs" / f"{i}.pdf").exists()}
    verdicts = check_sha256(built, recorded)
    for i, verdict in sorted(verdicts.items()):
        print(f"{i}: sha256 {built[i][:16]} {verdict}")
    if record:
        SHA256_FILE.write_text(json.dumps(dict(sorted({**recorded, **built}.items())), indent=1) + "\n")
    return sum(v.startswith("DIFFERS") for v in verdicts.values())


def _placeholders(src: Path) -> None:
    missing = src / ".missing"
    if not missing.exists():
        return
    from PIL import Image

    formats = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".pdf": "PDF"}
    for rel in missing.read_text().splitlines():
        path = src / rel
        if path.suffix.lower() in formats and not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            Image.new("RGB", (400, 200), (230, 230, 230)).save(path, format=formats[path.suffix.lower()])


def typeset(src: Path, main: str, out: Path, gentounicode: bool = True) -> Path:
    """pdflatex, bibtex if the source cites from a .bib, pdflatex twice (references settle).
    ``nonstopmode`` without ``halt-on-error``: real sources often carry harmless errors (an
    undefined macro in an appendix) and TeX still writes the page; the PDF is what a reader gets.
    ``gentounicode=False`` (papers.yaml ``gentounicode: false``) sets ``\\pdfgentounicode=0`` first,
    as PDFs typeset before LaTeX switched it on are (no ToUnicode on the Type 1 fonts; a style
    that sets it itself still wins, and papers.yaml records what the PDF has)."""
    _placeholders(src)
    tex = src / main
    job = tex.stem
    first = tex.name if gentounicode else f"\\pdfgentounicode=0\\input{{{tex.name}}}"

    def run() -> None:
        subprocess.run(["pdflatex", "-interaction=nonstopmode", first], cwd=tex.parent, capture_output=True,
                       timeout=600, env={**os.environ, **REPRODUCIBLE_ENV})

    run()
    aux = tex.parent / f"{job}.aux"
    if aux.exists() and "\\bibdata" in aux.read_text(errors="replace"):
        subprocess.run(["bibtex", job], cwd=tex.parent, capture_output=True, timeout=120,
                       env={**os.environ, **REPRODUCIBLE_ENV})
    run()
    run()
    pdf = tex.parent / f"{job}.pdf"
    if not pdf.exists():
        raise RuntimeError(f"pdflatex wrote no PDF for {tex}")
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(pdf, out)
    return out


def tests_for(paper: dict, src: Path, pdf: Path, dropped: list | None = None) -> list[dict]:
    """The paper's tests; its absent tests from the heads and feet TeX set (``furniture_truth``:
    one more pdflatex run, in draft mode, after the build's). ``dropped`` collects the absent
    candidates left out and why (a paper whose class replaces LaTeX's output routine: one entry,
    reason ``no-truth: ...``)."""
    tex = latex.flatten(src / paper["main"])
    styles = [p.read_text(errors="replace") for p in sorted(src.rglob("*.sty"))]
    furniture, why = furniture_truth.witness(src, paper["main"], paper.get("gentounicode", True), env=REPRODUCIBLE_ENV)
    if why and dropped is not None:
        dropped.append({"page": None, "text": None, "reason": f"no-truth: {why}"})
    return pages.paper_tests(paper["id"], tex, styles, pdf, furniture, dropped)


def part_of(entry: dict) -> str:
    """The set's part a paper or hand-tested document is in (``part`` in papers.yaml/handmade.yaml,
    recorded once by ``SPLIT_RULE``)."""
    return entry.get("part") or ("frozen" if frozen_by_rule(entry["id"]) else "dev")


def frozen_by_rule(doc_id: str) -> bool:
    """The split's fixed rule (issue 36 item 4): frozen iff the first hex digit of
    sha256("issue-36:" + id) is 0-5 (6 in 16: more than a third expected; 22 of 43 papers, 5 of 11
    hand-tested documents when it was applied)."""
    return hashlib.sha256(f"issue-36:{doc_id}".encode()).hexdigest()[0] in "012345"


def write_parts(root: Path) -> dict[str, list[str]]:
    """``root/parts.json``: part -> ids, every paper and hand-tested document of the manifests."""
    parts: dict[str, list[str]] = {"frozen": [], "dev": []}
    for entry in papers() + handmade.documents():
        parts[part_of(entry)].append(entry["id"])
    root.mkdir(parents=True, exist_ok=True)
    (root / "parts.json").write_text(json.dumps(parts, indent=1) + "\n")
    return parts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--fetch", action="store_true", help="git clone missing sources (needs github.com)")
    parser.add_argument("--from", dest="from_dir", type=Path, help="take missing sources from this folder of "
                        "fetched sources (DIR/<id>/ or DIR/<owner>+<name>[/repo] git dirs), no network")
    parser.add_argument("--record-sha256", action="store_true", help=f"write the built PDFs' sha256 into {SHA256_FILE.name}")
    parser.add_argument("--tests-only", action="store_true", help="derive tests for PDFs already built")
    parser.add_argument("--manifest", type=Path, help=f"another list of papers than {MANIFEST.name} (e.g. "
                        f"{DEV2.name}) built into its own folder: no hand-tested documents, no parts.json")
    args = parser.parse_args(argv)
    root = realset_dir()
    failed = 0
    for paper in papers(args.ids, args.manifest):
        src, pdf = root / "src" / paper["id"], root / "pdfs" / f"{paper['id']}.pdf"
        try:
            if args.from_dir:
                copy_source(paper, args.from_dir, src)
            elif args.fetch:
                fetch(paper, src)
            if not args.tests_only or not pdf.exists():
                typeset(src, paper["main"], pdf, paper.get("gentounicode", True))
            dropped: list[dict] = []
            tests = tests_for(paper, src, pdf, dropped)
        except Exception as exc:  # noqa: BLE001 - one paper's failure is reported, the rest go on
            print(f"{paper['id']}: FAILED {type(exc).__name__}: {exc}")
            failed += 1
            continue
        out = root / "tests" / f"{paper['id']}.jsonl"  # olmOCR-Bench's layout: one test per line
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in tests))
        # the absent candidates left out, and why (outside tests/: olmocr reads every .jsonl there)
        (root / "dropped").mkdir(parents=True, exist_ok=True)
        (root / "dropped" / f"{paper['id']}.json").write_text(json.dumps(dropped, ensure_ascii=False, indent=0))
        kinds: dict[str, int] = {}
        for test in tests:
            kinds[test["type"]] = kinds.get(test["type"], 0) + 1
        reasons: dict[str, int] = {}
        for d in dropped:
            reasons[d["reason"]] = reasons.get(d["reason"], 0) + 1
        print(f"{paper['id']} ({part_of(paper)}): {len(tests)} tests {kinds}; absent dropped {reasons}")
    if args.manifest:  # a set of its own (papers_dev2.yaml: development material, all dev)
        return 1 if failed else 0
    # the hand-tested PDFs not made by pdfTeX: from <src>/handmade/, sha256-checked (handmade.py)
    handmade.install(root, args.from_dir or root / "src", fetch=args.fetch)
    write_parts(root)
    differs = report_sha256(root, [p["id"] for p in papers(args.ids)], args.record_sha256)
    return 1 if failed or (differs and not args.record_sha256) else 0


if __name__ == "__main__":
    raise SystemExit(main())
