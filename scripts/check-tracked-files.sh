#!/usr/bin/env bash
# Refuses a tracked file over MAX_TRACKED_BYTES (5 MB) or a file whose name starts with "-" (a generator called
# with a flag as its output path leaves one). Prints each offender on its own line and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
max=${MAX_TRACKED_BYTES:-5000000}
bad=0
while IFS= read -r -d '' path; do
	name=${path##*/}
	if [[ $name == -* ]]; then
		echo "$path: a tracked file named like a flag (remove it: git rm -- './$path')"
		bad=1
	fi
	if [[ -f $path ]]; then
		size=$(stat -c %s -- "$path")
		if ((size > max)); then
			echo "$path: $size bytes tracked (at most $max; keep generated data out of git)"
			bad=1
		fi
	fi
done < <(git ls-files -z)
exit $bad
