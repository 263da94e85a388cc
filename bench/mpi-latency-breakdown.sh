#!/usr/bin/env bash
# Where the mpi device's small-message time goes, layer by layer, over Open MPI's
# shared-memory path (ob1/vader), two processes, in microseconds. 8-byte ping-pong (half a
# round trip):
#   c_recv LEVEL    plain C, MPI_Send / MPI_Recv, MPI_Init_thread(LEVEL)  (bench/native/mpi_patterns.c)
#   c_ring LEVEL    plain C with the device's receive pattern (32 pre-posted wildcard receives)
#   ffm_ring LEVEL  Java calling the device's C shim through FFM, same pattern, no Tessera code
#                   (MpiLatencyProbe, in the framework's test sources)
#   comm            Comm.send/recv on the mpi device, which initialises MPI_THREAD_MULTIPLE
#                   (tessera bench's latency kernel: 20 blocks of 100000 round trips, their median)
# and 8-byte allreduce (time per call):
#   c_allreduce LEVEL, ffm_allreduce LEVEL   MPI_Allreduce of one double in place, from C and through FFM
#   comm_allreduce  Comm.allreduce on the mpi device with native collectives (tessera bench's kernel:
#                   8 bytes of floats from heap arrays, as OSU's osu_allreduce)
# Each row: the best and the median of REPEATS alternating runs (this VM has fast and slow
# phases lasting seconds). Usage: bench/mpi-latency-breakdown.sh [repeats]   (default 3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/bin/jdk.sh"
repeats="${1:-3}"
command -v mpicc >/dev/null && command -v mpirun >/dev/null || { echo "mpicc/mpirun not found: install openmpi-bin libopenmpi-dev" >&2; exit 2; }
build="$root/bench/native/build"; mkdir -p "$build"
mpicc -O3 -o "$build/mpi_patterns" "$root/bench/native/mpi_patterns.c"
[[ -f "$root/framework/target/test-classes/dev/tessera/device/mpi/MpiLatencyProbe.class" \
   && -f "$root/bench/target/classes/dev/tessera/bench/osu/OsuRank.class" ]] \
  || (cd "$root" && mvn -B -q -DskipTests -pl framework,bench -am package)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
mpirun=(mpirun -np 2 --oversubscribe --bind-to none --mca pml ob1 --mca btl vader,self)
cp="$root/framework/target/classes:$root/framework/target/lib/*:$root/framework/target/test-classes:$root/bench/target/classes"
jvm=(-x LD_PRELOAD="$JAVA_HOME/lib/libjsig.so" java --enable-native-access=ALL-UNNAMED -cp "$cp")
levels=(single funneled serialized multiple)
# the median of the per-block times (seconds) in a "TB result" line, in us, labelled $1
median_of_blocks() {
  awk -v k="$1" '$1 == "TB" && $2 == "result" { n = 0; for (i = 6; i <= NF; i++) v[n++] = $i * 1e6;
    for (i = 1; i < n; i++) for (j = i; j > 0 && v[j-1] > v[j]; j--) { x = v[j]; v[j] = v[j-1]; v[j-1] = x }
    printf "%s %.3f\n", k, v[int(n / 2)] }'
}
for ((run = 0; run < repeats; run++)); do
  for l in "${levels[@]}"; do
    "${mpirun[@]}" "$build/mpi_patterns" recv 8 peer "$l" | awk -v l="$l" '{ print "c_recv_" l, $5 }' >> "$tmp/t"
  done
  for l in single multiple; do
    "${mpirun[@]}" "$build/mpi_patterns" ring 8 any "$l" | awk -v l="$l" '{ print "c_ring_" l, $5 }' >> "$tmp/t"
  done
  for l in "${levels[@]}"; do
    "${mpirun[@]}" "${jvm[@]}" dev.tessera.device.mpi.MpiLatencyProbe ring "$l" | awk -v l="$l" '{ print "ffm_ring_" l, $3 }' >> "$tmp/t"
  done
  for l in single multiple; do
    "${mpirun[@]}" "$build/mpi_patterns" allreduce 8 any "$l" | awk -v l="$l" '{ print "c_allreduce_" l, $5 }' >> "$tmp/t"
    "${mpirun[@]}" "${jvm[@]}" dev.tessera.device.mpi.MpiLatencyProbe allreduce "$l" | awk -v l="$l" '{ print "ffm_allreduce_" l, $3 }' >> "$tmp/t"
  done
  # OsuRank SUITE SIZES ITERS WARMUP WARMUP_MS BLOCKS WINDOW: 20 blocks of 100000 operations, their median
  "${mpirun[@]}" -x TESSERA_DEVICE=mpi "${jvm[@]}" dev.tessera.bench.osu.OsuRank latency 8 100000 3 300 20 1 \
    | median_of_blocks comm >> "$tmp/t"
  "${mpirun[@]}" -x TESSERA_DEVICE=mpi -x TESSERA_MPI_COLLECTIVES=native "${jvm[@]}" \
      dev.tessera.bench.osu.OsuRank allreduce 8 100000 3 300 20 1 | median_of_blocks comm_allreduce >> "$tmp/t"
done
echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(mpirun --version | head -1); $(java -version 2>&1 | head -1)"
echo "# 8-byte ping-pong (half round trip) and 8-byte allreduce (per call), us, $repeats alternating runs"
echo "# ratio = median / median of c_recv_single (ping-pong rows) or of c_allreduce_single (allreduce rows)"
# medians, not the best runs: now and then this VM places both processes on one core's
# hyperthreads, where a plain C ping-pong takes 0.16 us instead of 0.35
median() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/t" | sort -g | awk '{ v[n++] = $1 } END { print v[int((n - 1) / 2)] }'; }
printf "%-22s %8s %8s %7s\n" layer best median ratio
for k in c_recv_single c_recv_funneled c_recv_serialized c_recv_multiple c_ring_single c_ring_multiple \
         ffm_ring_single ffm_ring_funneled ffm_ring_serialized ffm_ring_multiple comm \
         c_allreduce_single c_allreduce_multiple ffm_allreduce_single ffm_allreduce_multiple comm_allreduce; do
  case "$k" in *allreduce*) ref="$(median c_allreduce_single)" ;; *) ref="$(median c_recv_single)" ;; esac
  sort -k2 -g "$tmp/t" | awk -v k="$k" -v r="$ref" '$1 == k { v[n++] = $2 }
    END { if (n) printf "%-22s %8.3f %8.3f %7.2f\n", k, v[0], v[int((n - 1) / 2)], v[int((n - 1) / 2)] / r }'
done
