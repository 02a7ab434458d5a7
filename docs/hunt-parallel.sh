#!/bin/bash
# A record hunt's scan in 16 shards with GNU parallel, merged and verified. Arguments: the
# hosts (host1,host2,... or : for this machine), the hunt's candidate budget (default 2^28),
# then the search's options (default --variant black --pool 64). Writes the merged set
# hunt.rs and the merged state hunt.state, which pack-seeds.sh packs further. Every host
# needs magic-gen on its PATH; --workdir . runs each shard in this directory's path relative
# to home on its host, and --return brings the states back here.
set -eu
hosts=${1:?usage: hunt-parallel.sh HOSTS [CANDIDATES [SEARCH OPTIONS...]]}
candidates=${2:-268435456}
shift $(($# < 2 ? $# : 2))
[ $# -gt 0 ] || set -- --variant black --pool 64
seq 0 15 | parallel -S "$hosts" --workdir . --return 'shard-{}.state' \
    magic-gen search "$@" --candidates "$candidates" --shard {}/16 --state shard-{}.state
magic-gen merge shard-*.state --state hunt.state --out hunt.rs
magic-gen verify hunt.rs
