"""scripts/bench.py writes docs/BENCHMARKS.md: a run regenerates its own sections and keeps the
hand-written history of measured changes (each paragraph names the command that measured it)."""
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("bench", Path(__file__).resolve().parents[1] / "scripts" / "bench.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

OLD = """# Benchmarks

intro
## Games per second (avengers-cards)

old table
## Session history

measured by hand, `python scripts/bench.py --against abc`
## Games per second (smash-up)

old smash table
## Cold compile notes

more history
"""


def test_a_full_run_keeps_the_hand_written_sections_and_drops_its_own_old_ones():
    generated = ["# Benchmarks", "", "new intro", "## Games per second (avengers-cards)", "", "new table",
                 "## Games per second (smash-up)", "", "new smash table"]
    kept = bench.written_sections(OLD, generated)
    assert kept == ["", "## Session history", "", "measured by hand, `python scripts/bench.py --against abc`",
                    "", "## Cold compile notes", "", "more history"]
    assert "old table" not in kept and "old smash table" not in kept
    assert bench.written_sections("", generated) == []


def test_one_games_section_is_replaced_in_place_and_the_rest_is_untouched():
    new = bench.replace_section(OLD, ["## Games per second (smash-up)", "", "new smash table"]).splitlines()
    assert "old smash table" not in new and "new smash table" in new
    assert new.index("new smash table") < new.index("## Cold compile notes")
    for line in ("old table", "## Session history", "more history"):
        assert line in new


def test_only_reads_the_file_after_measuring_so_edits_made_meanwhile_survive(tmp_path, monkeypatch):
    """`bench.py --only smash-up` measures for minutes; the file is read when the section is
    written, so an edit made to another section meanwhile is kept (it was lost once)."""
    out = tmp_path / "BENCHMARKS.md"
    out.write_text(OLD, encoding="utf-8")

    def measure(quick, repeats):
        out.write_text(OLD.replace("more history", "edited while measuring"), encoding="utf-8")
        return [bench.SMASH_SECTION, "", "new smash table"]

    monkeypatch.setattr(bench, "smash_section", measure)
    monkeypatch.setattr("sys.argv", ["bench.py", "--only", "smash-up", "--out", str(out)])
    bench.main()
    text = out.read_text(encoding="utf-8")
    assert "edited while measuring" in text and "new smash table" in text and "old smash table" not in text
    assert text.endswith("\n")
