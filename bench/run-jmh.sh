#!/usr/bin/env bash
# Runs Tessera's JMH benchmarks (default: the smp ping-pong, bandwidth and copy-ceiling
# set, side by side in one run). Extra arguments go to JMH, e.g. -wi 1 -i 3 or a regex.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/bin/jdk.sh"
if [[ ! -f "$root/bench/target/classes/META-INF/BenchmarkList" ]]; then
  (cd "$root" && mvn -B -q -DskipTests -pl framework,bench package)
fi
args=("$@")
[[ ${#args[@]} -eq 0 ]] && args=("dev.tessera.bench.smp")
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$root/bench/target/classes:$root/bench/target/lib/*" \
  org.openjdk.jmh.Main "${args[@]}"
