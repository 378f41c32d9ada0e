//! A run's new best boards on their way to its front ends: queued by the keeper, handed on in order by a thread of their own, so that no walk or completion worker waits on a file write or a Python callback.
//!
//! A front end may be slow: the command line writes `--out` and the
//! checkpoint at each new best, Python calls `on_best` with the GIL. Called
//! by the thread that found the board, under the keeper's lock, it would
//! make every other offer wait. Here the keeper only queues the board
//! ([`Dispatch::send`]: at most one per score, since each beats the last);
//! the dispatching thread ([`Dispatch::serve`]) hands them to the events one
//! after the other, in the order found, holding no lock of the run's.
//! [`Dispatch::close`] lets it return once the queue is empty, so everything
//! found is handed on before the run returns.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::events::Events;
use super::options::Best;

/// The queue of new bests, and the events they go to.
pub(crate) struct Dispatch<'a> {
    events: &'a dyn Events,
    queue: Mutex<Queue>,
    changed: Condvar,
}

/// What waits to be handed on.
#[derive(Default)]
struct Queue {
    bests: VecDeque<Best>,
    /// No more bests will come: [`Dispatch::serve`] returns once the queue is empty.
    closed: bool,
}

impl<'a> Dispatch<'a> {
    /// A dispatch to `events`, open.
    pub(crate) fn new(events: &'a dyn Events) -> Dispatch<'a> {
        Dispatch { events, queue: Mutex::new(Queue::default()), changed: Condvar::new() }
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `best` to be handed on (never waits on a front end).
    pub(crate) fn send(&self, best: Best) {
        self.queue().bests.push_back(best);
        self.changed.notify_all();
    }

    /// Hands each queued best to the events, in order, until closed and
    /// empty. The queue's lock is not held during the call.
    pub(crate) fn serve(&self) {
        loop {
            let next = {
                let mut queue = self.queue();
                loop {
                    if let Some(best) = queue.bests.pop_front() {
                        break Some(best);
                    }
                    if queue.closed {
                        break None;
                    }
                    queue = self.changed.wait(queue).unwrap_or_else(|e| e.into_inner());
                }
            };
            match next {
                Some(best) => self.events.best(&best),
                None => return,
            }
        }
    }

    /// No more bests will come: [`Dispatch::serve`] returns once it has handed on the last.
    pub(crate) fn close(&self) {
        self.queue().closed = true;
        self.changed.notify_all();
    }

    /// The events the run reports to (for the events that are not bests).
    pub(crate) fn events(&self) -> &'a dyn Events {
        self.events
    }
}

/// Closes a dispatch when dropped, so that its thread returns however the run ends (a panic too).
pub(crate) struct CloseOnDrop<'a, 'b>(pub(crate) &'a Dispatch<'b>);

impl Drop for CloseOnDrop<'_, '_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use super::*;
    use crate::puzzle::{Board, Grid};

    fn best(score: usize) -> Best {
        Best { board: Board::empty(Grid { width: 2, height: 2 }), score, seconds: 0.0 }
    }

    /// A front end that takes its time (here until the sender releases it,
    /// after its last send) holds up no sender: three bests are queued while
    /// it is busy with the first, and all four reach it in order; the
    /// dispatch then ends on close. Fails if `send` waits on the front end
    /// (the front end then ends its wait by its 30-s fallback, unreleased,
    /// and says so) or if bests are lost or reordered.
    #[test]
    fn a_slow_front_end_holds_up_no_sender_and_sees_every_best_in_order() {
        let release = AtomicBool::new(false);
        let seen = Mutex::new(Vec::new());
        let slow = |b: &Best| {
            let fallback = std::time::Instant::now() + Duration::from_secs(30);
            while !release.load(Ordering::Relaxed) && std::time::Instant::now() < fallback {
                std::thread::sleep(Duration::from_millis(1));
            }
            seen.lock().unwrap().push((b.score, release.load(Ordering::Relaxed)));
        };
        let dispatch = Dispatch::new(&slow);
        std::thread::scope(|scope| {
            let _ = scope.spawn(|| dispatch.serve());
            for score in [10, 11, 12, 13] {
                dispatch.send(best(score));
            }
            release.store(true, Ordering::Relaxed);
            dispatch.close();
        });
        let seen = seen.into_inner().unwrap();
        assert!(seen.iter().all(|&(_, released)| released), "the sender was held up: {seen:?}");
        assert_eq!(seen.iter().map(|&(s, _)| s).collect::<Vec<_>>(), [10, 11, 12, 13]);
    }
}
