//! Belongs in lore-reflect: typed values from an XML thing document, strictly — a document is
//! taken whole or refused with the first problem, missing parameters keep the kind's defaults,
//! and each named thing comes out as its Rust type.
//!
//! [`Document::from_xml`] is forgiving (an editor keeps everything the user wrote); a game's
//! configuration wants the opposite: a typo must stop the load with a clear message instead of
//! silently running on defaults.

use lore_reflect::{Document, Limits, LoadError, Problem, ProblemKind, Reflect, Registry};

/// Why a strict load refused a document.
#[derive(Debug, thiserror::Error)]
pub enum StrictError {
    /// The text is not a well-formed document.
    #[error("not a thing document: {0}")]
    Load(#[from] LoadError),
    /// The document has a problem other than a missing parameter.
    #[error("{0}")]
    Problem(Box<Problem>),
    /// No thing of that name.
    #[error("no thing named {name:?} (of kind {kind})")]
    MissingThing {
        /// The name looked for.
        name: String,
        /// The kind expected.
        kind: &'static str,
    },
    /// The thing exists but is of another kind.
    #[error("thing {name:?} is a {found}, expected a {expected}")]
    WrongKind {
        /// The thing's name.
        name: String,
        /// The kind expected.
        expected: &'static str,
        /// The kind found.
        found: &'static str,
    },
}

/// Reads `text` as a thing document and refuses it on the first problem the forgiving loader
/// reports, except [`ProblemKind::MissingParameter`]: a missing parameter keeps its default.
///
/// # Errors
/// [`StrictError::Load`] for text that is not a document, [`StrictError::Problem`] for the
/// first problem (unknown kind or parameter, unreadable value, duplicate, stray element...).
pub fn load_strict(text: &str, registry: &Registry, limits: &Limits) -> Result<Document, StrictError> {
    let (doc, report) = Document::from_xml_with(text, registry, limits)?;
    match report.problems.into_iter().find(|p| p.reason != ProblemKind::MissingParameter) {
        Some(problem) => Err(StrictError::Problem(Box::new(problem))),
        None => Ok(doc),
    }
}

/// A copy of the value of the thing called `name`, as its Rust type `T`.
///
/// # Errors
/// [`StrictError::MissingThing`] when no thing has that name, [`StrictError::WrongKind`] when
/// it is not a `T`.
pub fn thing_value<T: Reflect + Clone + 'static>(doc: &Document, name: &str) -> Result<T, StrictError> {
    let expected = core::any::type_name::<T>().rsplit("::").next().unwrap_or("?");
    let Some(thing) = doc.get(name) else {
        return Err(StrictError::MissingThing { name: name.to_owned(), kind: expected });
    };
    thing.value.as_any().downcast_ref::<T>().cloned().ok_or_else(|| StrictError::WrongKind {
        name: name.to_owned(),
        expected,
        found: thing.kind(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Reflect, Clone, Debug, PartialEq)]
    struct Mover {
        speed: f32,
        count: u32,
    }

    impl Default for Mover {
        fn default() -> Self {
            Self { speed: 2.5, count: 7 }
        }
    }

    #[derive(Reflect, Clone, Debug, Default, PartialEq)]
    struct Other {
        x: f32,
    }

    fn registry() -> Registry {
        let mut r = Registry::new();
        r.register::<Mover>().unwrap();
        r.register::<Other>().unwrap();
        r
    }

    fn load(text: &str) -> Result<Document, StrictError> {
        load_strict(text, &registry(), &Limits::default())
    }

    #[test]
    fn values_come_out_typed_and_missing_parameters_keep_defaults() {
        let doc = load(
            r#"<things><thing kind="Mover" name="fast"><parameter name="speed" value="9"/></thing>
               <thing kind="Other" name="o"><parameter name="x" value="1"/></thing></things>"#,
        )
        .unwrap();
        assert_eq!(thing_value::<Mover>(&doc, "fast").unwrap(), Mover { speed: 9.0, count: 7 });
        assert!(matches!(thing_value::<Mover>(&doc, "slow"), Err(StrictError::MissingThing { .. })));
        let wrong = thing_value::<Mover>(&doc, "o").unwrap_err();
        assert!(matches!(wrong, StrictError::WrongKind { .. }), "{wrong}");
    }

    #[test]
    fn any_other_problem_refuses_the_document_with_its_line() {
        let bad_value = load(
            "<things>\n<thing kind=\"Mover\" name=\"m\">\n<parameter name=\"speed\" value=\"fast\"/>\n</thing></things>",
        )
        .unwrap_err();
        let text = bad_value.to_string();
        assert!(text.contains("line 3") && text.contains("speed"), "{text}");
        let unknown =
            load(r#"<things><thing kind="Mover" name="m"><parameter name="sped" value="1"/></thing></things>"#);
        assert!(matches!(unknown, Err(StrictError::Problem(_))));
        let kind = load(r#"<things><thing kind="Nope" name="m"/></things>"#);
        assert!(matches!(kind, Err(StrictError::Problem(_))));
        let broken = load(r#"<things><thing kind="Mover" name="m">"#);
        assert!(matches!(broken, Err(StrictError::Load(_))));
    }
}
