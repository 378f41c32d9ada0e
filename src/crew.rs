//! The threads of a run, each named: one that dies raises the run's stop and is kept, so a run never outlives a part of itself and can say which part died.
//!
//! A run of weeks starts walks, completion workers and watchers on threads of
//! their own. If one of them panics (a bug), the others must not go on as if
//! nothing happened: a walk's siblings would run to a deadline that a run
//! without `--time-limit` does not have, and a dead completion worker would
//! leave its boards waiting for ever. A [`Crew`] starts each thread under a
//! guard: a panic is caught on that thread, kept (the first one of the run,
//! with the thread's name), and the run's stop raised, so every other thread
//! ends at its next look at the stop and the run returns
//! [`Error::Panicked`] naming the thread and the panic. The panic's own
//! message is printed on stderr by the standard hook as it happens.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::thread::{Scope, ScopedJoinHandle};

use crate::error::Error;

/// A thread of a run that died: its name and its panic's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Death {
    /// The thread's name (`walk 1`, `completion worker 0`, ...).
    pub thread: String,
    /// What the panic said.
    pub message: String,
}

/// The threads of one run, and the first of them that died.
pub struct Crew<'a> {
    /// Raises the run's stop.
    raise: &'a (dyn Fn() + Sync),
    died: Mutex<Option<Death>>,
}

impl<'a> Crew<'a> {
    /// A crew whose dying threads call `raise` (which raises the run's stop).
    pub fn new(raise: &'a (dyn Fn() + Sync)) -> Crew<'a> {
        Crew { raise, died: Mutex::new(None) }
    }

    /// Starts `body` on a thread named `name` in `scope`, under the crew's
    /// guard ([`Crew::guard`]). `None` when the thread could not be started:
    /// that is kept as its death, and the run's stop raised, too.
    pub fn spawn<'scope, 'env, T: Send + 'scope>(
        &'env self,
        scope: &'scope Scope<'scope, 'env>,
        name: String,
        body: impl FnOnce() -> T + Send + 'scope,
    ) -> Option<ScopedJoinHandle<'scope, Option<T>>> {
        let thread = name.clone();
        let started =
            std::thread::Builder::new().name(name.clone()).spawn_scoped(scope, move || self.guard(&thread, body));
        match started {
            Ok(handle) => Some(handle),
            Err(error) => {
                self.keep(Death { thread: name, message: format!("could not start: {error}") });
                None
            }
        }
    }

    /// Runs `body` as the crew's thread `name` on the calling thread: its
    /// value, or `None` when it panicked (the panic kept and the run's stop
    /// raised; the thread then goes on, its caller's to end).
    pub fn guard<T>(&self, name: &str, body: impl FnOnce() -> T) -> Option<T> {
        match catch_unwind(AssertUnwindSafe(body)) {
            Ok(value) => Some(value),
            Err(payload) => {
                self.keep(Death { thread: name.to_owned(), message: message(payload.as_ref()) });
                None
            }
        }
    }

    /// Keeps `death` if it is the run's first, and raises the run's stop.
    fn keep(&self, death: Death) {
        let _ = self.died.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(death);
        (self.raise)();
    }

    /// The first thread of the run that died, if one did.
    pub fn died(&self) -> Option<Death> {
        self.died.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// `Ok` unless a thread of the run died.
    ///
    /// # Errors
    /// [`Error::Panicked`] naming the first thread that died and its panic.
    pub fn check(&self) -> Result<(), Error> {
        match self.died() {
            None => Ok(()),
            Some(Death { thread, message }) => Err(Error::Panicked { thread, message }),
        }
    }
}

/// What a panic's payload says (a `&str` or a `String`, as `panic!` makes them).
fn message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use super::*;

    /// One of three threads panics: the others, which run until the run's
    /// flag is raised, end on it; the scope returns (no panic comes out of
    /// it) and the crew names the thread and its panic. Fails if a panic
    /// does not raise the flag (the others would run to their 30-s fallback
    /// and say so) or if the crew keeps no death.
    #[test]
    fn a_thread_that_panics_raises_the_flag_and_is_named() {
        let flag = AtomicBool::new(false);
        let raise = || flag.store(true, Ordering::Relaxed);
        let crew = Crew::new(&raise);
        let by_flag = std::thread::scope(|scope| {
            let waiter = || {
                let fallback = Instant::now() + Duration::from_secs(30);
                while !flag.load(Ordering::Relaxed) && Instant::now() < fallback {
                    std::thread::sleep(Duration::from_millis(5));
                }
                flag.load(Ordering::Relaxed)
            };
            let waiters: Vec<_> = (0..2).map(|k| crew.spawn(scope, format!("waiter {k}"), waiter).unwrap()).collect();
            let _ = crew.spawn(scope, "walk 1".to_owned(), || panic!("a walk fails"));
            waiters.into_iter().map(|w| w.join().unwrap() == Some(true)).collect::<Vec<_>>()
        });
        assert_eq!(by_flag, [true, true], "the other threads ended by the flag");
        let death = crew.died().expect("the death is kept");
        assert_eq!((death.thread.as_str(), death.message.as_str()), ("walk 1", "a walk fails"));
        let error = crew.check().unwrap_err().to_string();
        assert!(error.contains("walk 1") && error.contains("a walk fails"), "{error}");
    }

    /// The first death is the one named; a thread that returns leaves none.
    #[test]
    fn the_first_death_is_kept() {
        let crew = Crew::new(&|| {});
        assert_eq!(crew.guard("fine", || 7), Some(7));
        assert!(crew.check().is_ok());
        let first = crew.guard("first", || -> u8 { panic!("{}", String::from("one")) });
        let _ = crew.guard("second", || panic!("two"));
        assert_eq!(first, None);
        assert_eq!(crew.died().unwrap(), Death { thread: "first".to_owned(), message: "one".to_owned() });
    }
}
