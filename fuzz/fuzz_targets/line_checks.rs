//! The line-by-line checks of streamed input (`zermelo::io::stream`): never a panic, never
//! stricter than the parser of their format (what a parser accepts passes its check whole, and
//! the bytes kept are the bytes read).
#![no_main]

use libfuzzer_sys::fuzz_target;
use zermelo::games::police_thief::{Board, BoardLines};
use zermelo::io::stream::{read_checked, GraphLines, LineCheck, NumberLines};
use zermelo::io::{
    parse_edge_list, parse_paritysol, parse_pgsolver, parse_solution_csv, parse_two_player,
    ParitysolLines, PgsolverLines, SolutionCsvLines,
};
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

fuzz_target!(|data: &[u8]| {
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
