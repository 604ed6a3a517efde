//! A function of every item of a list on a few threads, with the results in the list's order:
//! the same results on any number of threads.

use std::sync::Mutex;

/// `f` of every item of `items` on up to `threads` threads, each worker taking the next item (the
/// costliest ones are not known in advance), the results in the order of `items`; `None` if a
/// worker stopped (panicked) before its items were done.
pub fn map_in_order<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Option<Vec<R>> {
    let count = items.len();
    let queue = Mutex::new(items.into_iter().enumerate());
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.clamp(1, count.max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    while let Some((i, item)) = queue.lock().ok().and_then(|mut q| q.next()) {
                        out.push((i, f(item)));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    if done.len() != count {
        return None;
    }
    done.sort_by_key(|(i, _)| *i);
    Some(done.into_iter().map(|(_, r)| r).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_in_order_on_any_number_of_threads() {
        let items: Vec<u64> = (0..37).collect();
        let expected: Vec<u64> = items.iter().map(|i| i * i).collect();
        for threads in [0, 1, 2, 5, 100] {
            assert_eq!(
                map_in_order(items.clone(), threads, |i| i * i),
                Some(expected.clone())
            );
        }
        assert_eq!(map_in_order(Vec::<u64>::new(), 3, |i| i), Some(vec![]));
    }
}
