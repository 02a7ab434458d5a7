#!/bin/bash
# A black record hunt in 16 shards with GNU parallel, merged and verified. Arguments: the
# hosts (host1,host2,... or : for this machine) and the hunt's candidate budget (default
# 2^28). Every host needs magic-gen on its PATH; --workdir . runs each shard in this
# directory's path relative to home on its host, and --return brings the states back here.
set -eu
hosts=${1:?usage: hunt-parallel.sh HOSTS [CANDIDATES]}
candidates=${2:-268435456}
seq 0 15 | parallel -S "$hosts" --workdir . --return 'shard-{}.state' \
    magic-gen search --variant black --pool 64 --candidates "$candidates" \
        --shard {}/16 --state shard-{}.state
magic-gen merge shard-*.state --out black.rs
magic-gen verify black.rs
