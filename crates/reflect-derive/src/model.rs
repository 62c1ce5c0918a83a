//! The derive's model of the input: what the type is, before any code is generated.

use crate::attrs::{ContainerAttrs, FieldAttrs, docs};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, Member, Type};

/// How the fields of a struct or variant are written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Named,
    Tuple,
    Unit,
}

/// One field (of a struct or an enum variant).
pub struct Field {
    /// `self.<member>`: a name or a tuple index.
    pub member: Member,
    /// The reflected name (the Rust name, its index for tuple fields, or the rename).
    pub name: String,
    pub ty: Type,
    pub docs: String,
    pub attrs: FieldAttrs,
}

/// One enum variant.
pub struct Variant {
    pub ident: Ident,
    pub name: String,
    pub docs: String,
    pub style: Style,
    /// All fields, skipped ones included (patterns and constructors need them).
    pub fields: Vec<Field>,
}

/// The body of the type.
pub enum Body {
    Struct { style: Style, fields: Vec<Field> },
    Enum { variants: Vec<Variant> },
}

/// The whole input.
pub struct Model<'a> {
    pub input: &'a DeriveInput,
    pub name: String,
    pub docs: String,
    pub attrs: ContainerAttrs,
    pub body: Body,
}

fn fields(fields: &Fields) -> syn::Result<(Style, Vec<Field>)> {
    let style = match fields {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Unit => Style::Unit,
    };
    let mut out = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let attrs = FieldAttrs::parse(&f.attrs)?;
        let (member, rust_name) = match &f.ident {
            Some(id) => (Member::Named(id.clone()), id.to_string()),
            None => (Member::Unnamed(syn::Index { index: i as u32, span: f.span() }), i.to_string()),
        };
        if contains_reference(&f.ty) {
            return Err(syn::Error::new(
                f.ty.span(),
                "Reflect cannot be derived for fields holding references: reflected values are 'static",
            ));
        }
        let docs = attrs.doc.clone().unwrap_or_else(|| docs(&f.attrs));
        let name = attrs.rename.clone().unwrap_or(rust_name);
        out.push(Field { member, name, ty: f.ty.clone(), docs, attrs });
    }
    let mut seen = std::collections::HashSet::new();
    for f in out.iter().filter(|f| !f.attrs.skip) {
        if !seen.insert(f.name.clone()) {
            return Err(syn::Error::new(f.ty.span(), format!("two reflected fields are named `{}`", f.name)));
        }
    }
    Ok((style, out))
}

fn contains_reference(ty: &Type) -> bool {
    match ty {
        Type::Reference(_) | Type::Ptr(_) | Type::BareFn(_) | Type::TraitObject(_) | Type::ImplTrait(_) => true,
        Type::Array(a) => contains_reference(&a.elem),
        Type::Slice(s) => contains_reference(&s.elem),
        Type::Tuple(t) => t.elems.iter().any(contains_reference),
        Type::Paren(p) => contains_reference(&p.elem),
        Type::Group(g) => contains_reference(&g.elem),
        Type::Path(p) => p.path.segments.iter().any(|s| match &s.arguments {
            syn::PathArguments::AngleBracketed(args) => args.args.iter().any(|a| match a {
                syn::GenericArgument::Type(t) => contains_reference(t),
                syn::GenericArgument::Lifetime(_) => true,
                _ => false,
            }),
            _ => false,
        }),
        _ => false,
    }
}

impl<'a> Model<'a> {
    pub fn parse(input: &'a DeriveInput) -> syn::Result<Self> {
        let attrs = ContainerAttrs::parse(&input.attrs)?;
        if let Some(lt) = input.generics.lifetimes().next() {
            return Err(syn::Error::new(
                lt.span(),
                "Reflect cannot be derived for types with lifetime parameters: reflected values are 'static",
            ));
        }
        if let (Some(span), true) = (attrs.register, input.generics.params.iter().next().is_some()) {
            return Err(syn::Error::new(
                span,
                "`register` needs a concrete type; register each instance of a generic type with `Registry::register::<T>()`",
            ));
        }
        let body = match &input.data {
            Data::Struct(s) => {
                let (style, fields) = fields(&s.fields)?;
                Body::Struct { style, fields }
            }
            Data::Enum(e) => {
                if e.variants.is_empty() {
                    return Err(syn::Error::new(
                        input.ident.span(),
                        "Reflect cannot be derived for enums without variants: there is no value to show",
                    ));
                }
                let mut variants = Vec::new();
                for v in &e.variants {
                    let vattrs = FieldAttrs::parse(&v.attrs)?;
                    if vattrs.skip || vattrs.range.is_some() || vattrs.step.is_some() || vattrs.color {
                        return Err(syn::Error::new(v.ident.span(), "variants accept only `rename` and `doc`"));
                    }
                    let (style, fields) = fields(&v.fields)?;
                    let name = vattrs.rename.clone().unwrap_or_else(|| v.ident.to_string());
                    let docs = vattrs.doc.clone().unwrap_or_else(|| docs(&v.attrs));
                    variants.push(Variant { ident: v.ident.clone(), name, docs, style, fields });
                }
                Body::Enum { variants }
            }
            Data::Union(u) => {
                return Err(syn::Error::new(
                    u.union_token.span,
                    "Reflect cannot be derived for unions: which field is live is not known",
                ));
            }
        };
        let name = attrs.rename.clone().unwrap_or_else(|| input.ident.to_string());
        Ok(Self { input, name, docs: docs(&input.attrs), attrs, body })
    }
}
