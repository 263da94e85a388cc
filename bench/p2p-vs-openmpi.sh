#!/usr/bin/env bash
# Ping-pong, Tessera (shm and tcp devices, 2 processes) next to Open MPI (vader shared
# memory, and tcp over loopback), same method, same invocation. Prints one table with
# half-round-trip latency (us), bandwidth (MB/s) and the latency ratio Tessera / Open MPI.
# Usage: bench/p2p-vs-openmpi.sh [repeats]  (best of `repeats` runs of each; default 3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/bin/jdk.sh"
repeats="${1:-3}"
command -v mpicc >/dev/null && command -v mpirun >/dev/null || { echo "mpicc/mpirun not found: install openmpi-bin libopenmpi-dev" >&2; exit 2; }
build="$root/bench/native/build"; mkdir -p "$build"
mpicc -O3 -o "$build/pingpong_mpi" "$root/bench/native/pingpong_mpi.c"
[[ -f "$root/bench/target/classes/dev/tessera/bench/p2p/PingPong.class" ]] || (cd "$root" && mvn -B -q -DskipTests -pl framework,bench -am package)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$repeats"); do
  mpirun -np 2 --bind-to core --mca pml ob1 --mca btl vader,self "$build/pingpong_mpi" >> "$tmp/ompi-shm"
  mpirun -np 2 --bind-to core --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo "$build/pingpong_mpi" >> "$tmp/ompi-tcp"
  "$root/bin/tessera" run -np 2 --device shm -cp "$root/bench/target/classes" dev.tessera.bench.p2p.PingPong >> "$tmp/tessera-shm"
  "$root/bin/tessera" run -np 2 --device tcp -cp "$root/bench/target/classes" dev.tessera.bench.p2p.PingPong >> "$tmp/tessera-tcp"
done
best() { awk -v s="$2" '$1==s {print $2}' "$1" | sort -g | head -1; }
echo "# ping-pong, 2 processes, best of $repeats runs (median of 5 repeats each); $(nproc) cores; $(uptime | sed 's/.*load average/load average/')"
printf "%-9s %11s %11s %7s %11s %11s %7s\n" bytes ompi_shm_us tessera_shm ratio ompi_tcp_us tessera_tcp ratio
for s in 0 8 1024 65536 1048576 4194304; do
  a=$(best "$tmp/ompi-shm" $s); b=$(best "$tmp/tessera-shm" $s); c=$(best "$tmp/ompi-tcp" $s); d=$(best "$tmp/tessera-tcp" $s)
  awk -v s=$s -v a=$a -v b=$b -v c=$c -v d=$d 'BEGIN { printf "%-9d %11.3f %11.3f %7.2f %11.3f %11.3f %7.2f\n", s, a, b, b/a, c, d, d/c }'
done
