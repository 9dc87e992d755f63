#!/usr/bin/env bash
# Builds bin/lab-target-hikari.jar (one runnable fat jar) only when the Java sources or the
# pom changed: a hash of `java -version`, the pom and every source file is kept in bin/.stamp,
# so a second run with nothing changed is instant (no Maven start-up).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "java-hikari: '$tool' not found on PATH; install a JDK 17+ and Maven 3.8+ to build this lab target" >&2
    exit 1
  fi
done
out=bin/lab-target-hikari.jar
stamp=bin/.stamp
hash="$( { java -version 2>&1; sha256sum pom.xml; find src -type f -print | LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -d' ' -f1)"
if [ -f "$out" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ]; then
  echo "java-hikari: up to date ($out)"
  exit 0
fi
start=$(date +%s)
mkdir -p bin
# Maven's output is kept out of the way (it prints colour codes even with -q -B) and shown on failure.
if ! mvn -q -B -Dstyle.color=never package -DskipTests >bin/build.log 2>&1; then
  cat bin/build.log >&2
  echo "java-hikari: build failed" >&2
  exit 1
fi
cp target/lab-target-hikari.jar "$out.tmp"
mv "$out.tmp" "$out"
echo "$hash" > "$stamp"
echo "java-hikari: built $out in $(( $(date +%s) - start ))s"
