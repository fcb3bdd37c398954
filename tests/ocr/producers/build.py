"""How the producer probes' PDFs (issue 36 items 3, 6: documents from producers and kinds the engine
was not tuned on) were made. Not run by the tests, which read only the committed PDFs: the producers
(TeX Live 2022 and Ghostscript 10.0 of Debian 12, tesseract 5.3) are no dependency of the project. To
rebuild, as root once: ``apt-get install -y texlive-latex-recommended texlive-fonts-recommended
texlive-xetex texlive-luatex ghostscript tesseract-ocr
libreoffice-impress pandoc``, then ``python build.py`` here.

- ``times_paper.pdf``: ``times_paper.tex`` (its text in ``body.tex``) by pdflatex with the times
  package (Nimbus Roman): a justified line stretched over a sentence space after a footnote mark.
- ``tesseract_layer.pdf``: page 1 of ``times_paper.pdf`` rendered at 300 dpi (pypdfium2), thresholded
  to one bit at 160, and given to ``tesseract scan.png tesseract_layer pdf``: the page image with
  tesseract's invisible text layer (render mode 3, GlyphLessFont), as most scanned papers on the web.
- ``dvips_paper.pdf``: ``dvips_paper.tex`` (the same text in Computer Modern) by latex, dvips and
  Ghostscript's ps2pdf: Type 1 fonts re-encoded, TeX's rules drawn as one-bit images (imagemask).
- ``xelatex_redistilled.pdf``: ``xelatex_paper.tex`` (fontspec's TeX Gyre Termes, unicode-math's TeX
  Gyre Termes Math: Identity-H CID fonts) by xelatex, then re-distilled by Ghostscript's pdfwrite
  (``gs -sDEVICE=pdfwrite -dPDFSETTINGS=/ebook``), as a repository or a print shop does.
- ``slides.pdf``: ``slides.fodp`` (three slides written by hand as a flat OpenDocument presentation:
  a title, a bulleted list, a text beside a table) by LibreOffice Impress 7.4, ``soffice --headless
  --convert-to pdf slides.fodp``: its bullets in OpenSymbol without ToUnicode.
- ``lualatex_paper.pdf``: ``lualatex_paper.tex`` (fontspec's Latin Modern Roman, Latin Modern Math) by
  lualatex.
- ``listing.pdf``: ``listing.md`` (a highlighted Python block and a plain block) by pandoc (2.17, Debian's)
  through xelatex: ``pandoc listing.md --pdf-engine=xelatex -o listing.pdf`` (Latin Modern Mono, the
  keywords in its bold face; the plain block in ``verbatim``).
- ``chart.pdf``: ``chart.py`` (matplotlib's pdf backend, a line plot saved as a page of its own).
- ``type3_paper.pdf``: ``type3_paper.tex`` (T1 fonts) by latex, dvips and ps2pdf on a TeX Live without
  cm-super: dvips drew the text in its bitmap (pk) fonts, Type 3 without names or weights. With
  cm-super installed dvips takes its Type 1 fonts instead; ``main`` below does not rebuild this one.
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).parent


def main() -> None:
    import pypdfium2

    def run(*args: str) -> None:
        subprocess.run(list(args), cwd=HERE, check=True)

    run("pdflatex", "-interaction=nonstopmode", "times_paper.tex")
    run("latex", "-interaction=nonstopmode", "dvips_paper.tex")
    run("dvips", "-q", "-o", "dvips_paper.ps", "dvips_paper.dvi")
    run("ps2pdf", "dvips_paper.ps", "dvips_paper.pdf")
    run("xelatex", "-interaction=nonstopmode", "xelatex_paper.tex")
    run("gs", "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pdfwrite", "-dCompatibilityLevel=1.4", "-dPDFSETTINGS=/ebook",
        "-sOutputFile=xelatex_redistilled.pdf", "xelatex_paper.pdf")
    run("lualatex", "-interaction=nonstopmode", "lualatex_paper.tex")
    run("soffice", "--headless", "--convert-to", "pdf", "slides.fodp")
    run("pandoc", "listing.md", "--pdf-engine=xelatex", "-o", "listing.pdf")
    run("python", "chart.py")
    with tempfile.TemporaryDirectory() as tmp:
        page = pypdfium2.PdfDocument(HERE / "times_paper.pdf")[0]
        image = page.render(scale=300 / 72, grayscale=True).to_pil()
        png = Path(tmp) / "scan.png"
        image.point(lambda v: 255 if v > 160 else 0).convert("1").save(png, dpi=(300, 300))
        subprocess.run(["tesseract", str(png), str(HERE / "tesseract_layer"), "pdf"], check=True)


if __name__ == "__main__":
    main()
