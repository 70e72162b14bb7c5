#!/usr/bin/env bash
# What the docs promise a newcomer, checked as `make lint` runs: every cron line in README.md and docs/ pastes as is
# (one line, no `\` continuation, no bare `%`, running iap-recon or its nightly wrapper); README names the Swift
# version Package.swift needs and every Debian package the Makefile installs; docs/benchmarks.md stays one page
# (at most 250 lines); every page README links to exists. Prints each problem on its own line and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
problem() {
	echo "$1"
	bad=1
}

# Cron blocks: ```cron fences. A line is a comment, blank, a VAR=value, or an entry whose command runs iap-recon.
for file in README.md docs/*.md; do
	awk -v file="$file" '
		/^```cron/ { inside = 1; next }
		/^```/ { inside = 0; next }
		!inside || /^[[:space:]]*(#|$)/ { next }
		/^[A-Za-z_][A-Za-z0-9_]*=/ { next }
		/\\[[:space:]]*$/ { print file ":" FNR ": a cron line continued with \\ (cron reads no continuation)"; next }
		/^[[:space:]]/ { print file ":" FNR ": a cron line starting with a blank (a continuation?)"; next }
		/[^\\]%/ { print file ":" FNR ": a bare % in a cron line (cron turns it into a newline)"; next }
		!/iap-recon/ { print file ":" FNR ": a cron line that runs neither iap-recon nor iap-recon-nightly" }
	' "$file" | while IFS= read -r line; do echo "$line"; done >/tmp/check-docs.$$ || true
	if [[ -s /tmp/check-docs.$$ ]]; then
		cat /tmp/check-docs.$$
		bad=1
	fi
	rm -f /tmp/check-docs.$$
done

# README: the Swift version of Package.swift's tools version, and every package the Makefile installs.
swift_version=$(sed -n 's|^// swift-tools-version:\([0-9.]*\).*|\1|p' Package.swift)
grep -q "Swift $swift_version" README.md || problem "README.md: does not name Swift $swift_version (Package.swift)"
packages=$(sed -n 's/^[A-Z_]*PACKAGES := //p' Makefile | tr ' ' '\n' | sort -u)
for package in $packages; do
	grep -q -- "\`$package\`" README.md || problem "README.md: does not name the package \`$package\` (Makefile)"
done

lines=$(wc -l <docs/benchmarks.md)
((lines <= 250)) || problem "docs/benchmarks.md: $lines lines (at most 250: one page an operator reads)"

# Every local page README links to.
grep -o '](\(docs/[^)#]*\|[A-Za-z]*\.md\)' README.md | sed 's/^](//' | sort -u | while IFS= read -r target; do
	[[ -e $target ]] || echo "README.md: links to $target, which does not exist"
done | grep . && bad=1

exit $bad
