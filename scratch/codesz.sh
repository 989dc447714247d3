#!/bin/bash
# usage: codesz.sh model golden target [extra flags]
m=$1; g=$2; t=$3; shift 3
out=$(cd /tmp && AOTC_KEEP_VERIFY=1 ${AOTC:-/work/main/build/aotc} verify --model.path $m --test.golden-data $g --target $t --count-instructions "$@" 2>&1)
echo "$out" | grep -o "instructions=.*"
d=$(echo "$out" | sed -n 's/^kept //p')
arm-none-eabi-nm -t d $d/measure/obj/module/*.o | awk '$2=="t"||$2=="T"{print $3}' | sort -u > /tmp/codesz.syms
arm-none-eabi-nm -S --size-sort -t d $d/measure/firmware.elf | awk 'NF==4 && ($3=="t"||$3=="T") {print $2+0, $4}' | grep -wFf /tmp/codesz.syms | sort -n | awk '{s+=$1; print} END {print "sum", s}'
rm -rf $d
