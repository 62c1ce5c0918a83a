//! CPU-side images that sprites draw; the renderer uploads each one once, on first use.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Errors when making a [`Texture`].
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextureError {
    /// Width or height is zero or larger than the limit.
    #[error("texture size {width}x{height} is invalid (each side must be 1..={max})")]
    BadSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// The largest side accepted.
        max: u32,
    },
    /// The pixel buffer does not hold `width * height * 4` bytes.
    #[error("texture data has {got} bytes, expected {expected} (width * height * 4 RGBA bytes)")]
    BadLength {
        /// Bytes given.
        got: usize,
        /// Bytes needed.
        expected: usize,
    },
}

/// An immutable RGBA8 (sRGB, straight alpha) image, cheap to clone, identified by a unique id.
///
/// Rows run top to bottom (image space is y-down); a sprite maps the top row to the top of
/// its rectangle in the y-up world.
#[derive(Clone, Debug)]
pub struct Texture(Arc<TextureData>);

#[derive(Debug)]
struct TextureData {
    id: u64,
    width: u32,
    height: u32,
    rgba: Vec<u8>,
    smooth: bool,
}

/// The largest side of a texture the renderer accepts (wgpu's guaranteed minimum limit).
pub const MAX_TEXTURE_SIDE: u32 = 8192;

impl Texture {
    /// Makes a texture from `width * height` RGBA bytes, sampled with nearest-neighbour
    /// filtering (pixel art stays crisp).
    ///
    /// # Errors
    /// [`TextureError`] when a side is 0 or above [`MAX_TEXTURE_SIDE`], or the buffer length
    /// is not `width * height * 4`.
    pub fn from_rgba(width: u32, height: u32, rgba: Vec<u8>) -> Result<Self, TextureError> {
        if width == 0 || height == 0 || width > MAX_TEXTURE_SIDE || height > MAX_TEXTURE_SIDE {
            return Err(TextureError::BadSize { width, height, max: MAX_TEXTURE_SIDE });
        }
        let expected = width as usize * height as usize * 4;
        if rgba.len() != expected {
            return Err(TextureError::BadLength { got: rgba.len(), expected });
        }
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Ok(Self(Arc::new(TextureData {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            width,
            height,
            rgba,
            smooth: false,
        })))
    }

    /// The same pixels, sampled with linear filtering instead (a new id).
    ///
    /// # Errors
    /// Never in practice: the pixels were already validated.
    pub fn smoothed(&self) -> Result<Self, TextureError> {
        let t = Self::from_rgba(self.width(), self.height(), self.0.rgba.clone())?;
        let mut data = Arc::into_inner(t.0).expect("fresh Arc has one owner");
        data.smooth = true;
        Ok(Self(Arc::new(data)))
    }

    /// A unique id: two textures made separately never share one, clones do.
    #[must_use]
    pub fn id(&self) -> u64 {
        self.0.id
    }

    /// Width in pixels.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.0.width
    }

    /// Height in pixels.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.0.height
    }

    /// The RGBA bytes, rows top to bottom.
    #[must_use]
    pub fn rgba(&self) -> &[u8] {
        &self.0.rgba
    }

    /// Whether the sampler filters linearly.
    #[must_use]
    pub fn is_smooth(&self) -> bool {
        self.0.smooth
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_input() {
        assert!(matches!(Texture::from_rgba(0, 4, vec![]), Err(TextureError::BadSize { .. })));
        assert_eq!(
            Texture::from_rgba(2, 2, vec![0; 15]).unwrap_err(),
            TextureError::BadLength { got: 15, expected: 16 }
        );
    }

    #[test]
    fn ids_are_unique_and_shared_by_clones() {
        let a = Texture::from_rgba(1, 1, vec![0; 4]).unwrap();
        let b = Texture::from_rgba(1, 1, vec![0; 4]).unwrap();
        assert_ne!(a.id(), b.id());
        assert_eq!(a.clone().id(), a.id());
        let s = a.smoothed().unwrap();
        assert!(s.is_smooth() && s.id() != a.id());
    }
}
