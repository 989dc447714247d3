#!/usr/bin/env bash
# test_features.sh AOTC - the module's aot_features.h (the kernel paths it
# compiles, runtime/aot_features.h). The runtime's copy has every path on
# (the firmware kernel tests build it as it is, test_dsp.sh / test_mve.sh);
# each module's copy must have exactly the paths its int8 convolutions and
# fully connected layers can reach, recomputed here independently from the layer parameters the module
# emits (aot_model.c), for the shared int8 models. Fails when a path is
# missing (the kernel would refuse the layer) or left on without a layer.
# The models' outputs with these headers are checked on target by
# test_dsp.sh, test_mve.sh and models.sh.
set -u -o pipefail
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=${AOTC_SHARED:-$ROOT/../shared}
W=$(mktemp -d /tmp/aotc-features-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
n=$(grep -c '^#define AOT_F_[A-Z0-9_]* 1$' "$ROOT/runtime/aot_features.h")
other=$(grep '^#define AOT_F_' "$ROOT/runtime/aot_features.h" | grep -vc ' 1$')
if [ "$n" -lt 6 ] || [ "$other" -ne 0 ]; then
  echo "FAIL: runtime/aot_features.h must define every AOT_F_ path as 1 ($n on, $other other)"
  fail=1
fi
seen=""
for m in mlperf-tiny/kws_ref_model mlperf-tiny/vww_96_int8 mlperf-tiny/pretrainedResnet_quant \
         mlperf-tiny/ad01_int8 tflm/person_detect tflm/micro_speech_quantized \
         streaming/okay_nabu_v2; do
  [ -f "$S/models/$m.tflite" ] || { echo "SKIP $m (no model)"; continue; }
  d="$W/$(basename "$m")"
  mkdir -p "$d"
  # micro_speech's depthwise layer (1 input channel, depth multiplier 8, 80
  # taps) as the model has it: the depthwise paths DW_S8_DM / DW_S8_BIG, which
  # the transform depthwise_as_conv otherwise replaces by CONV_2D
  extra=
  case $m in *micro_speech*) extra="--transforms.depthwise_as_conv false" ;; esac
  if ! "$AOTC" convert --model.path "$S/models/$m.tflite" --module.path "$d" --module.name mod \
      --force $extra >/dev/null 2>"$d/err"; then
    echo "FAIL: $m: convert: $(head -1 "$d/err")"; fail=1; continue
  fi
  out=$(python3 - "$d/mod/src/aot_model.c" "$d/mod/src/aot_features.h" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
try:
    have = dict(re.findall(r"^#define AOT_F_(\w+) ([01])$", open(sys.argv[2]).read(), re.M))
except FileNotFoundError:
    have = None
arr = dict((m.group(1), [int(v) for v in re.findall(r"-?\d+", m.group(2))])
           for m in re.finditer(r"static const int32_t (\w+)\[\d+\] = \{(.*?)\};", src, re.S))
params, kb = {}, set()
for m in re.finditer(r"static const aot_conv_params (op\d+_\w+)_p = \{(.*?)\};", src, re.S):
    params[m.group(1)] = dict((k, int(v)) for k, v in re.findall(r"\.(\w+) = (-?\d+)\b", m.group(2)))
    if re.search(r"\.kbias = \w", m.group(2)): kb.add(m.group(1))
want = set()
for kern, name in re.findall(r"\b(aot_conv2d_s8|aot_dwconv2d_s8)\(&(op\d+_\w+)_p", src):
    p = params[name]
    if name not in kb: want.add("CONV_S8_NOKB")   # no folded bias: the kernels' own sums
    if p["act_min"] != -128 or p["act_max"] != 127: want.add("CONV_S8_NARROW")
    clips = (p["pad_h"] > 0 or p["pad_w"] > 0 or
             (p["out_h"] - 1) * p["stride_h"] - p["pad_h"] + (p["filter_h"] - 1) * p["dilation_h"] >= p["in_h"] or
             (p["out_w"] - 1) * p["stride_w"] - p["pad_w"] + (p["filter_w"] - 1) * p["dilation_w"] >= p["in_w"])
    taps = p["filter_h"] * p["filter_w"]
    if kern == "aot_conv2d_s8":
        # the Cortex-M4 few-channel path, where the lowering chose it
        # (aot_conv_params.dsp_variant AOT_DSP_VAR_FIRST)
        if p.get("dsp_variant") == 3:
            want.add("CONV_S8_FIRST")
        # the Helium few-channel path (aot_conv2d_s8_fmve_plan_of, without
        # its packed-filter test: the lowering decides before packing)
        fs = taps * p["in_c"]
        wp = (p["out_w"] - 1) * p["stride_w"] + p["filter_w"]
        if (1 <= p["in_c"] <= 4 and p["filter_in_c"] == p["in_c"] and p["dilation_h"] == 1 and
                p["dilation_w"] == 1 and 2 <= fs <= 1024 and p["out_w"] >= 12 and p["out_c"] >= 1 and
                not (p["filter_h"] == 1 and not clips) and
                (p["filter_h"] - 1) * wp * p["in_c"] + 16 * p["in_c"] <= 65535):
            want.add("CONV_S8_FMVE")
            # its columns: rows widened then spread when stride_w * in_c or
            # the left padding pad_w * in_c (within the tot values a row's
            # windows read) is odd, else four values into two words
            tot = (p["out_w"] - 1) * p["stride_w"] * p["in_c"] + p["filter_w"] * p["in_c"] + 1
            lead = min(p["pad_w"] * p["in_c"], tot)
            odd = (p["stride_w"] * p["in_c"]) % 2 or lead % 2
            want.add("CONV_S8_FSPREAD" if odd else "CONV_S8_FEVEN")
            # the per-position requantization unless every channel takes the
            # fast one in the loop (m 0, or a shift in [-31, -1] with
            # |kbias| + 16384 K < 2^30), all of int8 and channels a multiple of 8
            ks, ms, ss = arr.get(name + "_kbias"), arr.get(name + "_mult"), arr.get(name + "_shift")
            K = taps * p["in_c"]
            fast = (ks is not None and ms is not None and ss is not None and p["out_c"] % 8 == 0
                    and p["act_min"] == -128 and p["act_max"] == 127)
            for i in range(p["out_c"] if fast else 0):
                m, sh = ms[i if len(ms) > 1 else 0], ss[i if len(ss) > 1 else 0]
                if m != 0 and (sh > -1 or sh < -31 or abs(ks[i]) + 16384 * K >= 1 << 30): fast = False
            if not fast: want.add("CONV_S8_FSLOW")
        if taps * p["filter_in_c"] > 1024: want.add("CONV_S8_BIG")
        # the DSP pointwise kernel: pointwise layers (K = in_c taps), and the
        # other layers of one group, dilation_w 1 and at most 1024 taps, their
        # windows gathered (K = the whole filter)
        pw = taps == 1 and p["filter_in_c"] == p["in_c"] and not clips
        gw = (not pw and p["filter_in_c"] == p["in_c"] and p["dilation_w"] == 1 and
              taps * p["filter_in_c"] <= 1024)
        K = p["in_c"] if pw else taps * p["filter_in_c"]
        # gathered windows, unless the lowering chose the four-position
        # (dsp_variant 1) or the few-channel (3) path
        if gw and p.get("dsp_variant") not in (1, 3): want.add("CONV_S8_GW")
        # its constant channels (aot_conv2d_s8_pw_const)
        if (pw and p["in_c"] < 65536) or gw:
            ks, ms, ss = arr.get(name + "_kbias"), arr.get(name + "_mult"), arr.get(name + "_shift")
            if ks is None or ms is None or ss is None: want.add("CONV_S8_PWK")
            else:
                def mbqm(x, m, sh):
                    if sh > 0: x = max(-2**31, min(2**31 - 1, x << sh))
                    r = (x * m + (1 << 30)) >> 31
                    if sh < 0:
                        r += r >> 31 if r >= 0 else -1
                        r = ((r >> (-sh - 1)) + 1) >> 1
                    return r
                for i in range(p["out_c"]):
                    m, sh = ms[i if len(ms) > 1 else 0], ss[i if len(ss) > 1 else 0]
                    a, b = ks[i] - 16384 * K, ks[i] + 16384 * K
                    if m < 0 or sh > 0 or a < -2**31 or b > 2**31 - 1: continue
                    cl = lambda v: max(p["act_min"], min(p["act_max"], v + p["output_offset"]))
                    if cl(mbqm(a, m, sh)) == cl(mbqm(b, m, sh)):
                        want.add("CONV_S8_PWK"); break
        # grouped or dilated: the four-position path (and its padded last filter)
        if taps * p["filter_in_c"] <= 1024 and not pw and not gw:
            want.add("CONV_S8_G4")
            if (taps * p["filter_in_c"]) % 4: want.add("CONV_S8_FPAD")
        if clips or p["dilation_w"] != 1 or p["filter_in_c"] != p["in_c"]: want.add("CONV_S8_CLIP")
    else:
        if clips: want.add("DW_S8_CLIP")
        if p["depth_multiplier"] != 1: want.add("DW_S8_DM")
        else:
            want.add("DW_S8_DM1")
            if p["in_c"] % 4: want.add("DW_S8_TAIL")
            if p["in_c"] < 8: want.add("DW_S8_FEW")
            # the DSP build's 3x3 path (aot_dwconv2d_s8_dsp_is3, aot_conv.h)
            def cost(rows, cols):
                return rows * (70 * (cols // 4) + 40 * ((cols % 4) // 2) + 31 * (cols % 2) + 15)
            tr = p["stride_h"] in (1, 2) and cost(p["out_w"], p["out_h"]) < cost(p["out_h"], p["out_w"])
            is3 = (p["filter_h"] == 3 and p["filter_w"] == 3 and p["dilation_h"] == 1 and
                   p["dilation_w"] == 1 and p["stride_w"] in (1, 2))
            if not is3: want.add("DW_S8_GEN")
            else:
                want.add("DW_S8_3S%d" % (p["stride_h"] if tr else p["stride_w"]))
                # a channel whose requantization does not fold (aot_dwconv2d_s8_dsp_slow)
                ks, ms, ss = arr.get(name + "_kbias"), arr.get(name + "_mult"), arr.get(name + "_shift")
                for i in range(p["out_c"]):
                    if ks is None or ms is None or ss is None:
                        want.add("DW_S8_3SLOW"); break
                    m, sh = ms[i if len(ms) > 1 else 0], ss[i if len(ss) > 1 else 0]
                    if m == 0: sh = -1
                    if m < 0 or sh > -1 or sh < -31:
                        want.add("DW_S8_3SLOW"); break
                    ak = abs(ks[i]) + 9 * 128 * 128
                    k = (1 << (-sh - 1)) + p["output_offset"] * (1 << -sh)
                    if ak >= 1 << 30 or ((ak * m) >> 31) + 1 + abs(k) + 1 >= 1 << 31:
                        want.add("DW_S8_3SLOW"); break
        if taps > 49: want.add("DW_S8_BIG")
fcp = {}
for m in re.finditer(r"static const aot_fc_params (op\d+_\w+)_p = \{(.*?)\};", src, re.S):
    fcp[m.group(1)] = dict((k, int(v)) for k, v in re.findall(r"\.(\w+) = (-?\d+)\b", m.group(2)))
for name in re.findall(r"\baot_fc_s8\(&(op\d+_\w+)_p", src):
    if fcp[name]["in_depth"] > 1024: want.add("FC_S8_LONG")
    d, o = fcp[name]["in_depth"], fcp[name]["out_depth"]
    if d % 4 == 0 and 8 <= d <= 1024 and o >= 4 and o * d >= 4096: want.add("FC_S8_ROWS3")
    elif o >= 4 and o * d >= 1024: want.add("FC_S8_ROWS4")
# flat int8 ADD / SUB: the portable loop for a layer the rescale table does
# not take (aot_ews_tab_applies, aot_elementwise.h; AOT_EWS_TAB_MIN 64)
asp = {}
for m in re.finditer(r"static const aot_addsub_q_params (op\d+_\w+)_p = \{(.*?)\};", src, re.S):
    asp[m.group(1)] = dict((k, int(v)) for k, v in re.findall(r"\.(\w+) = (-?\d+)\b", m.group(2)))
for name in re.findall(r"\baot_(?:add|sub)_s8_flat\(&(op\d+_\w+)_p", src):
    q = asp[name]
    e = -q["out_shift"]
    ok = (q["size"] >= 64 and q["left_shift"] == 20 and
          all(-128 <= q[k] <= 128 for k in ("in1_offset", "in2_offset")) and
          q["act_min"] <= q["act_max"] and
          all(q[m] >= 0 and -31 <= q[s] <= 0 for m, s in
              (("in1_mult", "in1_shift"), ("in2_mult", "in2_shift"), ("out_mult", "out_shift"))) and
          any(q[s] == 0 and q[m] == 1 << 30 for m, s in (("in1_mult", "in1_shift"), ("in2_mult", "in2_shift"))))
    if ok:
        add = q["out_offset"] * (1 << e) + ((1 << (e - 1)) if e > 0 else 0)
        fast = q["out_offset"] <= q["act_min"] and q["act_min"] == -128 and q["act_max"] == 127
        cm = q["out_offset"] > q["act_min"] and e > 0
        ok = -(1 << 30) <= add <= (1 << 30) and (fast or not cm or q["out_mult"] > 1 << 30)
    if not ok: want.add("EW_S8_FLATP")
# int8 AVERAGE_POOL_2D: the portable loop of the SIMD builds
pp = {}
for m in re.finditer(r"static const aot_pool_params (op\d+_\w+)_p = \{(.*?)\};", src, re.S):
    pp[m.group(1)] = dict((k, int(v)) for k, v in re.findall(r"\.(\w+) = (-?\d+)\b", m.group(2)))
for name in re.findall(r"\baot_avgpool_s8\(&(op\d+_\w+)_p", src):
    q = pp[name]
    if q["filter_h"] * q["filter_w"] > 256 or q["channels"] % 8: want.add("POOL_S8_TAIL")
if have is None:
    # no kernel that includes the header: then no int8 convolution either
    print("ok-none" if not re.search(r"\baot_((dw)?conv2d|fc)_s8\(|\baot_(add|sub)_s8_flat\(|\baot_avgpool_s8\(", src) else "FAIL: no aot_features.h")
    sys.exit(0)
bad = [k for k, v in sorted(have.items()) if (v == "1") != (k in want)]
unknown = sorted(want - set(have))
if bad or unknown:
    print("FAIL: " + " ".join("%s=%s (want %d)" % (k, have[k], k in want) for k in bad) +
          (" not in the header: " + " ".join(unknown) if unknown else ""))
else:
    print("ok " + " ".join("%s=%s" % kv for kv in sorted(have.items())))
PY
  )
  case $out in
    ok*) echo "ok $m: ${out#ok }"; seen="$seen ${out#ok }" ;;
    *) echo "FAIL $m: $out"; fail=1 ;;
  esac
done
# with a module prefix the header is <prefix>_features.h, rewritten the same way
m=mlperf-tiny/kws_ref_model
if [ -f "$S/models/$m.tflite" ]; then
  d="$W/prefixed"
  mkdir -p "$d"
  "$AOTC" convert --model.path "$S/models/$m.tflite" --module.path "$d" --module.name mod \
    --module.prefix kws --force >/dev/null 2>&1
  a=$(sed -n 's/^#define AOT_F_\([A-Z0-9_]*\) \([01]\)$/\1=\2/p' "$W/kws_ref_model/mod/src/aot_features.h")
  b=$(sed -n 's/^#define KWS_F_\([A-Z0-9_]*\) \([01]\)$/\1=\2/p' "$d/mod/src/kws_features.h" 2>/dev/null)
  if [ -z "$a" ] || [ "$a" != "$b" ]; then
    echo "FAIL: prefix kws: kws_features.h [$(echo $b)] differs from aot_features.h [$(echo $a)]"
    fail=1
  else
    echo "ok prefix kws: kws_features.h as aot_features.h"
  fi
fi
# the models must exercise both values of a path, or the check proves little
for f in CONV_S8_CLIP DW_S8_CLIP DW_S8_DM DW_S8_BIG DW_S8_DM1 FC_S8_LONG FC_S8_ROWS4 FC_S8_ROWS3 DW_S8_3S1 DW_S8_3S2 \
         CONV_S8_FIRST CONV_S8_FSPREAD CONV_S8_FEVEN CONV_S8_GW CONV_S8_FMVE; do
  case "$seen" in *"$f=1"*) ;; *) echo "FAIL: no model with $f=1"; fail=1 ;; esac
done
case "$seen" in *"DW_S8_CLIP=0"*) ;; *) echo "FAIL: no model with DW_S8_CLIP=0"; fail=1 ;; esac
case "$seen" in *"DW_S8_3S1=1 DW_S8_3S2=0"*) ;; *) echo "FAIL: no model with DW_S8_3S1=1 DW_S8_3S2=0"; fail=1 ;; esac
case "$seen" in *"FC_S8_ROWS4=0"*) ;; *) echo "FAIL: no model with FC_S8_ROWS4=0"; fail=1 ;; esac
case "$seen" in *"CONV_S8_FIRST=0"*) ;; *) echo "FAIL: no model with CONV_S8_FIRST=0"; fail=1 ;; esac
case "$seen" in *"CONV_S8_FMVE=0"*) ;; *) echo "FAIL: no model with CONV_S8_FMVE=0"; fail=1 ;; esac
case "$seen" in *"CONV_S8_GW=0"*) ;; *) echo "FAIL: no model with CONV_S8_GW=0"; fail=1 ;; esac
# (CONV_S8_FSLOW=1: no shared model; its path is checked by test_simd_first.sh)
case "$seen" in *"CONV_S8_FSPREAD=0"*) ;; *) echo "FAIL: no model with CONV_S8_FSPREAD=0"; fail=1 ;; esac
case "$seen" in *"DW_S8_DM=1 DW_S8_DM1=0"*) ;; *) echo "FAIL: no model with DW_S8_DM=1 DW_S8_DM1=0"; fail=1 ;; esac
[ $fail = 0 ] && echo "PASS test_features"
exit $fail
