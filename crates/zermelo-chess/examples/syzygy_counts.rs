//! A DTZ table's five classes per side to move counted as Syzygy's statistics count them
//! (identical pieces told apart: `zermelo_chess::counts_as_syzygy`), to compare with
//! syzygy-tables.info's `regular-stats.txt`.
//!
//! `cargo run --release -p zermelo-chess --example syzygy_counts -- DIR MATERIAL` prints one JSON
//! object: `{"material", "white": [win, cursed win, draw, blessed loss, loss], "black": [...]}`.

use std::process::ExitCode;

use zermelo_chess::{counts_as_syzygy, Material, Tablebase};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, material] = &args[..] else {
        eprintln!("usage: syzygy_counts DIR MATERIAL");
        return ExitCode::from(2);
    };
    let material = match Material::parse_table(material) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let tb = Tablebase::open(std::path::Path::new(dir));
    match counts_as_syzygy(&tb, &material) {
        Ok(counts) => {
            // Worst first in the library (loss .. win); Syzygy lists wins first.
            let side = |c: [u64; 5]| {
                let v: Vec<String> = c.iter().rev().map(u64::to_string).collect();
                format!("[{}]", v.join(", "))
            };
            println!(
                "{{\"material\": \"{material}\", \"white\": {}, \"black\": {}}}",
                side(counts[0]),
                side(counts[1])
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
