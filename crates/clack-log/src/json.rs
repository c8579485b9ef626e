//! The JSON lines export: one event per line, in the proto3 JSON mapping of `clack.v1.Event`
//! (camelCase names, 64-bit integers as strings, enums by name, unset fields left out). Any
//! protobuf library can read it back into `Event`; `docs/export-format.md` describes it.

use clack_proto::v1 as pb;

/// One event as one line of JSON, without the newline.
pub fn to_line(event: &pb::Event) -> String {
    serde_json::to_string(event).unwrap_or_else(|e| unreachable!("an Event always serialises: {e}"))
}

/// Reads one line back.
pub fn from_line(line: &str) -> Result<pb::Event, serde_json::Error> {
    serde_json::from_str(line)
}
