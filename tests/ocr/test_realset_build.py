"""The real-paper set rebuilds without GitHub (issue 27 item 2): ``build --from DIR`` takes each
paper's source from a folder of fetched sources (the paper's own folder, or a git directory as the
search tool's ``fetch`` leaves it, extracted at the recorded commit), and each built PDF's sha256 is
compared with the committed digests; pdfTeX's output is byte-reproducible so the digest means
something."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest
import yaml

from benchmarks.fulltext_real import build

PAPER_TEX = r"""\documentclass{article}
\begin{document}
Reviewers read the paper once, page by page, in reading order.
\end{document}
"""


def _git(*args, cwd):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.fixture
def repo(tmp_path):
    """A repository with two commits; the paper records the first."""
    work = tmp_path / "work"
    work.mkdir()
    _git("init", "-q", cwd=work)
    (work / "main.tex").write_text(PAPER_TEX)
    _git("add", ".", cwd=work)
    _git("commit", "-q", "-m", "paper", cwd=work)
    first = subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True).stdout.strip()
    (work / "main.tex").write_text(PAPER_TEX.replace("once", "twice"))
    (work / "later.txt").write_text("added after the recorded commit")
    _git("commit", "-qam", "later", cwd=work)
    _git("add", ".", cwd=work)
    _git("commit", "-q", "-m", "later file", cwd=work)
    return work, first


def test_from_a_fetched_git_dir_extracts_the_recorded_commit(tmp_path, repo):
    work, first = repo
    fetched = tmp_path / "fetched"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(fetched / "someone+paper" / "repo")], check=True)
    paper = {"id": "p1", "repo": "someone/paper", "commit": first, "main": "main.tex"}
    src = tmp_path / "set" / "src" / "p1"
    build.copy_source(paper, fetched, src)
    assert "read the paper once" in (src / "main.tex").read_text()  # the recorded commit, not the newest
    assert not (src / "later.txt").exists()


def test_from_a_folder_per_paper_and_a_missing_source(tmp_path, repo):
    work, first = repo
    fetched = tmp_path / "fetched"
    shutil.copytree(work, fetched / "p2", ignore=shutil.ignore_patterns(".git"))
    paper = {"id": "p2", "repo": "someone/paper", "commit": first, "main": "main.tex"}
    build.copy_source(paper, fetched, tmp_path / "src" / "p2")
    assert (tmp_path / "src" / "p2" / "later.txt").exists()  # the folder as it is
    with pytest.raises(FileNotFoundError):
        build.copy_source({**paper, "id": "p3", "repo": "other/none"}, fetched, tmp_path / "src" / "p3")
    with pytest.raises(RuntimeError, match="lacks commit"):
        bare = tmp_path / "bare"
        subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare / "someone+paper")], check=True)
        build.copy_source({**paper, "id": "p4", "commit": "0" * 40}, bare, tmp_path / "src" / "p4")


def test_sha256_check_says_same_differs_new():
    verdicts = build.check_sha256({"a": "1" * 64, "b": "2" * 64, "c": "3" * 64}, {"a": "1" * 64, "b": "9" * 64})
    assert verdicts["a"] == "same" and verdicts["b"].startswith("DIFFERS") and verdicts["c"] == "new"


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (make system-deps)")
def test_typesetting_twice_gives_the_same_bytes(tmp_path, repo, monkeypatch):
    work, _ = repo
    digests = []
    for run in ("one", "two"):
        src = tmp_path / run
        shutil.copytree(work, src, ignore=shutil.ignore_patterns(".git"))
        pdf = build.typeset(src, "main.tex", tmp_path / "pdfs" / f"{run}.pdf")
        digests.append(build.sha256_of(pdf))
    assert digests[0] == digests[1]


def test_report_records_and_then_finds_the_same(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(build, "SHA256_FILE", tmp_path / "built.sha256.json")
    (tmp_path / "pdfs").mkdir()
    (tmp_path / "pdfs" / "a.pdf").write_bytes(b"%PDF-1.4 a")
    assert build.report_sha256(tmp_path, ["a"], record=True) == 0
    assert json.loads((tmp_path / "built.sha256.json").read_text()) == {"a": build.sha256_of(tmp_path / "pdfs" / "a.pdf")}
    assert build.report_sha256(tmp_path, ["a"], record=False) == 0 and "same" in capsys.readouterr().out
    (tmp_path / "pdfs" / "a.pdf").write_bytes(b"%PDF-1.4 changed")
    assert build.report_sha256(tmp_path, ["a"], record=False) == 1


def test_a_snapshot_without_a_large_blob_gives_the_rest_and_lists_it_missing(tmp_path):
    """The search tool's fetch leaves out a repository's largest files: `git archive` then refuses the
    whole commit (moebias: "invalid object ... for '2501.17161v2.pdf'"); the tree comes out blob by
    blob and the absent file is listed in .missing (a figure there becomes a placeholder)."""
    work = tmp_path / "work"
    work.mkdir()
    _git("init", "-q", cwd=work)
    (work / "main.tex").write_text(PAPER_TEX)
    (work / "fig").mkdir()
    (work / "fig" / "big.png").write_bytes(b"\x89PNG large figure bytes")
    _git("add", ".", cwd=work)
    _git("commit", "-q", "-m", "paper", cwd=work)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True).stdout.strip()
    blob = subprocess.run(["git", "rev-parse", "HEAD:fig/big.png"], cwd=work, capture_output=True, text=True).stdout.strip()
    (work / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    src = tmp_path / "src" / "p5"
    fetched = tmp_path / "fetched"
    fetched.mkdir()
    shutil.move(str(work / ".git"), str(fetched / "someone+paper"))
    build.copy_source({"id": "p5", "repo": "someone/paper", "commit": commit, "main": "main.tex"}, fetched, src)
    assert "page by page" in (src / "main.tex").read_text()
    assert (src / ".missing").read_text() == "fig/big.png\n" and not (src / "fig" / "big.png").exists()


def test_from_a_fetched_clone_whose_git_dir_is_repo_dot_git(tmp_path, repo):
    """moptsp: the fetch tool left /work/.mirror/<owner>+<name>/repo/.git (a clone, not a bare repository)."""
    work, first = repo
    fetched = tmp_path / "fetched"
    subprocess.run(["git", "clone", "-q", str(work), str(fetched / "someone+paper" / "repo")], check=True)
    src = tmp_path / "src" / "p6"
    build.copy_source({"id": "p6", "repo": "someone/paper", "commit": first, "main": "main.tex"}, fetched, src)
    assert "read the paper once" in (src / "main.tex").read_text()


def test_another_manifest_builds_its_own_papers_into_its_own_folder(tmp_path, repo, monkeypatch):
    """``--manifest`` (papers_dev2.yaml: more development papers with tables) builds only that list
    into $REVIEWBENCH_REALSET_DIR: no hand-tested documents installed, no parts.json written, the
    committed sha256 record untouched."""
    work, first = repo
    fetched = tmp_path / "fetched"
    shutil.copytree(work, fetched / "extra", ignore=shutil.ignore_patterns(".git"))
    manifest = tmp_path / "extra.yaml"
    manifest.write_text(f"papers:\n  - {{id: extra, part: dev, repo: someone/paper, commit: {first}, main: main.tex, "
                        "status: ok}\n")
    root = tmp_path / "dev2"
    monkeypatch.setenv("REVIEWBENCH_REALSET_DIR", str(root))
    recorded = build.SHA256_FILE.read_text()
    assert build.main(["--manifest", str(manifest), "--from", str(fetched)]) == 0
    assert (root / "pdfs" / "extra.pdf").exists() and (root / "tests" / "extra.jsonl").exists()
    assert sorted(p.name for p in (root / "pdfs").iterdir()) == ["extra.pdf"]
    assert not (root / "parts.json").exists()
    assert build.SHA256_FILE.read_text() == recorded
    assert {p["id"] for p in build.papers(manifest=build.DEV2)}.isdisjoint(p["id"] for p in build.papers())
    dev3 = {p["id"] for p in build.papers(manifest=build.DEV3)}
    assert dev3.isdisjoint(p["id"] for p in build.papers()) and dev3.isdisjoint(p["id"] for p in build.papers(manifest=build.DEV2))
    repos = {p["repo"] for p in build.papers(manifest=build.DEV3)}
    assert repos.isdisjoint(p["repo"] for p in build.papers()) and repos.isdisjoint(p["repo"] for p in build.papers(manifest=build.DEV2))
    # papers_dev4.yaml: neither an id nor a repository of any earlier list (the frozen part's among them)
    earlier = [build.papers(), build.papers(manifest=build.DEV2), build.papers(manifest=build.DEV3)]
    dev4 = build.papers(manifest=build.DEV4)
    assert len(dev4) >= 12
    for others in earlier:
        assert {p["id"] for p in dev4}.isdisjoint(p["id"] for p in others)
        assert {p["repo"] for p in dev4}.isdisjoint(p["repo"] for p in others)
    # papers_dev5.yaml: the same against all four, every entry listed (skipped ones too)
    def listed(manifest):
        return yaml.safe_load(manifest.read_text())["papers"]
    assert len(build.papers(manifest=build.DEV5)) >= 12
    dev5 = listed(build.DEV5)
    for manifest in (build.MANIFEST, build.DEV2, build.DEV3, build.DEV4):
        assert {p["id"] for p in dev5}.isdisjoint(p["id"] for p in listed(manifest))
        assert {p["repo"] for p in dev5}.isdisjoint(p["repo"] for p in listed(manifest))
    # papers_dev6.yaml: the same against all five
    assert len(build.papers(manifest=build.DEV6)) >= 14
    dev6 = listed(build.DEV6)
    for manifest in (build.MANIFEST, build.DEV2, build.DEV3, build.DEV4, build.DEV5):
        assert {p["id"] for p in dev6}.isdisjoint(p["id"] for p in listed(manifest))
        assert {p["repo"] for p in dev6}.isdisjoint(p["repo"] for p in listed(manifest))
    # papers_dev7.yaml: the same against all six
    assert len(build.papers(manifest=build.DEV7)) >= 14
    dev7 = listed(build.DEV7)
    for manifest in (build.MANIFEST, build.DEV2, build.DEV3, build.DEV4, build.DEV5, build.DEV6):
        assert {p["id"] for p in dev7}.isdisjoint(p["id"] for p in listed(manifest))
        assert {p["repo"] for p in dev7}.isdisjoint(p["repo"] for p in listed(manifest))
