//! Thing documents through serde (feature `serde`): a plain mirror of a [`Document`] for JSON,
//! RON or any other serde format, with the same loading rules and report as XML.

use crate::document::{
    Document, Param, Problem, ProblemKind, RawThing, Report, Thing, apply_param, param_count, report_missing,
};
use crate::registry::Registry;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// A document as plain data: what serde formats read and write.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DocumentData {
    /// The things, known kinds first, then unknown ones.
    pub things: Vec<ThingData>,
    /// Comments kept from an XML file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
}

/// One thing as plain data.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ThingData {
    /// Its kind name.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Its parameters, as text (see [`crate::text`]).
    pub parameters: Vec<Param>,
    /// Values rejected by an earlier load, kept until set again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected: Vec<Param>,
}

impl Document {
    /// The document as plain data for serde.
    #[must_use]
    pub fn to_data(&self) -> DocumentData {
        let mut things = Vec::with_capacity(self.things.len() + self.unknown.len());
        for t in &self.things {
            let mut parameters = t.params();
            parameters.extend(t.unknown.iter().cloned());
            things.push(ThingData {
                kind: String::from(t.kind()),
                name: t.name.clone(),
                parameters,
                rejected: t.rejected.clone(),
            });
        }
        for raw in &self.unknown {
            things.push(ThingData {
                kind: raw.kind.clone(),
                name: raw.name.clone(),
                parameters: raw.params.clone(),
                rejected: Vec::new(),
            });
        }
        DocumentData { things, comments: self.comments.clone() }
    }

    /// Builds a document from plain data, with the same rules as XML loading. Problems carry
    /// `line: 0` (serde data has no lines); the thing's position is in the thing's name.
    #[must_use]
    pub fn from_data(data: DocumentData, registry: &Registry) -> (Self, Report) {
        let mut doc = Document { comments: data.comments, ..Document::new() };
        let mut report = Report::default();
        for t in data.things {
            match registry.create(&t.kind) {
                Ok(value) => {
                    let mut seen = vec![false; param_count(&*value)];
                    let mut thing = Thing::new(t.name, value);
                    for p in t.parameters {
                        let _ = apply_param(&mut thing, &mut seen, p, (0, 0), &mut report);
                    }
                    for p in t.rejected {
                        report.push(Problem {
                            line: 0,
                            column: 0,
                            thing: thing.name.clone(),
                            kind: t.kind.clone(),
                            parameter: Some(p.name.clone()),
                            reason: ProblemKind::StillRejected,
                        });
                        thing.rejected.push(p);
                    }
                    report_missing(&thing, &seen, (0, 0), &mut report);
                    doc.things.push(thing);
                }
                Err(_) => {
                    report.push(Problem {
                        line: 0,
                        column: 0,
                        thing: t.name.clone(),
                        kind: t.kind.clone(),
                        parameter: None,
                        reason: ProblemKind::UnknownKind,
                    });
                    doc.unknown.push(RawThing { kind: t.kind, name: t.name, params: t.parameters });
                }
            }
        }
        (doc, report)
    }
}
