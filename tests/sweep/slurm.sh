#!/usr/bin/env bash
# A real Slurm on this machine (loopback only, no munge): slurmctld + slurmd from a temporary
# slurm.conf, a small sweep through `--backend slurm`, and its results.csv and per-point stats
# compared byte for byte with the local backend's. Skips (exit 77) without the Slurm binaries.
#   tests/sweep/slurm.sh HETVP [TMPDIR]
# Every wait has a timeout; the daemons started here (and only they) are stopped on any exit.
set -u
HETVP=${1:?usage: slurm.sh HETVP}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SKIP=77
for b in slurmctld slurmd sbatch squeue sinfo; do
  if ! command -v "$b" >/dev/null 2>&1; then
    echo "SKIP: '$b' not found: install slurmctld slurmd slurm-client (.ci/install-deps) to run the Slurm test"
    exit $SKIP
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  # slurmd must start jobs as their owner (setuid) and slurmctld/slurmd run as SlurmUser=root here:
  # run the whole test again as root through sudo, as .ci/install-deps does (without a password
  # prompt: -n). Only where sudo cannot do that is the test skipped, saying so.
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "not root: running the Slurm test through sudo"
    exec sudo -n env PATH="$PATH" bash "$0" "$@"
  fi
  echo "SKIP: the Slurm test runs the daemons as root (SlurmUser=root, SlurmdUser=root) and sudo -n is not available; run it as root"
  exit $SKIP
fi

T=$(mktemp -d /tmp/hetvp-slurm.XXXXXX)
CTLD_PID=""
SLURMD_PID=""
cleanup() {
  for p in $SLURMD_PID $CTLD_PID; do
    kill "$p" 2>/dev/null
  done
  for p in $SLURMD_PID $CTLD_PID; do  # at most 10 s each, then SIGKILL
    for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  [ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
  echo "FAIL: $*"
  for f in "$T"/slurmctld.log "$T"/slurmd.log "$T"/slurm-out/slurm/task-*.out; do
    [ -f "$f" ] && { echo "--- $f (tail)"; tail -n 20 "$f"; }
  done
  exit 1
}

HOST=$(hostname -s)
# Ports: 30000 + a hash of the temp dir, so two runs at once do not collide.
BASEPORT=$((30000 + $(printf '%s' "$T" | cksum | cut -d' ' -f1) % 20000))
mkdir -p "$T/state" "$T/spool"
cat > "$T/slurm.conf" <<EOF
ClusterName=hetvp-ci
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$BASEPORT
SlurmdPort=$((BASEPORT + 1))
SrunPortRange=$((BASEPORT + 2))-$((BASEPORT + 40))
AuthType=auth/none
CredType=cred/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
NodeName=$HOST NodeAddr=127.0.0.1 NodeHostname=$HOST CPUs=$(nproc) State=UNKNOWN
PartitionName=ci Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$T/slurm.conf

slurmctld -D -i -f "$T/slurm.conf" > "$T/slurmctld.stdout" 2>&1 &
CTLD_PID=$!
slurmd -D -f "$T/slurm.conf" -N "$HOST" > "$T/slurmd.stdout" 2>&1 &
SLURMD_PID=$!

# The node is idle within 30 s, or the test fails (the daemons' logs are shown).
state=""
for _ in $(seq 300); do
  kill -0 $CTLD_PID 2>/dev/null || fail "slurmctld exited: $(tail -n 5 "$T/slurmctld.stdout")"
  kill -0 $SLURMD_PID 2>/dev/null || fail "slurmd exited: $(tail -n 5 "$T/slurmd.stdout")"
  state=$(timeout 5 sinfo -h -N -n "$HOST" -o %t 2>/dev/null | head -n 1)
  [ "$state" = "idle" ] && break
  sleep 0.1
done
[ "$state" = "idle" ] || fail "the node is not idle after 30 s (sinfo: '$state')"

cat > "$T/sweep.yaml" <<EOF
base: $SRC/configs/default.yaml
workload: boot
axes:
  pcie0.lanes: [1, 16]
  pcie0.generation: [1, 3]
columns: [pcie0.down.wire_bytes, pcie0.bytes_per_second]
EOF
# Both backends write the same absolute paths into stats.json: the points tree is in one place,
# moved aside between the runs.
timeout 60 "$HETVP" sweep "$T/sweep.yaml" --out "$T/sweep-out" -j 2 || fail "the local sweep failed"
mv "$T/sweep-out" "$T/local-out"
timeout 120 "$HETVP" sweep "$T/sweep.yaml" --out "$T/sweep-out" --backend slurm --poll 0.5 --wait-timeout 100s \
  || { mv "$T/sweep-out" "$T/slurm-out"; fail "the slurm sweep failed"; }
mv "$T/sweep-out" "$T/slurm-out"

[ -f "$T/slurm-out/slurm/sweep.sbatch" ] || fail "no sbatch script"
grep -q -- '--array=0-3$' "$T/slurm-out/slurm/sweep.sbatch" || fail "the array is not 0-3: $(grep array "$T/slurm-out/slurm/sweep.sbatch")"
cmp "$T/local-out/results.csv" "$T/slurm-out/results.csv" || fail "results.csv differ"
[ "$(grep -c ',ok,' "$T/slurm-out/results.csv")" = 4 ] || fail "not 4 ok points: $(cat "$T/slurm-out/results.csv")"
n=0
for d in "$T"/local-out/points/*/; do
  h=$(basename "$d")
  cmp <(grep -v '"host_seconds"\|"sim_rate"' "$d/stats.json") \
      <(grep -v '"host_seconds"\|"sim_rate"' "$T/slurm-out/points/$h/stats.json") || fail "point $h: stats differ"
  cmp "$d/results.csv" "$T/slurm-out/points/$h/results.csv" || fail "point $h: csv differ"
  n=$((n + 1))
done
[ $n = 4 ] || fail "expected 4 points, found $n"
echo "PASS: 4 points through Slurm ($(cat "$T/slurm-out/slurm/job")) match the local backend byte for byte"
