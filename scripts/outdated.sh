#!/usr/bin/env bash
# make outdated: lists the Go modules and npm packages with a newer version
# than the one pinned, for a person to weigh (DESIGN.md's version notes say
# which upgrades these machines refuse). Lists only; changes nothing.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}

echo "Go modules required directly by go.mod, with a newer version:"
$GO list -m -u -f '{{if and (not .Indirect) (not .Main) .Update}}  {{.Path}} {{.Version}} -> {{.Update.Version}}{{end}}' all |
	grep . || echo "  none"
echo
echo "Go modules required indirectly, with a newer version: $($GO list -m -u -f '{{if and .Indirect .Update}}x{{end}}' all | grep -c x)"
echo "  (go list -m -u all lists them)"
echo

for dir in web bench/lighthouse; do
	[ -f "$dir/package.json" ] || continue
	echo "npm packages of $dir with a newer version (wanted: within package.json's range; latest: the newest):"
	# npm outdated exits 1 when something is outdated.
	out=$(cd "$dir" && npm outdated 2>&1)
	if [ -z "$out" ]; then echo "  none"; else echo "$out" | sed 's/^/  /'; fi
	echo
done
