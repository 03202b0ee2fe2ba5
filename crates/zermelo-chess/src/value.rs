//! [`Value`]: the core's WIN / LOSE / DRAW for the side to move with the depth to mate in
//! plies, and its one-byte table encoding.

pub use zermelo::Value;

/// Filler byte for an index that holds no position (illegal or non-canonical). It is also the
/// byte of `Lose(254)`: legality is the [`Indexer`](crate::Indexer)'s to say, so a reader
/// checks it only for this byte, which real positions almost never hold.
pub(crate) const ILLEGAL: u8 = 255;
/// The largest depth one entry byte holds: KPPvKP's longest mate is exactly 254 plies.
pub(crate) const MAX_PLIES: u32 = 254;

/// The entry byte: 0 draw, `plies + 1` otherwise (the parity gives the outcome: wins have odd
/// depths, losses even ones); `None` past [`MAX_PLIES`].
pub(crate) fn encode(v: Value) -> Option<u8> {
    match v {
        Value::Draw => Some(0),
        Value::Win(d) | Value::Lose(d) => (d <= MAX_PLIES).then(|| d as u8 + 1),
    }
}

/// The value of an entry byte, assuming its index holds a position (see [`ILLEGAL`]).
pub(crate) fn decode(byte: u8) -> Value {
    match byte {
        0 => Value::Draw,
        b => {
            let d = u32::from(b - 1);
            if d % 2 == 1 {
                Value::Win(d)
            } else {
                Value::Lose(d)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips_and_orders() {
        for v in [
            Value::Draw,
            Value::Lose(0),
            Value::Win(1),
            Value::Win(253),
            Value::Lose(252),
            Value::Lose(254),
        ] {
            assert_eq!(decode(encode(v).unwrap()), v);
        }
        assert_eq!(encode(Value::Lose(254)), Some(ILLEGAL));
        assert_eq!(encode(Value::Win(255)), None);
        assert!(Value::Win(1) > Value::Win(3));
        assert!(Value::Win(99) > Value::Draw);
        assert!(Value::Draw > Value::Lose(40));
        assert!(Value::Lose(40) > Value::Lose(2));
        assert_eq!(Value::Win(19).moves(), Some(10));
    }
}
