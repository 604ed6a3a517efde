//! A campaign for a cluster's scheduler (docs/campaigns.md §4): the same runs as on this
//! machine ([`super::local`]), each a `tdpe run --injection-file … --injection-number i`, as
//! a Slurm job array with the PP test as a job that depends on it, or an HTCondor DAG with a
//! node per run and the PP test as its final node. Only the runs not finished in the folder are
//! submitted, so a campaign written again after some runs failed submits those. A run the
//! scheduler stops writes its checkpoint and exits with [`checkpoint::EXIT_CODE`], which both
//! files declare as "checkpointed, run again".

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::local::{run_arguments, run_name, RUN_PREFIX};
use crate::output::atomic;
use crate::run::checkpoint;

/// The schedulers a campaign can be written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scheduler {
    /// A Slurm job array (`sbatch`) and a merge job after it.
    Slurm,
    /// An HTCondor DAG (`condor_submit_dag`) with a final merge node.
    Htcondor,
}

/// Where the scheduler's files go inside the campaign folder.
pub const SUBMIT_DIR: &str = "submit";
/// Where the jobs' logs go inside the campaign folder.
pub const LOG_DIR: &str = "logs";
/// How often HTCondor retries a run that failed (bilby_pipe's default for analysis jobs).
const RETRIES: usize = 3;
/// Seconds before its time limit at which Slurm asks a run to checkpoint and stop.
const STOP_WARNING_S: u32 = 300;

/// What the scheduler's files need.
pub struct SchedulerCampaign<'a> {
    /// The configuration file the runs share (None: the embedded default), absolute.
    pub config_path: Option<&'a Path>,
    /// The campaign folder, absolute.
    pub outdir: &'a Path,
    /// The `tdpe` executable, absolute.
    pub executable: &'a Path,
    /// The number of injections.
    pub count: usize,
    /// The injections to submit.
    pub pending: &'a [usize],
    /// CPUs (worker threads) of each run.
    pub threads_per_run: usize,
    /// Memory requested for each run (MB).
    pub memory_mb: u64,
}

impl SchedulerCampaign<'_> {
    /// Writes the files of `scheduler` into the folder's `submit/` and returns the command that
    /// submits them.
    pub fn write(&self, scheduler: Scheduler) -> anyhow::Result<String> {
        let submit = self.outdir.join(SUBMIT_DIR);
        for dir in [&submit, &self.outdir.join(LOG_DIR)] {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let files = match scheduler {
            Scheduler::Slurm => self.slurm(),
            Scheduler::Htcondor => self.htcondor(),
        };
        for (name, text) in &files {
            let path = submit.join(name);
            atomic::write_bytes(&path, text.as_bytes())?;
            if name.ends_with(".sh") {
                make_executable(&path)?;
            }
        }
        Ok(match scheduler {
            Scheduler::Slurm => format!(
                "bash {}",
                shell_word(&submit.join("submit.sh").display().to_string())
            ),
            // The DAG names its submit files relative to its own folder.
            Scheduler::Htcondor => format!(
                "condor_submit_dag -usedagdir {}",
                shell_word(&submit.join("campaign.dag").display().to_string())
            ),
        })
    }

    fn log(&self, name: &str) -> String {
        self.outdir.join(LOG_DIR).join(name).display().to_string()
    }

    /// Slurm's `--output` of the log `name` (whose `%a` is the task), quoted, with every `%`
    /// of the folder's path doubled so that Slurm reads none of them as a pattern.
    fn slurm_log(&self, name: &str) -> String {
        let dir = self.outdir.join(LOG_DIR).display().to_string();
        format!("\"{}/{name}\"", dir.replace('%', "%%"))
    }

    /// run.sh (the array), merge.sh (the PP test) and submit.sh (both, the merge after every
    /// run has ended, whether it succeeded or not).
    fn slurm(&self) -> Vec<(&'static str, String)> {
        let width = run_name(0, self.count).len() - RUN_PREFIX.len();
        let arguments = run_arguments(
            self.config_path,
            self.outdir,
            "${index}",
            "${name}",
            self.threads_per_run,
        );
        let run = format!(
            "#!/bin/bash\n\
             #SBATCH --job-name=tdpe-run\n\
             #SBATCH --array={array}\n\
             #SBATCH --ntasks=1\n\
             #SBATCH --cpus-per-task={cpus}\n\
             #SBATCH --mem={memory}M\n\
             #SBATCH --output={log}\n\
             #SBATCH --open-mode=append\n\
             #SBATCH --requeue\n\
             #SBATCH --signal=B:TERM@{warning}\n\
             # Stopped by Slurm (pre-emption, or {warning} s before the time limit), a run writes\n\
             # its checkpoint and exits {code}; the task is then queued again and goes on from it.\n\
             set -uo pipefail\n\
             index=${{SLURM_ARRAY_TASK_ID}}\n\
             name=$(printf '{RUN_PREFIX}%0{width}d' \"${{index}}\")\n\
             {command} &\n\
             pid=$!\n\
             trap 'kill -TERM \"${{pid}}\"' TERM\n\
             wait \"${{pid}}\"\n\
             status=$?\n\
             # A signal ends the first wait early: wait for the run to write its checkpoint.\n\
             while kill -0 \"${{pid}}\" 2>/dev/null; do wait \"${{pid}}\"; status=$?; done\n\
             if [ \"${{status}}\" -eq {code} ]; then\n\
             \x20   scontrol requeue \"${{SLURM_ARRAY_JOB_ID}}_${{SLURM_ARRAY_TASK_ID}}\"\n\
             fi\n\
             exit \"${{status}}\"\n",
            warning = STOP_WARNING_S,
            code = checkpoint::EXIT_CODE,
            array = array_ranges(self.pending),
            cpus = self.threads_per_run,
            memory = self.memory_mb,
            log = self.slurm_log("run_%a.log"),
            command = shell_words(self.executable, &arguments),
        );
        let merge = format!(
            "#!/bin/bash\n\
             #SBATCH --job-name=tdpe-pp\n\
             #SBATCH --ntasks=1\n\
             #SBATCH --cpus-per-task=1\n\
             #SBATCH --mem=1000M\n\
             #SBATCH --output={log}\n\
             exec {command}\n",
            log = self.slurm_log("pp.log"),
            command = shell_words(
                self.executable,
                &["pp".to_string(), self.outdir.display().to_string()]
            ),
        );
        let submit = "#!/bin/bash\n\
                      # Submits the runs as a job array, then the PP test once every run has ended.\n\
                      set -euo pipefail\n\
                      cd \"$(dirname \"$0\")\"\n\
                      runs=$(sbatch --parsable run.sh)\n\
                      merge=$(sbatch --parsable --dependency=afterany:\"${runs%%;*}\" merge.sh)\n\
                      echo \"submitted: runs ${runs%%;*}, PP test ${merge%%;*}\"\n"
            .to_string();
        vec![("run.sh", run), ("merge.sh", merge), ("submit.sh", submit)]
    }

    /// run.sub (one run, its index and folder name from the DAG's VARS), merge.sub and
    /// campaign.dag (a node per run, retried, and the PP test as the FINAL node, which
    /// DAGMan runs whether the runs succeeded or not).
    fn htcondor(&self) -> Vec<(&'static str, String)> {
        let arguments = run_arguments(
            self.config_path,
            self.outdir,
            "$(index)",
            "$(name)",
            self.threads_per_run,
        );
        let submit = |arguments: &[String], cpus: usize, memory: u64, name: &str| {
            format!(
                "universe = vanilla\n\
                 executable = {executable}\n\
                 arguments = {arguments}\n\
                 request_cpus = {cpus}\n\
                 request_memory = {memory} MB\n\
                 request_disk = 1 GB\n\
                 getenv = True\n\
                 checkpoint_exit_code = {code}\n\
                 log = {log}\n\
                 output = {output}\n\
                 error = {error}\n\
                 queue\n",
                executable = self.executable.display(),
                arguments = condor_arguments(arguments),
                code = checkpoint::EXIT_CODE,
                log = self.log("condor.log"),
                output = self.log(&format!("{name}.out")),
                error = self.log(&format!("{name}.err")),
            )
        };
        let run = submit(&arguments, self.threads_per_run, self.memory_mb, "$(name)");
        let merge = submit(
            &["pp".to_string(), self.outdir.display().to_string()],
            1,
            1000,
            "pp",
        );
        let mut dag = String::from("# One node per run, then the PP test of their results.\n");
        for &i in self.pending {
            let name = run_name(i, self.count);
            dag.push_str(&format!(
                "JOB {name} run.sub\nVARS {name} index=\"{i}\" name=\"{name}\"\nRETRY {name} {RETRIES}\n"
            ));
        }
        dag.push_str("FINAL pp merge.sub\n");
        vec![
            ("run.sub", run),
            ("merge.sub", merge),
            ("campaign.dag", dag),
        ]
    }
}

/// Slurm's `--array` list of `indices` (sorted): ranges `a-b` joined by commas.
fn array_ranges(indices: &[usize]) -> String {
    let mut ranges: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let start = indices[i];
        while i + 1 < indices.len() && indices[i + 1] == indices[i] + 1 {
            i += 1;
        }
        ranges.push(if indices[i] == start {
            start.to_string()
        } else {
            format!("{start}-{}", indices[i])
        });
        i += 1;
    }
    ranges.join(",")
}

/// The job's shell variables that [`shell_words`] leaves for bash to expand.
const SHELL_VARIABLES: [&str; 2] = ["${index}", "${name}"];

/// A bash command line: each word single-quoted, except words holding the job's variables
/// ([`SHELL_VARIABLES`]), which go in double quotes with every other special character
/// escaped, so that bash expands those variables and nothing else.
fn shell_words(executable: &Path, arguments: &[String]) -> String {
    let quote = |word: &str| {
        if SHELL_VARIABLES.iter().any(|v| word.contains(v)) {
            let mut escaped = String::new();
            for c in word.chars() {
                if matches!(c, '\\' | '"' | '$' | '`') {
                    escaped.push('\\');
                }
                escaped.push(c);
            }
            for variable in SHELL_VARIABLES {
                escaped = escaped.replace(&format!("\\{variable}"), variable);
            }
            format!("\"{escaped}\"")
        } else {
            shell_word(word)
        }
    };
    std::iter::once(quote(&executable.display().to_string()))
        .chain(arguments.iter().map(|a| quote(a)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` single-quoted for bash.
fn shell_word(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// HTCondor's new argument syntax: the whole list in double quotes, each word in single quotes
/// (a single quote doubled, a double quote doubled).
fn condor_arguments(arguments: &[String]) -> String {
    let words: Vec<String> = arguments
        .iter()
        .map(|a| format!("'{}'", a.replace('\'', "''").replace('"', "\"\"")))
        .collect();
    format!("\"{}\"", words.join(" "))
}

#[cfg(unix)]
fn make_executable(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .with_context(|| format!("cannot make {} executable", path.display()))
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> anyhow::Result<()> {
    Ok(())
}

/// `path` made absolute against the current directory (the jobs run elsewhere).
pub fn absolute(path: &Path) -> anyhow::Result<PathBuf> {
    std::path::absolute(path).with_context(|| format!("cannot make {} absolute", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_quotes_and_arguments() {
        assert_eq!(array_ranges(&[0, 1, 2, 5, 7, 8]), "0-2,5,7-8");
        assert_eq!(array_ranges(&[3]), "3");
        assert_eq!(
            shell_words(
                Path::new("/opt/t d/tdpe"),
                &["it's".into(), "/a$b`c\"/${name}".into()]
            ),
            "'/opt/t d/tdpe' 'it'\\''s' \"/a\\$b\\`c\\\"/${name}\""
        );
        assert_eq!(
            condor_arguments(&["a b".into(), "it's".into(), "$(index)".into()]),
            "\"'a b' 'it''s' '$(index)'\""
        );
    }

    /// The files name every pending run once, with its index and folder, and the merge after
    /// them; finished runs are left out.
    #[test]
    fn files_hold_every_pending_run_and_the_merge() {
        let dir = std::env::temp_dir().join(format!("tdpe-scheduler-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let campaign = SchedulerCampaign {
            config_path: Some(Path::new("/data/my config.toml")),
            outdir: &dir,
            executable: Path::new("/opt/tdpe"),
            count: 12,
            pending: &[0, 1, 2, 10],
            threads_per_run: 2,
            memory_mb: 1500,
        };
        let command = campaign.write(Scheduler::Slurm).unwrap();
        assert!(command.ends_with("submit/submit.sh'"), "{command}");
        let run = std::fs::read_to_string(dir.join("submit/run.sh")).unwrap();
        assert!(run.contains("#SBATCH --array=0-2,10\n"), "{run}");
        assert!(
            run.contains("#SBATCH --cpus-per-task=2\n#SBATCH --mem=1500M\n"),
            "{run}"
        );
        assert!(run.contains("/logs/run_%a.log\"\n"), "{run}");
        assert!(run.contains("printf 'injection_%04d'"), "{run}");
        assert!(
            run.contains("'/data/my config.toml' '--injection-file'"),
            "{run}"
        );
        assert!(run.contains("'--injection-number' \"${index}\""), "{run}");
        assert!(
            run.contains("if [ \"${status}\" -eq 77 ]; then\n    scontrol requeue"),
            "{run}"
        );
        let submit = std::fs::read_to_string(dir.join("submit/submit.sh")).unwrap();
        assert!(submit.contains("--dependency=afterany:"), "{submit}");

        let command = campaign.write(Scheduler::Htcondor).unwrap();
        assert!(
            command.starts_with("condor_submit_dag -usedagdir '"),
            "{command}"
        );
        let dag = std::fs::read_to_string(dir.join("submit/campaign.dag")).unwrap();
        assert_eq!(dag.matches("JOB ").count(), 4, "{dag}");
        assert!(dag.contains("JOB injection_0010 run.sub\nVARS injection_0010 index=\"10\" name=\"injection_0010\"\nRETRY injection_0010 3\n"), "{dag}");
        assert!(!dag.contains("injection_0003"), "{dag}");
        assert!(dag.ends_with("FINAL pp merge.sub\n"), "{dag}");
        let sub = std::fs::read_to_string(dir.join("submit/run.sub")).unwrap();
        assert!(
            sub.contains("request_cpus = 2\nrequest_memory = 1500 MB\n"),
            "{sub}"
        );
        assert!(sub.contains("checkpoint_exit_code = 77\n"), "{sub}");
        assert!(sub.contains("'--injection-number' '$(index)'"), "{sub}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
