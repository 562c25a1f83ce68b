//! Where a reduction's time goes: an optional sink for one line per step (preparing, each
//! attempt of the search, measuring). The model writes nowhere itself; the command line passes
//! a sink that prints to stderr when `CLIPSCOPE_TRACE` is set.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// A function receiving (milliseconds since the trace began, line).
type Sink = Arc<dyn Fn(f64, &str) + Send + Sync>;

/// Receives the reducer's step lines, with the time since the sink was made.
#[derive(Clone, Default)]
pub struct Trace(Option<(Sink, Instant)>);

impl Trace {
    /// A sink calling `sink(milliseconds since now, line)` for each step.
    pub fn to(sink: impl Fn(f64, &str) + Send + Sync + 'static) -> Trace {
        Trace(Some((Arc::new(sink), Instant::now())))
    }

    /// Whether anything listens (a line is only formatted then).
    pub fn is_on(&self) -> bool {
        self.0.is_some()
    }

    /// Sends one step line.
    pub fn line(&self, line: fmt::Arguments) {
        if let Some((sink, start)) = &self.0 {
            sink(start.elapsed().as_secs_f64() * 1000.0, &line.to_string());
        }
    }
}

impl fmt::Debug for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_on() {
            "Trace(on)"
        } else {
            "Trace(off)"
        })
    }
}

/// Traces never make two option sets differ.
impl PartialEq for Trace {
    fn eq(&self, _: &Trace) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn lines_reach_the_sink_only_when_one_is_set() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        let trace = Trace::to(move |_, line| sink.lock().unwrap().push(line.to_string()));
        trace.line(format_args!("step {}", 1));
        Trace::default().line(format_args!("never"));
        assert_eq!(*seen.lock().unwrap(), vec!["step 1".to_string()]);
        assert!(!Trace::default().is_on());
    }
}
