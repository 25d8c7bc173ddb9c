//! Sets of bytes, as error messages show them.

use core::fmt;

/// A set of bytes (what could have continued a match, for example); it
/// displays as readable character ranges.
///
/// ```
/// use abnf_runtime::ByteSet;
///
/// let mut s = ByteSet::from_range(b'a', b'f');
/// s.insert(b'-');
/// assert!(s.contains(b'c') && !s.contains(b'g'));
/// assert_eq!(s.to_string(), "'-', 'a'-'f'");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ByteSet([u64; 4]);

impl ByteSet {
    /// No bytes.
    pub const EMPTY: ByteSet = ByteSet([0; 4]);

    /// The bytes `lo..=hi`.
    pub fn from_range(lo: u8, hi: u8) -> ByteSet {
        let mut s = ByteSet::EMPTY;
        for b in lo..=hi {
            s.insert(b);
        }
        s
    }

    /// Adds `b`.
    pub fn insert(&mut self, b: u8) {
        self.0[usize::from(b >> 6)] |= 1 << (b & 63);
    }

    /// Whether `b` is in the set.
    pub fn contains(&self, b: u8) -> bool {
        self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The bytes in the set, in order.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..=255u8).filter(|&b| self.contains(b))
    }
}

impl fmt::Display for ByteSet {
    /// ASCII bytes as quoted characters and ranges (`'0'-'9'`); bytes from
    /// 0x80 on, which start or continue UTF-8 characters, as "a non-ASCII
    /// character" (or as hex ranges with `{:#}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut b = 0u16;
        let mut any_high = false;
        while b < 256 {
            if !self.contains(b as u8) {
                b += 1;
                continue;
            }
            let start = b;
            while b + 1 < 256 && self.contains((b + 1) as u8) && (b + 1 < 0x80) == (start < 0x80) {
                b += 1;
            }
            if start >= 0x80 && !f.alternate() {
                any_high = true;
                b += 1;
                continue;
            }
            if !core::mem::take(&mut first) {
                f.write_str(", ")?;
            }
            let show = |f: &mut fmt::Formatter<'_>, x: u16| match u8::try_from(x) {
                Ok(x) if x < 0x80 => write!(f, "{:?}", char::from(x)),
                _ => write!(f, "0x{x:02X}"),
            };
            show(f, start)?;
            match b - start {
                0 => {}
                1 => {
                    f.write_str(", ")?;
                    show(f, b)?;
                }
                _ => {
                    f.write_str("-")?;
                    show(f, b)?;
                }
            }
            b += 1;
        }
        if any_high {
            if !first {
                f.write_str(", ")?;
            }
            f.write_str("a non-ASCII character")?;
        }
        Ok(())
    }
}
