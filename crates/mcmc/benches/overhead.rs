//! Per-iteration sampler overhead: one transition on a standard normal whose gradient costs a
//! few nanoseconds, so the time measured is the sampler's own (momentum draws, leapfrog
//! bookkeeping, tree building, U-turn checks). Divide by the leapfrog steps per transition
//! (printed once per case) for the overhead per gradient evaluation.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tdpe_mcmc::{chain_rng, Hamiltonian, Hmc, Kernel, LogDensity, Mala, Metric, Nuts, Space};

struct StdNormal(usize);

impl Space for StdNormal {
    fn dim(&self) -> usize {
        self.0
    }
}

impl LogDensity for StdNormal {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let mut logp = 0.0;
        for (g, xi) in grad.iter_mut().zip(x) {
            *g = -xi;
            logp -= 0.5 * xi * xi;
        }
        logp
    }
}

fn bench_kernel<K: Kernel>(c: &mut Criterion, kernel: K, step_size: f64) {
    let mut group = c.benchmark_group(format!("{}_transition", kernel.name()));
    for dim in [10, 100] {
        let target = StdNormal(dim);
        let mut hamiltonian = Hamiltonian::new(&target, Metric::unit(dim));
        let mut point = hamiltonian.point(vec![0.5; dim]);
        let mut rng = chain_rng(1, 0);
        let evals_before = hamiltonian.grad_evals();
        let transitions = 2000;
        for _ in 0..transitions {
            kernel.transition(&mut hamiltonian, &mut point, step_size, &mut rng);
        }
        println!(
            "{} d={dim}: {:.1} leapfrog steps per transition",
            kernel.name(),
            (hamiltonian.grad_evals() - evals_before) as f64 / f64::from(transitions)
        );
        group.bench_function(BenchmarkId::from_parameter(dim), |b| {
            b.iter(|| kernel.transition(&mut hamiltonian, &mut point, step_size, &mut rng))
        });
    }
    group.finish();
}

fn overhead(c: &mut Criterion) {
    bench_kernel(c, Nuts::default(), 0.5);
    bench_kernel(c, Hmc::default(), 0.5);
    bench_kernel(c, Mala::default(), 0.5);
}

criterion_group!(benches, overhead);
criterion_main!(benches);
