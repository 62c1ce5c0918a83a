//! `#[reflect(...)]` and `///` attributes, on the container and on fields.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, Expr, LitStr, spanned::Spanned};

/// The doc text of `///` comments, lines joined with `\n`, each trimmed of one leading space.
pub fn docs(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value
        {
            let line = s.value();
            lines.push(line.strip_prefix(' ').unwrap_or(&line).to_string());
        }
    }
    lines.join("\n").trim().to_string()
}

/// Attributes on the type itself.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `rename = "Name"`: the name in type info, documents and the registry.
    pub rename: Option<String>,
    /// `register`: submit the type to the link-time kind registry.
    pub register: Option<proc_macro2::Span>,
    /// `create = path`: the function that makes a new value (instead of `Default`).
    pub create: Option<syn::Path>,
}

impl ContainerAttrs {
    pub fn parse(attrs: &[Attribute]) -> syn::Result<Self> {
        let mut out = Self::default();
        for attr in attrs.iter().filter(|a| a.path().is_ident("reflect")) {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    let s: LitStr = meta.value()?.parse()?;
                    out.rename = Some(s.value());
                } else if meta.path.is_ident("register") {
                    out.register = Some(meta.path.span());
                } else if meta.path.is_ident("create") {
                    out.create = Some(meta.value()?.parse()?);
                } else {
                    return Err(meta.error(
                        "unknown container attribute; expected `rename = \"...\"`, `register` or `create = path`",
                    ));
                }
                Ok(())
            })?;
        }
        Ok(out)
    }
}

/// Attributes on one field.
#[derive(Default)]
pub struct FieldAttrs {
    pub rename: Option<String>,
    pub skip: bool,
    pub default: bool,
    pub color: bool,
    pub range: Option<(Expr, Expr)>,
    pub step: Option<Expr>,
    pub doc: Option<String>,
}

impl FieldAttrs {
    pub fn parse(attrs: &[Attribute]) -> syn::Result<Self> {
        let mut out = Self::default();
        for attr in attrs.iter().filter(|a| a.path().is_ident("reflect")) {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    let s: LitStr = meta.value()?.parse()?;
                    out.rename = Some(s.value());
                } else if meta.path.is_ident("skip") {
                    out.skip = true;
                } else if meta.path.is_ident("default") {
                    out.default = true;
                } else if meta.path.is_ident("color") {
                    out.color = true;
                } else if meta.path.is_ident("doc") {
                    let s: LitStr = meta.value()?.parse()?;
                    out.doc = Some(s.value());
                } else if meta.path.is_ident("step") {
                    out.step = Some(meta.value()?.parse()?);
                } else if meta.path.is_ident("range") {
                    let range: syn::ExprRange = meta.value()?.parse()?;
                    let span = range.span();
                    match (range.start, range.end) {
                        (Some(lo), Some(hi)) => out.range = Some((*lo, *hi)),
                        _ => {
                            return Err(syn::Error::new(
                                span,
                                "`range` needs both ends, e.g. `range = 0.0..=10.0`",
                            ));
                        }
                    }
                } else {
                    return Err(meta.error(
                        "unknown field attribute; expected one of `rename`, `skip`, `default`, `color`, `doc`, `range`, `step`",
                    ));
                }
                Ok(())
            })?;
        }
        Ok(out)
    }

    /// The `FieldAttrs { .. }` expression of the runtime crate.
    pub fn to_tokens(&self) -> TokenStream {
        let range = match &self.range {
            Some((lo, hi)) => quote!(::core::option::Option::Some(((#lo) as f64, (#hi) as f64))),
            None => quote!(::core::option::Option::None),
        };
        let step = match &self.step {
            Some(s) => quote!(::core::option::Option::Some((#s) as f64)),
            None => quote!(::core::option::Option::None),
        };
        let (default, color) = (self.default, self.color);
        quote!(__lr::FieldAttrs { range: #range, step: #step, color: #color, default: #default })
    }
}
