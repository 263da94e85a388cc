#!/usr/bin/env bash
# The NPB / NPB-MZ verification matrix of issues #22 and #23: every benchmark x class x layout x device,
# run through `bin/tessera npb` or `bin/tessera npb-mz` with --json, one line per run in a CSV and a
# Markdown table (verified, seconds, Mop/s). Exit status 1 if any run did not verify.
#
#   bench/npb-matrix.sh npb    "ep is cg mg ft"        "S W A B" "1x1 1x2 2x1" "smp shm" out/npb-matrix
#   bench/npb-matrix.sh npb-mz "bt-mz sp-mz lu-mz"     "S W A B" "1x1 1x2 2x1" "smp shm" out/npbmz-matrix
#
# Environment: MATRIX_JVM_OPT (default -Xmx6g) is passed to every rank with --jvm-opt.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
suite="${1:?suite: npb or npb-mz}"; benches="${2:?benchmarks}"; classes="${3:?classes}"
layouts="${4:?layouts, e.g. 1x1 1x2 2x1}"; devices="${5:?devices, e.g. smp shm}"; out="${6:?output prefix}"
case "$suite" in npb|npb-mz) ;; *) echo "npb-matrix: suite must be npb or npb-mz, not '$suite'" >&2; exit 2 ;; esac
jvm_opt="${MATRIX_JVM_OPT:--Xmx6g}"
mkdir -p "$(dirname "$out")"
csv="$out.csv"; md="$out.md"
echo "benchmark,class,layout,device,verified,seconds,mops,exit" > "$csv"
failed=0
field() { # field NAME JSONLINE: a number, boolean or string value from a flat JSON line
  sed -n "s/.*\"$1\" *: *\"\{0,1\}\([^,\"}]*\).*/\1/p" <<< "$2"
}
for b in $benches; do for c in $classes; do for l in $layouts; do for d in $devices; do
  r="${l%x*}"; t="${l#*x}"
  "$root/bin/tessera" "$suite" "$b" --class "$c" -np "$r" --threads "$t" --device "$d" \
      --jvm-opt "$jvm_opt" --json >"$out.last-stdout" 2>"$out.last-stderr"; rc=$?
  line="$(grep -m1 '^{' "$out.last-stdout")"
  v="$(field verified "$line")"; s="$(field seconds "$line")"; m="$(field mops "$line")"
  [[ "$v" == true && "$rc" == 0 ]] || { failed=1; echo "npb-matrix: $b $c $l $d did not verify (exit $rc)" >&2; tail -3 "$out.last-stderr" >&2; }
  echo "$b,$c,$l,$d,${v:-none},${s:-},${m:-},$rc" | tee -a "$csv"
done; done; done; done
{
  echo "| benchmark | class | layout | device | verified | seconds | Mop/s |"
  echo "|---|---|---|---|---|---|---|"
  tail -n +2 "$csv" | while IFS=, read -r b c l d v s m rc; do echo "| $b | $c | $l | $d | $v | $s | $m |"; done
} > "$md"
rm -f "$out.last-stderr" "$out.last-stdout"
exit "$failed"
