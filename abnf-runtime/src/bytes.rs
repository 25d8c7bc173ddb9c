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

    /// A set from its four 64-bit words (bit `b % 64` of word `b / 64` is
    /// byte `b`): what generated code writes.
    #[doc(hidden)]
    pub const fn __from_words(words: [u64; 4]) -> ByteSet {
        ByteSet(words)
    }

    /// The four 64-bit words of [`ByteSet::__from_words`].
    #[doc(hidden)]
    pub const fn __words(&self) -> [u64; 4] {
        self.0
    }

    /// How many bytes the set holds.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The set for display with the names of a grammar's classes: each
    /// class (a rule that matches one character, as the set of bytes its
    /// characters start with) that the set holds whole, and that no class
    /// before it in `classes` already showed, is shown by its name; the
    /// rest as [`ByteSet`]'s own display shows it.
    ///
    /// ```
    /// use abnf_runtime::ByteSet;
    ///
    /// let sub_delims = [b'!', b'$', b'&', b'\'', b'(', b')', b'*', b'+', b',', b';', b'=']
    ///     .iter()
    ///     .fold(ByteSet::EMPTY, |s, &b| s.union(&ByteSet::from_range(b, b)));
    /// let expected = sub_delims.union(&ByteSet::from_range(b'a', b'z')).union(&ByteSet::from_range(b'/', b'/'));
    /// let classes = [("sub-delims", sub_delims)];
    /// assert_eq!(expected.named(&classes).to_string(), "sub-delims, a lowercase letter, '/'");
    /// ```
    pub fn named<'a>(&self, classes: &'a [(&'a str, ByteSet)]) -> Named<'a> {
        Named { set: *self, classes }
    }

    /// The bytes `lo..=hi`.
    pub fn from_range(lo: u8, hi: u8) -> ByteSet {
        let mut s = ByteSet::EMPTY;
        for b in lo..=hi {
            s.insert(b);
        }
        s
    }

    /// The bytes whose class (`classes[b]`, below `alphabet`) `live`
    /// holds: what can follow a state of an automaton over byte classes.
    /// Each class is asked once, and the set is built a word at a time,
    /// with no branch per byte (errors of a walk are built with it).
    pub(crate) fn of_classes(classes: &[u8; 256], alphabet: usize, live: impl Fn(usize) -> bool) -> ByteSet {
        let mut yes = [0u8; 256];
        for (c, y) in yes.iter_mut().enumerate().take(alphabet) {
            *y = u8::from(live(c));
        }
        let mut words = [0u64; 4];
        for (w, word) in words.iter_mut().enumerate() {
            for (j, &c) in classes[w * 64..][..64].iter().enumerate() {
                *word |= u64::from(yes[usize::from(c)]) << j;
            }
        }
        ByteSet(words)
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

impl ByteSet {
    /// The set as maximal ranges of bytes `(first, last)`, in order: the
    /// exact set, for machines (`--json`) and tests.
    ///
    /// ```
    /// use abnf_runtime::ByteSet;
    ///
    /// let mut s = ByteSet::from_range(b'0', b'9');
    /// s.insert(b'_');
    /// assert_eq!(s.ranges().collect::<Vec<_>>(), [(b'0', b'9'), (b'_', b'_')]);
    /// ```
    pub fn ranges(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        let mut next = 0u16;
        core::iter::from_fn(move || {
            while next < 256 && !self.contains(next as u8) {
                next += 1;
            }
            if next == 256 {
                return None;
            }
            let first = next as u8;
            while next < 256 && self.contains(next as u8) {
                next += 1;
            }
            Some((first, (next - 1) as u8))
        })
    }

    /// Whether every byte of `other` is in the set.
    fn has_all(&self, other: &ByteSet) -> bool {
        (0..4).all(|i| self.0[i] & other.0[i] == other.0[i])
    }

    /// The bytes of the set that are not in `other`.
    fn without(&self, other: &ByteSet) -> ByteSet {
        ByteSet(core::array::from_fn(|i| self.0[i] & !other.0[i]))
    }
}

/// The kind of an ASCII byte, within which a display may show a range:
/// `'a'-'f'` says what it holds, `'#'-';'` (25 characters of four kinds)
/// does not.
fn kind(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => 1,
        b'A'..=b'Z' => 2,
        b'a'..=b'z' => 3,
        0..=0x1F | 0x7F => 4,
        // Each other character is its own kind: shown one by one.
        _ => 5 + b,
    }
}

impl fmt::Display for ByteSet {
    /// What a person reads: the classes of RFC 5234's core rules by name
    /// (`a letter`: `ALPHA`; `a digit`: `DIGIT`; `a hex digit`: `HEXDIG`,
    /// when the other letters are not all there; `an uppercase letter`,
    /// `a lowercase letter`), then the other ASCII bytes as quoted
    /// characters, ranges only within digits, letters of one case, or
    /// control characters (`'g'-'z'`); bytes from 0x80 on, which start or
    /// continue UTF-8 characters, as `a non-ASCII character`.
    ///
    /// `{:#}` shows the exact ranges instead, bytes from 0x80 on in hex.
    ///
    /// ```
    /// use abnf_runtime::ByteSet;
    ///
    /// let mut s = ByteSet::EMPTY;
    /// // What an IRI path may continue with: `'?'-'Z'` would hide `@`.
    /// let ranges = [(b'!', b'!'), (b'#', b';'), (b'=', b'='), (b'?', b'Z'), (b'_', b'_'), (b'a', b'z'), (b'~', b'~')];
    /// for (lo, hi) in ranges {
    ///     s = s.union(&ByteSet::from_range(lo, hi));
    /// }
    /// assert_eq!(
    ///     s.to_string(),
    ///     "a letter, a digit, '!', '#', '$', '%', '&', '\\'', '(', ')', '*', '+', ',', '-', '.', '/', ':', ';', '=', '?', '@', '_', '~'"
    /// );
    /// assert_eq!(format!("{s:#}"), "'!', '#'-';', '=', '?'-'Z', '_', 'a'-'z', '~'");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return self.fmt_ranges(f);
        }
        let upper = ByteSet::from_range(b'A', b'Z');
        let lower = ByteSet::from_range(b'a', b'z');
        let digits = ByteSet::from_range(b'0', b'9');
        let hex = digits
            .union(&ByteSet::from_range(b'A', b'F'))
            .union(&ByteSet::from_range(b'a', b'f'));
        let letters = upper.union(&lower);
        let mut names = [""; 3];
        let mut n = 0;
        let mut rest = *self;
        let classes = [
            (letters, "a letter"),
            (upper, "an uppercase letter"),
            (lower, "a lowercase letter"),
            (hex, "a hex digit"),
            (digits, "a digit"),
        ];
        for (class, what) in &classes {
            // With letters named, "a digit" says the rest of a hex digit.
            if *what == "a hex digit" && n > 0 {
                continue;
            }
            if rest.has_all(class) {
                rest = rest.without(class);
                names[n] = what;
                n += 1;
            }
        }
        let mut first = true;
        for what in &names[..n] {
            if !core::mem::take(&mut first) {
                f.write_str(", ")?;
            }
            f.write_str(what)?;
        }
        let high = ByteSet::from_range(0x80, 0xFF);
        for (lo, hi) in rest.without(&high).ranges() {
            // Split the range where the kind of character changes.
            let mut start = lo;
            for b in lo..=hi {
                if b == hi || kind(b + 1) != kind(start) {
                    if !core::mem::take(&mut first) {
                        f.write_str(", ")?;
                    }
                    write_run(f, start, b)?;
                    start = b.wrapping_add(1);
                }
            }
        }
        if rest.has_any(&high) {
            if !first {
                f.write_str(", ")?;
            }
            f.write_str("a non-ASCII character")?;
        }
        Ok(())
    }
}

/// A [`ByteSet`] shown with a grammar's class names ([`ByteSet::named`]).
#[derive(Clone, Copy, Debug)]
pub struct Named<'a> {
    set: ByteSet,
    classes: &'a [(&'a str, ByteSet)],
}

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.set;
        let mut first = true;
        for (name, class) in self.classes {
            if !class.is_empty() && rest.has_all(class) {
                rest = rest.without(class);
                if !core::mem::take(&mut first) {
                    f.write_str(", ")?;
                }
                f.write_str(name)?;
            }
        }
        if !rest.is_empty() {
            if !first {
                f.write_str(", ")?;
            }
            write!(f, "{rest}")?;
        }
        Ok(())
    }
}

/// `'a'`, `'a', 'b'` or `'a'-'z'`; bytes from 0x80 on in hex.
fn write_run(f: &mut fmt::Formatter<'_>, lo: u8, hi: u8) -> fmt::Result {
    let show = |f: &mut fmt::Formatter<'_>, x: u8| {
        if x < 0x80 {
            write!(f, "{:?}", char::from(x))
        } else {
            write!(f, "0x{x:02X}")
        }
    };
    show(f, lo)?;
    match hi - lo {
        0 => Ok(()),
        1 => {
            f.write_str(", ")?;
            show(f, hi)
        }
        _ => {
            f.write_str("-")?;
            show(f, hi)
        }
    }
}

impl ByteSet {
    /// The bytes in either set.
    pub fn union(&self, other: &ByteSet) -> ByteSet {
        ByteSet(core::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// The bytes in this set and not in `other`.
    pub fn difference(&self, other: &ByteSet) -> ByteSet {
        ByteSet(core::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// Whether the sets share a byte.
    fn has_any(&self, other: &ByteSet) -> bool {
        (0..4).any(|i| self.0[i] & other.0[i] != 0)
    }

    /// The exact ranges, ASCII ranges split where ASCII ends (`{:#}`).
    fn fmt_ranges(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (lo, hi) in self.ranges() {
            let split = if lo < 0x80 && hi >= 0x80 {
                [(lo, 0x7F), (0x80, hi)]
            } else {
                [(lo, hi), (1, 0)]
            };
            for (lo, hi) in split.into_iter().filter(|(lo, hi)| lo <= hi) {
                if !core::mem::take(&mut first) {
                    f.write_str(", ")?;
                }
                write_run(f, lo, hi)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use super::ByteSet;

    fn set(ranges: &[(u8, u8)]) -> ByteSet {
        ranges.iter().fold(ByteSet::EMPTY, |s, &(lo, hi)| {
            s.union(&ByteSet::from_range(lo, hi))
        })
    }

    #[test]
    fn core_classes_are_named() {
        assert_eq!(set(&[(b'0', b'9')]).to_string(), "a digit");
        assert_eq!(
            set(&[(b'0', b'9'), (b'A', b'F'), (b'a', b'f')]).to_string(),
            "a hex digit"
        );
        assert_eq!(
            set(&[(b'0', b'9'), (b'A', b'Z'), (b'a', b'f')]).to_string(),
            "an uppercase letter, a digit, 'a'-'f'"
        );
        assert_eq!(
            set(&[(b'A', b'Z'), (b'a', b'z'), (b'-', b'-')]).to_string(),
            "a letter, '-'"
        );
        assert_eq!(
            set(&[(b'a', b'z'), (0x80, 0xFF)]).to_string(),
            "a lowercase letter, a non-ASCII character"
        );
    }

    #[test]
    fn ranges_stay_within_one_kind() {
        assert_eq!(set(&[(b'T', b'T'), (b't', b't')]).to_string(), "'T', 't'");
        assert_eq!(
            set(&[(b'+', b'+'), (b'-', b'.'), (b'Z', b'Z'), (b'z', b'z')]).to_string(),
            "'+', '-', '.', 'Z', 'z'"
        );
        assert_eq!(
            set(&[(b'^', b'z')]).to_string(),
            "a lowercase letter, '^', '_', '`'"
        );
        assert_eq!(
            set(&[(b'8', b'A')]).to_string(),
            "'8', '9', ':', ';', '<', '=', '>', '?', '@', 'A'"
        );
        assert_eq!(
            set(&[(0, 0x1F), (b' ', b' ')]).to_string(),
            "'\\0'-'\\u{1f}', ' '"
        );
        assert_eq!(ByteSet::EMPTY.to_string(), "");
    }

    #[test]
    fn alternate_shows_the_exact_ranges() {
        let s = set(&[(b'^', b'z'), (0x70, 0x85)]);
        assert_eq!(format!("{s:#}"), "'^'-'\\u{7f}', 0x80-0x85");
        assert_eq!(s.ranges().collect::<Vec<_>>(), [(b'^', 0x85)]);
    }

    #[test]
    fn difference_keeps_what_the_other_lacks() {
        let s = set(&[(b'0', b'9'), (b'A', b'F')]).difference(&set(&[(b'5', b'C')]));
        assert_eq!(s.ranges().collect::<Vec<_>>(), [(b'0', b'4'), (b'D', b'F')]);
        assert!(s.difference(&s).is_empty());
    }
}
