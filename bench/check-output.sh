#!/usr/bin/env bash
# Checks the files `tessera bench` wrote: the CSV has the expected header, at least one row
# per implementation named, 13 columns and numeric value columns; the PNG exists, is not
# empty and starts with the PNG signature. Used by .ci/run.
# Usage: bench/check-output.sh FILE.csv FILE.png [IMPL...]   (IMPL defaults to tessera)
set -euo pipefail
csv="$1"; png="$2"; shift 2
impls=(tessera)
[[ $# -gt 0 ]] && impls=("$@")
header="suite,impl,device,ranks,size,iters,blocks,unit,p50,p90,p99,best,mean"
[[ -s "$csv" ]] || { echo "check-output: $csv missing or empty" >&2; exit 1; }
[[ "$(head -1 "$csv")" == "$header" ]] || { echo "check-output: $csv: bad header: $(head -1 "$csv")" >&2; exit 1; }
awk -F, 'NR > 1 {
  if (NF != 13) { printf "check-output: line %d has %d columns\n", NR, NF > "/dev/stderr"; bad = 1 }
  for (i = 4; i <= 13; i++) if (i != 8 && $i !~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/) {
    printf "check-output: line %d column %d not numeric: %s\n", NR, i, $i > "/dev/stderr"; bad = 1 }
  rows++
} END { if (rows == 0) { print "check-output: no data rows" > "/dev/stderr"; bad = 1 } exit bad }' "$csv"
for impl in "${impls[@]}"; do
  awk -F, -v i="$impl" 'NR > 1 && $2 == i { n++ } END { exit n == 0 }' "$csv" \
    || { echo "check-output: $csv has no rows for $impl" >&2; exit 1; }
done
[[ -s "$png" ]] || { echo "check-output: $png missing or empty" >&2; exit 1; }
[[ "$(head -c 4 "$png" | od -An -tx1 | tr -d ' \n')" == "89504e47" ]] || { echo "check-output: $png is not a PNG" >&2; exit 1; }
echo "check-output: $csv and $png are well formed (${impls[*]})"
