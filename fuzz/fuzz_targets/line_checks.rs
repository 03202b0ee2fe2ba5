//! The line-by-line checks of streamed input (`zermelo::io::stream`): never a panic, never
//! stricter than the parser of their format (what a parser accepts passes its check whole, and
//! the bytes kept are the bytes read).
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo_games::police_thief::{Board, BoardLines};
use zermelo::io::stream::{read_checked, GraphLines, LineCheck, NumberLines};
use zermelo::io::{parse_edge_list, parse_solution_csv, parse_two_player, SolutionCsvLines};
use zermelo_parity::io::{parse_paritysol, parse_pgsolver, ParitysolLines, PgsolverLines};
use zermelo::io::{parse_two_player_verdicts, parse_verdicts, VerdictLines};

fn passes(data: &[u8], check: &mut dyn LineCheck) -> bool {
    match read_checked(data, "fuzz", u64::MAX, check) {
        Ok(kept) => {
            assert_eq!(kept, data, "the kept bytes differ");
            true
        }
        Err(_) => false,
    }
}

/// Whether `data` declares a size past what the fuzzer's memory allows a whole parser to build
/// (a header `120001200 0 0` makes the library allocate 120 million nodes; the CLI checks such
/// counts against --max-memory first): then only the line checks run.
fn declares_huge_sizes(data: &[u8]) -> bool {
    data.split(|b| !b.is_ascii_digit())
        .any(|digits| digits.len() > 6 && digits.iter().skip_while(|&&d| d == b'0').count() > 6)
}

fuzz_target!(|data: &[u8]| {
    if declares_huge_sizes(data) {
        for check in [
            &mut NumberLines::edge_list() as &mut dyn LineCheck,
            &mut GraphLines::default(),
            &mut NumberLines::two_player(),
            &mut PgsolverLines::default(),
            &mut BoardLines::default(),
            &mut ParitysolLines::new(3),
            &mut SolutionCsvLines::default(),
            &mut VerdictLines,
        ] {
            passes(data, check);
        }
        return;
    }
    // Every check runs on everything (no panic); text formats never hold a NUL byte.
    let checks: [(bool, &mut dyn LineCheck); 9] = [
        (parse_edge_list(data, "fuzz").is_ok(), &mut NumberLines::edge_list()),
        (parse_edge_list(data, "fuzz").is_ok(), &mut GraphLines::default()),
        (parse_two_player(data, "fuzz").is_ok(), &mut NumberLines::two_player()),
        (parse_pgsolver(data, "fuzz").is_ok(), &mut PgsolverLines::default()),
        (Board::parse(data, "fuzz").is_ok(), &mut BoardLines::default()),
        (parse_paritysol(data, "fuzz", 3).is_ok(), &mut ParitysolLines::new(3)),
        (parse_solution_csv(data, "fuzz", 3).is_ok(), &mut SolutionCsvLines::default()),
        (parse_verdicts(data, "fuzz", 3).is_ok(), &mut VerdictLines),
        (parse_two_player_verdicts(data, "fuzz", 3).is_ok(), &mut VerdictLines),
    ];
    for (parsed, check) in checks {
        let passed = passes(data, check);
        if parsed && !data.contains(&0) {
            assert!(passed, "the parser accepts what the line check refuses");
        }
    }
});
