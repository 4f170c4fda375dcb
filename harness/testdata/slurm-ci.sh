#!/usr/bin/env bash
# Runs TestSlurmArray against a real Slurm: installs Debian's slurm-wlm and
# munge when they are missing (as root), starts a one-node cluster on this
# machine (its own munged socket and key, its own slurm.conf and ports, all
# under a temporary folder), submits the script gdlperf slurm wrote as a
# job array of 4 shards, waits for it, merges the shards and checks them
# against an unsharded campaign. The daemons it started are stopped on exit.
#
#   bash harness/testdata/slurm-ci.sh            from the repository root
#
# It skips (exit 0, with the reason) when the cluster cannot be set up:
# not root, no apt-get, no package, a daemon that does not come up; set
# GDLPERF_SLURM_CI=require to fail instead. A failing test always fails.
# Every wait is bounded; wrap it in timeout(1) all the same.
set -euo pipefail
cd "$(dirname "$0")/../.."

require=${GDLPERF_SLURM_CI:-}
skip() {
  echo "slurm-ci: SKIPPED: $*" >&2
  if [ "$require" = require ]; then exit 1; fi
  exit 0
}

[ "$(id -u)" = 0 ] || skip "needs root to run slurmd and munged"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  command -v apt-get >/dev/null || skip "no slurm-wlm and no apt-get to install it"
  echo "slurm-ci: installing slurm-wlm and munge" >&2
  export DEBIAN_FRONTEND=noninteractive
  timeout 300 apt-get update -qq || skip "apt-get update failed"
  timeout 600 apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null || skip "apt-get install slurm-wlm munge failed"
fi
id munge >/dev/null 2>&1 || skip "no munge user (the munge package creates it)"

work=$(mktemp -d /tmp/gdlperf-slurm-ci.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  set +e
  if [ -n "${SLURM_CONF:-}" ]; then scancel --full --quiet --user=root >/dev/null 2>&1; fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[$i]}" 2>/dev/null
  done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  if [ -n "${KEEP_SLURM_CI:-}" ]; then echo "slurm-ci: left $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# munge: a key and a socket of our own, so a munged of the machine is left alone.
mkdir -p "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$work/munge"
chmod 700 "$work/munge"
chmod 400 "$work/munge/munge.key"
sock="$work/munge/munge.socket"
setpriv_cmd=(setpriv --reuid=munge --regid=munge --init-groups)
"${setpriv_cmd[@]}" munged -F --force --socket="$sock" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
  --seed-file="$work/munge/munged.seed" 2>"$work/munge/stderr" &
pids+=($!)
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { cat "$work/munge/stderr" "$work/munge/munged.log" >&2 2>/dev/null; skip "munged did not start"; }
munge -S "$sock" -n | unmunge -S "$sock" >/dev/null || skip "munge does not work"

host=$(hostname -s)
ctldport=${SLURM_CI_PORT:-16917}
mkdir -p "$work/state" "$work/spool" "$work/log"
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=gdlperfci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldPort=$ctldport
SlurmdPort=$((ctldport + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=30 State=UP
EOF
slurmctld -D -i >"$work/log/slurmctld.stderr" 2>&1 &
pids+=($!)
slurmd -D >"$work/log/slurmd.stderr" 2>&1 &
pids+=($!)
up=
for _ in $(seq 60); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then up=1; break; fi
  sleep 0.5
done
if [ -z "$up" ]; then
  sinfo >&2 || true
  tail -n 20 "$work"/log/* >&2 || true
  skip "the one-node cluster did not come up"
fi
echo "slurm-ci: one-node Slurm $(sinfo -V 2>/dev/null) is up on $host" >&2
sinfo >&2

# The test: sbatch --wait inside, bounded by the partition's 30 minutes and this.
GDLPERF_SLURM=1 timeout 600 go test -count=1 -run '^TestSlurmArray$' -v ./cmd/gdlperf/cli/
