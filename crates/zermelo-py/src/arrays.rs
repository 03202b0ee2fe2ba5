//! numpy in and out: integer arrays and sequences read as edges, ids and verdicts (wrong types
//! and shapes are `TypeError` / `ValueError`), and the library's own columns handed to Python
//! as read-only views without copying.
//!
//! This is the crate's one module with `unsafe` code: a numpy array that views memory owned by
//! a frozen Rust object (`PyArray::borrow_from_array`), and the reinterpretation of the
//! library's `Outcome` column (`#[repr(u8)]`) as `i8`.

#![allow(unsafe_code)]

use numpy::ndarray::ArrayView1;
use numpy::{PyArray1, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use zermelo::Outcome;

/// Integer rows of `width` columns (`width = 0`: a 1-D array), from a numpy array of any
/// integer dtype or anything `numpy.asarray` turns into one. Values are widened to `i64`
/// only when the dtype is not `int64`/`int32`/`uint32`; the common cases are read in place.
pub enum Ints<'py> {
    /// A C-contiguous array read in place.
    I64(numpy::PyReadonlyArrayDyn<'py, i64>),
    /// 32-bit ids read in place.
    I32(numpy::PyReadonlyArrayDyn<'py, i32>),
    /// Unsigned 32-bit ids read in place.
    U32(numpy::PyReadonlyArrayDyn<'py, u32>),
    /// Unsigned 64-bit ids read in place.
    U64(numpy::PyReadonlyArrayDyn<'py, u64>),
}

impl Ints<'_> {
    /// The values, row-major.
    pub fn values(&self) -> Values<'_> {
        const CONTIGUOUS: &str = "made C-contiguous by `ints`";
        match self {
            Ints::I64(a) => Values::I64(a.as_slice().expect(CONTIGUOUS)),
            Ints::I32(a) => Values::I32(a.as_slice().expect(CONTIGUOUS)),
            Ints::U32(a) => Values::U32(a.as_slice().expect(CONTIGUOUS)),
            Ints::U64(a) => Values::U64(a.as_slice().expect(CONTIGUOUS)),
        }
    }
}

/// A borrowed integer column.
#[derive(Clone, Copy)]
pub enum Values<'a> {
    /// `int64`.
    I64(&'a [i64]),
    /// `int32`.
    I32(&'a [i32]),
    /// `uint32`.
    U32(&'a [u32]),
    /// `uint64`.
    U64(&'a [u64]),
}

impl<'a> Values<'a> {
    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Values::I64(s) => s.len(),
            Values::I32(s) => s.len(),
            Values::U32(s) => s.len(),
            Values::U64(s) => s.len(),
        }
    }

    /// Value `i` as an `i128` (every dtype fits; negatives stay negative).
    #[inline]
    pub fn get(&self, i: usize) -> i128 {
        match self {
            Values::I64(s) => i128::from(s[i]),
            Values::I32(s) => i128::from(s[i]),
            Values::U32(s) => i128::from(s[i]),
            Values::U64(s) => i128::from(s[i]),
        }
    }

    /// The values as node ids (`< 2^32`), or the index and value of the first that is not.
    pub fn ids(self) -> Result<NodeIds<'a>, (usize, i128)> {
        fn check<T: Copy + Into<i128>>(s: &[T]) -> Result<(), (usize, i128)> {
            match s
                .iter()
                .position(|&v| !(0..=i128::from(u32::MAX)).contains(&v.into()))
            {
                Some(i) => Err((i, s[i].into())),
                None => Ok(()),
            }
        }
        match self {
            Values::U32(s) => Ok(NodeIds::U32(s)),
            Values::I32(s) => check(s).map(|()| NodeIds::I32(s)),
            Values::I64(s) => check(s).map(|()| NodeIds::I64(s)),
            Values::U64(s) => check(s).map(|()| NodeIds::U64(s)),
        }
    }
}

/// Values known to be node ids in `0..2^32`.
#[derive(Clone, Copy)]
pub enum NodeIds<'a> {
    /// `uint32`.
    U32(&'a [u32]),
    /// `int32`, checked non-negative.
    I32(&'a [i32]),
    /// `int64`, checked in range.
    I64(&'a [i64]),
    /// `uint64`, checked in range.
    U64(&'a [u64]),
}

impl NodeIds<'_> {
    /// True when there are no ids.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        match self {
            NodeIds::U32(s) => s.len(),
            NodeIds::I32(s) => s.len(),
            NodeIds::I64(s) => s.len(),
            NodeIds::U64(s) => s.len(),
        }
    }

    /// Id `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u64 {
        match self {
            NodeIds::U32(s) => u64::from(s[i]),
            NodeIds::I32(s) => s[i] as u64,
            NodeIds::I64(s) => s[i] as u64,
            NodeIds::U64(s) => s[i],
        }
    }

    /// The largest id, `None` when empty.
    pub fn max(&self) -> Option<u64> {
        match self {
            NodeIds::U32(s) => s.iter().max().map(|&v| u64::from(v)),
            NodeIds::I32(s) => s.iter().max().map(|&v| v as u64),
            NodeIds::I64(s) => s.iter().max().map(|&v| v as u64),
            NodeIds::U64(s) => s.iter().max().copied(),
        }
    }
}

/// Reads `obj` as integers of shape `(k, width)` (`width = None`: shape `(k,)`). `what` names
/// the argument in messages.
///
/// # Errors
/// `TypeError` for a non-integer dtype (floats, booleans, objects), `ValueError` for another
/// shape.
pub fn ints<'py>(obj: &Bound<'py, PyAny>, width: Option<usize>, what: &str) -> PyResult<Ints<'py>> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let array = if obj.cast::<PyUntypedArray>().is_ok() {
        obj.clone()
    } else {
        let a = np.call_method1("asarray", (obj,)).map_err(|e| {
            PyTypeError::new_err(format!(
                "{what} must be an integer array or a sequence: {e}"
            ))
        })?;
        // An empty sequence becomes a float array of shape (0,): read it as no rows.
        let untyped = a.cast::<PyUntypedArray>()?;
        if untyped.len() == 0 {
            let shape: Vec<usize> = match width {
                Some(w) => vec![0, w],
                None => vec![0],
            };
            np.call_method1("zeros", (shape, "int64"))?
        } else {
            a
        }
    };
    let untyped = array.cast::<PyUntypedArray>()?;
    let dtype = untyped.dtype();
    let kind = dtype.kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "{what} must hold integers, got dtype {}",
            dtype.str()?
        )));
    }
    let shape = untyped.shape();
    let ok = match width {
        Some(w) => shape.len() == 2 && shape[1] == w,
        None => shape.len() == 1,
    };
    if !ok {
        let expected = match width {
            Some(w) => format!("(k, {w})"),
            None => "(k,)".to_string(),
        };
        return Err(PyValueError::new_err(format!(
            "{what} must have shape {expected}, got {shape:?}"
        )));
    }
    let contiguous = untyped.is_c_contiguous() && dtype.is_native_byteorder() != Some(false);
    let size = dtype.itemsize();
    let exact = |name: &str| -> PyResult<Bound<'py, PyAny>> {
        if contiguous {
            Ok(array.clone())
        } else {
            np.call_method1("ascontiguousarray", (&array, name))
        }
    };
    Ok(match (kind, size) {
        (b'i', 8) => Ints::I64(exact("int64")?.extract()?),
        (b'i', 4) => Ints::I32(exact("int32")?.extract()?),
        (b'u', 4) => Ints::U32(exact("uint32")?.extract()?),
        (b'u', 8) => Ints::U64(exact("uint64")?.extract()?),
        _ => Ints::I64(
            np.call_method1("ascontiguousarray", (&array, "int64"))?
                .extract()?,
        ),
    })
}

/// Node ids from `obj` (shape `(k, width)` or `(k,)`); `ValueError` names the first negative
/// or too large id.
pub fn check_ids<'a>(values: &Values<'a>, what: &str) -> PyResult<NodeIds<'a>> {
    values.ids().map_err(|(i, v)| {
        PyValueError::new_err(format!(
            "{what}: entry {i} is {v}, not a node id (0 <= id < 2^32)"
        ))
    })
}

/// An outcome given as a code (`WIN = 0`, `LOSE = 1`, `DRAW = 2`) or a name (`"win"`, ...).
pub fn outcome(obj: &Bound<'_, PyAny>) -> PyResult<Outcome> {
    if let Ok(code) = obj.extract::<i64>() {
        return outcome_code(code).ok_or_else(|| {
            PyValueError::new_err(format!(
                "outcome code {code}: expected WIN (0), LOSE (1) or DRAW (2)"
            ))
        });
    }
    if let Ok(name) = obj.extract::<String>() {
        return name
            .parse()
            .map_err(|e: zermelo::ParseOutcomeError| PyValueError::new_err(e.to_string()));
    }
    Err(PyTypeError::new_err(format!(
        "an outcome is WIN, LOSE, DRAW or 'win', 'lose', 'draw', not {}",
        obj.get_type().name()?
    )))
}

/// The outcome with this code.
pub fn outcome_code(code: i64) -> Option<Outcome> {
    Outcome::ALL.into_iter().find(|&o| o as i64 == code)
}

/// Verdicts: a mapping `{node: outcome}`, pairs `(node, outcome)` or an `(k, 2)` integer array.
pub fn verdicts(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(u64, Outcome)>> {
    let pairs = if obj.cast::<PyUntypedArray>().is_ok() {
        let rows = ints(obj, Some(2), "verdicts")?;
        let v = rows.values();
        return (0..v.len() / 2)
            .map(|i| {
                let node = u64::try_from(v.get(2 * i)).map_err(|_| {
                    PyValueError::new_err(format!(
                        "verdict for node {}: not a node id",
                        v.get(2 * i)
                    ))
                })?;
                let code = i64::try_from(v.get(2 * i + 1)).unwrap_or(-1);
                let o = outcome_code(code).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "outcome code {code}: expected WIN (0), LOSE (1) or DRAW (2)"
                    ))
                })?;
                Ok((node, o))
            })
            .collect();
    } else {
        match obj.call_method0("items") {
            Ok(items) => items,
            Err(_) => obj.clone(),
        }
    };
    let mut out = Vec::new();
    for item in pairs.try_iter().map_err(|_| {
        PyTypeError::new_err("verdicts must be a mapping {node: outcome} or (node, outcome) pairs")
    })? {
        let item = item?;
        let (node, o): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "a verdict is a (node, outcome) pair, got {}",
                item.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        })?;
        let node: i128 = node
            .extract()
            .map_err(|_| PyTypeError::new_err("a verdict's node must be an integer"))?;
        let node = u64::try_from(node).map_err(|_| {
            PyValueError::new_err(format!("verdict for node {node}: not a node id"))
        })?;
        out.push((node, outcome(&o)?));
    }
    Ok(out)
}

/// A frozen Rust object's column, as a read-only numpy array that keeps `owner` alive.
///
/// # Safety
/// `data` must live in `owner` and never change or move while `owner` lives (true of the
/// columns of a frozen `#[pyclass]` that are never mutated after construction).
unsafe fn view<'py, T: numpy::Element>(
    data: &[T],
    owner: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<T>>> {
    let view = ArrayView1::from(data);
    // SAFETY: the caller promises that `data` lives, unchanged, as long as `owner`; the array
    // holds a reference to `owner`.
    let array = unsafe { PyArray1::borrow_from_array(&view, owner) };
    array.getattr("flags")?.setattr("writeable", false)?;
    Ok(array)
}

/// The outcome column as `int8` codes, sharing memory with `owner`.
pub fn outcome_view<'py>(
    outcomes: &[Outcome],
    owner: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    // SAFETY: `Outcome` is `#[repr(u8)]` with discriminants 0, 1, 2, all valid `i8` values of
    // the same size and alignment, so the slice may be read as `i8`.
    let codes =
        unsafe { std::slice::from_raw_parts(outcomes.as_ptr().cast::<i8>(), outcomes.len()) };
    // SAFETY: the owner is the frozen object holding `outcomes` (see callers).
    unsafe { view(codes, owner) }
}

/// A `u32` column (`u32::MAX` = none) as `int32` with -1 for none, sharing memory with
/// `owner`; `None` when a value does not fit an `int32` (the caller copies to `int64`).
pub fn depth_view<'py>(
    depths: &[u32],
    owner: Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyArray1<i32>>>> {
    if depths.iter().any(|&d| d != u32::MAX && d > i32::MAX as u32) {
        return Ok(None);
    }
    // SAFETY: `u32` and `i32` have the same size and alignment and every bit pattern is valid;
    // `u32::MAX` reads as -1.
    let signed = unsafe { std::slice::from_raw_parts(depths.as_ptr().cast::<i32>(), depths.len()) };
    // SAFETY: as in `outcome_view`.
    unsafe { view(signed, owner).map(Some) }
}

/// An `i64` column of a frozen object, sharing memory with `owner`.
pub fn i64_view<'py>(
    data: &[i64],
    owner: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    // SAFETY: as in `outcome_view`.
    unsafe { view(data, owner) }
}
