//! The public contract of Clack as Rust types, generated at build time from `proto/clack/v1`.
//!
//! Everything here is generated: messages (prost), service clients and servers (tonic), and
//! serde implementations that follow the proto3 JSON mapping (pbjson), which is the format of
//! exported logs. This crate knows nothing of the rules or the server; conversions between these
//! messages and the rules' types live in `clack-log`.

#![allow(missing_debug_implementations, unreachable_pub, clippy::all)]

/// Version 1 of the API (`package clack.v1`).
pub mod v1 {
    tonic::include_proto!("clack.v1");
    include!(concat!(env!("OUT_DIR"), "/clack.v1.serde.rs"));
}

/// The encoded `FileDescriptorSet` of every Clack proto file, for gRPC server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/clack_descriptor.bin"));
