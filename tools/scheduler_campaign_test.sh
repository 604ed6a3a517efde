#!/usr/bin/env bash
# A campaign through a real Slurm and through HTCondor's own parser (issue 25; dev and CI-like
# check, not part of `cargo test`). Needs root on a Debian machine and network access to Debian's
# packages and PyPI; about five minutes (Slurm holds a requeued task for two of them).
#
#   bash tools/scheduler_campaign_test.sh
#
# 1. Installs Debian's munge and slurm-wlm if slurmctld is missing, writes a single-node Slurm
#    configuration for localhost into a scratch folder (no cgroups: proctrack/linuxproc,
#    task/none), and starts munged, slurmctld and slurmd (stopped again at the end).
# 2. Draws 4 injections from a near-distance prior (loud signals: short runs) and writes the
#    campaign with `tdpe campaign --scheduler slurm`, submits it with its submit.sh (sbatch: the
#    job array, then the PP test after it), pre-empts task 0 with SIGTERM once its chains run
#    (it must checkpoint, be requeued and resume), waits for the PP test's job, and checks that
#    the merged pp.json holds the 4 runs and no failure.
# 3. Writes the HTCondor files of the same campaign and parses them with the `htcondor` Python
#    bindings (PyPI, in a venv this script creates): the submit files with htcondor.Submit, the
#    DAG with htcondor.Submit.from_dag (which reads the DAG's options, not each node line:
#    HTCondor itself is not among Debian's packages, so DAGMan cannot run here), and the
#    node lines by this script.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cargo build --release -q -p tdpe
tdpe="${CARGO_TARGET_DIR:-$root/target}/release/tdpe"
scratch=$(mktemp -d /tmp/tdpe-scheduler-XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT

# --- Slurm on localhost --------------------------------------------------------------------
if ! command -v slurmctld >/dev/null; then
    echo "installing munge and slurm-wlm (Debian packages)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq munge slurm-wlm >/dev/null
fi
mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
fi
chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge 2>/dev/null || true
chmod 400 /etc/munge/munge.key
if ! pgrep -x munged >/dev/null; then
    runuser -u munge -- munged --force 2>/dev/null || munged --force
fi

slurm="$scratch/slurm"
mkdir -p "$slurm/ctld" "$slurm/d"
cpus=$(nproc)
cat > "$slurm/slurm.conf" <<EOF
ClusterName=tdpe
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
StateSaveLocation=$slurm/ctld
SlurmdSpoolDir=$slurm/d
SlurmctldPidFile=$slurm/slurmctld.pid
SlurmdPidFile=$slurm/slurmd.pid
SlurmctldLogFile=$slurm/slurmctld.log
SlurmdLogFile=$slurm/slurmd.log
NodeName=localhost CPUs=$cpus RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$slurm/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$slurm/ctld.out" 2>&1 &
pids+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >"$slurm/d.out" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
    if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then break; fi
    sleep 1
done
sinfo -h -o '%P %D %T' || { cat "$slurm"/*.log; exit 1; }
sinfo -h -o %T | grep -qE '^(idle|mixed|allocated)' || {
    echo "slurmd did not come up"; cat "$slurm"/*.log; exit 1
}

# --- A 4-injection campaign through sbatch -------------------------------------------------
work="$scratch/work"
mkdir -p "$work"
cd "$work"
sed 's/minimum=100, maximum=5000/minimum=100, maximum=400/' \
    "$root/crates/posterior/prior_files/gw150914_like.prior" > near.prior
"$tdpe" config | sed -e 's/^prior_file = "default"/prior_file = "near.prior"/' \
    -e 's/^num_warmup = 700/num_warmup = 200/' -e 's/^num_draws = 1500/num_draws = 300/' \
    -e 's/^target_ess = 1000/target_ess = 0/' > short.toml
"$tdpe" injections short.toml -n 4 --generation-seed 25 -f injections.json
"$tdpe" campaign short.toml --injection-file injections.json --outdir slurm-campaign \
    --scheduler slurm
bash slurm-campaign/submit/submit.sh | tee submitted.txt
runs=$(sed -n 's/.*runs \([0-9]*\),.*/\1/p' submitted.txt)
merge=$(sed -n 's/.*PP test \([0-9]*\).*/\1/p' submitted.txt)
# Pre-empt task 0 once its chains run, as Slurm does (SIGTERM to the batch script): the run
# checkpoints and exits 77, the script requeues the task, and the task resumes.
for _ in $(seq 300); do
    grep -q "sampler coordinates" slurm-campaign/logs/run_0.log 2>/dev/null && break
    sleep 0.2
done
# scancel may report the task "in transition" once it is requeued: what counts is checked below.
scancel --signal=TERM --batch "${runs}_0" 2>/dev/null || true
for _ in $(seq 600); do
    state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case "$state" in
        COMPLETED) break ;;
        FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY)
            echo "the PP test's job ended $state"; cat slurm-campaign/logs/*.log; exit 1 ;;
    esac
    sleep 1
done
[ "$state" = COMPLETED ] || { echo "the campaign did not finish in 10 minutes"; squeue; exit 1; }
grep -q "checkpointed" slurm-campaign/logs/run_0.log \
    && grep -q "resuming the 4 chains" slurm-campaign/logs/run_0.log \
    || { echo "task 0 was not checkpointed and resumed"; cat slurm-campaign/logs/run_0.log; exit 1; }
python3 - slurm-campaign/pp.json <<'EOF'
import json, sys
pp = json.load(open(sys.argv[1]))
runs, failed = pp["runs"], pp["failed"]
assert len(runs) == 4 and not failed, (len(runs), failed)
assert [r["name"] for r in runs] == [f"injection_{i:04d}" for i in range(4)], runs
assert 0.0 <= pp["combined_pvalue"] <= 1.0, pp["combined_pvalue"]
print(f"slurm: 4 runs merged, combined p-value {pp['combined_pvalue']:.3f}")
EOF

# --- HTCondor's parser ----------------------------------------------------------------------
"$tdpe" campaign short.toml --injection-file injections.json --outdir condor-campaign \
    --scheduler htcondor
python3 -m venv "$scratch/venv"
"$scratch/venv/bin/pip" install -q htcondor
# Submit.from_dag writes DAGMan's own submit description and needs condor_dagman on the PATH
# (HTCondor is not among Debian's packages): a stand-in that is never run. from_dag reads the
# DAG's options, not every line, so the DAG's nodes are checked below as well.
mkdir -p "$scratch/bin"
command -v condor_dagman >/dev/null || printf '#!/bin/sh\nexit 1\n' > "$scratch/bin/condor_dagman"
chmod +x "$scratch/bin/condor_dagman" 2>/dev/null || true
PATH="$scratch/bin:$PATH" CONDOR_CONFIG=ONLY_ENV "$scratch/venv/bin/python" - condor-campaign/submit <<'EOF'
import pathlib, shlex, sys
try:
    import htcondor2 as htcondor  # the bindings' current API (htcondor >= 24 on PyPI)
except ImportError:
    import htcondor
submit = pathlib.Path(sys.argv[1])
run = htcondor.Submit((submit / "run.sub").read_text())
assert run["request_cpus"] == "1", run["request_cpus"]
assert run["request_memory"] == "1000 MB", run["request_memory"]
# HTCondor's new argument syntax: one double-quoted string of single-quoted words.
words = shlex.split(run["arguments"].strip('"').replace("''", "\\'"))
assert words[0] == "run" and "--injection-number" in words, words
assert words[words.index("--injection-number") + 1] == "$(index)", words
merge = htcondor.Submit((submit / "merge.sub").read_text())
assert merge["arguments"].strip('"').split()[0] == "'pp'", merge["arguments"]
dag = htcondor.Submit.from_dag(str(submit / "campaign.dag"), {"force": True})
assert "campaign.dag" in str(dag), dag
lines = (submit / "campaign.dag").read_text().splitlines()
jobs = [l.split() for l in lines if l.startswith("JOB ")]
assert [j[2] for j in jobs] == ["run.sub"] * 4, jobs
for name in (j[1] for j in jobs):
    assert f'VARS {name} index="{int(name.split("_")[1])}" name="{name}"' in lines, name
    assert f"RETRY {name} 3" in lines, name
assert lines[-1] == "FINAL pp merge.sub", lines[-1]
print("htcondor: run.sub and merge.sub parsed by htcondor.Submit, campaign.dag by Submit.from_dag")
EOF
echo "scheduler campaign checks passed"
