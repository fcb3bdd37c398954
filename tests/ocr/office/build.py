"""Writes the office probes' sources (.fodt: LibreOffice's flat OpenDocument text; .csv for Calc) and
converts them to PDF with LibreOffice (Debian 12's 7.4, headless). Not run by the tests, which read
only the committed PDFs: LibreOffice is no dependency of the project. To rebuild (as root, once):
    apt-get install -y libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-math-nogui groff ghostscript
    cd tests/ocr/office && python build.py
Each .fodt is written here whole (its contents: documents.py), so the source of every PDF is in the
repository beside it. monthly.fods and units.fods (Calc sheets, written by hand) are converted as they are, and
groff_report.ms (groff's ms macros with tbl and eqn, 1.22.4) through PostScript and Ghostscript's
ps2pdf (10.0): ``groff -ms -t -e -Tps groff_report.ms | ps2pdf - groff_report.pdf``."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
      'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
      'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" '
      'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
      'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
      'xmlns:math="http://www.w3.org/1998/Math/MathML" office:version="1.3" '
      'office:mimetype="application/vnd.oasis.opendocument.text"')
STYLES = """<office:font-face-decls>
 <style:font-face style:name="Liberation Serif" svg:font-family="'Liberation Serif'" style:font-family-generic="roman"/>
 <style:font-face style:name="Liberation Sans" svg:font-family="'Liberation Sans'" style:font-family-generic="swiss"/>
</office:font-face-decls>
<office:styles>
 <style:default-style style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.15cm"/>
  <style:text-properties style:font-name="Liberation Serif" fo:font-size="11pt" fo:language="en" fo:country="US"/></style:default-style>
 <style:style style:name="Standard" style:family="paragraph" style:class="text"/>
 <style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph" style:parent-style-name="Standard"/>
 <style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard" style:next-style-name="Text_20_body">
  <style:paragraph-properties fo:margin-top="0.42cm" fo:margin-bottom="0.21cm" fo:keep-with-next="always"/>
  <style:text-properties style:font-name="Liberation Sans" fo:font-weight="bold"/></style:style>
 <style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="1">
  <style:text-properties fo:font-size="16pt"/></style:style>
 <style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="2">
  <style:text-properties fo:font-size="13pt"/></style:style>
 <style:style style:name="Title" style:family="paragraph" style:parent-style-name="Heading">
  <style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="24pt"/></style:style>
 <style:style style:name="Table_20_Contents" style:display-name="Table Contents" style:family="paragraph" style:parent-style-name="Standard">
  <style:paragraph-properties fo:margin-bottom="0cm"/><style:text-properties fo:font-size="10pt"/></style:style>
 <style:style style:name="Caption" style:family="paragraph" style:parent-style-name="Standard">
  <style:text-properties fo:font-size="10pt" fo:font-style="italic"/></style:style>
 <style:style style:name="Footnote" style:family="paragraph" style:parent-style-name="Standard">
  <style:paragraph-properties fo:margin-left="0.6cm" fo:text-indent="-0.6cm" fo:margin-bottom="0cm"/><style:text-properties fo:font-size="9pt"/></style:style>
 <style:style style:name="Header" style:family="paragraph" style:parent-style-name="Standard">
  <style:paragraph-properties fo:text-align="end"/><style:text-properties fo:font-size="9pt"/></style:style>
 <style:style style:name="Footer" style:family="paragraph" style:parent-style-name="Standard">
  <style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="9pt"/></style:style>
 <style:style style:name="Frame_20_contents" style:display-name="Frame contents" style:family="paragraph" style:parent-style-name="Standard"/>
 <style:style style:name="Footnote_20_Symbol" style:display-name="Footnote Symbol" style:family="text"/>
 <style:style style:name="Footnote_20_anchor" style:display-name="Footnote anchor" style:family="text"><style:text-properties style:text-position="super 58%"/></style:style>
 <text:notes-configuration text:note-class="footnote" text:citation-style-name="Footnote_20_Symbol" text:citation-body-style-name="Footnote_20_anchor" style:num-format="1" text:start-value="0" text:footnotes-position="page" text:start-numbering-at="document"/>
 <text:list-style style:name="Bullets">
  <text:list-level-style-bullet text:level="1" text:bullet-char="•"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="1.27cm" fo:text-indent="-0.635cm" fo:margin-left="1.27cm"/></style:list-level-properties></text:list-level-style-bullet>
  <text:list-level-style-bullet text:level="2" text:bullet-char="◦"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="1.905cm" fo:text-indent="-0.635cm" fo:margin-left="1.905cm"/></style:list-level-properties></text:list-level-style-bullet>
 </text:list-style>
 <text:list-style style:name="Numbering">
  <text:list-level-style-number text:level="1" style:num-suffix="." style:num-format="1"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="1.27cm" fo:text-indent="-0.635cm" fo:margin-left="1.27cm"/></style:list-level-properties></text:list-level-style-number>
  <text:list-level-style-number text:level="2" style:num-suffix=")" style:num-format="a"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="1.905cm" fo:text-indent="-0.635cm" fo:margin-left="1.905cm"/></style:list-level-properties></text:list-level-style-number>
 </text:list-style>
</office:styles>
"""
AUTOMATIC = """<office:automatic-styles>
 <style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="1.5cm" fo:margin-bottom="1.5cm" fo:margin-left="2cm" fo:margin-right="2cm"/>
  <style:header-style><style:header-footer-properties fo:min-height="0cm" fo:margin-bottom="0.5cm"/></style:header-style>
  <style:footer-style><style:header-footer-properties fo:min-height="0cm" fo:margin-top="0.5cm"/></style:footer-style></style:page-layout>
 <style:style style:name="Big" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties fo:font-size="16pt" fo:font-weight="bold"/></style:style>
 <style:style style:name="BigSans" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties style:font-name="Liberation Sans" fo:font-size="14pt" fo:font-weight="bold"/></style:style>
 <style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
 <style:style style:name="Sup" style:family="text"><style:text-properties style:text-position="super 58%"/></style:style>
 <style:style style:name="Sub" style:family="text"><style:text-properties style:text-position="sub 58%"/></style:style>
 <style:style style:name="Sect2" style:family="section"><style:section-properties text:dont-balance-text-columns="false"><style:columns fo:column-count="2" fo:column-gap="0.15cm"><style:column style:rel-width="1*" fo:start-indent="0cm" fo:end-indent="0.075cm"/><style:column style:rel-width="1*" fo:start-indent="0.075cm" fo:end-indent="0cm"/></style:columns></style:section-properties></style:style>
 <style:style style:name="Sect3" style:family="section"><style:section-properties text:dont-balance-text-columns="false"><style:columns fo:column-count="3" fo:column-gap="0.1cm"><style:column style:rel-width="1*" fo:start-indent="0cm" fo:end-indent="0.05cm"/><style:column style:rel-width="1*" fo:start-indent="0.05cm" fo:end-indent="0.05cm"/><style:column style:rel-width="1*" fo:start-indent="0.05cm" fo:end-indent="0cm"/></style:columns></style:section-properties></style:style>
 <style:style style:name="Just" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="justify"/></style:style>
 <style:style style:name="Cell" style:family="table-cell"><style:table-cell-properties fo:padding="0.05cm" fo:border="0.5pt solid #000000"/></style:style>
 <style:style style:name="CellBare" style:family="table-cell"><style:table-cell-properties fo:padding="0.03cm" fo:border="none"/></style:style>
 <style:style style:name="Num" style:family="paragraph" style:parent-style-name="Table_20_Contents"><style:paragraph-properties fo:text-align="end"/></style:style>
 <style:style style:name="fr1" style:family="graphic"><style:graphic-properties style:wrap="none" style:vertical-pos="top" style:horizontal-pos="center" fo:border="0.5pt solid #000000" fo:padding="0.2cm"/></style:style>
 <style:style style:name="fr2" style:family="graphic"><style:graphic-properties style:wrap="none" style:vertical-pos="middle" style:vertical-rel="text" style:horizontal-pos="center"/></style:style>
 <style:style style:name="fr3" style:family="graphic"><style:graphic-properties style:vertical-pos="middle" style:vertical-rel="text"/></style:style>
%s
</office:automatic-styles>
"""


def fodt(body: str, title: str, header: str = "", footer: str = "", extra_styles: str = "") -> str:
    parts = []
    if header:
        parts.append(f'<style:header><text:p text:style-name="Header">{header}</text:p></style:header>')
    if footer:
        parts.append(f'<style:footer><text:p text:style-name="Footer">{footer}</text:p></style:footer>')
    master = ('<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1">'
              + "".join(parts) + '</style:master-page></office:master-styles>')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {NS}>\n'
            f'<office:meta><dc:title>{title}</dc:title></office:meta>\n'
            + STYLES + AUTOMATIC.replace("%s", extra_styles) + master
            + f'\n<office:body><office:text>\n{body}\n</office:text></office:body></office:document>\n')


def p(text: str, style: str = "Text_20_body") -> str:
    return f'<text:p text:style-name="{style}">{text}</text:p>'


def h(text: str, level: int) -> str:
    return f'<text:h text:style-name="Heading_20_{level}" text:outline-level="{level}">{text}</text:h>'


def formula(starmath: str, mathml: str, name: str, size: tuple[float, float], inline: bool = False) -> str:
    """A LibreOffice Math object: its MathML and StarMath source (Math lays it out from the StarMath),
    in a frame of ``size`` (cm, the formula's own size at Math's 12 pt: Writer scales the formula to
    its frame)."""
    style = "fr3" if inline else "fr2"
    anchor = "as-char"
    return (f'<draw:frame draw:style-name="{style}" draw:name="{name}" text:anchor-type="{anchor}" '
            f'svg:width="{size[0]}cm" svg:height="{size[1]}cm">'
            '<draw:object><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics>'
            f'{mathml}<annotation encoding="StarMath 5.0">{starmath}</annotation></semantics></math>'
            '</draw:object></draw:frame>')


def convert(paths: list[Path]) -> None:
    if not paths:
        return
    subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(HERE), *map(str, paths)],
                   check=True)


if __name__ == "__main__":
    from documents import DOCUMENTS  # the probes' contents (tests/ocr/office/documents.py)

    written = []
    for name, text in DOCUMENTS.items():
        path = HERE / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    convert([w for w in [*written, HERE / "monthly.fods", HERE / "units.fods"] if len(sys.argv) < 2 or w.stem in sys.argv[1:]])
    if len(sys.argv) < 2 or "groff_report" in sys.argv[1:]:
        postscript = subprocess.run(["groff", "-ms", "-t", "-e", "-Tps", str(HERE / "groff_report.ms")],
                                    check=True, capture_output=True).stdout
        subprocess.run(["ps2pdf", "-", str(HERE / "groff_report.pdf")], input=postscript, check=True)
