//! A try's channels fitted longest first. Their fits take from a fraction of a millisecond to
//! a dozen on a long take, and a try waits for the last: fitted in the clip's order, the two
//! cores of the benchmark machine sat idle for several milliseconds while one finished a
//! long fit it had started late. Each worker thread instead takes the next channel of a list
//! ordered by what each took in the try before (greedy list scheduling), so the last fits to
//! start are short ones.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

/// How long each channel's fit took in the last try, to order the next one by.
#[derive(Debug, Default)]
pub(super) struct Costs(Mutex<Vec<f64>>);

impl Costs {
    /// `work(i)` for every `i` in `0..n`, on the worker threads, longest first by the last
    /// try's costs (in index order when there was none); the results in index order. The new
    /// costs are kept for the next try.
    pub(super) fn run<T: Send>(&self, n: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
        let order = self.order(n);
        let next = AtomicUsize::new(0);
        let workers = rayon::current_num_threads().clamp(1, n.max(1));
        let mut done: Vec<(usize, f64, T)> = (0..workers)
            .into_par_iter()
            .flat_map_iter(|_| {
                let mut mine = Vec::new();
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let t0 = Instant::now();
                    let result = work(i);
                    mine.push((i, t0.elapsed().as_secs_f64(), result));
                }
                mine
            })
            .collect();
        done.sort_unstable_by_key(|(i, _, _)| *i);
        if let Ok(mut costs) = self.0.lock() {
            *costs = done.iter().map(|(_, cost, _)| *cost).collect();
        }
        done.into_iter().map(|(_, _, result)| result).collect()
    }

    /// `0..n` by the last try's costs, longest first (index order when they are not known).
    fn order(&self, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        if let Ok(costs) = self.0.lock()
            && costs.len() == n
        {
            order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(a.cmp(&b)));
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_index_order_and_the_next_run_starts_with_the_longest() {
        let costs = Costs::default();
        // No costs yet: index order.
        assert_eq!(costs.order(4), vec![0, 1, 2, 3]);
        let squares = costs.run(4, |i| {
            // Item 2 takes longest, item 0 next.
            let ms = [3, 0, 12, 0][i];
            std::thread::sleep(std::time::Duration::from_millis(ms));
            i * i
        });
        assert_eq!(squares, vec![0, 1, 4, 9]);
        assert_eq!(&costs.order(4)[..2], &[2, 0]);
        // Another count of channels: the costs say nothing about them.
        assert_eq!(costs.order(3), vec![0, 1, 2]);
        assert!(costs.run(0, |i| i).is_empty());
    }
}
