"""The document model every report shares: sections of paragraphs, bullet lists, tables and
figures, number formatting, and rendering to GitHub-flavoured Markdown and to one
self-contained HTML page (inline CSS, figures embedded). Both renderings come from the same
sections, so a report's Markdown and HTML cannot disagree.

Notation, the same in every report: rates as percentages ("33.44%"), differences of rates in
percentage points ("+0.56 pp"), and every interval written "lo to hi" with its unit and level
("95% CI 33.06 to 33.82%", "95% CI -7.51 to -7.05 pp").
"""
from __future__ import annotations

import base64
import html
import math
import re
from dataclasses import dataclass
from pathlib import Path


# --------------------------------------------------------------------------------------------
# number formatting (one place, so the Markdown and HTML tables agree)


def missing(x) -> bool:
    """None or NaN: a number a table shows as a dash."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(x) -> str:
    """A rate as a percentage with 2 decimals: 0.33437 -> '33.44%'."""
    return "—" if missing(x) else f"{100 * x:.2f}%"


def pp(x, signed: bool = False) -> str:
    """A difference of rates in percentage points: 0.0056 -> '0.56 pp' ('+0.56 pp' signed)."""
    if missing(x):
        return "—"
    value = round(100 * x, 2) + 0.0  # + 0.0 turns -0.0 into 0.0: no '-0.00 pp'
    return f"{value:{'+' if signed else ''}.2f} pp"


def ci(lo, hi, suffix: str = "%") -> str:
    """An interval: '33.06 to 33.82%' for rates; with suffix ' pp' a difference, each end
    signed: '-7.51 to -7.05 pp'."""
    if missing(lo) or missing(hi):
        return "—"
    if suffix.strip() == "pp":
        return f"{pp(lo, signed=True)[:-3]} to {pp(hi, signed=True)}"
    return f"{100 * lo:.2f} to {100 * hi:.2f}{suffix}"


def rate_ci(rate, lo, hi, level: str = "95%") -> str:
    """'36.21% (95% CI 35.83 to 36.59%)': a rate with its interval, level named."""
    return f"{pct(rate)} ({level} CI {ci(lo, hi)})"


def diff_ci(diff, lo, hi, level: str = "95%") -> str:
    """'-7.28 pp (95% CI -7.51 to -7.05 pp)': a difference of rates with its interval."""
    return f"{pp(diff, signed=True)} ({level} CI {ci(lo, hi, ' pp')})"


def count(n) -> str:
    return "—" if missing(n) else f"{int(n):,}"


def counted(n, noun: str, nouns: str | None = None) -> str:
    """'1 game', '7 games' ('1,200 games'); ``nouns`` where the plural is not noun + 's'."""
    return f"{count(n)} {noun if not missing(n) and int(n) == 1 else nouns or noun + 's'}"


def num(x, digits: int = 2) -> str:
    return "—" if missing(x) or (isinstance(x, float) and math.isinf(x)) else f"{x:.{digits}f}"


def pvalue(p) -> str:
    """'< 1e-6', '3.1e-05', '0.00412', '0.0496', '0.150', '0.41': precision where it matters, no
    false zeros. Three significant digits below 0.2, where the levels are: 0.0496 and 0.0504
    both read '0.05' at two decimals, one significant and one not."""
    if missing(p):
        return "—"
    if p < 1e-6:
        return "< 1e-6"
    if p < 1e-3:
        return f"{p:.1e}"
    return f"{p:#.3g}" if p < 0.2 else f"{p:.2f}"


def p_phrase(p) -> str:
    """'p < 1e-6' or 'p = 0.41'."""
    text = pvalue(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


# --------------------------------------------------------------------------------------------
# the document model: sections of paragraphs, bullet lists, tables and figures


class Code(str):
    """Inline code: identifiers and values copied from the run (no escaping surprises)."""


def and_list(values) -> str:
    """[3, 4, 5] -> '3, 4 and 5' (seats, cards, player counts)."""
    return " and ".join(", ".join(str(v) for v in values).rsplit(", ", 1))


def code_list(labels, last: str = ", ") -> list:
    """Labels as separate code spans, ', '-joined (``last`` before the final one, e.g. ' and '):
    one span would run them together, and a label may hold commas of its own."""
    labels = list(labels)
    parts = []
    for i, label in enumerate(labels):
        parts += ([last if i == len(labels) - 1 else ", "] if i else []) + [Code(label)]
    return parts


class Strong(str):
    """Emphasis for the words a reader must not miss (significant / fair)."""


@dataclass
class Para:
    parts: tuple  # str | Code | Strong


@dataclass
class Bullets:
    items: list  # each a tuple of parts


@dataclass
class Table:
    header: list[str]
    rows: list[list]  # cells: str or Code
    left: int = 1  # the first ``left`` columns are labels (left-aligned); the rest are numbers
    text: tuple = ()  # further columns (indices) of words, left-aligned among the numbers

    def is_left(self, i: int) -> bool:
        """Whether column ``i`` is left-aligned: a label or words, not a number."""
        return i < self.left or i in self.text


@dataclass
class Figure:
    name: str
    path: Path
    caption: str


@dataclass
class Section:
    title: str
    blocks: list


# --------------------------------------------------------------------------------------------
# rendering: the same sections to Markdown and to HTML


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


# Characters that would start Markdown syntax inside plain text (| splits table cells).
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|])")


def _md_inline(part, in_table: bool = False) -> str:
    if isinstance(part, Code):
        text = part.replace("|", "\\|") if in_table else part  # GFM splits cells even inside code
        fence = "``" if "`" in text else "`"
        return f"{fence}{text}{fence}"
    text = _MD_SPECIAL.sub(r"\\\1", str(part))
    text = re.sub(r"<(?=[A-Za-z/!?])", r"\\<", text)  # would open an HTML tag
    if not isinstance(part, Strong):
        return text
    # CommonMark ends no emphasis after a space ("**Not measured: **this" stays literal): the
    # spaces go outside the markers
    core = text.strip()
    lead, tail = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    return f"{lead}**{core}**{tail}" if core else text


def _md_parts(parts: tuple) -> str:
    return "".join(_md_inline(p) for p in parts)


def _md_table(table: Table) -> list[str]:
    def row(cells):
        return "| " + " | ".join(_md_inline(c, in_table=True) for c in cells) + " |"

    rule = ["---" if table.is_left(i) else "---:" for i in range(len(table.header))]
    return [row(table.header), "| " + " | ".join(rule) + " |", *(row(r) for r in table.rows)]


def to_markdown(title: str, sections: list[Section], out_dir: Path) -> str:
    """The report as GitHub-flavoured Markdown; figures are linked relative to ``out_dir``."""
    lines = [f"# {_md_parts((title,))}", ""]
    for section in sections:
        lines += [f"## {section.title}", ""]
        for block in section.blocks:
            if isinstance(block, Para):
                lines.append(_md_parts(block.parts))
            elif isinstance(block, Bullets):
                lines += [f"- {_md_parts(item)}" for item in block.items]
            elif isinstance(block, Table):
                lines += _md_table(block)
            else:
                link = block.path.relative_to(out_dir).as_posix()
                lines.append(f"![{_md_parts((block.caption,))}]({link})")
            lines.append("")
    return "\n".join(lines)


def _html_inline(part) -> str:
    text = html.escape(str(part))
    if isinstance(part, Code):
        return f"<code>{text}</code>"
    return f"<strong>{text}</strong>" if isinstance(part, Strong) else text


def _html_parts(parts: tuple) -> str:
    return "".join(_html_inline(p) for p in parts)


NUMERIC = ' class="num"'  # right-aligned, tabular figures


def _html_table(table: Table) -> str:
    def cells(tag, values):
        return "".join(f"<{tag}{'' if table.is_left(i) else NUMERIC}>{_html_inline(v)}</{tag}>"
                       for i, v in enumerate(values))

    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in table.rows)
    return (f"<div class=\"scroll\"><table><thead><tr>{cells('th', table.header)}</tr></thead>"
            f"<tbody>{body}</tbody></table></div>")


def _html_figure(figure: Figure) -> str:
    """The PNG embedded as a data: URI, so the HTML file is the whole report."""
    data = base64.b64encode(figure.path.read_bytes()).decode("ascii")
    caption = html.escape(figure.caption)
    return (f"<figure><img alt=\"{caption}\" src=\"data:image/png;base64,{data}\">"
            f"<figcaption>{caption}</figcaption></figure>")


_CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       max-width: 72rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .3rem; }
h2 { font-size: 1.25rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2.2rem; }
nav { font-size: .9rem; color: #555; }
nav a { color: #2b5d9b; text-decoration: none; margin-right: .8rem; }
ul { padding-left: 1.3rem; }
code { font-size: .9em; background: #f3f3f3; padding: 0 .2em; border-radius: 3px; }
.scroll { overflow-x: auto; margin: .6rem 0 1rem; }
table { border-collapse: collapse; font-size: .85rem; }
th, td { padding: .2rem .55rem; border-bottom: 1px solid #e4e4e4; text-align: left; white-space: nowrap; }
th { background: #f6f6f6; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; }
figcaption { font-size: .85rem; color: #555; }
/* On paper nothing may be cut off: tables wrap instead of scrolling, long specs break. */
@media print {
  body { max-width: none; margin: 0; font-size: 11px; }
  .scroll { overflow: visible; }
  table { font-size: .7rem; }
  th, td { white-space: normal; }
  td code, td { overflow-wrap: anywhere; }
  figure, tr { break-inside: avoid; }
}
"""


def to_html(title: str, sections: list[Section]) -> str:
    """The report as one self-contained HTML page (inline CSS, embedded figures, no links out)."""
    nav = " ".join(f"<a href=\"#{_anchor(s.title)}\">{html.escape(s.title)}</a>" for s in sections)
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
           f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>", f"<nav>{nav}</nav>"]
    for section in sections:
        out.append(f"<section><h2 id=\"{_anchor(section.title)}\">{html.escape(section.title)}</h2>")
        for block in section.blocks:
            if isinstance(block, Para):
                out.append(f"<p>{_html_parts(block.parts)}</p>")
            elif isinstance(block, Bullets):
                out.append("<ul>" + "".join(f"<li>{_html_parts(i)}</li>" for i in block.items) + "</ul>")
            elif isinstance(block, Table):
                out.append(_html_table(block))
            else:
                out.append(_html_figure(block))
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
