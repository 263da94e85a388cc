#!/usr/bin/env bash
# Team overheads next to GCC OpenMP's, EPCC syncbench method, same delay, same run.
# Prints one table: construct, threads, OpenMP us, Tessera us, ratio (Tessera / OpenMP).
# Usage: bench/team-vs-openmp.sh [delayLength] [repeats]   (best of `repeats` runs per side; default 3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/bin/jdk.sh"
delay="${1:-100}"
repeats="${2:-3}"
build="$root/bench/native/build"
mkdir -p "$build"
gcc -O3 -fopenmp -o "$build/syncbench_omp" "$root/bench/native/syncbench_omp.c"
if [[ ! -f "$root/bench/target/classes/dev/tessera/bench/team/TeamSyncBench.class" ]]; then
  (cd "$root" && mvn -B -q -DskipTests -pl framework,bench -am package)
fi
cp="$root/bench/target/classes:$root/framework/target/classes"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for t in 1 2; do
  for r in $(seq "$repeats"); do
    OMP_NUM_THREADS=$t OMP_PROC_BIND=close OMP_PLACES=cores "$build/syncbench_omp" "$delay" >> "$tmp/omp.$t"
    "$JAVA_HOME/bin/java" -cp "$cp" dev.tessera.bench.team.TeamSyncBench "$t" "$delay" >> "$tmp/java.$t"
  done
done
echo "# EPCC syncbench method, delay length $delay, best of $repeats runs; $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"
printf "%-22s %7s %12s %12s %8s\n" construct threads openmp_us tessera_us ratio
for t in 1 2; do
  for c in PARALLEL FOR PARALLEL_FOR PARALLEL_FOR_DYNAMIC BARRIER SINGLE REDUCTION; do
    o=$(awk -v c="$c" '$1==c {print $2}' "$tmp/omp.$t" | sort -g | head -1)
    j=$(awk -v c="$c" '$1==c {print $2}' "$tmp/java.$t" | sort -g | head -1)
    awk -v c="$c" -v t="$t" -v o="$o" -v j="$j" 'BEGIN { r = (o > 0.01) ? j / o : 0; printf "%-22s %7d %12.3f %12.3f %8.2f\n", c, t, o, j, r }'
  done
done
