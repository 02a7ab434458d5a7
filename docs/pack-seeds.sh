#!/bin/bash
# Packs the pools of one hunt several ways at once, one packing seed per job, and keeps
# the shortest table. Arguments: the hosts (host1,host2,... or : for this machine), the
# state file a search saved with --state, how many packings to make (seeds 1 to N), then
# the packing's options as `search --resume` takes them (the state keeps the hunt's own
# --polish, --clump, --evolve and packing options: give one only to change it). Writes
# pack-K.txt for seed K and best.txt, the
# shortest of them (the lowest seed among equals), verified. Each packing checkpoints into
# its own copy pack-K.state, so after a kill the same command resumes every packing where
# it stopped. Every host needs magic-gen on its PATH.
set -eu
usage='usage: pack-seeds.sh HOSTS STATE N [SEARCH OPTIONS...]'
hosts=${1:?$usage}
state=${2:?$usage}
n=${3:?$usage}
shift 3
seq 1 "$n" | parallel -S "$hosts" --workdir . --transferfile "$state" \
    --return 'pack-{}.txt' --return 'pack-{}.state' \
    test -f 'pack-{}.state' '||' cp "$state" 'pack-{}.state' ';' \
    magic-gen search --resume 'pack-{}.state' "$@" --pack-seed {} --out 'pack-{}.txt'
best=$(for k in $(seq 1 "$n"); do
    echo "$(sed -n 's/^# table: \([0-9]*\) entries.*/\1/p' "pack-$k.txt") $k"
done | sort -n -k1,1 -k2,2 | head -1 | cut -d' ' -f2)
cp "pack-$best.txt" best.txt
echo "best: pack-$best.txt"
magic-gen verify best.txt
