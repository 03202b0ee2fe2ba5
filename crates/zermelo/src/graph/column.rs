//! [`Column`]: an array that lives on the heap or in a memory-mapped file.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use bytemuck::Pod;

use crate::io::mapped::Mapping;

/// A read-only array of plain numbers, owned or borrowed from a memory-mapped file (which it
/// keeps alive). Either way it derefs to a slice; the mapped case was checked for alignment and
/// length when the file was opened, so the cast cannot fail later.
pub(crate) enum Column<T: Pod> {
    /// A heap array.
    Owned(Vec<T>),
    /// `len` values starting `offset` bytes into a mapping.
    Mapped {
        /// The mapping, shared by all columns of one file.
        map: Arc<Mapping>,
        /// Byte offset of the first value (a multiple of `align_of::<T>()`).
        offset: usize,
        /// Number of values.
        len: usize,
    },
}

impl<T: Pod> Deref for Column<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            Column::Owned(v) => v,
            Column::Mapped { map, offset, len } => {
                let bytes = &map.bytes()[*offset..*offset + len * std::mem::size_of::<T>()];
                bytemuck::cast_slice(bytes)
            }
        }
    }
}

impl<T: Pod> From<Vec<T>> for Column<T> {
    fn from(v: Vec<T>) -> Self {
        Column::Owned(v)
    }
}

impl<T: Pod> Clone for Column<T> {
    fn clone(&self) -> Self {
        match self {
            Column::Owned(v) => Column::Owned(v.clone()),
            Column::Mapped { map, offset, len } => Column::Mapped {
                map: map.clone(),
                offset: *offset,
                len: *len,
            },
        }
    }
}

impl<T: Pod + PartialEq> PartialEq for Column<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Pod + Eq> Eq for Column<T> {}

impl<T: Pod + fmt::Debug> fmt::Debug for Column<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self {
            Column::Owned(_) => "owned",
            Column::Mapped { .. } => "mapped",
        };
        write!(f, "Column::{kind}(len {})", self.len())
    }
}
