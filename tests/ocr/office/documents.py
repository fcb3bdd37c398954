"""The office probes' contents, written by hand (issue 36: the judges' probes from producers other than
TeX). Each entry is one .fodt that build.py writes and LibreOffice Writer turns into the PDF beside it."""
from __future__ import annotations

from build import fodt, formula, h, p

PROSE = ("The committee met on a Tuesday to review the budget for the coming year and agreed on most points "
         "after a long discussion of the figures. ")


def _notes() -> str:
    body = [h("Annual report of the garden society", 1),
            p('The society planted forty new trees this spring<text:note text:id="ftn1" text:note-class="footnote">'
              '<text:note-citation>1</text:note-citation><text:note-body>'
              + p("Most of them were oaks and limes from the town nursery.", "Footnote")
              + '</text:note-body></text:note> and the members watered them by hand all summer. '
              'The area of the new lawn is 120 m<text:span text:style-name="Sup">2</text:span> and the pond holds '
              '3 m³ of water; the water test found CO<text:span text:style-name="Sub">2</text:span> and H₂O only. '
              'A second planting is planned for the autumn<text:note text:id="ftn2" text:note-class="footnote">'
              '<text:note-citation>2</text:note-citation><text:note-body>'
              + p("Subject to the approval of the town council in September.", "Footnote")
              + '</text:note-body></text:note> if the weather allows it.'),
            p("The café on the corner, run by Zoë and René, gave a naïve but charming talk on coöperation."),
            p("The members agreed on these steps:"),
            '<text:list text:style-name="Bullets">'
            '<text:list-item>' + p("Repair the fence along the northern edge of the garden.") + '</text:list-item>'
            '<text:list-item>' + p("Buy two new benches for the rose beds.")
            + '<text:list><text:list-item>' + p("One bench of oak wood.") + '</text:list-item>'
            '<text:list-item>' + p("One bench of painted iron.") + '</text:list-item></text:list></text:list-item>'
            '<text:list-item>' + p("Invite the school to the harvest day.") + '</text:list-item></text:list>',
            p("The treasurer then read the order of the meeting:"),
            '<text:list text:style-name="Numbering">'
            '<text:list-item>' + p("Approval of the minutes of the last meeting.") + '</text:list-item>'
            '<text:list-item>' + p("Report of the treasurer on the accounts.") + '</text:list-item>'
            '<text:list-item>' + p("Election of the new board members.") + '</text:list-item></text:list>',
            p('<draw:frame draw:style-name="fr1" draw:name="Box" text:anchor-type="paragraph" svg:width="9cm" '
              'draw:z-index="0"><draw:text-box fo:min-height="1cm">'
              + p("Note from the board: the garden stays closed on public holidays.", "Frame_20_contents")
              + '</draw:text-box></draw:frame>' + PROSE),
            p(PROSE * 2)]
    return fodt("\n".join(body), "Garden report")


def _columns(count: int, style: str, justified: bool) -> str:
    para = "Just" if justified else "Text_20_body"
    names = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]
    paras = [p(f"{n} paragraph {k} tells of the {n.lower()} study and its results in plain words. " + PROSE * 2, para)
             for n in names[:count * 2] for k in (1,)]
    body = [h("Newsletter of the club", 1), f'<text:section text:style-name="{style}" text:name="Cols">',
            *paras, "</text:section>", p("End of the newsletter. " + PROSE)]
    return fodt("\n".join(body), "Newsletter")


def _headings() -> str:
    body = [h("Introduction", 1), p(PROSE * 3),
            p("This sentence is set large and bold in the body but it is only a sentence of the text that runs on.",
              "Big"),
            p(PROSE * 2), h("Methods of the survey", 2), p(PROSE * 3),
            p("Results", "BigSans"), p(PROSE * 3)]
    return fodt("\n".join(body), "Headings")


def _math() -> str:
    integral = formula("int from a to b f(x) dx = F(b) - F(a)",
                       "<mrow><munderover><mo>∫</mo><mi>a</mi><mi>b</mi></munderover><mi>f</mi><mo>(</mo><mi>x</mi>"
                       "<mo>)</mo><mi>d</mi><mi>x</mi><mo>=</mo><mi>F</mi><mo>(</mo><mi>b</mi><mo>)</mo><mo>−</mo>"
                       "<mi>F</mi><mo>(</mo><mi>a</mi><mo>)</mo></mrow>", "F1", (4.3, 1.5))
    scripts = formula("y = x^2 + x_i^3",
                      "<mrow><mi>y</mi><mo>=</mo><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><msubsup><mi>x</mi>"
                      "<mi>i</mi><mn>3</mn></msubsup></mrow>", "F2", (2.2, 0.75))
    where = formula('E = m c^2 " where " c > 0',
                    "<mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup><mtext> where </mtext>"
                    "<mi>c</mi><mo>&gt;</mo><mn>0</mn></mrow>", "F3", (3.3, 0.6))
    frac = formula("{a + b} over {2 c}",
                   "<mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mrow><mn>2</mn><mi>c</mi></mrow></mfrac>", "F4", (1.1, 1.2))
    inline = formula("%alpha + %beta", "<mrow><mi>α</mi><mo>+</mo><mi>β</mi></mrow>", "F5", (1.0, 0.5), inline=True)
    body = [h("A note on calculus", 1), p("The area under the curve is found with the rule below. " + PROSE),
            p(integral, "Standard"), p("The polynomial of the second example has two terms. " + PROSE),
            p(scripts, "Standard"), p("The energy of a body at rest follows. " + PROSE), p(where, "Standard"),
            p("A fraction closes the list of examples. " + PROSE), p(frac, "Standard"),
            p(f"In the text the sum {inline} of the two angles is written inline, and so is x² for a square. " + PROSE)]
    return fodt("\n".join(body), "Calculus")


def _table(borders: bool) -> str:
    cell = "Cell" if borders else "CellBare"
    heads = ["Model", "MMLU", "GSM8K", "HumanEval", "ARC", "HellaSwag", "TruthfulQA", "Winogrande", "DROP"]
    rows = [["Baseline", "61.2", "45.3", "30.1", "77.9", "80.4", "41.7", "74.2", "55.0"],
            ["Ours", "64.8", "52.6", "33.4", "80.2", "82.9", "44.1", "76.5", "58.3"],
            ["Ours+RL", "66.1", "55.0", "35.2", "81.0", "83.3", "46.8", "77.0", "60.9"]]

    def row(cells, head=False):
        return "<table:table-row>" + "".join(
            f'<table:table-cell table:style-name="{cell}" office:value-type="string">'
            f'<text:p text:style-name="{"Table_20_Contents" if head or i == 0 else "Num"}">{c}</text:p></table:table-cell>'
            for i, c in enumerate(cells)) + "</table:table-row>"
    stacked = ("<table:table table:name=\"Units\"><table:table-column table:number-columns-repeated=\"4\"/>"
               + row(["Dataset", "Latency", "Memory", "Accuracy"], True) + row(["", "ms", "GB", "%"], True)
               + row(["ImageNet", "12.4", "3.1", "76.5"]) + row(["COCO", "20.7", "4.8", "41.2"]) + "</table:table>")
    wrapped = ("<table:table table:name=\"Wrapped\"><table:table-column table:number-columns-repeated=\"4\"/>"
               + row(["Dataset used for the evaluation of every model", "Latency", "Memory", "Accuracy"], True)
               + row(["ImageNet", "12.4", "3.1", "76.5"]) + row(["COCO", "20.7", "4.8", "41.2"]) + "</table:table>")
    body = [h("Results", 1), p(PROSE * 2), p("Table 1: Scores of the models on nine benchmarks.", "Caption"),
            '<table:table table:name="Scores"><table:table-column table:number-columns-repeated="9"/>'
            + row(heads, True) + "".join(row(r) for r in rows) + "</table:table>", p(PROSE * 2),
            p("Table 2: Cost and accuracy with units.", "Caption"), stacked, p(PROSE),
            p("Table 3: Cost and accuracy with a long head.", "Caption"), wrapped, p(PROSE)]
    return fodt("\n".join(body), "Results")


def _glyphs() -> str:
    """Glyphs of several code points: Libertine's ligatures, emoji sequences joined by U+200D, a flag,
    Arabic (lam-alef), decomposed letters, and Math objects with accents: an accent over a letter
    and a letter with a combining hat typed inside the formula (drawn as two glyphs)."""
    lib = ('<style:style style:name="Lib" style:family="paragraph"><style:text-properties '
           'style:font-name="Linux Libertine O" fo:font-family="\'Linux Libertine O\'"/></style:style>')
    arabic = ('<style:style style:name="Ar" style:family="text"><style:text-properties style:font-name-complex='
              '"Noto Naskh Arabic" style:font-family-complex="\'Noto Naskh Arabic\'"/></style:style>')
    hats = formula("hat x + vec v = widetilde y cdot overline z",
                   "<mrow><mover><mi>x</mi><mo>^</mo></mover><mo>+</mo><mover><mi>v</mi><mo>→</mo></mover><mo>=</mo>"
                   "<mover><mi>y</mi><mo>~</mo></mover><mo>⋅</mo><mover><mi>z</mi><mo>¯</mo></mover></mrow>", "G1", (3.5, 0.8))
    combining = formula('"x\u0302" + %lambda = 2', "<mrow><mi>x\u0302</mi><mo>+</mo><mi>λ</mi><mo>=</mo><mn>2</mn></mrow>",
                        "G2", (2.5, 0.6))
    body = [h("Glyphs of several code points", 1),
            p("The office staff affirmed the efficient fjord flight of the fifty waffles in Libertine.", "Lib"),
            p("An emoji sequence \U0001F469\u200d\U0001F52C and a flag \U0001F1EB\U0001F1F7 and a family "
              "\U0001F468\u200d\U0001F469\u200d\U0001F467 stand in this sentence."),
            p('Arabic text <text:span text:style-name="Ar">لا إله العربية</text:span> sits inside a Latin sentence here.'),
            p("Decomposed letters: cafe\u0301, n\u0303, A\u030a, and Hangul \u1100\u1161\u11a8 jamo end the sentence."),
            p("The formula below has accents over its letters."), p(hats, "Standard"),
            p("A combining hat inside a formula follows."), p(combining, "Standard"), p("The end of the probe.")]
    return fodt("\n".join(body), "Glyphs", extra_styles=lib + arabic)


def _report_tables() -> str:
    """Tables of a report as Writer sets them without borders (tables11rw): heads flush left over numbers
    flush right (Writer's default for a number cell), a text column, a total row; the second table's body
    rows shaded in turn (zebra: a filled rectangle behind every other row, no rule at all), its head row
    filled dark with white bold text."""
    shade = ('<style:style style:name="Zebra" style:family="table-cell"><style:table-cell-properties '
             'fo:padding="0.05cm" fo:border="none" fo:background-color="#dde4ee"/></style:style>'
             '<style:style style:name="HeadFill" style:family="table-cell"><style:table-cell-properties '
             'fo:padding="0.05cm" fo:border="none" fo:background-color="#1f3864"/></style:style>'
             '<style:style style:name="White" style:family="paragraph" style:parent-style-name="Table_20_Contents">'
             '<style:text-properties fo:color="#ffffff" fo:font-weight="bold"/></style:style>'
             '<style:style style:name="WhiteNum" style:family="paragraph" style:parent-style-name="White">'
             '<style:paragraph-properties fo:text-align="end"/></style:style>')

    def table(name: str, heads: list[str], rows: list[list[str]], zebra: bool) -> str:
        def cells(values: list[str], cell: str, first: str, rest: str) -> str:
            return "<table:table-row>" + "".join(
                f'<table:table-cell table:style-name="{cell}" office:value-type="string">'
                f'<text:p text:style-name="{first if i == 0 else rest}">{v}</text:p></table:table-cell>'
                for i, v in enumerate(values)) + "</table:table-row>"
        head = (cells(heads, "HeadFill", "White", "WhiteNum") if zebra
                else cells(heads, "CellBare", "Table_20_Contents", "Table_20_Contents"))
        body = "".join(cells(r, "Zebra" if zebra and k % 2 == 0 else "CellBare", "Table_20_Contents", "Num")
                       for k, r in enumerate(rows))
        return (f'<table:table table:name="{name}"><table:table-column table:number-columns-repeated="{len(heads)}"/>'
                + head + body + "</table:table>")

    sales = table("Sales", ["Region", "Stores", "Revenue", "Margin (%)", "Staff"],
                  [["North East", "14", "2,481.3", "12.4", "316"], ["North West", "9", "1,902.7", "10.9", "204"],
                   ["Midlands", "21", "3,377.0", "13.8", "455"], ["South East", "17", "2,950.2", "11.1", "389"],
                   ["South West", "6", "   874.5", "9.7", "121"], ["Total", "67", "11,585.7", "11.8", "1,485"]], False)
    fleet = table("Fleet", ["Vehicle", "Fuel", "Distance (km)", "Cost per km", "Trips"],
                  [["Van 1", "Diesel", "41,230", "0.38", "512"], ["Van 2", "Electric", "35,904", "0.21", "487"],
                   ["Truck A", "Diesel", "88,117", "0.64", "233"], ["Truck B", "Diesel", "79,560", "0.61", "219"],
                   ["Car 3", "Petrol", "22,418", "0.29", "640"], ["Car 4", "Hybrid", "19,877", "0.24", "602"]], True)
    body = [h("Quarterly figures", 1), p(PROSE * 2), p("Table 1: Sales by region in the quarter.", "Caption"), sales,
            p(PROSE * 2), p("Table 2: The fleet's use in the quarter.", "Caption"), fleet, p(PROSE)]
    return fodt("\n".join(body), "Quarterly figures", extra_styles=shade)


def _memo() -> str:
    """A one-page memo under Writer's header paragraph (the Header style: 9 pt, aligned right), no page
    number in its foot, nothing repeated: a page style's head no rule knew without a "Page 1"."""
    body = [h("Minutes of the budget meeting", 1), p(PROSE * 4), p("The board then turned to the boat house. " + PROSE * 3),
            h("Decisions", 2), p("The treasurer will buy two new sculls before the season opens. " + PROSE * 4)]
    return fodt("\n".join(body), "Board minutes", header="Harbour Rowing Club · Board minutes")


DOCUMENTS = {"notes.fodt": _notes(), "columns3.fodt": _columns(3, "Sect3", False), "headings.fodt": _headings(),
             "maths.fodt": _math(), "table_ruled.fodt": _table(True), "glyphs.fodt": _glyphs(),
             "report_tables.fodt": _report_tables(), "memo.fodt": _memo()}
