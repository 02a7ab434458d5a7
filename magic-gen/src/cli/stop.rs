//! Stopping a run: Ctrl-C, SIGTERM and SIGHUP set the one stop flag of the run, which every
//! stage looks at; the same stop delivered twice counts once, and only a second stop later
//! exits at once.

use std::time::{Duration, Instant};

/// Stops closer together than this are one stop delivered twice: a supervisor (`timeout`,
/// a shell, Slurm) may signal both a process and its process group, microseconds apart.
/// A person pressing Ctrl-C again to leave a run that is stopping presses later.
pub const SAME_STOP: Duration = Duration::from_secs(1);

/// Installs the signal handler that calls `stop` (which sets the run's stop flag, the one
/// every stage looks at) at the first Ctrl-C, or SIGTERM or SIGHUP, which batch systems
/// send before they kill a job: every stage then ends with the best result so far,
/// verified and written (exit code 130). Stops within [`SAME_STOP`] of the first count as
/// the first; a stop after that exits at once without writing.
pub fn stop_on_signal(stop: impl Fn() + Send + 'static) {
    let mut first: Option<Instant> = None;
    let _ = ctrlc::set_handler(move || match first {
        None => {
            first = Some(Instant::now());
            stop();
        }
        Some(at) if at.elapsed() < SAME_STOP => {}
        Some(_) => {
            tell!("\nstopped a second time: exiting without writing");
            std::process::exit(130);
        }
    });
}
