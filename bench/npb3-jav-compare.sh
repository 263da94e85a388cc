#!/usr/bin/env bash
# Tessera's NPB kernels next to NASA's NPB3.0-JAV (threads only, NPB 3.0 sizes; issue #22's
# "ahead of NPB3.0-JAV" goal), alternating runs in one session, median Mop/s and the ratio.
#
#   bench/npb3-jav-compare.sh NPB3.0-JAV-DIR [CLASS] [THREADS] [REPEAT] [KERNELS]
#   e.g. bench/npb3-jav-compare.sh ~/NPB3.0-JAV A "1 2" 3 "cg mg ft is"
#
# NPB3.0-JAV-DIR is a copy of NASA's NPB3.0-JAV tree (its src/main/java or its NPB3_0_JAV
# sources anywhere below it); it is compiled with this JDK into a temporary directory. Tessera
# runs as one rank with T threads on the smp device. Class A of CG, MG and FT has the same sizes
# and iteration counts in NPB 3.0 and 3.4; IS class A too.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jav="${1:?usage: npb3-jav-compare.sh NPB3.0-JAV-DIR [CLASS] [THREADS] [REPEAT] [KERNELS]}"
class="${2:-A}"; threads="${3:-1 2}"; repeat="${4:-3}"; kernels="${5:-cg mg ft is}"
source "$root/bin/jdk.sh"
classes="$(mktemp -d)"; trap 'rm -rf "$classes"' EXIT
mapfile -t sources < <(find "$jav" -path '*NPB3_0_JAV*' -name '*.java')
[[ ${#sources[@]} -gt 0 ]] || { echo "npb3-jav-compare: no NPB3_0_JAV sources under $jav" >&2; exit 2; }
"$JAVA_HOME/bin/javac" -nowarn -d "$classes" "${sources[@]}" 2>/dev/null
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
echo "NPB class $class: Tessera (1 rank, smp) next to NPB3.0-JAV, median of $repeat alternating runs; CPU: $(lscpu | sed -n 's/^Model name: *//p')"
printf '  %-6s %7s %14s %14s %8s\n' kernel threads "Tessera Mop/s" "JAV Mop/s" ratio
for k in $kernels; do
  K="$(tr a-z A-Z <<< "$k")"
  for t in $threads; do
    ours=(); theirs=()
    for ((r = 0; r < repeat; r++)); do
      ours+=("$("$root/bin/tessera" npb "$k" --class "$class" -np 1 --threads "$t" --device smp --jvm-opt -Xmx6g --json 2>/dev/null \
              | sed -n 's/.*"mops" *: *\([0-9.eE+-]*\).*/\1/p')")
      theirs+=("$("$JAVA_HOME/bin/java" -Xmx6g -cp "$classes" "NPB3_0_JAV.$K" "-np$t" "CLASS=$class" 2>/dev/null \
              | sed -n 's/.*Mops total *= *\([0-9.]*\).*/\1/p' | head -1)")
    done
    a="$(printf '%s\n' "${ours[@]}" | median)"; b="$(printf '%s\n' "${theirs[@]}" | median)"
    printf '  %-6s %7s %14.1f %14.1f %8.2f\n' "$K" "$t" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN {print (b > 0 ? a / b : 0)}')"
  done
done
