#!/usr/bin/env bash
# Lints every shell script in the repository with ShellCheck (warnings and errors).
# `make test` installs ShellCheck; this fails with that advice when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v shellcheck >/dev/null || { echo "shellcheck: not installed (make test installs it; or apt-get install shellcheck)" >&2; exit 1; }
git ls-files -z '*.sh' | xargs -0 shellcheck -S warning
