"""tdpe.run: the command line's run, and its result read by bilby."""

import subprocess

import tdpe
import tdpe.bilby

SHORT = {"sampler.num_warmup": 150, "sampler.num_draws": 150, "sampler.target_ess": 0.0}


def test_a_run_from_python_is_the_command_lines(tdpe_binary, tmp_path):
    path = tdpe.run("default", tmp_path / "python", overrides=SHORT, progress=False)
    assert path == str(tmp_path / "python" / "result.json")
    subprocess.run(
        [tdpe_binary, "run", "--outdir", tmp_path / "cli", "--no-progress",
         "--n-warmup", "150", "--n-draws", "150", "--target-ess", "0"],
        check=True, capture_output=True,
    )
    samples = (tmp_path / "python" / "samples.csv").read_bytes()
    assert samples == (tmp_path / "cli" / "samples.csv").read_bytes()
    result = tdpe.bilby.read_result(path)
    assert isinstance(result, tdpe.bilby.bilby.gw.result.CBCResult)
    assert len(result.posterior) == samples.count(b"\n") - 1
    assert abs(result.posterior["chirp_mass"].median() - 28.1) < 1.0


def test_a_bad_run_fails_before_any_work(tmp_path):
    import pytest

    with pytest.raises(ValueError, match="num_chains"):
        tdpe.run("default", tmp_path / "bad", overrides={"sampler.num_chains": 0})
    assert not (tmp_path / "bad").exists()


def test_ctrl_c_keeps_the_draws_and_a_checkpoint(tmp_path):
    import signal
    import sys
    import time

    outdir = tmp_path / "stopped"
    script = (
        "import tdpe\n"
        "try:\n"
        f"    tdpe.run('default', {str(outdir)!r}, progress=False, overrides={{\n"
        "        'sampler.num_warmup': 30, 'sampler.num_draws': 1000000,\n"
        "        'injection.zero_noise': True})\n"
        "except KeyboardInterrupt:\n"
        "    print('KeyboardInterrupt')\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    # The set-up names the sampler's coordinates just before the chains start.
    for line in process.stderr:
        if "sampler coordinates" in line:
            break
    time.sleep(3)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 0 and "KeyboardInterrupt" in stdout, stderr
    assert "interrupted: the" in stderr
    result = (outdir / "result.json").read_text()
    assert '"interrupted": true' in result
    assert (outdir / "samples.csv").is_file() and (outdir / "checkpoint.bin").is_file()
