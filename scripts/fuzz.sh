#!/bin/sh
# Runs every Go fuzz target of the module, one at a time, each for FUZZTIME
# (15s unless set), in its own package. The targets are found with
# `go test -list`, so a new one runs without editing this script. Packages
# may be named as arguments (default ./...). An input that fails is kept
# by `go test` under the package's testdata/fuzz/<Name>/: commit it with
# the fix, and the plain `go test` runs it from then on.
set -eu

fuzztime=${FUZZTIME:-15s}
[ $# -gt 0 ] || set -- ./...

# `go test -list` prints each package's matching names, then "ok <package>".
targets=$(go test -list '^Fuzz' "$@" | awk '
	/^Fuzz/ { names[++n] = $1; next }
	/^ok / { for (i = 1; i <= n; i++) print $2 " " names[i]; n = 0 }')

if [ -z "$targets" ]; then
	echo "no fuzz targets found" >&2
	exit 1
fi

echo "$targets" | while read -r pkg name; do
	echo "== $name ($pkg), $fuzztime"
	go test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" "$pkg"
done
