# Sourced by bin/tessera and bin/test: sets JAVA_HOME to a JDK 25 or newer, or exits with a clear message.

tessera_java_major() { # major version of the java binary $1, or 0
  local v
  v="$("$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}')"
  echo "${v%%.*}" | grep -E '^[0-9]+$' || echo 0
}

tessera_find_jdk() {
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]] && (( $(tessera_java_major "$JAVA_HOME/bin/java") >= 25 )); then
    echo "$JAVA_HOME"; return 0
  fi
  local d
  for d in /usr/lib/jvm/*25* /usr/lib/jvm/*-2[6-9]* /opt/java/*25* /Library/Java/JavaVirtualMachines/*25*/Contents/Home; do
    if [[ -x "$d/bin/java" ]] && (( $(tessera_java_major "$d/bin/java") >= 25 )); then
      echo "$d"; return 0
    fi
  done
  return 1
}

if ! TESSERA_JDK="$(tessera_find_jdk)"; then
  echo "tessera: JDK 25 or newer not found." >&2
  echo "  Looked at JAVA_HOME (${JAVA_HOME:-unset}) and /usr/lib/jvm/*25*." >&2
  echo "  Install a JDK 25 (for example Temurin 25) and set JAVA_HOME to it." >&2
  exit 3
fi
export JAVA_HOME="$TESSERA_JDK"
export PATH="$JAVA_HOME/bin:$PATH"
# Maven 3.8 on JDK 25 warns about its own use of sun.misc.Unsafe; that is Maven's business, not ours.
export MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"
