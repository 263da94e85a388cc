#!/usr/bin/env bash
# Three-way comparison for the mpi device (2 processes ping-pong, N-process allreduce):
# plain C over Open MPI, Tessera on the mpi device (over the same Open MPI, native
# collectives), and Tessera on its own shm device, one invocation, one table of ratios.
# All three use Open MPI's ob1/vader (shared memory) where MPI is involved.
# Usage: bench/mpi-device-vs-openmpi.sh [allreduce-ranks] [repeats]   (defaults 2 and 3)
# The three run alternately, REPEATS times; per size the median run of each is shown (this
# VM has fast and slow phases that last seconds, so a single run compares phases, not code).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/bin/jdk.sh"
np="${1:-2}"
repeats="${2:-3}"
command -v mpicc >/dev/null && command -v mpirun >/dev/null || { echo "mpicc/mpirun not found: install openmpi-bin libopenmpi-dev" >&2; exit 2; }
build="$root/bench/native/build"; mkdir -p "$build"
mpicc -O3 -o "$build/mpi_device_bench" "$root/bench/native/mpi_device_bench.c"
[[ -f "$root/bench/target/classes/dev/tessera/bench/p2p/MpiDeviceBench.class" ]] || (cd "$root" && mvn -B -q -DskipTests -pl framework,bench -am package)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
mca=(--oversubscribe --bind-to none --mca pml ob1 --mca btl vader,self)
cp="$root/framework/target/classes:$root/framework/target/lib/*:$root/bench/target/classes"
jvm=(java --enable-native-access=ALL-UNNAMED -cp "$cp")
for ((run = 0; run < repeats; run++)); do
  mpirun -np 2 "${mca[@]}" "$build/mpi_device_bench" pingpong >> "$tmp/c"
  mpirun -np 2 "${mca[@]}" "$build/mpi_device_bench" pingpong multiple | sed 's/^pingpong/pingpong_mt/' >> "$tmp/c"
  mpirun -np 2 "${mca[@]}" -x TESSERA_DEVICE=mpi -x LD_PRELOAD="$JAVA_HOME/lib/libjsig.so" "${jvm[@]}" dev.tessera.bench.p2p.MpiDeviceBench pingpong >> "$tmp/mpi"
  "$root/bin/tessera" run -np 2 --device shm -cp "$root/bench/target/classes" dev.tessera.bench.p2p.MpiDeviceBench pingpong >> "$tmp/shm"
  mpirun -np "$np" "${mca[@]}" "$build/mpi_device_bench" allreduce >> "$tmp/c"
  mpirun -np "$np" "${mca[@]}" -x TESSERA_DEVICE=mpi -x TESSERA_MPI_COLLECTIVES=native -x LD_PRELOAD="$JAVA_HOME/lib/libjsig.so" "${jvm[@]}" dev.tessera.bench.p2p.MpiDeviceBench allreduce >> "$tmp/mpi"
  mpirun -np "$np" "${mca[@]}" -x TESSERA_DEVICE=mpi -x LD_PRELOAD="$JAVA_HOME/lib/libjsig.so" "${jvm[@]}" dev.tessera.bench.p2p.MpiDeviceBench allreduce | sed 's/^allreduce/allreduce_tessera/' >> "$tmp/mpi"
  "$root/bin/tessera" run -np "$np" --device shm -cp "$root/bench/target/classes" dev.tessera.bench.p2p.MpiDeviceBench allreduce >> "$tmp/shm"
done
# the median of the runs (column 3: time, column 4: bandwidth): not the best, since this
# VM now and then places two processes on one core's hyperthreads, where a plain C
# ping-pong takes 0.16 us instead of 0.35, and one such run would set the reference
get() { awk -v k="$2" -v s="$3" -v c="$4" '$1==k && $2==s { print $c }' "$1" | sort -g | awk '{ v[n++] = $1 } END { print v[int((n - 1) / 2)] }'; }
echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(mpirun --version | head -1); $(java -version 2>&1 | head -1)"
echo "# median of $repeats alternating runs per size and implementation"
echo "# ping-pong, 2 processes, half round trip (us) and bandwidth (MB/s); ratio = Tessera/C time (latency), Tessera/C (bandwidth)"
echo "# c_us: plain C with MPI_Init; c_mt_us: plain C with MPI_THREAD_MULTIPLE, the level the mpi device initialises"
printf "%-9s %9s %9s %9s %9s %7s %8s %7s %9s %9s %7s\n" bytes c_us c_mt_us mpi_us shm_us mpi/c mpi/c_mt shm/c c_MBps mpi_MBps bw_mpi/c
for s in $(awk '$1=="pingpong"{print $2}' "$tmp/c" | sort -nu); do
  awk -v s=$s -v a="$(get "$tmp/c" pingpong $s 3)" -v m="$(get "$tmp/c" pingpong_mt $s 3)" -v b="$(get "$tmp/mpi" pingpong $s 3)" -v c="$(get "$tmp/shm" pingpong $s 3)" \
      -v d="$(get "$tmp/c" pingpong $s 4)" -v e="$(get "$tmp/mpi" pingpong $s 4)" \
      'BEGIN { printf "%-9d %9.3f %9.3f %9.3f %9.3f %7.2f %8.2f %7.2f %9.1f %9.1f %7.2f\n", s, a, m, b, c, b/a, b/m, c/a, d, e, e/d }'
done
echo "# allreduce of doubles, $np processes, us per call; mpi_native = mpi device with --mpi-collectives native, mpi_tessera = Tessera's algorithms over the mpi device"
printf "%-9s %9s %11s %11s %9s %10s %10s\n" bytes c_us mpi_native mpi_tessera shm_us native/c shm/c
for s in $(awk '$1=="allreduce"{print $2}' "$tmp/c" | sort -nu); do
  awk -v s=$s -v a="$(get "$tmp/c" allreduce $s 3)" -v b="$(get "$tmp/mpi" allreduce $s 3)" -v t="$(get "$tmp/mpi" allreduce_tessera $s 3)" -v c="$(get "$tmp/shm" allreduce $s 3)" \
      'BEGIN { printf "%-9d %9.3f %11.3f %11.3f %9.3f %10.2f %10.2f\n", s, a, b, t, c, b/a, c/a }'
done
