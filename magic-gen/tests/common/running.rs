//! A run of the binary that a test watches and stops: started with its stderr read line by
//! line as it comes, awaited until a line or a file shows it ready, signalled, and ended
//! within a bound. The bounds only turn a hang into a failure; no verdict rests on time.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a run may take to end after a stop: generous, for a loaded machine.
pub const ENDS_WITHIN: Duration = Duration::from_secs(15);

/// How long a run may take to get ready: the runs are small, this is for a hang.
pub const READY_WITHIN: Duration = Duration::from_secs(120);

/// A run of a program, its stderr read line by line as it comes.
pub struct Running {
    child: Child,
    lines: Receiver<String>,
    stderr: Vec<String>,
    /// Reads stdout as it comes, so that a full pipe never holds the run.
    stdout: JoinHandle<String>,
}

/// How a run ended: its exit code (-1 if a signal ended it), stdout and whole stderr.
pub struct Ended {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Running {
    /// Starts `command` with stdout and stderr piped.
    pub fn spawn(command: &mut Command) -> Running {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the program starts");
        let mut out = child.stdout.take().unwrap();
        let stdout = std::thread::spawn(move || {
            let mut text = String::new();
            out.read_to_string(&mut text).unwrap();
            text
        });
        let stderr = child.stderr.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Running {
            child,
            lines,
            stderr: Vec::new(),
            stdout,
        }
    }

    /// Starts `magic-gen args...` in `dir` with `env` set.
    pub fn magic_gen(
        dir: &Path,
        args: &[impl AsRef<std::ffi::OsStr>],
        env: &[(&str, &str)],
    ) -> Running {
        Running::spawn(super::command(dir, args).envs(env.iter().copied()))
    }

    /// Waits for a line of stderr that `ready` accepts, and returns it. Fails if the run
    /// ends first or no such line comes within [`READY_WITHIN`].
    pub fn wait_for(&mut self, ready: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            match self.lines.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => {
                    self.stderr.push(line.clone());
                    if ready(&line) {
                        return line;
                    }
                }
                Err(_) => self.assert_waiting(started, "the line awaited"),
            }
        }
    }

    /// Waits until `ready` returns something (a file the run writes, say), and returns it.
    /// Fails as [`Running::wait_for`] does.
    pub fn wait_until<T>(&mut self, what: &str, ready: impl Fn() -> Option<T>) -> T {
        let started = Instant::now();
        loop {
            if let Some(seen) = ready() {
                return seen;
            }
            self.assert_waiting(started, what);
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Asserts the run is still going and has been waited for less than [`READY_WITHIN`].
    fn assert_waiting(&mut self, started: Instant, what: &str) {
        self.stderr.extend(self.lines.try_iter());
        let ended = self.child.try_wait().unwrap();
        assert!(
            ended.is_none(),
            "the run ended ({ended:?}) before {what}:\n{}",
            self.stderr.join("\n")
        );
        assert!(
            started.elapsed() < READY_WITHIN,
            "no {what} within {READY_WITHIN:?}:\n{}",
            self.stderr.join("\n")
        );
    }

    /// Sends `signal` (`INT`, `TERM`, `KILL`) to the run.
    pub fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Sends `signal` and waits for the run to end as a stopped run does: within
    /// [`ENDS_WITHIN`], with exit code 130.
    pub fn stop(self, signal: &str) -> Ended {
        self.signal(signal);
        let ended = self.end();
        assert_eq!(ended.code, 130, "{}", ended.stderr);
        ended
    }

    /// Kills the run if it is still going, and returns whether it was.
    pub fn kill(mut self) -> bool {
        let going = matches!(self.child.try_wait(), Ok(None));
        if going {
            self.child.kill().expect("SIGKILL");
        }
        self.child.wait().expect("reap");
        going
    }

    /// Waits for the run to end, at most [`ENDS_WITHIN`] (else kills it and fails).
    pub fn end(self) -> Ended {
        self.end_within(ENDS_WITHIN, "after the stop")
    }

    /// Waits for the run to end, at most `bound` (else kills it and fails, saying it was
    /// still running `after` something).
    pub fn end_within(mut self, bound: Duration, after: &str) -> Ended {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > bound {
                let _ = self.child.kill();
                self.stderr.extend(self.lines.try_iter());
                panic!(
                    "still running {bound:?} {after}:\n{}",
                    self.stderr.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The reader ends with the pipe, once the run has ended.
        self.stderr.extend(self.lines.iter());
        Ended {
            code: status.code().unwrap_or(-1),
            stdout: self.stdout.join().unwrap(),
            stderr: self.stderr.join("\n"),
        }
    }
}
