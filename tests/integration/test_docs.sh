#!/usr/bin/env bash
# test_docs.sh AOTC - docs/operators.md is exactly what `aotc operators
# --markdown` prints (the catalog is generated from the compiler's table).
set -eu
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if ! diff -u "$ROOT/docs/operators.md" <("$AOTC" operators --markdown); then
  echo "docs/operators.md is stale: run 'make docs'"; exit 1
fi
echo "docs/operators.md matches the operator table"
