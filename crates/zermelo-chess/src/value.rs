//! [`Value`]: the core's WIN / LOSE / DRAW for the side to move with the depth to mate in
//! plies, and its one-byte table encoding.

pub use zermelo::Value;

/// Entry byte of an illegal or non-canonical index.
pub(crate) const ILLEGAL: u8 = 255;
/// The largest depth one entry byte holds.
pub(crate) const MAX_PLIES: u32 = 253;

/// The entry byte: 0 draw, `plies + 1` otherwise (the parity gives the outcome: wins have odd
/// depths, losses even ones).
pub(crate) fn encode(v: Value) -> Option<u8> {
    match v {
        Value::Draw => Some(0),
        Value::Win(d) | Value::Lose(d) => (d <= MAX_PLIES).then(|| d as u8 + 1),
    }
}

/// The value of an entry byte (`None` for an illegal index).
pub(crate) fn decode(byte: u8) -> Option<Value> {
    match byte {
        ILLEGAL => None,
        0 => Some(Value::Draw),
        b => {
            let d = u32::from(b - 1);
            Some(if d % 2 == 1 {
                Value::Win(d)
            } else {
                Value::Lose(d)
            })
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
        ] {
            assert_eq!(decode(encode(v).unwrap()), Some(v));
        }
        assert_eq!(encode(Value::Win(254)), None);
        assert!(Value::Win(1) > Value::Win(3));
        assert!(Value::Win(99) > Value::Draw);
        assert!(Value::Draw > Value::Lose(40));
        assert!(Value::Lose(40) > Value::Lose(2));
        assert_eq!(Value::Win(19).moves(), Some(10));
    }
}
