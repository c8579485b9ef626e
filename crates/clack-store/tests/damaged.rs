//! Damaged records read back as errors, never as a crash: a sealed log whose stored length is
//! huge (a damaged disk, or a bug) is refused before anything is allocated for it.

use clack_store::{EventStore, SledStore, StoreError};

#[test]
fn a_sealed_log_claiming_a_huge_length_is_corrupt_not_an_allocation() {
    let dir = tempfile::tempdir().expect("dir");
    let store = SledStore::open(dir.path()).expect("store");
    // Format byte 1 (zstd), then the varint 2^62 as the decompressed length, then junk.
    let mut value = vec![1u8];
    let mut n: u64 = 1 << 62;
    while n >= 0x80 {
        value.push((n as u8) | 0x80);
        n >>= 7;
    }
    value.push(n as u8);
    value.extend_from_slice(&[0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0]);
    store.raw_log().insert([b"s".as_slice(), b"g1"].concat(), value).expect("insert");
    match store.read("g1", 1) {
        Err(StoreError::Corrupt(message)) => assert!(message.contains("claims"), "{message}"),
        other => panic!("a huge claimed length must be refused: {other:?}"),
    }
}
