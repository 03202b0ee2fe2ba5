//! The JSON graph format:
//! `{"nodes": N, "edges": [[u, v], ...], "misere": false, "verdicts": [[node, "draw"], ...]}`.

use serde::Deserialize;

use super::{graph_error, ErrorKind, ParseError};
use crate::graph::{Convention, Csr, GraphBuilder, Rules};
use crate::outcome::Outcome;

/// A game read from JSON: the graph and its terminal rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonGame {
    /// The graph.
    pub graph: Csr,
    /// Convention and explicit verdicts given in the document.
    pub rules: Rules,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    nodes: u64,
    edges: Vec<(u64, u64)>,
    #[serde(default)]
    misere: bool,
    #[serde(default)]
    verdicts: Vec<(u64, String)>,
}

/// Parses a JSON game. `misere` and `verdicts` are optional; unknown keys are rejected so that a
/// misspelt option is not silently ignored.
///
/// ```
/// let text = br#"{"nodes": 2, "edges": [[0, 1]], "verdicts": [[1, "draw"]]}"#;
/// let game = zermelo::io::parse_json_graph(text, "g.json").unwrap();
/// assert_eq!(game.graph.edge_count(), 1);
/// assert_eq!(game.rules.verdicts().len(), 1);
/// ```
///
/// # Errors
/// A [`ParseError`]: malformed JSON (with line and column), a missing key, an id out of range,
/// an unknown outcome or conflicting verdicts.
pub fn parse_json_graph(bytes: &[u8], source: &str) -> Result<JsonGame, ParseError> {
    let doc: Document = serde_json::from_slice(bytes).map_err(|e| syntax_error(source, &e))?;
    let mut b = GraphBuilder::new(doc.nodes)
        .map_err(|e| graph_error(ParseError::whole(source, e.to_string()), &e))?;
    b.reserve(doc.edges.len());
    for (i, &(u, v)) in doc.edges.iter().enumerate() {
        b.add_edge(u, v).map_err(|e| {
            ParseError::whole(source, format!("edges[{i}] = [{u}, {v}]: {e}"))
                .with_kind(ErrorKind::OutOfRange)
        })?;
    }
    let graph = b
        .build()
        .map_err(|e| graph_error(ParseError::whole(source, e.to_string()), &e))?;
    let mut verdicts = Vec::with_capacity(doc.verdicts.len());
    for (i, (node, text)) in doc.verdicts.iter().enumerate() {
        let outcome: Outcome = text
            .parse()
            .map_err(|e| ParseError::whole(source, format!("verdicts[{i}]: {e}")))?;
        verdicts.push((*node, outcome));
    }
    let convention = if doc.misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    let rules = Rules::with_convention(convention)
        .with_verdicts(graph.node_count(), verdicts)
        .map_err(|e| {
            ParseError::whole(source, format!("verdicts: {e}")).with_kind(ErrorKind::OutOfRange)
        })?;
    Ok(JsonGame { graph, rules })
}

/// The node count and the number of edges a JSON graph declares, read without storing the edges
/// (`None` if the document is malformed; the parser then says how).
pub(crate) fn declared_size(bytes: &[u8]) -> Option<(u64, u64)> {
    #[derive(Deserialize)]
    struct Declared {
        nodes: u64,
        edges: Count,
    }
    let d: Declared = serde_json::from_slice(bytes).ok()?;
    Some((d.nodes, d.edges.0))
}

/// The length of a JSON array, counted without storing its elements.
struct Count(u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        struct Counter;
        impl<'de> serde::de::Visitor<'de> for Counter {
            type Value = Count;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Count, A::Error> {
                let mut n = 0;
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Count(n))
            }
        }
        d.deserialize_seq(Counter)
    }
}

/// Turns a serde_json error into a [`ParseError`] with its line, and its column in the message.
pub(crate) fn syntax_error(source: &str, e: &serde_json::Error) -> ParseError {
    let text = e.to_string();
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(m, _)| m);
    if e.line() == 0 {
        return ParseError::whole(source, format!("invalid JSON: {message}"));
    }
    ParseError::at(
        source,
        e.line() as u64,
        format!("invalid JSON: {message} (column {})", e.column()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_json_graph(text.as_bytes(), "g.json")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn reads_options() {
        let g =
            parse_json_graph(br#"{"nodes":3,"edges":[[0,1],[1,2]],"misere":true}"#, "g").unwrap();
        assert_eq!(g.rules.convention(), Convention::Misere);
        assert_eq!(g.graph.edge_count(), 2);
    }

    #[test]
    fn errors_are_clear() {
        assert_eq!(
            err(""),
            "g.json:1: invalid JSON: EOF while parsing a value (column 0)"
        );
        assert!(err("{\"nodes\": 2}").contains("missing field `edges`"));
        assert!(err("{\"nodes\": 2, \"edges\": [], \"mesere\": true}")
            .contains("unknown field `mesere`"));
        assert_eq!(
            err(r#"{"nodes": 2, "edges": [[0, 1], [1, 2]]}"#),
            "g.json: edges[1] = [1, 2]: node 2 is out of range: the graph has 2 nodes (ids 0..2)"
        );
        assert!(
            err(r#"{"nodes": 2, "edges": [], "verdicts": [[0, "tie"]]}"#)
                .starts_with("g.json: verdicts[0]: expected win, lose or draw")
        );
        assert!(err("{\"nodes\": -1, \"edges\": []}").starts_with("g.json:1: invalid JSON"));
    }
}
