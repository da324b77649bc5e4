#!/bin/sh
# Usage: sh scripts/finished.sh DIR STAMP
# Succeeds (and says so) when DIR holds an output balance finished after STAMP was made: its
# manifest.json, tune.json, comparison.json or ladder.md is newer. `make report` makes STAMP
# when it starts and removes it when it ends, so a step of a cut `make report` that had already
# finished is kept when make is run again, not played again with --force.
dir=$1
stamp=$2
[ -f "$stamp" ] || exit 1
newer=$(find "$dir" -maxdepth 1 \( -name manifest.json -o -name tune.json -o -name comparison.json \
	-o -name ladder.md \) -newer "$stamp" 2>/dev/null)
[ -n "$newer" ] || exit 1
echo "make: $dir was finished by this make report (since $stamp); kept"
