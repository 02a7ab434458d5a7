//! Where a set came from: the provenance its header records, in either set format.

/// Where a set came from, recorded in the emitted header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The search seed, if the set was searched.
    pub seed: Option<u64>,
    /// The commands that produced the set, each later step after `; then ` (a search, then
    /// the `emit` or `pack` of its output). The last one wrote the file.
    pub command: Option<String>,
    /// Set when the commands did not run to their end (an interrupted scan or packing), or
    /// a merge took only some shards: what was done and the command that finishes it. Such
    /// a set is not what its command gives, so no committed set may carry it.
    pub unfinished: Option<String>,
}

impl Provenance {
    /// Returns this provenance with `step`, the command of a run that took the set as its
    /// input, after the commands that made it (`A; then B`); the seed and any unfinished
    /// note carry over, since the step changes neither how the magics were found nor
    /// whether their run ended.
    pub fn then(&self, step: &str) -> Provenance {
        let command = match &self.command {
            Some(before) => format!("{before}; then {step}"),
            None => step.to_string(),
        };
        Provenance {
            command: Some(command),
            ..self.clone()
        }
    }

    /// Reads one header line (without its comment marker, e.g. `seed: 1`) into this
    /// provenance; returns false for a line that is not one of its fields.
    pub(crate) fn read_header_line(&mut self, text: &str) -> Result<bool, String> {
        if let Some(c) = text.strip_prefix("command: ") {
            self.command = Some(c.to_string());
        } else if let Some(s) = text.strip_prefix("seed: ") {
            self.seed = Some(s.parse().map_err(|_| format!("bad seed '{s}'"))?);
        } else if let Some(u) = text.strip_prefix("unfinished: ") {
            self.unfinished = Some(u.to_string());
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    /// Returns the header lines of this provenance, without comment markers.
    pub(crate) fn header_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(c) = &self.command {
            lines.push(format!("command: {c}"));
        }
        if let Some(s) = self.seed {
            lines.push(format!("seed: {s}"));
        }
        if let Some(u) = &self.unfinished {
            lines.push(format!("unfinished: {u}"));
        }
        lines
    }
}
