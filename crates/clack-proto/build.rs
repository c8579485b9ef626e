//! Compiles `proto/clack/v1` with protox (pure Rust, no system `protoc`), then generates prost
//! messages, tonic services, proto3-JSON serde impls (pbjson) and the encoded descriptor set
//! that server reflection serves.

use std::path::PathBuf;

use prost::Message;

const FILES: [&str; 6] = [
    "clack/v1/types.proto",
    "clack/v1/events.proto",
    "clack/v1/game_service.proto",
    "clack/v1/replay_service.proto",
    "clack/v1/bot_service.proto",
    "clack/v1/admin_service.proto",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Read at run time, not with `env!`: a build script compiled in one checkout and reused from
    // a copied target directory would otherwise keep reading that checkout's protos.
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("../../proto");
    println!("cargo:rerun-if-changed={}", root.display());
    let files: Vec<PathBuf> = FILES.iter().map(|f| root.join(f)).collect();
    let descriptors = protox::compile(&files, [&root])?;
    let encoded = descriptors.encode_to_vec();
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out.join("clack_descriptor.bin"), &encoded)?;
    tonic_prost_build::configure().compile_fds(descriptors)?;
    // Zero values are written out too: a reader of the export never has to know that a missing
    // number means 0.
    pbjson_build::Builder::new().register_descriptors(&encoded)?.emit_fields().build(&[".clack.v1"])?;
    Ok(())
}
