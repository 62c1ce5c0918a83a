//! Code generation: `Typed` (the static type info), `Reflect`, and `Struct` or `Enum`.
//!
//! Everything is emitted inside `const _: () = { ... };` and names runtime items through
//! `::lore_reflect::__private`, so no helper leaks into the user's namespace.

use crate::model::{Body, Field, Model, Style, Variant};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

fn style_tokens(style: Style) -> TokenStream {
    match style {
        Style::Named => quote!(__lr::StructStyle::Named),
        Style::Tuple => quote!(__lr::StructStyle::Tuple),
        Style::Unit => quote!(__lr::StructStyle::Unit),
    }
}

/// Size of the open-addressing name table: a power of two at least twice the field count.
fn table_size(n: usize) -> usize {
    (2 * n).max(2).next_power_of_two()
}

/// `&[FieldInfo, ..]` and the `NameTable` for the reflected (not skipped) fields.
fn field_infos(fields: &[Field]) -> (TokenStream, TokenStream) {
    let live: Vec<&Field> = fields.iter().filter(|f| !f.attrs.skip).collect();
    let infos = live.iter().map(|f| {
        let (name, ty, docs, attrs) = (&f.name, &f.ty, &f.docs, f.attrs.to_tokens());
        quote!(__lr::FieldInfo { name: #name, type_name: __lr::type_name::<#ty>, docs: #docs, attrs: #attrs })
    });
    let names = live.iter().map(|f| &f.name);
    let size = table_size(live.len());
    (quote!(&[#(#infos),*]), quote!(__lr::NameTable::new(&__lr::name_table::<#size>(&[#(#names),*]))))
}

pub fn expand(model: &Model<'_>) -> TokenStream {
    let input = model.input;
    let ident = &input.ident;
    let mut generics = input.generics.clone();
    for param in generics.type_params_mut() {
        param.bounds.push(syn::parse_quote!(__lr::Reflect));
        // Enums: `set_variant` makes the new variant's fields with `Typed::create`; generic
        // structs are made field by field the same way.
        param.bounds.push(syn::parse_quote!(__lr::Typed));
    }
    let (impl_g, ty_g, where_g) = generics.split_for_impl();
    let (name, docs) = (&model.name, &model.docs);

    let mut by_name = TokenStream::new();
    if let Body::Struct { fields, .. } = &model.body {
        let live: Vec<&Field> = fields.iter().filter(|f| !f.attrs.skip).collect();
        by_name = by_name_methods(&live);
    }
    let (shape, body_impl, refs) = match &model.body {
        Body::Struct { style, fields } => {
            let (infos, table) = field_infos(fields);
            let st = style_tokens(*style);
            let shape = quote!(__lr::Shape::Struct(__lr::StructInfo { style: #st, fields: #infos, names: #table }));
            let live: Vec<&Field> = fields.iter().filter(|f| !f.attrs.skip).collect();
            let idx = 0..live.len();
            let idx2 = 0..live.len();
            // Spanned on the field's type, so "`T: Reflect` is not satisfied" points at the field.
            let refs: Vec<_> = live
                .iter()
                .map(|f| {
                    let member = &f.member;
                    quote_spanned!(f.ty.span()=> &self.#member as &dyn __lr::Reflect)
                })
                .collect();
            let muts: Vec<_> = live
                .iter()
                .map(|f| {
                    let member = &f.member;
                    quote_spanned!(f.ty.span()=> &mut self.#member as &mut dyn __lr::Reflect)
                })
                .collect();
            let count = live.len();
            let body = quote! {
                impl #impl_g __lr::Struct for #ident #ty_g #where_g {
                    #[inline]
                    fn field_at(&self, index: usize) -> ::core::option::Option<&dyn __lr::Reflect> {
                        match index {
                            #(#idx => ::core::option::Option::Some(#refs),)*
                            _ => ::core::option::Option::None,
                        }
                    }
                    #[inline]
                    fn field_at_mut(&mut self, index: usize) -> ::core::option::Option<&mut dyn __lr::Reflect> {
                        match index {
                            #(#idx2 => ::core::option::Option::Some(#muts),)*
                            _ => ::core::option::Option::None,
                        }
                    }
                    #[inline]
                    fn field_count(&self) -> usize { #count }
                }
            };
            (shape, body, (quote!(__lr::ReflectRef::Struct(self)), quote!(__lr::ReflectMut::Struct(self))))
        }
        Body::Enum { variants } => {
            let infos = variants.iter().map(|v| {
                let (fi, table) = field_infos(&v.fields);
                let (vname, vdocs, st) = (&v.name, &v.docs, style_tokens(v.style));
                quote!(__lr::VariantInfo { name: #vname, docs: #vdocs, style: #st, fields: #fi, names: #table })
            });
            let vnames = variants.iter().map(|v| &v.name);
            let vtable = table_size(variants.len());
            let shape = quote!(__lr::Shape::Enum(__lr::EnumInfo {
                variants: &[#(#infos),*],
                names: __lr::NameTable::new(&__lr::name_table::<#vtable>(&[#(#vnames),*])),
            }));
            let body = enum_impl(ident, &impl_g, &ty_g, where_g, variants);
            (shape, body, (quote!(__lr::ReflectRef::Enum(self)), quote!(__lr::ReflectMut::Enum(self))))
        }
    };
    let (ref_expr, mut_expr) = refs;
    let register = model.attrs.register.map(|_| match &model.attrs.create {
        Some(path) => quote! {
            __lr::inventory::submit! {
                __lr::Registration(__lr::Kind::from_parts(
                    <#ident as __lr::Typed>::INFO,
                    || -> __lr::Box<dyn __lr::Reflect> { __lr::Box::new(#path()) },
                ))
            }
        },
        None => quote! {
            __lr::inventory::submit! { __lr::Registration(__lr::Kind::of::<#ident>()) }
        },
    });
    // `Typed::create`: the factory, or `Default` found by an autoref probe (a concrete type
    // that is not `Default` gets `None`; so does a generic one, whose bounds the probe
    // cannot see).
    let generic = input.generics.type_params().next().is_some();
    let create = match (&model.attrs.create, &model.body) {
        (Some(path), _) => quote!(::core::option::Option::Some(#path())),
        // A generic struct: the probe below cannot see the parameters' bounds, so it is made
        // field by field (reflected fields with `Typed::create`, skipped ones with `Default`).
        (None, Body::Struct { style, fields }) if generic => {
            let values = fields.iter().map(|f| {
                let (member, ty) = (&f.member, &f.ty);
                if f.attrs.skip {
                    quote!(#member: ::core::default::Default::default())
                } else {
                    quote!(#member: <#ty as __lr::Typed>::create()?)
                }
            });
            match style {
                Style::Unit => quote!(::core::option::Option::Some(Self)),
                _ => quote!(::core::option::Option::Some(Self { #(#values),* })),
            }
        }
        _ => quote! {{
            #[allow(unused_imports)]
            use __lr::{CreateFallback as _, CreateViaDefault as _};
            (&__lr::CreateProbe::<Self>::new()).probe_create()
        }},
    };

    quote! {
        const _: () = {
            use ::lore_reflect::__private as __lr;

            impl #impl_g __lr::Typed for #ident #ty_g #where_g {
                const INFO: &'static __lr::TypeInfo = &__lr::TypeInfo {
                    name: #name,
                    type_path: __lr::type_name::<Self>,
                    docs: #docs,
                    shape: #shape,
                };
                #[inline]
                fn create() -> ::core::option::Option<Self> { #create }
            }

            impl #impl_g __lr::Reflect for #ident #ty_g #where_g {
                #[inline]
                fn type_info(&self) -> &'static __lr::TypeInfo { <Self as __lr::Typed>::INFO }
                #[inline]
                fn as_any(&self) -> &dyn __lr::Any { self }
                #[inline]
                fn as_any_mut(&mut self) -> &mut dyn __lr::Any { self }
                #[inline]
                fn as_reflect(&self) -> &dyn __lr::Reflect { self }
                #[inline]
                fn as_reflect_mut(&mut self) -> &mut dyn __lr::Reflect { self }
                #[inline]
                fn reflect_ref(&self) -> __lr::ReflectRef<'_> { #ref_expr }
                #[inline]
                fn reflect_mut(&mut self) -> __lr::ReflectMut<'_> { #mut_expr }
                #by_name
            }

            #body_impl

            #register
        };
    }
}

/// `field_by_name` and `field_by_name_mut`: a decision tree over the name's bytes, built at
/// macro time.
///
/// The first reflected field is tested first, as the first arm of a string `match` is: a
/// length test and one compare of the bytes in memory. The rest of the tree, marked cold so
/// that the compiler keeps that test in front, matches the length; names of up to 8 bytes are
/// then found whole, as one integer, by a binary search unrolled into compares
/// ([`key_search`]); longer names go on by the byte position that splits them best, and so on
/// until one candidate is left, which is compared whole (a fixed-size array comparison). No
/// hashing loop: the first field costs what a `match` on the name costs, the others a few
/// compares more, growing with the logarithm of the number of names of their length.
///
/// The tree is one expression, without `return`: each field then keeps its own short exit
/// (the field's address and its vtable), where early returns let the compiler merge the
/// exits into one that first loads the field's offset.
/// (The model refuses two fields with one name, so the names are distinct.)
fn by_name_methods(live: &[&Field]) -> TokenStream {
    let Some((first, rest)) = live.split_first() else {
        return quote! {
            #[inline]
            #[allow(unused_variables)]
            fn field_by_name(&self, name: &str) -> ::core::option::Option<&dyn __lr::Reflect> {
                ::core::option::Option::None
            }
            #[inline]
            #[allow(unused_variables)]
            fn field_by_name_mut(&mut self, name: &str) -> ::core::option::Option<&mut dyn __lr::Reflect> {
                ::core::option::Option::None
            }
        };
    };
    let mut by_len: std::collections::BTreeMap<usize, Vec<&Field>> = std::collections::BTreeMap::new();
    for &f in rest {
        by_len.entry(f.name.len()).or_default().push(f);
    }
    let tree = |mutable: bool| {
        let arms = by_len.iter().map(|(len, group)| {
            let body = if (1..=8).contains(len) {
                // Short names: the whole name as one integer, found by a binary search the
                // derive unrolls into compares (direct branches, no jump table).
                let mut keyed: Vec<(u64, TokenStream)> =
                    group.iter().map(|f| (short_key(&f.name), field_ref(f, mutable))).collect();
                keyed.sort_by_key(|(k, _)| *k);
                let load = load_short_key(*len);
                let search = key_search(&keyed);
                quote!({ #load #search })
            } else {
                let node = byte_node(group, *len, &mut Vec::new(), mutable);
                quote!({ #node })
            };
            quote! {
                #len => match <&[u8; #len] as ::core::convert::TryFrom<&[u8]>>::try_from(__b) {
                    ::core::result::Result::Ok(__b) => #body,
                    ::core::result::Result::Err(_) => ::core::option::Option::None,
                },
            }
        });
        // `str == str`: the length, then a `bcmp` that the compiler expands into one compare
        // against memory only at code generation, so it stays in front of the tree's compares.
        // (One-byte names it folds into the tree earlier; `cold_path` keeps them in front.)
        let (first_name, first_ref) = (&first.name, field_ref(first, mutable));
        quote! {
            if name == #first_name {
                ::core::option::Option::Some(#first_ref)
            } else {
                ::core::hint::cold_path();
                let __b = name.as_bytes();
                match __b.len() {
                    #(#arms)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    };
    let (shared, exclusive) = (tree(false), tree(true));
    quote! {
        #[inline]
        fn field_by_name(&self, name: &str) -> ::core::option::Option<&dyn __lr::Reflect> {
            #shared
        }
        #[inline]
        fn field_by_name_mut(&mut self, name: &str) -> ::core::option::Option<&mut dyn __lr::Reflect> {
            #exclusive
        }
    }
}

/// `&self.member as &dyn Reflect` (or `&mut`), spanned on the field's type.
fn field_ref(f: &Field, mutable: bool) -> TokenStream {
    let member = &f.member;
    if mutable {
        quote_spanned!(f.ty.span()=> &mut self.#member as &mut dyn __lr::Reflect)
    } else {
        quote_spanned!(f.ty.span()=> &self.#member as &dyn __lr::Reflect)
    }
}

/// A name of up to 8 bytes as one integer: its bytes, little-endian, zero-padded.
fn short_key(name: &str) -> u64 {
    let mut k = [0u8; 8];
    k[..name.len()].copy_from_slice(name.as_bytes());
    u64::from_le_bytes(k)
}

/// `let __k = ..;`: [`short_key`] of `__b`, an `&[u8; len]`, at run time.
fn load_short_key(len: usize) -> TokenStream {
    quote! {
        let mut __k = [0u8; 8];
        __k[..#len].copy_from_slice(__b);
        let __k = u64::from_le_bytes(__k);
    }
}

/// A binary search over sorted `(key, field)` pairs, unrolled into one `if` expression:
/// `__k < pivot` splits until at most three keys are left, which are tested for equality in
/// turn.
fn key_search(keyed: &[(u64, TokenStream)]) -> TokenStream {
    if keyed.len() <= 3 {
        let tests = keyed.iter().map(|(k, r)| quote!(if __k == #k { ::core::option::Option::Some(#r) } else));
        return quote!(#(#tests)* { ::core::option::Option::None });
    }
    let (left, right) = keyed.split_at(keyed.len() / 2);
    let pivot = right[0].0;
    let (left, right) = (key_search(left), key_search(right));
    quote!(if __k < #pivot { #left } else { #right })
}

/// One node of the by-name decision tree: `group` holds distinct names of length `len` that
/// agree on the positions in `used`. One name left: compare it whole. Otherwise match the
/// byte at the position that gives the most branches (ties: the smallest largest branch).
fn byte_node(group: &[&Field], len: usize, used: &mut Vec<usize>, mutable: bool) -> TokenStream {
    if let [f] = group {
        let bytes = syn::LitByteStr::new(f.name.as_bytes(), proc_macro2::Span::call_site());
        let r = field_ref(f, mutable);
        return quote! {
            if __b == #bytes { ::core::option::Option::Some(#r) } else { ::core::option::Option::None }
        };
    }
    let split = |pos: usize| {
        let mut parts: std::collections::BTreeMap<u8, Vec<&Field>> = std::collections::BTreeMap::new();
        for f in group {
            parts.entry(f.name.as_bytes()[pos]).or_default().push(f);
        }
        parts
    };
    // Distinct names of one length differ somewhere, so some unused position splits them.
    let best = (0..len).filter(|p| !used.contains(p)).map(|p| (p, split(p))).max_by_key(|(p, parts)| {
        let largest = parts.values().map(Vec::len).max().unwrap_or(0);
        (parts.len(), core::cmp::Reverse(largest), core::cmp::Reverse(*p))
    });
    let Some((pos, parts)) = best else {
        return quote!(::core::option::Option::None);
    };
    used.push(pos);
    let arms = parts.iter().map(|(byte, sub)| {
        let node = byte_node(sub, len, used, mutable);
        quote!(#byte => { #node })
    });
    let out = quote! {
        match __b[#pos] {
            #(#arms)*
            _ => ::core::option::Option::None,
        }
    };
    used.pop();
    out
}

/// The pattern binding a variant's reflected fields as `__f0, __f1, ..` (skipped ones as `_`).
fn variant_pattern(v: &Variant) -> (TokenStream, Vec<syn::Ident>) {
    let vid = &v.ident;
    let mut binds = Vec::new();
    let parts: Vec<TokenStream> = v
        .fields
        .iter()
        .map(|f| {
            let member = &f.member;
            if f.attrs.skip {
                match v.style {
                    Style::Named => quote!(#member: _),
                    _ => quote!(_),
                }
            } else {
                let b = format_ident!("__f{}", binds.len());
                binds.push(b.clone());
                match v.style {
                    Style::Named => quote!(#member: #b),
                    _ => quote!(#b),
                }
            }
        })
        .collect();
    let pat = match v.style {
        Style::Named => quote!(Self::#vid { #(#parts),* }),
        Style::Tuple => quote!(Self::#vid ( #(#parts),* )),
        Style::Unit => quote!(Self::#vid),
    };
    (pat, binds)
}

fn enum_impl(
    ident: &syn::Ident,
    impl_g: &syn::ImplGenerics<'_>,
    ty_g: &syn::TypeGenerics<'_>,
    where_g: Option<&syn::WhereClause>,
    variants: &[Variant],
) -> TokenStream {
    let mut index_arms = Vec::new();
    let mut field_arms = Vec::new();
    let mut field_mut_arms = Vec::new();
    let mut count_arms = Vec::new();
    let mut build_arms = Vec::new();
    for (vi, v) in variants.iter().enumerate() {
        let (pat, binds) = variant_pattern(v);
        let vid = &v.ident;
        index_arms.push(quote!(#pat => #vi,));
        let fi = 0..binds.len();
        field_arms.push(quote!(#pat => match index {
            #(#fi => ::core::option::Option::Some(#binds as &dyn __lr::Reflect),)*
            _ => ::core::option::Option::None,
        },));
        let fi = 0..binds.len();
        field_mut_arms.push(quote!(#pat => match index {
            #(#fi => ::core::option::Option::Some(#binds as &mut dyn __lr::Reflect),)*
            _ => ::core::option::Option::None,
        },));
        let n = binds.len();
        count_arms.push(quote!(#pat => #n,));
        let defaults = v.fields.iter().map(|f| {
            let (member, ty) = (&f.member, &f.ty);
            // Reflected fields are made by `Typed::create` (no `Default` needed); skipped
            // fields, which need not be reflected, by `Default`.
            let value = if f.attrs.skip {
                quote!(::core::default::Default::default())
            } else {
                quote_spanned!(ty.span()=> match <#ty as __lr::Typed>::create() {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return false,
                })
            };
            match v.style {
                Style::Named => quote!(#member: #value),
                _ => value,
            }
        });
        let build = match v.style {
            Style::Named => quote!(Self::#vid { #(#defaults),* }),
            Style::Tuple => quote!(Self::#vid ( #(#defaults),* )),
            Style::Unit => quote!(Self::#vid),
        };
        build_arms.push(quote!(#vi => #build,));
    }
    // The `_ => 0`-style arms below are unreachable for exhaustive matches; rustc would warn,
    // so the index/count matches list every variant and need none.
    quote! {
        impl #impl_g __lr::Enum for #ident #ty_g #where_g {
            #[inline]
            fn variant_index(&self) -> usize {
                #[allow(unused_variables)]
                match self { #(#index_arms)* }
            }
            #[inline]
            fn field_at(&self, index: usize) -> ::core::option::Option<&dyn __lr::Reflect> {
                #[allow(unused_variables)]
                match self { #(#field_arms)* }
            }
            #[inline]
            fn field_at_mut(&mut self, index: usize) -> ::core::option::Option<&mut dyn __lr::Reflect> {
                #[allow(unused_variables)]
                match self { #(#field_mut_arms)* }
            }
            #[inline]
            fn field_count(&self) -> usize {
                #[allow(unused_variables)]
                match self { #(#count_arms)* }
            }
            fn set_variant(&mut self, index: usize) -> bool {
                *self = match index {
                    #(#build_arms)*
                    _ => return false,
                };
                true
            }
        }
    }
}
