//! What the `square` fuzz target checks on one input, shared with the regression test
//! (tests/fuzz_corpus.rs): `FromStr` agrees with magic-gen's independent parser and round
//! trips through `Display`; `TryFrom<u8>` and `TryFrom<usize>` accept exactly 0..64 and
//! round trip.

use magic_bitboards::Square;

pub fn check(data: &[u8]) {
    if let Ok(s) = std::str::from_utf8(data) {
        let parsed = s.parse::<Square>().ok();
        assert_eq!(parsed.map(u8::from), magic_gen::parse_square(s), "{s:?}");
        if let Some(sq) = parsed {
            let name = sq.to_string();
            assert_eq!(name, s.to_ascii_lowercase());
            assert_eq!(name.parse::<Square>(), Ok(sq));
        }
    }
    if let Some(&b) = data.first() {
        match Square::try_from(b) {
            Ok(sq) => {
                assert!(b < 64);
                assert_eq!(u8::from(sq), b);
                assert_eq!(sq.index(), b as usize);
            }
            Err(_) => assert!(b >= 64),
        }
    }
    if let Some(bytes) = data.get(..8) {
        let n = u64::from_le_bytes(bytes.try_into().unwrap()) as usize;
        match Square::try_from(n) {
            Ok(sq) => assert_eq!(usize::from(sq), n),
            Err(_) => assert!(n >= 64),
        }
    }
}
