#!/usr/bin/env bash
# Tests of the OpenCL runtime of generated programs (runtime/opencl.h) on
# whatever OpenCL device is installed (PoCL in CI): device listing and
# selection errors, tuning parameters, thresholds and kernel variants, -P profiles, --dump-opencl and
# --load-opencl, the program cache, -t device times, failures inside
# kernels reported with their source location, copies that transpose run
# as the tiled transpose, and that --library makes a library
# (tests/library/run.sh tests libraries). Results themselves are checked
# by `futhorc test --backend=opencl` (tests/run.sh). Ends with
# "opencl: N passed, N failed"; exits 1 if anything failed.
#
#   usage: tests/opencl/run.sh      (FUTHORC=path selects another compiler)
suite=opencl
source "$(dirname "$0")/../lib.sh"
here=tests/opencl
# expect NAME STATUS PATTERN COMMAND...: the command exits with STATUS and its
# output (stdout and stderr) matches the extended regular expression PATTERN.
expect() {
    local name=$1 status=$2 pattern=$3 out rc
    shift 3
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" -eq "$status" ] && echo "$out" | grep -Eq -- "$pattern"; then
        pass
    else
        fail "$name (exit $rc)"
        echo "$out" | head -20 | sed 's/^/    /'
    fi
}

exe=$work/kf
if ! "$futhorc" opencl $here/kernel_fail.fut -o "$exe" >"$work/cc.log" 2>&1; then
    fail "compiling kernel_fail.fut"
    cat "$work/cc.log"
    echo "opencl: $passed passed, $failed failed"
    exit 1
fi
in='[10, 20, 30] [2i64, 0i64]'
bad='[10, 20, 30] [2i64, 7i64]'

expect "runs" 0 '^\[30i32, 10i32\]$' sh -c "echo '$in' | $exe"
expect "index out of bounds in a kernel" 1 'kernel_fail.fut:3:[0-9]+: .*[Ii]ndex \[7\] out of bounds' \
    sh -c "echo '$bad' | $exe"
expect "list devices" 0 'Platform #0: .*' "$exe" --list-devices
expect "no such device" 1 'no OpenCL device matches -d no-such-device' \
    sh -c "echo '$in' | $exe -d no-such-device"
expect "no such platform" 1 'no OpenCL platform #9' sh -c "echo '$in' | $exe -p 9"
expect "print params" 0 '^segmap_[0-9]+\.group_size$' "$exe" --print-params
param=$("$exe" --print-params | head -n 1)
expect "set a param" 0 '^\[30i32, 10i32\]$' sh -c "echo '$in' | $exe --param $param=64"
expect "unknown param" 1 "unknown tuning parameter 'bogus'" sh -c "echo '$in' | $exe --param bogus=1"
expect "bad param value" 1 'expects a non-negative integer' sh -c "echo '$in' | $exe --param $param=x"
printf '%s=32\n# a comment\n' "$param" >"$work/tuning"
expect "tuning file" 0 '^\[30i32, 10i32\]$' sh -c "echo '$in' | $exe --tuning $work/tuning"
expect "missing tuning file" 1 'cannot open tuning file' sh -c "echo '$in' | $exe --tuning $work/none"
expect "profile" 0 'segmap_[0-9]+ +1 ' sh -c "echo '$in' | $exe -P"
expect "profile's peak device memory" 0 'peak device memory: [1-9][0-9]* bytes' sh -c "echo '$in' | $exe -P"
# --help lists -P once, as the profile option (not also as ignored).
if [ "$("$exe" --help | grep -c -- '-P')" -eq 1 ] && "$exe" --help | grep -q -- '-P, --profile'; then pass; else fail "--help lists -P once"; fi
expect "default group size" 0 '^\[30i32, 10i32\]$' sh -c "echo '$in' | $exe --default-group-size 1"
expect "dump source" 0 '' "$exe" --dump-opencl "$work/k.cl"
expect "dumped kernels" 0 '__kernel void segmap_' cat "$work/k.cl"
expect "load source" 0 '^\[30i32, 10i32\]$' sh -c "echo '$in' | $exe --load-opencl $work/k.cl"
# The file is its bytes, not a C string: with malloc's memory made
# non-zero, reading on to a NUL built garbage after the source.
expect "load source, malloc perturbed" 0 '^\[30i32, 10i32\]$' \
    sh -c "echo '$in' | MALLOC_PERTURB_=165 $exe --load-opencl $work/k.cl"
# Thresholds of multi-versioned code: both maps of versions.fut keep
# their outer version, chosen when the rows reach the threshold, and get
# an intra-group version, chosen below it when the rows are wide enough
# (here they are not).
vexe=$work/versions
if "$futhorc" opencl $here/versions.fut -o "$vexe" >"$work/cc.log" 2>&1; then
    vin='[[1f32, 2f32], [0f32, 0f32], [3f32, 3f32]] [[1, 5], [2, 2], [-1, 4]]'
    vout='^\[\[0\.268941[0-9]*f32, 0\.731058[0-9]*f32\], \[0\.5f32, 0\.5f32\], \[0\.5f32, 0\.5f32\]\]
\[\[4i32, 0i32\], \[0i32, 0i32\], \[5i32, 0i32\]\]$'
    expect "thresholds listed with their defaults" 0 '^main\.suff_outer_par_0 \(threshold 262144 \(\)\)$' "$vexe" --print-params
    expect "a second threshold" 0 '^main\.suff_outer_par_2 \(threshold 262144 \(\)\)$' "$vexe" --print-params
    expect "an intra-group threshold" 0 '^main\.suff_intra_par_3 \(threshold 32 \(!main\.suff_outer_par_2\)\)$' \
        "$vexe" --print-params
    expect "intra-group versions with their thresholds at 0" 0 \
        'suff_outer_par_0 <= 3: false\. .*suff_intra_par_1 <= 2: true\. .*suff_intra_par_3 <= 2: true\.' \
        sh -c "echo '$vin' | $vexe -L --param main.suff_intra_par_1=0 --param main.suff_intra_par_3=0 2>&1 | tr '\n' ' '"
    expect "distributed by default" 0 'Compared main\.suff_outer_par_0 <= 3: false\.' sh -c "echo '$vin' | $vexe -L"
    expect "outer versions with --default-threshold" 0 'Compared main\.suff_outer_par_2 <= 3: true\.' \
        sh -c "echo '$vin' | $vexe -L --default-threshold=3"
    expect "a threshold set to 0" 0 'suff_outer_par_0 <= 3: true\..*suff_outer_par_2 <= 3: false\.' \
        sh -c "echo '$vin' | $vexe -L --param main.suff_outer_par_0=0 2>&1 | tr '\n' ' '"
    expect "results of the distributed versions" 0 "$vout" sh -c "echo '$vin' | $vexe"
    expect "results of the outer versions" 0 "$vout" sh -c "echo '$vin' | $vexe --default-threshold 0"
    expect "results of the intra-group versions" 0 "$vout" \
        sh -c "echo '$vin' | $vexe --param main.suff_intra_par_1=0 --param main.suff_intra_par_3=0"
    # The segmented reductions' strategies: thresholds on the segments'
    # width under the distributed version's branch.
    expect "a segmented reduction's thresholds" 0 \
        '^main\.seg_groups_1 \(threshold 2048 \(!main\.suff_outer_par_0 !main\.suff_intra_par_1 main\.seg_lanes_0\)\)$' \
        "$vexe" --print-params
    expect "segments in whole work-groups" 0 'Compared main\.seg_lanes_0 <= 2: true\. Compared main\.seg_groups_1 <= 2: true\.' \
        sh -c "echo '$vin' | $vexe -L --param main.seg_lanes_0=0 --param main.seg_groups_1=0 2>&1 | tr '\n' ' '"
    expect "results of segments in work-groups" 0 "$vout" \
        sh -c "echo '$vin' | $vexe --param main.seg_lanes_0=0 --param main.seg_groups_1=0"
    expect "results of segments in lanes" 0 "$vout" \
        sh -c "echo '$vin' | $vexe --param main.seg_lanes_0=0 --param main.seg_lanes_2=0"
    expect "a bad --default-threshold" 1 'expects a non-negative integer' sh -c "echo '$vin' | $vexe --default-threshold -1"
    printf 'tuning_param_class main.suff_outer_par_0\nset_tuning_param main.suff_outer_par_0 0\nset_tuning_param nope 1\n' |
        "$vexe" --server >"$work/server.out" 2>&1
    printf 'tuning_params main\n' | "$vexe" --server 2>&1 | grep -cE '^main\.suff_(outer|intra)_par_[0-3]$' >>"$work/server.out"
    if [ "$(tr '\n' ' ' <"$work/server.out")" = "%%% OK threshold %%% OK %%% OK %%% FAILURE Unknown tuning parameter: nope %%% OK 4 " ]; then
        pass
    else
        fail "the server's tuning parameters:"
        sed 's/^/    /' "$work/server.out"
    fi
    printf 'main.suff_outer_par_2=2\n' >"$work/vtuning"
    expect "a threshold from a tuning file" 0 'suff_outer_par_0 <= 3: false\..*suff_outer_par_2 <= 3: true\.' \
        sh -c "echo '$vin' | $vexe -L --tuning $work/vtuning 2>&1 | tr '\n' ' '"
else
    fail "compiling versions.fut"
    cat "$work/cc.log"
fi
# A tree of thresholds: the interchanged loop's map is distributed in the
# false branch of the intra-group threshold under the first threshold's
# false branch; the leaf between them.
texe=$work/tree
if "$futhorc" opencl tests/gpu/interchange_stages.fut -o "$texe" >"$work/cc.log" 2>&1; then
    tin='[[1f32, 2f32, 3f32], [4f32, 0f32, 1f32]] 3i64'
    expect "a threshold under another's false branch" 0 \
        '^main\.suff_outer_par_2 \(threshold 262144 \(!main\.suff_outer_par_0 !main\.suff_intra_par_1\)\)$' "$texe" --print-params
    expect "the inner threshold compared once per iteration" 0 \
        'Compared main\.suff_outer_par_0 <= 2: false\. Compared main\.suff_intra_par_1 <= 3: false\. (Compared main\.suff_outer_par_2 <= 2: true\. ){3}' \
        sh -c "echo '$tin' | $texe -L --param main.suff_outer_par_2=0 2>&1 >/dev/null | tr '\n' ' '"
    expect "results of the interchanged loop's outer map" 0 \
        '^\[\[0\.25f32, 0\.375f32, 0\.5f32\], \[2f32, 1\.5f32, 1\.625f32\]\]' \
        sh -c "echo '$tin' | $texe --param main.suff_outer_par_2=0"
else
    fail "compiling interchange_stages.fut"
    cat "$work/cc.log"
fi
# Intra-group versions on every case (the outer versions' thresholds at
# 2^40, the intra-group ones' at 0: rows of 0 and of 5 elements too), by
# default and in groups of 7, narrower than most rows (each work-item
# then takes a chunk of several elements).
gexe=$work/intra
if "$futhorc" opencl tests/gpu/intra_group.fut -o "$gexe" >"$work/cc.log" 2>&1; then
    opts=()
    for p in $("$gexe" --print-params | grep -Eo '^[a-z_]+\.suff_outer_par_[0-9]+'); do
        opts+=(-p --param -p "$p=1099511627776")
    done
    for p in $("$gexe" --print-params | grep -Eo '^[a-z_]+\.suff_intra_par_[0-9]+'); do opts+=(-p --param -p "$p=0"); done
    expect "intra-group versions forced" 0 '^17 passed, 0 failed$' \
        "$futhorc" test --backend=opencl "${opts[@]}" tests/gpu/intra_group.fut
    for p in $("$gexe" --print-params | grep -E '^seggroup(_global)?_[0-9]+\.group_size$'); do
        opts+=(-p --param -p "$p=7")
    done
    expect "intra-group kernels listed" 0 '^seggroup_[0-9]+\.group_size$' "$gexe" --print-params
    expect "intra-group kernels in groups of 7" 0 '^17 passed, 0 failed$' \
        "$futhorc" test --backend=opencl "${opts[@]}" tests/gpu/intra_group.fut
else
    fail "compiling intra_group.fut"
    cat "$work/cc.log"
fi
# Variants of a block-tiled kernel (<kernel>.variant): two sets, the
# large blocks' and the small blocks' (the threshold <entry>.tile_large_N
# picks one), each listed with its default and what each variant is.
# Forced into each set (every threshold at 0, or at 2^40), the default
# variants give the results of tiled_odd.fut (sizes no multiple of any
# block or stage) and tiled_matmul.fut, and every variant of the first set
# (both sets have the same ones) those of tiled_odd.fut; a value out of range
# is an error, and the program cache holds the variant it was built with.
never=1099511627776
for prog in tiled_odd tiled_matmul; do
    texe=$work/$prog
    if ! "$futhorc" opencl tests/gpu/$prog.fut -o "$texe" >"$work/cc.log" 2>&1; then
        fail "compiling $prog.fut"
        cat "$work/cc.log"
        continue
    fi
    "$texe" --print-params | sed -n 's/^\(segmap_tiled_[0-9]*\.variant\) (variant \([0-9]*\) of \([0-9]*\): spaces of [a-z ]* main\.tile_large_[0-9]* points: 1 = block 128x128, stage 16, group 16x16; 2 = .*)$/\1 \2 \3/p' >"$work/vparams"
    if [ "$(cut -d' ' -f2 "$work/vparams" | tr '\n' ' ')" = "1 5 " ]; then pass; else
        fail "$prog: two sets of variants listed, defaults 1 and 5"
        "$texe" --print-params
        continue
    fi
    for set in 1 2; do
        read -r vparam dflt count < <(sed -n "${set}p" "$work/vparams")
        threshold=0
        [ "$set" = 2 ] && threshold=$never
        variants=$dflt
        [ "$prog$set" = tiled_odd1 ] && variants=$(seq 1 "$count")
        for v in $variants; do
            expect "$prog: set $set, variant $v" 0 '^[1-9] passed, 0 failed$' \
                "$futhorc" test --backend=opencl -p --default-threshold=$threshold -p --param -p "$vparam=$v" tests/gpu/$prog.fut
        done
    done
done
read -r vparam dflt count < <(head -n 1 "$work/vparams")
if [ -n "$vparam" ]; then
    first=${vparam%.variant}
    first=${first#segmap_tiled_}
    tin=tests/gpu/data/matmul_3x33x130.in
    expect "a variant out of range" 1 "tuning parameter $vparam is 99, but its variants are 1 to $count" \
        sh -c "'$texe' --param $vparam=99 < $tin"
    expect "variant 2 cached" 0 "segmap_tiled_$((first + 1)) +1 " \
        sh -c "'$texe' --default-threshold=0 --param $vparam=2 --cache-file '$work/vcache' -P < $tin"
    expect "variant 3 rebuilt despite the cache" 0 "segmap_tiled_$((first + 2)) +1 " \
        sh -c "'$texe' --default-threshold=0 --param $vparam=3 --cache-file '$work/vcache' -P < $tin"
    expect "dumped variants" 0 "^#if RT_VARIANT_[0-9]+ == $count\$" \
        sh -c "'$texe' --dump-opencl /dev/stdout"
    # A server switching variants between calls rebuilds the program.
    "$futhorc" dataset -b <$tin >"$work/tin.bin"
    printf '%s\n' "restore $work/tin.bin a [][]f32 b [][]f32" "call main o1 a b" "set_tuning_param $vparam 4" \
        "call main o2 a b" "store $work/o1.bin o1" "store $work/o2.bin o2" |
        "$texe" --server --default-threshold=0 >"$work/vserver.out" 2>&1
    if [ "$(grep -c '^%%% OK' "$work/vserver.out")" = 7 ] && cmp -s "$work/o1.bin" "$work/o2.bin"; then pass; else
        fail "a server switching variants"
        sed 's/^/    /' "$work/vserver.out" | head -20
    fi
fi
echo '__kernel void broken(' >"$work/broken.cl"
expect "build log" 1 'building the OpenCL program failed.*build log' \
    sh -c "echo '$in' | $exe --load-opencl $work/broken.cl"
expect "build option" 0 '^\[30i32, 10i32\]$' sh -c "echo '$in' | $exe --build-option -DFUTHORC_TEST=1"
expect "bad build option" 1 'CL_INVALID_BUILD_OPTIONS' sh -c "echo '$in' | $exe --build-option -no-such-option"
expect "cache written" 0 '^\[30i32, 10i32\]$' sh -c "echo '$in' | $exe --cache-file $work/cache"
expect "cache exists" 0 '' test -s "$work/cache"
expect "cache read" 0 '^\[30i32, 10i32\]$' sh -c "echo '$in' | $exe --cache-file $work/cache"
expect "device time" 0 '^[0-9]+$' sh -c "echo '$in' | $exe -r 2 -t /dev/stdout -n"
expect "help lists OpenCL options" 0 '--list-devices' "$exe" --help
# Coalescing by layout: both inputs of coalesce_views.fut are copied with
# the tiled transpose (of skinny arrays, as they are small), the rank-3 one
# after its inner dimensions merge.
cv_in='3i64 [[1i32, 2i32, 3i32, 4i32], [5i32, 6i32, 7i32, 8i32]] [[[1i32, 0i32], [0i32, 1i32]], [[2i32, 3i32], [4i32, 5i32]]]'
expect "transposed copies" 0 'rt_transpose_skinny_4 +2 ' \
    sh -c "'$futhorc' opencl tests/gpu/coalesce_views.fut -o '$work/cv' && echo '$cv_in' | '$work/cv' -P"
# Arrays at least as high and wide as the square tile take the square
# kernel, skinny ones the kernel of tiles shaped like them.
"$futhorc" opencl tests/gpu/transpose_skinny.fut -o "$work/ts" >"$work/cc.log" 2>&1 || fail "compiling transpose_skinny.fut"
expect "square transpose" 0 'rt_transpose_4 +1 ' sh -c "echo '64i64 70i64' | '$work/ts' -P"
expect "skinny transpose" 0 'rt_transpose_skinny_4 +1 ' sh -c "echo '12i64 70i64' | '$work/ts' -P"
# The long rows of irregular segmented reductions under other numbers of
# work-groups than the device's fill: one group, three (several share a
# row), more groups than chunks (groups with no chunks leave no part), and
# groups of 32 work-items.
for opts in "--default-num-groups=1" "--default-num-groups=3 --default-group-size=32" "--default-num-groups=1000"; do
    set -- $opts
    expect "long rows with $opts" 0 ' passed, 0 failed' \
        "$futhorc" test --backend=opencl "${@/#/--pass-option=}" tests/irregular/balance.fut
done
# Segmented scans of irregular rows keep their segment flags apart from the
# values (a local array of element flags: Scan.flagged in gpu_scan.c), with
# groups of 32 work-items too (segments across many groups' look-backs).
expect "irregular scan keeps its flags apart" 0 'locf' \
    sh -c "'$futhorc' dump --stage=opencl tests/irregular/segmented.fut | grep -o 'locf' | head -1"
expect "irregular scans in groups of 32" 0 ' passed, 0 failed' \
    "$futhorc" test --backend=opencl --pass-option=--default-group-size=32 tests/irregular/segmented.fut tests/gpu/flatten_scan.fut
# Libraries are tested by tests/library/run.sh; here only that one is made.
expect "library" 0 '#define FUTHARK_BACKEND_opencl' \
    sh -c "'$futhorc' opencl --library $here/kernel_fail.fut -o '$work/lib' && cat '$work/lib.h'"

echo "opencl: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
