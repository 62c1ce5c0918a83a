//! The text a document was read from, kept beside the values so that saving writes back what
//! was read: the things' tags and parameter elements as written, and everything the format
//! does not have (comments, whitespace, elements, attributes, things of unknown kinds) in
//! place. The XML writer (`crate::xml`) regenerates only what was edited.
#![cfg_attr(not(feature = "xml"), allow(dead_code))] // filled and read by the XML loader and writer

use crate::document::{Param, RawThing};
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

/// One part of a thing's content, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Written back as it is: whitespace, comments, text, a parameter given again later.
    Text(String),
    /// An element the format does not have here (or a parameter element lacking its
    /// attributes): written back as it is.
    Element { name: String, text: String },
    /// A parameter the kind does not have: written back while [`crate::Thing::unknown`] holds it.
    Unknown { param: Param, text: String },
    /// A parameter element.
    Param {
        /// The parameter's index (`None`: a `<rejected>` element naming no parameter).
        index: Option<usize>,
        /// The element as written.
        text: String,
        /// Where its `value` attribute's value is in `text`.
        value: Option<Range<usize>>,
        /// The parameter's text form once the thing was loaded (unchanged: written as is).
        read: String,
        /// The value did not read: the parameter and why (written back while
        /// [`crate::Thing::rejected`] holds it).
        rejected: Option<(Param, String)>,
    },
}

/// How a thing was written.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct ThingSource {
    /// Text since the previous thing (or the root's start tag).
    pub before: Vec<Chunk>,
    /// The start tag as written (ends with `/>` when `end_tag` is empty).
    pub start_tag: String,
    /// Where the `name` attribute's value is in `start_tag`.
    pub name_value: Option<Range<usize>>,
    /// The name as read.
    pub name_read: String,
    /// The content.
    pub pieces: Vec<Piece>,
    /// The end tag as written (empty for `<thing …/>`).
    pub end_tag: String,
    /// Parameters missing from the file, with their text form once loaded: written only once
    /// they differ from it.
    pub absent: Vec<(usize, String)>,
}
