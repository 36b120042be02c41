//! The computation pool: a fixed set of big-stack threads, a bounded queue that is fair across
//! clients, and a deadline that really stops each computation.
//!
//! * Each client (its IP address and the page's `X-Alea-Client` id) has its own queue; free
//!   workers take jobs round-robin over the clients with work waiting, so one client sending
//!   a hundred requests delays the others by at most one job each turn.
//! * A client runs at most [`PoolConfig::per_client_running`] jobs at once, so a few clients
//!   sending the slowest programs never hold every worker.
//! * [`Pool::submit`] refuses (the caller answers 503 with `Retry-After`) only when the whole
//!   queue or the client's own queue is full.
//! * A job that waited longer than [`PoolConfig::queue_wait`] is answered busy without running;
//!   a running job gets an [`alea_core::Cancel`] token with [`PoolConfig::time_limit`], which the
//!   evaluators' step budgets poll; a job whose caller went away is cancelled likewise.

use alea_core::Cancel;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Who sent a request, for fairness.
pub type ClientKey = String;

/// Sizes and time limits of a [`Pool`].
#[derive(Clone, Debug)]
pub struct PoolConfig {
    /// Worker threads (computations running at once).
    pub workers: usize,
    /// Computations one client may run at once.
    pub per_client_running: usize,
    /// Jobs waiting, over all clients.
    pub queue: usize,
    /// Jobs waiting for one client.
    pub per_client_queue: usize,
    /// Longest wait in the queue before a job is answered busy.
    pub queue_wait: Duration,
    /// Longest run of one computation.
    pub time_limit: Duration,
    /// Stack of each worker (reserved, not committed).
    pub stack: usize,
}

/// How a job ended.
#[derive(Debug)]
pub enum Outcome<T> {
    /// It ran to the end in time.
    Done(T),
    /// It ran past its time limit and was stopped.
    TimedOut,
    /// It waited in the queue past `queue_wait` and did not run.
    Busy,
    /// It panicked (a bug).
    Panicked,
}

/// Why [`Pool::submit`] refused a job.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The whole queue is full.
    Full,
    /// This client's queue is full.
    ClientFull,
    /// The pool is shutting down.
    Closed,
}

type Work = Box<dyn FnOnce(&Cancel) + Send>;

struct Job {
    work: Work,
    queued_at: Instant,
    /// Shared with the caller's [`Ticket`]: cancelled when the caller goes away.
    cancel: Cancel,
}

#[derive(Default)]
struct State {
    queues: HashMap<ClientKey, VecDeque<Job>>,
    running: HashMap<ClientKey, usize>,
    /// Clients with queued jobs, in turn order.
    turn: VecDeque<ClientKey>,
    queued: usize,
    closed: bool,
}

struct Inner {
    config: PoolConfig,
    state: Mutex<State>,
    wake: Condvar,
}

/// A running pool; dropping it lets the workers end once the queue is empty.
pub struct Pool {
    inner: Arc<Inner>,
}

/// The caller's side of a submitted job: dropping it (the client went away, or the server
/// gave up) cancels the job.
pub struct Ticket<T> {
    cancel: Cancel,
    /// The job's outcome.
    pub outcome: tokio::sync::oneshot::Receiver<Outcome<T>>,
}

impl<T> Drop for Ticket<T> {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

impl Pool {
    /// Starts the workers.
    pub fn new(config: PoolConfig) -> std::io::Result<Pool> {
        let inner = Arc::new(Inner {
            config,
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        });
        for i in 0..inner.config.workers.max(1) {
            let inner = Arc::clone(&inner);
            std::thread::Builder::new()
                .name(format!("serve-compute-{i}"))
                .stack_size(inner.config.stack)
                .spawn(move || worker(&inner))?;
        }
        Ok(Pool { inner })
    }

    /// Queues `f` for `client`; the ticket's receiver gets the outcome.
    pub fn submit<T: Send + 'static>(
        &self,
        client: ClientKey,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<Ticket<T>, Refused> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let limit = self.inner.config.time_limit;
        let work: Work = Box::new(move |cancel: &Cancel| {
            if cancel.is_cancelled() {
                // Waited past `queue_wait` (or the caller is gone): not run.
                let _ = tx.send(Outcome::Busy);
                return;
            }
            let token = cancel.limited(limit);
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| token.scope(f)));
            let outcome = match result {
                // An answer finished after the deadline is the evaluator's time-limit error.
                Ok(_) if token.is_cancelled() => Outcome::TimedOut,
                Ok(v) => Outcome::Done(v),
                Err(_) => Outcome::Panicked,
            };
            let _ = tx.send(outcome);
        });
        let cancel = Cancel::new();
        let config = &self.inner.config;
        let mut state = self.lock();
        if state.closed {
            return Err(Refused::Closed);
        }
        if state.queued >= config.queue {
            return Err(Refused::Full);
        }
        let queue = state.queues.entry(client.clone()).or_default();
        if queue.len() >= config.per_client_queue {
            return Err(Refused::ClientFull);
        }
        let was_empty = queue.is_empty();
        queue.push_back(Job {
            work,
            queued_at: Instant::now(),
            cancel: cancel.clone(),
        });
        state.queued += 1;
        if was_empty {
            state.turn.push_back(client);
        }
        drop(state);
        self.inner.wake.notify_one();
        Ok(Ticket {
            cancel,
            outcome: rx,
        })
    }

    /// Jobs waiting and running (for `GET /api/health`).
    pub fn load(&self) -> (usize, usize) {
        let state = self.lock();
        (state.queued, state.running.values().sum())
    }

    /// Refuses new jobs; queued and running ones still finish.
    pub fn close(&self) {
        self.lock().closed = true;
        self.inner.wake.notify_all();
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        lock(&self.inner)
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.close();
    }
}

fn lock(inner: &Inner) -> MutexGuard<'_, State> {
    // A panic never happens while the lock is held (jobs run outside it).
    inner.state.lock().unwrap_or_else(|e| e.into_inner())
}

/// The next job a worker may take: the first client in turn order that is below its running
/// limit; that client goes to the back of the turn if it has more waiting.
fn take(state: &mut State, per_client: usize) -> Option<(ClientKey, Job)> {
    let at = state
        .turn
        .iter()
        .position(|c| state.running.get(c).copied().unwrap_or(0) < per_client)?;
    let client = state.turn.remove(at)?;
    let queue = state.queues.get_mut(&client)?;
    let job = queue.pop_front()?;
    if queue.is_empty() {
        state.queues.remove(&client);
    } else {
        state.turn.push_back(client.clone());
    }
    state.queued -= 1;
    *state.running.entry(client.clone()).or_default() += 1;
    Some((client, job))
}

fn worker(inner: &Inner) {
    let per_client = inner.config.per_client_running.max(1);
    let mut state = lock(inner);
    loop {
        if let Some((client, job)) = take(&mut state, per_client) {
            drop(state);
            if job.queued_at.elapsed() > inner.config.queue_wait {
                job.cancel.cancel();
            }
            (job.work)(&job.cancel);
            state = lock(inner);
            if let Some(n) = state.running.get_mut(&client) {
                *n -= 1;
                if *n == 0 {
                    state.running.remove(&client);
                }
            }
            // A client below its running limit again may unblock a waiting worker.
            inner.wake.notify_all();
            continue;
        }
        if state.closed && state.queued == 0 {
            return;
        }
        state = inner.wake.wait(state).unwrap_or_else(|e| e.into_inner());
    }
}
