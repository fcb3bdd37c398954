"""Walled LaTeX grids (``|l|c|c|``) as machine-learning papers write them, read against the rules of a
walled grid's rows that were made on word processors' tables (table_ruled_rows; issue 36 items 3, 6).
A LaTeX header of two ``\\\\`` rows looks like a Word head wrapped in its cell: both are lines at the
body's pitch between the rules, every wall running through them. Typeset here with pdflatex; truth
from the LaTeX source (a row is what ``\\\\`` ends), judged by olmOCR-Bench's ``TableTest``."""
from __future__ import annotations

from tests.ocr.typeset_tables import assert_table_tests_pass, table_markdown, table_test

_PROSE = "A paragraph of prose sets the page before the table and runs well past the end of one line of text.\n\n"


def _table(spec: str, rows: str, before: str = "") -> str:
    return (_PROSE + "\\begin{table}[h]\\centering" + before + "\n\\begin{tabular}{" + spec + "}\n" + rows
            + "\\end{tabular}\n\\caption{A table.}\n\\end{table}\n\n" + _PROSE)


def test_a_unit_row_under_its_quantities_stays_a_row(tmp_path):
    """``Method & Time & Memory & Accuracy \\\\ & (s) & (GB) & (\\%)``, one ``\\hline`` under the head
    and one under the body: the head's lines between two rules, every wall through them, were read as
    one row of wrapped heads ("Time (s)"), so no column's head was "Time" and no cell had "(s)" over it."""
    markdown = table_markdown(tmp_path, _table("|l|c|c|c|", r"""\hline
Method & Time & Memory & Accuracy \\
 & (s) & (GB) & (\%) \\ \hline
Baseline & 12.4 & 3.2 & 91.2 \\
Ours & 8.1 & 2.9 & 93.5 \\
Ours (large) & 15.3 & 6.1 & 94.8 \\ \hline
"""), packages="times")
    assert_table_tests_pass(markdown, [
        table_test("12.4", up="(s)", top_heading="Time", left="Baseline"),
        table_test("2.9", up="3.2", down="6.1", top_heading="Memory"),
        table_test("(GB)", up="Memory", down="3.2")])


def test_a_head_of_two_rows_under_a_stretched_array_stays_two_rows(tmp_path):
    """``\\renewcommand{\\arraystretch}{1.4}``, ``Dataset & Train & Test \\\\ & size & size``: the two
    head rows are set at the rows' pitch, as far apart as the body's rows; read as one wrapped row."""
    markdown = table_markdown(tmp_path, _table("|l|c|c|", r"""\hline
Dataset & Train & Test \\
 & size & size \\ \hline
MNIST & 60000 & 10000 \\
CIFAR-10 & 50000 & 12000 \\
SVHN & 73257 & 26032 \\ \hline
""", r"\renewcommand{\arraystretch}{1.4}"), packages="times")
    assert_table_tests_pass(markdown, [
        table_test("60000", up="size", top_heading="Train", left="MNIST"),
        table_test("26032", up="12000", top_heading="Test")])


def test_a_small_table_ruled_row_by_row_keeps_its_unit_row(tmp_path):
    """``\\small``, ``\\hline`` under every body row, ``Model & Params & Train time & Inference \\\\ &
    (M) & (hours) & (ms)``: the rule over the first line lies a cell's padding above it, so the head's
    two rows were one stretch between two rules, joined into "Train time (hours)"."""
    markdown = table_markdown(tmp_path, _table("|l|c|c|c|", r"""\hline
Model & Params & Train time & Inference \\
 & (M) & (hours) & (ms) \\ \hline
LSTM & 24 & 10.5 & 4.2 \\ \hline
GRU & 18 & 8.7 & 3.9 \\ \hline
Transformer & 65 & 12.1 & 6.8 \\ \hline
""", r"\small"), packages="times")
    assert_table_tests_pass(markdown, [
        table_test("8.7", up="10.5", down="12.1", left="18", top_heading="Train time"),
        table_test("(hours)", up="Train time", down="10.5")])


def test_a_head_of_three_rows_with_its_label_on_the_middle_one_stays_three_rows(tmp_path):
    """`` & Average & Worst \\\\ Method & case & case \\\\ & error & error``: read as one row."""
    markdown = table_markdown(tmp_path, _table("|l|c|c|", r"""\hline
 & Average & Worst \\
Method & case & case \\
 & error & error \\ \hline
A & 0.12 & 0.40 \\
B & 0.09 & 0.31 \\
C & 0.07 & 0.22 \\ \hline
"""), packages="times")
    assert_table_tests_pass(markdown, [table_test("0.12", up="error", down="0.09", left="A")])


def test_a_head_whose_label_cells_sit_on_its_second_row_stays_two_rows(tmp_path):
    """`` & & Optimal & Minimum \\\\ Modeling & Runtime & Window Size & MAE`` (the real set's dev paper
    stoic): the second line fills every column, the first only two, as a Word head whose cells sit at
    its bottom; it was read as one row ("Optimal Window Size"). Not every column's head runs over two
    lines ("Modeling", "Runtime" one each): two rows, as the source writes them."""
    markdown = table_markdown(tmp_path, _table("|c|c|c|c|", r"""\hline
 & & Optimal & Minimum \\
Modeling & Runtime & Window Size & MAE \\ \hline
AutoReg & cpu & 15 & 8.977 \\ \hline
AutoReg & gpu1 & 16 & 9.605 \\ \hline
Avg. SW & gpu2 & 33 & 7.714 \\ \hline
"""), packages="times")
    assert_table_tests_pass(markdown, [
        table_test("9.605", up="8.977", down="7.714", top_heading="Minimum", left="16"),
        table_test("Window Size", up="Optimal", down="15", left="Runtime")])


def test_a_row_of_units_under_every_column_stays_a_row(tmp_path):
    """``Distance & GROMACS energy & CHARMM energy \\\\ (nm) & (kJ/mol) & (kJ/mol)`` (the dev3 paper
    sampl5's table): every column runs onto the second line, but that line is units, a row of its own."""
    markdown = table_markdown(tmp_path, _table("|c|c|c|", r"""\hline
Distance & GROMACS energy & CHARMM energy \\
(nm) & (kJ/mol) & (kJ/mol) \\ \hline
1.5 & 12223.489 & 12223.753 \\
1.4 & 12223.524 & 12223.749 \\
1.3 & 12223.667 & 12223.748 \\ \hline
"""), packages="times")
    assert_table_tests_pass(markdown, [
        table_test("12223.524", up="12223.489", down="12223.667", top_heading="GROMACS energy", left="1.4"),
        table_test("(nm)", up="Distance", down="1.5", right="(kJ/mol)")])


def test_rows_set_at_a_stretched_pitch_without_a_rule_between_them_stay_rows(tmp_path):
    """``\\arraystretch{1.5}``, a ``p{5cm}`` column whose cells wrap, ``\\hline`` under most rows but
    not between "Policy" and "Reward": a wrapped cell's lines are set at the font's leading, closer than
    rows at the stretched pitch, so the grid read as padded (a Word table of text) and the two rows,
    holding no numbers, were joined into one ("Policy Reward"). Lines set as far apart as lines a rule
    parts are rows."""
    markdown = table_markdown(tmp_path, _table("|l|p{5cm}|", r"""\hline
Term & Meaning \\ \hline
Agent & The learner that acts in the environment and receives a reward for each action \\ \hline
Policy & A map from states to actions \\
Reward & A scalar signal \\ \hline
Return & The discounted sum of rewards collected over an episode from a given step \\ \hline
""", r"\renewcommand{\arraystretch}{1.5}"), packages="times")
    assert_table_tests_pass(markdown, [
        table_test("Policy", up="Agent", down="Reward", right="A map from states to actions"),
        table_test("Reward", up="Policy", down="Return", right="A scalar signal"),
        table_test("Agent", right="The learner that acts in the environment and receives a reward for each action",
                   down="Policy")])


def test_a_grid_every_row_of_which_wraps_in_a_p_column_reads_row_by_row(tmp_path):
    """``|l|p{4cm}|c|``, ``\\hline`` after every row, each description wrapped over two or three lines:
    no stretch between two rules held one line and the lines were set at the font's leading (no
    cell padding), so nothing said the grid rules its rows one by one and each line was a row ("masked
    language modelling" a row of its own). A justified cell's line reaches its column's edge: the
    next line's first word would not have fit after it, so the lines are one cell's."""
    markdown = table_markdown(tmp_path, _table("|l|p{4cm}|c|", r"""\hline
Model & Description & Params \\ \hline
BERT & A bidirectional transformer encoder pretrained with masked language modelling & 110M \\ \hline
GPT-2 & A left-to-right transformer decoder trained on web text & 1.5B \\ \hline
T5 & An encoder-decoder model that casts every task as text to text & 220M \\ \hline
"""), packages="times")
    assert_table_tests_pass(markdown, [
        table_test("110M", up="Params", down="1.5B",
                   left="A bidirectional transformer encoder pretrained with masked language modelling"),
        table_test("GPT-2", up="BERT", down="T5", right="A left-to-right transformer decoder trained on web text")])
