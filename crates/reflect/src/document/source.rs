//! The text a document was read from, kept beside the values so that saving writes back what
//! was read: the things' tags and parameter elements as written, and everything the format
//! does not have (comments, whitespace, elements, attributes, things of unknown kinds) in
//! place. The XML writer (`crate::xml`) regenerates only what was edited.
#![cfg_attr(not(feature = "xml"), allow(dead_code))] // filled and read by the XML loader and writer

use super::{Param, RawThing};
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

/// Text around things: kept as written, or a thing of an unknown kind (written back while
/// [`crate::Document::unknown`] holds it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Chunk {
    /// Written back as it is.
    Text(String),
    /// A thing of an unknown kind and its text.
    Raw { raw: RawThing, text: String },
}

/// How a document was written around its things.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DocSource {
    /// Everything up to the end of the root's start tag.
    pub head: String,
    /// The root element's name.
    pub root: String,
    /// The root was written empty (`<things/>`): `head` ends with `/>`.
    pub root_empty: bool,
    /// Everything after the last thing: the root's end tag and what follows it.
    pub tail: Vec<Chunk>,
    /// How many of [`crate::Document::comments`] were read from the file (and are in the text).
    pub comments_read: usize,
}

/// One part of a thing's content, in file order. Ranges are byte ranges of
/// [`ThingSource::text`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Written back as it is: whitespace, comments, text, a parameter given again later.
    Text(Range<usize>),
    /// An element the format does not have here (or a parameter element lacking its
    /// attributes): written back as it is.
    Element { name: String, text: Range<usize> },
    /// A parameter the kind does not have: written back while [`crate::Thing::unknown`] holds it.
    Unknown { param: Param, text: Range<usize> },
    /// A parameter element.
    Param {
        /// The parameter's index (`None`: a `<rejected>` element naming no parameter).
        index: Option<usize>,
        /// The element.
        text: Range<usize>,
        /// Its `value` attribute's value, as written.
        value: Option<Range<usize>>,
        /// The parameter's text form once the thing was loaded (unchanged: written as is);
        /// `None` when it is the value as written.
        read: Option<String>,
        /// The value did not read: the parameter and why (written back while
        /// [`crate::Thing::rejected`] holds it).
        rejected: Option<(Param, String)>,
    },
}

/// How a thing was written.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct ThingSource {
    /// Chunks since the previous thing (or the root's start tag) up to `lead`: only when a
    /// thing of an unknown kind comes between.
    pub before: Vec<Chunk>,
    /// The thing as written, from the end of `before` to the end of its end tag.
    pub text: String,
    /// The text before the start tag (whitespace, comments, elements the format does not have).
    pub lead: Range<usize>,
    /// The start tag (ends with `/>` when `end_tag` is empty).
    pub start_tag: Range<usize>,
    /// Where the `name` attribute's value is.
    pub name_value: Option<Range<usize>>,
    /// The name as read.
    pub name_read: String,
    /// The content.
    pub pieces: Vec<Piece>,
    /// The end tag (empty for `<thing …/>`).
    pub end_tag: Range<usize>,
    /// Parameters missing from the file, with their text form once loaded: written only once
    /// they differ from it.
    pub absent: Vec<(usize, String)>,
}

impl ThingSource {
    /// The text in `range` (empty when out of range).
    pub fn at(&self, range: &Range<usize>) -> &str {
        self.text.get(range.clone()).unwrap_or_default()
    }
}
