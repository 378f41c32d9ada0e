//! A stop handle: raised once from any thread, seen by every solver holding a clone.
//!
//! Native searches poll [`Stop::is_raised`]; solvers inside C++ libraries
//! register a hook with [`Stop::on_raise`] that calls their own stop function,
//! and drop the returned guard when their solve returns, which removes that hook
//! and no other. [`Stop::child`] makes a handle that a parent's raise also
//! raises, so a portfolio can stop one arm without stopping the others, while
//! Ctrl-C (raising the root) stops them all.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// Raises a run's stop when dropped. The threads that wait on it (a run's
/// completion workers, its progress reports, a checkpoint's timer) then end
/// even when the code that would have raised it unwinds past that point:
/// without it the run's scope would wait for them for ever (a hang, not an error).
pub struct RaiseOnDrop<'a>(pub &'a Stop);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.raise();
    }
}

/// A hook called once when the handle is raised.
type Hook = Arc<dyn Fn() + Send + Sync>;

#[derive(Default)]
struct Inner {
    raised: AtomicBool,
    next_id: AtomicU64,
    hooks: Mutex<Vec<(u64, Hook)>>,
    /// A child's registration on its parent, removed when the child goes.
    parent: OnceLock<HookGuard>,
}

/// A cloneable stop handle; all clones share one flag.
#[derive(Clone, Default)]
pub struct Stop(Arc<Inner>);

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stop").field("raised", &self.is_raised()).finish()
    }
}

impl Stop {
    /// A handle that is not raised.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Raises the handle and runs every registered hook (once).
    pub fn raise(&self) {
        if self.0.raised.swap(true, Ordering::SeqCst) {
            return;
        }
        // Clone the hooks out of the lock: a hook may raise a child, whose own
        // hooks may take other locks.
        let hooks: Vec<Hook> =
            self.0.hooks.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|(_, h)| Arc::clone(h)).collect();
        hooks.iter().for_each(|hook| hook());
    }

    /// True once raised.
    pub fn is_raised(&self) -> bool {
        self.0.raised.load(Ordering::Relaxed)
    }

    /// The flag itself, for hot loops that poll it.
    pub fn flag(&self) -> &AtomicBool {
        &self.0.raised
    }

    /// Calls `hook` when the handle is raised (at once if it already is) until
    /// the returned guard is dropped.
    #[must_use = "the hook is removed when the guard is dropped"]
    pub fn on_raise(&self, hook: impl Fn() + Send + Sync + 'static) -> HookGuard {
        let id = self.0.next_id.fetch_add(1, Ordering::Relaxed);
        let hook: Hook = Arc::new(hook);
        self.0.hooks.lock().unwrap_or_else(|e| e.into_inner()).push((id, Arc::clone(&hook)));
        if self.is_raised() {
            hook();
        }
        HookGuard { stop: Arc::downgrade(&self.0), id }
    }

    /// A new handle raised with this one (and on its own by [`Stop::raise`]).
    pub fn child(&self) -> Stop {
        let child = Stop::new();
        let weak: Weak<Inner> = Arc::downgrade(&child.0);
        let guard = self.on_raise(move || {
            if let Some(inner) = weak.upgrade() {
                Stop(inner).raise();
            }
        });
        let _ = child.0.parent.set(guard);
        child
    }
}

/// Removes one hook from its handle when dropped.
pub struct HookGuard {
    stop: Weak<Inner>,
    id: u64,
}

impl Drop for HookGuard {
    fn drop(&mut self) {
        if let Some(inner) = self.stop.upgrade() {
            inner.hooks.lock().unwrap_or_else(|e| e.into_inner()).retain(|(id, _)| *id != self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::{Duration, Instant};

    #[test]
    fn hooks_run_once_and_only_while_registered() {
        let stop = Stop::new();
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = |calls: &Arc<AtomicUsize>| {
            let calls = Arc::clone(calls);
            move || {
                let _ = calls.fetch_add(1, Ordering::SeqCst);
            }
        };
        let kept = stop.on_raise(counted(&calls));
        let dropped = stop.on_raise(counted(&calls));
        drop(dropped);
        stop.raise();
        stop.raise();
        assert_eq!(calls.load(Ordering::SeqCst), 1, "one hook left, called once");
        // A hook registered after the raise runs at once.
        let _late = stop.on_raise(counted(&calls));
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        drop(kept);
    }

    #[test]
    fn a_parent_raises_its_children_but_not_the_reverse() {
        let root = Stop::new();
        let (a, b) = (root.child(), root.child());
        a.raise();
        assert!(a.is_raised() && !b.is_raised() && !root.is_raised());
        root.raise();
        assert!(b.is_raised());
        drop(a);
        assert_eq!(root.0.hooks.lock().unwrap().len(), 1, "a dropped child leaves its parent");
    }

    /// A scope whose body panics still ends, the panic coming out of it: the
    /// guard raises the stop the waiting thread polls (as a run's workers
    /// do). Fails if the guard does not raise it: the waiter then ends only
    /// by its own fallback of 30 s, and says so.
    #[test]
    fn a_panicking_scope_raises_the_stop_its_waiters_wait_on() {
        let stop = Stop::new();
        let by_stop = AtomicBool::new(false);
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|scope| {
                let _over = RaiseOnDrop(&stop);
                let _ = scope.spawn(|| {
                    let fallback = Instant::now() + Duration::from_secs(30);
                    while !stop.is_raised() && Instant::now() < fallback {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    by_stop.store(stop.is_raised(), Ordering::Relaxed);
                });
                panic!("a walk fails");
            });
        }));
        assert!(unwound.is_err(), "the panic comes out of the scope");
        assert!(by_stop.load(Ordering::Relaxed), "the waiter ended by the stop");
    }
}
