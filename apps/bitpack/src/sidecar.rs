//! The sidecar of a classic stream: the stream holds neither its sample count, nor its option,
//! nor its exact length in bits, nor its sample rate, so `encode --format classic` writes them to
//! `NAME.bits.meta` next to `NAME.bits`, as `key = value` lines, and `decode --format classic`
//! reads them from there (command-line values win).

use std::path::{Path, PathBuf};

/// Largest sidecar read (a real one is under 100 bytes).
const MAX_LEN: u64 = 4096;

/// The parameters of a classic stream; `None` where unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sidecar {
    /// Sample count.
    pub samples: Option<u64>,
    /// Length of the stream in bits.
    pub bits: Option<u64>,
    /// Classic option 0..=3.
    pub option: Option<u8>,
    /// Sample rate in Hz.
    pub rate: Option<u32>,
}

/// The sidecar of stream `p`: `p` with `.meta` appended.
pub fn path_for(p: &Path) -> PathBuf {
    let mut s = p.as_os_str().to_owned();
    s.push(".meta");
    PathBuf::from(s)
}

impl Sidecar {
    /// The file's text.
    pub fn to_text(self) -> String {
        let mut t = String::from("# bitpack classic stream parameters\n");
        let mut line = |k: &str, v: Option<u64>| {
            if let Some(v) = v {
                t.push_str(&format!("{k} = {v}\n"));
            }
        };
        line("samples", self.samples);
        line("bits", self.bits);
        line("option", self.option.map(u64::from));
        line("rate", self.rate.map(u64::from));
        t
    }

    /// Parses a sidecar, all or nothing: an unknown key, a repeated key or a bad number is an
    /// error naming its line.
    pub fn parse(text: &str) -> Result<Sidecar, String> {
        let mut s = Sidecar::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: &str| format!("line {}: {why}: {raw:?}", i + 1);
            let (k, v) = line.split_once('=').ok_or_else(|| bad("expected key = value"))?;
            let v = v.trim();
            let num = |v: &str| v.parse::<u64>().map_err(|_| bad("not a whole number"));
            let (slot, value) = match k.trim() {
                "samples" => (&mut s.samples, num(v)?),
                "bits" => (&mut s.bits, num(v)?),
                "option" => {
                    let o =
                        u8::try_from(num(v)?).ok().filter(|&o| o <= 3).ok_or_else(|| bad("option must be 0..=3"))?;
                    if s.option.replace(o).is_some() {
                        return Err(bad("repeated key"));
                    }
                    continue;
                }
                "rate" => {
                    let r = u32::try_from(num(v)?).map_err(|_| bad("rate too large"))?;
                    if s.rate.replace(r).is_some() {
                        return Err(bad("repeated key"));
                    }
                    continue;
                }
                _ => return Err(bad("unknown key")),
            };
            if slot.replace(value).is_some() {
                return Err(bad("repeated key"));
            }
        }
        Ok(s)
    }

    /// Reads the sidecar at `p`; `None` when there is none.
    pub fn read(p: &Path) -> Result<Option<Sidecar>, String> {
        let len = match std::fs::metadata(p) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", p.display())),
        };
        if len > MAX_LEN {
            return Err(format!("{}: {len} bytes, not a sidecar (at most {MAX_LEN})", p.display()));
        }
        let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
        Sidecar::parse(&text).map(Some).map_err(|e| format!("{}: {e}", p.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_all_or_nothing() {
        let s = Sidecar { samples: Some(20000), bits: Some(301_534), option: Some(3), rate: Some(22050) };
        assert_eq!(Sidecar::parse(&s.to_text()), Ok(s));
        assert_eq!(Sidecar::parse("rate=8000\n\n# c\n"), Ok(Sidecar { rate: Some(8000), ..Sidecar::default() }));
        for (bad, why) in [
            ("samples = 1\nrate = x", "line 2: not a whole number"),
            ("option = 4", "option must be 0..=3"),
            ("rate = 1\nrate = 2", "line 2: repeated key"),
            ("colour = 3", "unknown key"),
            ("samples", "expected key = value"),
            ("rate = 99999999999", "rate too large"),
        ] {
            let e = Sidecar::parse(bad).unwrap_err();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
        assert_eq!(path_for(Path::new("a/voice.bits")), Path::new("a/voice.bits.meta"));
    }
}
