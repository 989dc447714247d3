#!/usr/bin/env bash
# test_registry.sh AOTC - the operator table cannot lose an operator: every
# operator entry object the compiler defines (const op_impl op_<name>, found
# with nm in the aotc_core objects of src/ops) is listed by `aotc operators`
# (as <NAME> = upper-case <name>), and every listed operator has its object.
# registry.c references the entries strongly, so a listed entry without an
# object fails the link; this test catches the other direction, an entry
# defined in its family file but never listed. op_user_custom (CUSTOM kernels
# registered in the config) is the one entry that is not a catalog row.
set -u
AOTC=$1
OBJ=$(cd "$(dirname "$AOTC")" && pwd)/CMakeFiles/aotc_core.dir/src/ops
[ -d "$OBJ" ] || { echo "FAIL: no objects under $OBJ"; exit 1; }
command -v nm >/dev/null || { echo "SKIP: nm missing (binutils)"; exit 0; }
T=$(mktemp -d /tmp/aotc-registry-XXXXXX); trap 'rm -rf "$T"' EXIT
nm "$OBJ"/*.o | awk '$2 ~ /^[RD]$/ && $3 ~ /^op_/ {print $3}' | grep -vx op_user_custom | sort > "$T/defined"
"$AOTC" operators | awk '{print "op_" tolower($1)}' | sort > "$T/listed"
n=$(wc -l < "$T/defined")
if [ "$n" -lt 80 ]; then echo "FAIL: only $n operator objects found (nm output changed?)"; exit 1; fi
if ! diff "$T/defined" "$T/listed" > "$T/diff"; then
  echo "FAIL: operator objects and the operator table differ (< defined only, > listed only):"
  grep '^[<>]' "$T/diff"
  exit 1
fi
echo "registry: $n operator entries, each defined once and listed"
