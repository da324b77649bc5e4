"""Write every committed report under reports/ again from its committed tables, with no game
played: the run reports (report.md, report.html, figures), Defenders' lever comparison, the
ladders and the tuning reports. Run it after a change to report wording or figures; the tests
that compare each committed file with what this version writes (tests/test_report.py,
test_ladder.py, test_tune.py) then pass again.

    python scripts/rewrite_reports.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

REPORTS = Path(__file__).resolve().parent.parent / "reports"
# each study's extra runs, as the Makefile gives them (tests/test_report.py reads this list)
STUDIES = {"avengers-cards": {"mix_dir": "mix"}, "smash-up": {"cards_dir": "card-strength"},
           "zenonzard": {}, "defenders-of-the-realm": {}}


def main() -> int:
    from balance.analysis.compare_report import write_compare_report
    from balance.analysis.ladder import read_ladder, write_ladder
    from balance.analysis.report import write_run_report
    from balance.analysis.tune import convergence_plot, read_outputs, report_markdown

    for game, extra in STUDIES.items():
        root = REPORTS / game
        write_run_report(root / "run", root, **{key: root / name for key, name in extra.items()})
        print(f"{root / 'report.md'}")
        compared = root / "variants" / "comparison.json"
        if compared.is_file():
            write_compare_report(json.loads(compared.read_text(encoding="utf-8")), compared.parent)
            print(compared.parent / "report.md")
        if (root / "ladder" / "rungs.parquet").is_file():
            write_ladder(read_ladder(root / "ladder", game), root / "ladder", f"{game}: balance by skill")
            print(root / "ladder" / "ladder.md")
        for tuned in sorted(root.glob("tuned-*")):
            result = read_outputs(tuned)
            convergence_plot(result, tuned / "convergence.png")
            (tuned / "report.md").write_text(report_markdown(result, tuned), encoding="utf-8")
            print(tuned / "report.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
