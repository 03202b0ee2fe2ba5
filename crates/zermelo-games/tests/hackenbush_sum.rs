//! Issue 44: Hackenbush pictures of many parts with edges of all three colours, split and
//! summed (`Picture::split_value`), against the search of the whole picture, and pictures of
//! 1,000 edges valued at once, their value written as the sum of the parts when the canonical
//! form would not fit on any disk.

use zermelo::graph::generate::SplitMix64;
use zermelo_cgt::Value;
use zermelo_games::blue_red_hackenbush::Picture;

/// A picture built as the audit of issue 44 built them: parts of `part_edges` edges (the last
/// one smaller), each a tree grown from the ground by edges from a random vertex of the part
/// (so a part may fall into several parts meeting at the ground); a part's edges take every
/// colour with probability `mixed`, else only blue and red, or only green.
fn mixed_picture(rng: &mut SplitMix64, edges: u64, part_edges: u64, mixed: f64) -> String {
    let mut out = Vec::new();
    let mut next = 1u64;
    while (out.len() as u64) < edges {
        let k = part_edges.min(edges - out.len() as u64);
        let colours: &[&str] = if (rng.below(1000) as f64) < mixed * 1000.0 {
            &["b", "r", "g"]
        } else if rng.below(2) == 0 {
            &["b", "r"]
        } else {
            &["g"]
        };
        let mut vertices = vec![0];
        for _ in 0..k {
            let p = vertices[rng.below(vertices.len() as u64) as usize];
            let c = colours[rng.below(colours.len() as u64) as usize];
            out.push(format!("{p}-{next}:{c}"));
            vertices.push(next);
            next += 1;
        }
    }
    out.join(",")
}

/// The value, the outcome and both ways of writing the value (the canonical form, the sum of
/// the parts read back by the parser) = the search of the whole picture.
#[test]
fn split_mixed_pictures_equal_the_whole_search() {
    let mut rng = SplitMix64::new(44);
    let mut summed = 0;
    for case in 0..300 {
        let edges = 4 + rng.below(14);
        let part_edges = 2 + rng.below(4);
        let text = mixed_picture(&mut rng, edges, part_edges, 0.8);
        let picture = Picture::parse_edges(&text).unwrap();
        let split = picture.split_value().unwrap();
        let whole = picture.search_value().unwrap();
        assert_eq!(split.to_value().unwrap(), whole, "case {case}: {text}");
        assert_eq!(
            split.outcome().unwrap(),
            whole.outcome(),
            "case {case}: {text}"
        );
        assert_eq!(
            split.notation().unwrap(),
            whole.to_string(),
            "case {case}: {text}"
        );
        let sum = split.as_sum().unwrap().to_string();
        let read = Value::parse_with_work_limit(&sum, None).unwrap();
        assert_eq!(read, whole, "case {case}: {text}: {sum}");
        summed += usize::from(split.terms.len() >= 2);
    }
    assert!(summed > 25, "{summed} pictures of two terms or more");
}

/// Pictures of 1,000 edges in parts of at most 12, 30% of them of all three colours: valued in
/// seconds, not hours; the value is written as the sum of the parts (the canonical form has a
/// few hundred positions but writes out to more than 10^18 characters), which reads back as the
/// canonical form, and the outcome (by the stops) is the canonical form's. Before issue 44 the
/// canonical form was written out: the command ran for hours.
#[test]
fn a_thousand_edges_of_mixed_parts_are_written_as_a_sum() {
    let mut rng = SplitMix64::new(4400);
    for case in 0..4 {
        let text = mixed_picture(&mut rng, 1000, 12, if case == 3 { 1.0 } else { 0.3 });
        let picture = Picture::parse_edges(&text).unwrap();
        let started = std::time::Instant::now();
        let split = picture.split_value().unwrap();
        let (notation, outcome) = (split.notation().unwrap(), split.outcome().unwrap());
        let secs = started.elapsed().as_secs_f64();
        assert!(secs < 30.0, "case {case}: {secs} s");
        assert!(
            notation.len() < 20_000,
            "case {case}: {} chars",
            notation.len()
        );
        let canonical = split.to_value().unwrap();
        assert!(canonical.written_len() > 10_000, "case {case}");
        assert_eq!(outcome, canonical.outcome(), "case {case}");
        let read = Value::parse_with_work_limit(&notation, None).unwrap();
        assert_eq!(read, canonical, "case {case}: {notation}");
    }
}
