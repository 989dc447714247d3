#!/usr/bin/env bash
# test_module_path.sh AOTC - module.path is the PARENT directory (helia-aot's
# meaning) and aotc never loses a user's file: a directory holding the model,
# a .gitignore and a sibling module survives every convert, convert --force
# and failed convert byte for byte; --force replaces only a module aotc wrote
# (marker file); refusals are one line naming the path; parents are created;
# a .zip module.path writes an archive; an interrupted convert leaves the
# previous module as it was.
set -u
AOTC=$(realpath "$1")
S=${AOTC_SHARED:-../shared}
[ -d "$S/models" ] || { echo "SKIP module_path: $S/models not found"; exit 0; }
W=$(mktemp -d /tmp/aotc-mpath-XXXXXX); trap 'rm -rf "$W"' EXIT
KWS="$S/models/mlperf-tiny/kws_ref_model.tflite"
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# the user's directory: model, .gitignore, a sibling module (someone else's)
P="$W/modules"
mkdir -p "$P/other_module/src"
cp "$KWS" "$P/kws.tflite"
printf '*.o\nbuild/\n' > "$P/.gitignore"
echo 'int other(void) { return 1; }' > "$P/other_module/src/other.c"
snapshot() { (cd "$P" && find . -path ./kws -prune -o -path ./helia_aot_nn -prune -o -type f -print0 |
              sort -z | xargs -0 sha256sum; find . -path ./kws -prune -o -path ./helia_aot_nn -prune -o -print | sort) ; }
snapshot > "$W/before"
same() { snapshot > "$W/now"; if cmp -s "$W/before" "$W/now"; then ok "$1: user files intact"; else
         bad "$1: user files changed"; diff "$W/before" "$W/now" | head -5; fi; }

# 1. the module goes to <module.path>/<module.name>/
"$AOTC" convert --model.path "$P/kws.tflite" --module.path "$P" --module.name kws >/dev/null &&
  [ -f "$P/kws/.aotc-module" ] && [ -d "$P/kws/src" ] && ok "module in <module.path>/<module.name>" ||
  bad "module placement"
same "convert"
# default name is helia-aot's
"$AOTC" convert --model.path "$P/kws.tflite" --module.path "$P" >/dev/null && [ -d "$P/helia_aot_nn/src" ] &&
  ok "default module.name helia_aot_nn" || bad "default module.name"
same "convert (default name)"

# 2. again without --force: refused, one line naming the path, nothing changed
cp -a "$P/kws" "$W/kws.prev"
msg=$("$AOTC" convert --model.path "$P/kws.tflite" --module.path "$P" --module.name kws 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" -eq 1 ] && echo "$msg" | grep -q "$P/kws" &&
  echo "$msg" | grep -q -- --force && ok "existing module refused: $msg" || bad "no --force: rc=$rc $msg"
diff -r "$W/kws.prev" "$P/kws" >/dev/null && ok "refused convert left the module as it was" || bad "module changed"
same "refused convert"

# 3. --force replaces the module (aotc's marker) and only it
touch "$P/kws/stale_file"
"$AOTC" convert --model.path "$P/kws.tflite" --module.path "$P" --module.name kws --force >/dev/null &&
  [ ! -e "$P/kws/stale_file" ] && [ -f "$P/kws/.aotc-module" ] && ok "--force replaces aotc's module" || bad "--force"
same "convert --force"

# 4. --force never replaces what aotc did not write
msg=$("$AOTC" convert --model.path "$P/kws.tflite" --module.path "$P" --module.name other_module --force 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" -eq 1 ] && echo "$msg" | grep -q "$P/other_module" &&
  ok "foreign directory refused even with --force: $msg" || bad "foreign dir: rc=$rc $msg"
msg=$("$AOTC" convert --model.path "$P/kws.tflite" --module.path "$P" --module.name kws.tflite --force 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$msg" | grep -q "$P/kws.tflite" && ok "user file refused: $msg" || bad "user file: rc=$rc $msg"
msg=$("$AOTC" convert --model.path "$P/kws.tflite" --module.path "$P/kws.tflite" --force 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" -eq 1 ] && ok "module.path naming a file refused: $msg" || bad "file as parent"
same "refused --force"

# 5. a failed convert (unsupported model) with --force leaves the previous module
cp -a "$P/kws" "$W/kws.prev2"
msg=$("$AOTC" convert --model.path "$S/models/litert-testdata/svdf_calibrated.bin" --module.path "$P" \
      --module.name kws --force 2>&1); rc=$?
[ $rc -eq 2 ] && diff -r "$W/kws.prev2" "$P/kws" >/dev/null && ok "failed convert keeps the previous module" ||
  bad "failed convert: rc=$rc"
[ -z "$(ls -A "$P" | grep aotc-)" ] && ok "no temporary left" || bad "temporary left: $(ls -A "$P")"
same "failed convert"

# 6. an interrupted convert (SIGTERM while writing) leaves the previous module
big="$S/models/tflm/person_detect.tflite"
for delay in 0.05 0.2 0.4; do
  "$AOTC" convert --model.path "$big" --module.path "$P" --module.name kws --force >/dev/null 2>&1 &
  pid=$!; sleep $delay; kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null
  if [ -f "$P/kws/.aotc-module" ] && [ -z "$(ls -A "$P" | grep aotc-)" ]; then :; else bad "interrupted ($delay s)"; fi
  # the module is either the previous one or the complete new one
  if ! diff -r "$W/kws.prev2" "$P/kws" >/dev/null; then
    grep -q person "$P/kws/README.md" || bad "interrupted ($delay s): half a module"
  fi
done
ok "interrupted converts leave a whole module and no temporary"
same "interrupted convert"

# 7. parents are created; a failure removes the ones it created
"$AOTC" convert --model.path "$KWS" --module.path "$W/deep/er/parent" --module.name m >/dev/null &&
  [ -f "$W/deep/er/parent/m/.aotc-module" ] && ok "missing parents created" || bad "parents"
"$AOTC" convert --model.path "$S/models/litert-testdata/svdf_calibrated.bin" --module.path "$W/new/parents" >/dev/null 2>&1
[ ! -e "$W/new" ] && ok "failed convert creates no directories" || bad "failed convert left $W/new"

# 8. a .zip module.path writes an archive of <module.name>/...; byte-identical twice
"$AOTC" convert --model.path "$KWS" --module.path "$P/kws.zip" --module.name kwsz >/dev/null &&
  python3 -c "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); n=z.namelist(); assert 'kwsz/.aotc-module' in n, n; assert any(x.startswith('kwsz/src/') for x in n); assert z.testzip() is None" "$P/kws.zip" &&
  ok ".zip module.path writes a zip archive" || bad "zip"
cp "$P/kws.zip" "$W/first.zip"
msg=$("$AOTC" convert --model.path "$KWS" --module.path "$P/kws.zip" --module.name kwsz 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$msg" | grep -q -- --force && ok "existing archive refused without --force" || bad "zip refusal"
"$AOTC" convert --model.path "$KWS" --module.path "$P/kws.zip" --module.name kwsz --force >/dev/null &&
  cmp -s "$P/kws.zip" "$W/first.zip" && ok "archive replaced with --force, byte-identical" || bad "zip --force/determinism"
echo "not a zip" > "$P/user.zip"; snapshot > "$W/before"
msg=$("$AOTC" convert --model.path "$KWS" --module.path "$P/user.zip" --force 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(cat "$P/user.zip")" = "not a zip" ] && ok "foreign .zip refused with --force: $msg" || bad "foreign zip"
same "zip converts"
exit $fail
